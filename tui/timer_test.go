package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// TestTimerBar: a main timer of 1 s firing at 1.5 s is drawn full at 0.5 s, half
// (rounded up) at 1 s, empty when it fires; a down node has none.
func TestTimerBar(t *testing.T) {
	st := DefaultStyles()
	n := trace.NodeView{ID: 1, Up: true, Status: node.Status{Deadline: node.Deadline{For: "election", At: 1500 * time.Millisecond, Len: time.Second}}}
	for _, c := range []struct {
		now  int64
		bar  string
		left int64
	}{{500_000, "▰▰▰▰▰", 1_000_000}, {1_000_000, "▰▰▰▱▱", 500_000}, {1_400_000, "▰▱▱▱▱", 100_000}, {1_500_000, "▱▱▱▱▱", 0}, {2_000_000, "▱▱▱▱▱", 0}} {
		bar, left, ok := timerBar(st, n, c.now, 5)
		if !ok || plain(bar) != c.bar || left != c.left {
			t.Errorf("at %dµs: %q %dµs %v, want %q %dµs", c.now, plain(bar), left, ok, c.bar, c.left)
		}
	}
	n.Up = false
	if _, _, ok := timerBar(st, n, 1_000_000, 5); ok {
		t.Error("a down node has a timer bar")
	}
}

// TestLiveTimerBars: on the live bully preset every follower's card shows its
// leader timer running (the world reads it from its timer queue; the trace does not
// carry it), and the leader's card shows none.
func TestLiveTimerBars(t *testing.T) {
	l := openLive(t, "bully", 10)
	deadline := time.Now().Add(20 * time.Second)
	for l.Snapshot().T < 2_000_000 {
		if time.Now().After(deadline) {
			t.Fatal("the live session did not reach 2s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	l.SetPaused(true)
	m := New(l, Options{Title: "bully"})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m.refresh()
	s := m.snap
	cs := cards(plain(m.Render()))
	followers := 0
	for _, n := range s.Nodes {
		d := n.Status.Deadline
		lead := n.Up && n.Status.Leader == n.ID
		switch {
		case !n.Up:
		case lead && d.Running():
			t.Errorf("the leader %v has a timer: %+v", n.ID, d)
		case !lead && (!d.Running() || d.For == ""):
			t.Errorf("follower %v has no timer running at %s", n.ID, fmtT(s.T))
		case !lead:
			followers++
			if !strings.ContainsAny(cs[n.ID.String()], "▰▱") {
				t.Errorf("follower %v's card has no timer bar:\n%s", n.ID, cs[n.ID.String()])
			}
		}
	}
	if followers == 0 {
		t.Fatal("no follower to check")
	}
}
