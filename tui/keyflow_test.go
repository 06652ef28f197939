package tui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// bar is the key bar: the screen's last line.
func bar(m *Model) string {
	lines := strings.Split(plain(m.Render()), "\n")
	return lines[len(lines)-1]
}

// TestHelpCloses: esc, ? on the last page and q all close the help, and q there
// does not quit (issue 23: esc did nothing, and q quit the app with no question).
func TestHelpCloses(t *testing.T) {
	for _, k := range []string{"esc", "q"} {
		f := scenario(5, "bully", "election")
		m := sized(f, 160, 48)
		press(m, "?")
		if !m.help.ShowAll {
			t.Fatal("? does not open the help")
		}
		_, cmd := m.Update(keyMsg(k))
		if m.help.ShowAll {
			t.Errorf("%s does not close the help", k)
		}
		if cmd != nil {
			t.Errorf("%s in the help returned a command (a quit?)", k)
		}
	}
	m := sized(scenario(5, "bully", "election"), 80, 24)
	for range 4 {
		press(m, "?")
	}
	if !m.help.ShowAll {
		t.Fatal("the help closed before its last page")
	}
	press(m, "?")
	if m.help.ShowAll {
		t.Error("? on the last page does not close the help")
	}
}

// TestShiftTabGoesBack: shift+tab moves the focus back, the way tab came.
func TestShiftTabGoesBack(t *testing.T) {
	m := sized(scenario(5, "bully", "election"), 160, 48)
	press(m, "tab", "tab", "tab")
	at := m.focus
	press(m, "shift+tab")
	if m.focus != at-1 {
		t.Errorf("shift+tab from %v went to %v, want %v", at, m.focus, at-1)
	}
	press(m, "shift+tab", "shift+tab")
	if m.focus != paneNodes {
		t.Errorf("focus %v, want the nodes", m.focus)
	}
	press(m, "shift+tab")
	if m.focus != paneStory {
		t.Errorf("shift+tab from the nodes went to %v, want the last pane (story)", m.focus)
	}
}

// TestReplayHomeEnd: home and end go to the start and the end of a recording.
func TestReplayHomeEnd(t *testing.T) {
	r := replayScenario()
	m := replaySized(r, 160, 48)
	press(m, "end")
	if n, _ := r.Pos(); n != r.Len() {
		t.Errorf("end: at event %d of %d", n, r.Len())
	}
	press(m, "home")
	if _, at := r.Pos(); at != 0 {
		t.Errorf("home: at %s, want the start", fmtT(at))
	}
}

// TestEveryPaneScrolls: focused, the alerts, the network and the feed scroll with
// the arrows, and end follows again (issue 23: the Alerts pane showed 6 of 41
// alerts and did not scroll).
func TestEveryPaneScrolls(t *testing.T) {
	f := scenario(5, "bully", "election")
	f.mu.Lock()
	for i := range 40 {
		f.t += 1000
		f.emit(trace.Event{Ev: trace.Alert, Kind: "false-suspicion", Text: fmt.Sprintf("n%d suspected n%d while it was up", i%5+1, (i+1)%5+1)})
	}
	f.publish()
	f.mu.Unlock()
	m := sized(f, 160, 48)
	for _, c := range []struct {
		p     paneID
		title string
	}{{paneAlerts, "Alerts"}, {paneTraffic, "Traffic"}} {
		for m.focus != c.p {
			press(m, "tab")
		}
		before := plain(m.panes[c.p].View())
		press(m, "up", "up", "pgup")
		after := plain(m.panes[c.p].View())
		if after == before {
			t.Errorf("%s: the arrows do not scroll it:\n%s", c.title, after)
		}
		press(m, "end")
		if got := plain(m.panes[c.p].View()); got != before {
			t.Errorf("%s: end does not come back:\n%s\nwas\n%s", c.title, got, before)
		}
	}
	// the network scrolls over its lines when they do not fit: forty nodes down
	big := scenario(64, "bully", "election")
	for i := 10; i < 50; i++ {
		must(big.Do(fmt.Sprintf("crash n%d", i)))
	}
	big.publish()
	m = sized(big, 160, 48)
	for m.focus != paneNetwork {
		press(m, "tab")
	}
	before := plain(m.network.View())
	press(m, "down", "down")
	if after := plain(m.network.View()); after == before || !strings.Contains(after, "lines 3-") {
		t.Errorf("the network does not scroll down:\n%s\nwas\n%s", after, before)
	}
}

// TestFooterPaused: paused, the key bar says space resumes and . steps (issue 23:
// it said "space pause" while paused).
func TestFooterPaused(t *testing.T) {
	f := scenario(5, "bully", "election")
	m := sized(f, 160, 48)
	if b := bar(m); !strings.Contains(b, "space pause") || strings.Contains(b, ". step") {
		t.Errorf("running, the bar reads %q", b)
	}
	press(m, "space")
	if b := bar(m); !strings.Contains(b, "space resume") || !strings.Contains(b, ". step") {
		t.Errorf("paused, the bar reads %q", b)
	}
}

// TestHelpListsEveryAction: the full help is built from the key maps: every key
// the root acts on, and every key of the focused pane, is in it.
func TestHelpListsEveryAction(t *testing.T) {
	for _, replay := range []bool{false, true} {
		m := sized(scenario(5, "bully", "election"), 200, 60)
		if replay {
			m = replaySized(replayScenario(), 200, 60)
		}
		press(m, "?")
		help := plain(m.Render())
		var bs []key.Binding
		for _, g := range m.actionGroups() {
			for _, a := range g {
				bs = append(bs, *a.key)
			}
		}
		bs = append(bs, m.timeline.keys.full()...)
		for _, b := range bs {
			if !b.Enabled() {
				continue
			}
			if !strings.Contains(help, b.Help().Key) || !strings.Contains(help, b.Help().Desc) {
				t.Errorf("replay %v: %s %s is not in the help", replay, b.Help().Key, b.Help().Desc)
			}
		}
	}
}

// TestKeyFeedback: a digit with no such node says so, and a request the algorithm
// cannot take is refused alike from its key and from the command line (issue 23:
// 7 on five nodes said nothing; `:request n1 cs` was taken on bully while m was
// refused).
func TestKeyFeedback(t *testing.T) {
	f := scenario(5, "bully", "election")
	m := sized(f, 160, 48)
	press(m, "7")
	if !strings.Contains(m.flash, "no node n7") {
		t.Errorf("7 on five nodes says %q", m.flash)
	}
	press(m, "m")
	if !strings.Contains(m.flash, "no critical section") {
		t.Errorf("m on bully says %q", m.flash)
	}
	press(m, ":")
	m.cmd.in.SetValue("request n1 cs")
	press(m, "enter")
	if !strings.Contains(m.cmd.err, "no critical section") || slices.Contains(f.Calls(), "request n1 cs") {
		t.Errorf("`:request n1 cs` on bully: error %q, calls %q", m.cmd.err, f.Calls())
	}
}

// TestSmallerThings: msg/s does not count the heartbeats it hides, and a down
// node's title names no leader (issue 23, smaller).
func TestSmallerThings(t *testing.T) {
	f := scenario(5, "bully", "election")
	f.mu.Lock()
	hb := node.Message{Type: "HEARTBEAT"}
	for i := range 50 {
		f.t = 5_000_000 + int64(i)*1000
		f.emit(trace.Event{Ev: trace.Deliver, From: 4, To: 1, MID: uint64(9000 + i), Msg: &hb})
	}
	f.t = 6_500_000 // the next second begins: the one before is whole
	el := node.Message{Type: "ELECTION"}
	f.emit(trace.Event{Ev: trace.Deliver, From: 2, To: 3, MID: 9999, Msg: &el})
	f.publish()
	f.mu.Unlock()
	m := sized(f, 160, 48)
	rate := regexp.MustCompile(`(\d+) msg/s`)
	hidden := rate.FindStringSubmatch(plain(m.traffic.View()))
	press(m, "H")
	shown := rate.FindStringSubmatch(plain(m.traffic.View()))
	if hidden == nil || shown == nil || hidden[1] != "0" || shown[1] != "50" {
		t.Errorf("msg/s with heartbeats hidden %v, shown %v; want 0 and 50", hidden, shown)
	}
	press(m, "5")
	if title := strings.Split(plain(m.Render()), "\n")[2]; !strings.Contains(title, "n5: down") || strings.Contains(title, "leader") {
		t.Errorf("the down n5's title: %q", title)
	}
}

// TestIsolateToggles: i cuts the selected node off, and i again heals it when it
// is the network's only fault; with a partition standing too, i says that h heals
// them all instead of healing the partition behind the user's back (issue 23,
// smaller: i was not a toggle).
func TestIsolateToggles(t *testing.T) {
	f := newFake(5, "bully", "election")
	m := sized(f, 160, 48)
	press(m, "3", "i")
	m.refresh()
	press(m, "i")
	if got, want := f.Calls(), []string{"isolate n3", "heal"}; !slices.Equal(got, want) {
		t.Fatalf("i, i on n3: calls %q, want %q", got, want)
	}
	m.refresh()
	press(m, "i")
	must(f.Do("partition n1,n2 | n3,n4,n5"))
	m.refresh()
	n := len(f.Calls())
	press(m, "i")
	if len(f.Calls()) != n || !strings.Contains(m.flash, "h heals them all") {
		t.Errorf("i on an isolated n3 beside a partition: calls %q, says %q", f.Calls()[n:], m.flash)
	}
}

// TestSelectPromptReads: # opens a prompt that reads "select node n12 or 12", not
// the prompt and its placeholder run together (issue 23, smaller: it read
// "select nany node id").
func TestSelectPromptReads(t *testing.T) {
	m := sized(scenario(5, "bully", "election"), 120, 40)
	press(m, "#")
	lines := strings.Split(plain(m.Render()), "\n")
	prompt := lines[len(lines)-2]
	if !strings.Contains(prompt, "select node n12 or 12") || strings.Contains(prompt, "nany") {
		t.Errorf("the # prompt reads %q", prompt)
	}
}
