package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPasteIsCheap pastes ten kilobytes into `:` as a terminal without bracketed
// paste sends it, a key at a time, each followed by a frame as the program draws
// one: the line stops at 1,000 characters and says so, and the panes are drawn
// once, not once a key; only the prompt's line is drawn again (issue 24 §14: 2 ms
// a character, 20 s for the paste).
func TestPasteIsCheap(t *testing.T) {
	m := sized(scenario(5, "bully", "election"), 120, 40)
	m.Update(keyMsg(":"))
	m.View()
	before := m.bodyRenders
	for i := range 10_000 {
		m.Update(keyMsg(string(rune('a' + i%26))))
		m.View()
	}
	if got := len([]rune(m.cmd.in.Value())); got != lineLimit {
		t.Errorf("the line holds %d characters, want the limit %d", got, lineLimit)
	}
	if !strings.Contains(m.cmd.err, "cut at 1000") {
		t.Errorf("the line does not say it was cut: %q", m.cmd.err)
	}
	if n := m.bodyRenders - before; n > 2 {
		t.Errorf("the panes were drawn %d times for 10,000 keys typed", n)
	}
	if !strings.Contains(plain(m.View().Content), "cut at 1000") {
		t.Error("the screen does not show the line cut")
	}
	// a bracketed paste is one message, cut the same way
	m.Update(keyMsg("esc"))
	m.Update(keyMsg(":"))
	m.Update(tea.PasteMsg{Content: strings.Repeat("x", 10_000)})
	if got := len([]rune(m.cmd.in.Value())); got > lineLimit {
		t.Errorf("a bracketed paste left %d characters", got)
	}
}

// BenchmarkPromptKey is a key typed into `:` and the frame after it, at 120×40 on
// the default demo's size: the cost of each character of a paste.
func BenchmarkPromptKey(b *testing.B) {
	m := sized(scenario(5, "bully", "election"), 120, 40)
	m.Update(keyMsg(":"))
	m.View()
	i := 0
	for b.Loop() {
		if i%500 == 0 {
			m.Update(keyMsg("esc"))
			m.Update(keyMsg(":"))
		}
		m.Update(keyMsg("a"))
		m.View()
		i++
	}
}

// sizedFake is a fake whose past is long: R asks before writing it.
type sizedFake struct {
	*fake
	events uint64
}

func (s *sizedFake) PastSize() (uint64, int64) { return s.events, int64(s.events) * 90 }

// TestRecordAsks: R on a long past says how many events and about how many bytes,
// and writes only after y; n leaves it unrecorded; a short past is recorded at
// once (issue 24 §13: 12.4 GB written in a minute without a word).
func TestRecordAsks(t *testing.T) {
	f := &sizedFake{fake: scenario(5, "bully", "election"), events: 137_000_000}
	m := sized(f.fake, 160, 48)
	m.c = f
	press(m, "R")
	if m.mode != modeRecord || f.Recording() != "" {
		t.Fatalf("R on 137 M events: mode %v, recording %q, want a question first", m.mode, f.Recording())
	}
	if s := plain(m.Render()); !strings.Contains(s, "137000000 events, about 12 GB") || !strings.Contains(s, "y yes") {
		t.Errorf("the question does not say the size:\n%s", s)
	}
	press(m, "n")
	if m.mode != modeNormal || f.Recording() != "" {
		t.Fatalf("n: mode %v, recording %q", m.mode, f.Recording())
	}
	press(m, "R", "y")
	if f.Recording() == "" {
		t.Fatal("R then y did not record")
	}
	g := &sizedFake{fake: scenario(5, "bully", "election"), events: 400}
	m = sized(g.fake, 160, 48)
	m.c = g
	press(m, "R")
	if m.mode != modeNormal || g.Recording() == "" {
		t.Errorf("R on a short past asked (mode %v) or did not record", m.mode)
	}
}
