package tui

import (
	"slices"
	"testing"
)

// TestPaneKeys: the focused timeline or feed takes its scrolling keys, and every
// other key goes on to the dashboard's global keys.
func TestPaneKeys(t *testing.T) {
	f := scenario(12, "bully", "election")
	m := sized(f, 160, 48)
	press := func(ks ...string) {
		for _, k := range ks {
			m.Update(keyMsg(k))
		}
	}
	press("tab") // the timeline
	if m.focus != paneTimeline {
		t.Fatalf("focus %v after tab, want the timeline", m.focus)
	}
	press("k", "k")
	if m.timeline.scroll.anchor == 0 {
		t.Fatal("k did not scroll the focused timeline back")
	}
	at := m.timeline.scroll.anchor
	press("pgup")
	if m.timeline.scroll.anchor >= at {
		t.Fatalf("pgup left the timeline at %d (was %d)", m.timeline.scroll.anchor, at)
	}
	press("j")
	if m.traffic.scroll.anchor != 0 {
		t.Fatal("the timeline's keys scrolled the feed")
	}
	press("end")
	if m.timeline.scroll.anchor != 0 {
		t.Fatal("end did not follow time again")
	}
	// a global key reaches the dashboard through the focused pane
	press("3", "c")
	if !slices.Contains(f.Calls(), "crash n3") {
		t.Fatalf("c with the timeline focused: calls %q", f.Calls())
	}
	for m.focus != paneTraffic {
		press("tab")
	}
	press("up")
	if m.traffic.scroll.anchor == 0 {
		t.Fatal("up did not scroll the focused feed back")
	}
	press("esc")
	if m.traffic.scroll.anchor != 0 {
		t.Fatal("esc did not follow the feed again")
	}
	// nodes focused: up moves the selection and scrolls nothing
	for m.focus != paneNodes {
		press("tab")
	}
	sel := m.b.sel
	press("down")
	if m.b.sel == sel || m.timeline.scroll.anchor != 0 || m.traffic.scroll.anchor != 0 {
		t.Fatalf("down with the nodes focused: sel %d→%d, anchors %d %d", sel, m.b.sel, m.timeline.scroll.anchor, m.traffic.scroll.anchor)
	}
}
