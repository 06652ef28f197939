package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// mutexSnap is a snapshot of one mutual-exclusion node n1 at virtual time t (µs)
// in critical-section state cs, entered at heldSince, with entries entries.
func mutexSnap(seq uint64, t int64, cs node.CSState, heldSince, entries int64) *trace.Snapshot {
	return &trace.Snapshot{
		Info: trace.Info{Family: "mutex"}, Seq: seq, T: t,
		Nodes: []trace.NodeView{{ID: 1, Up: true, Slow: 1, Inc: 1, WantedSince: -1, HeldSince: heldSince,
			Status: node.Status{CS: cs, Counters: []node.Counter{{Name: "entries", Value: entries}}}}},
	}
}

// shownCS is how n1's critical section is drawn: held, just left (with how long
// it was held, -1 unknown), or neither.
func shownCS(l *csLatch, s *trace.Snapshot) (string, int64) {
	if s.Nodes[0].Status.CS == node.CSHeld {
		return "held", 0
	}
	if d, ok := l.left(s)[1]; ok {
		return "left", d
	}
	return "", 0
}

// TestLatchHoldsShortSection: a 50 ms critical section seen in one frame is drawn
// held for 300 ms of wall time from when it was seen, with its true length, then
// released; the wall clock is synthetic.
func TestLatchHoldsShortSection(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var l csLatch
	l.observe(mutexSnap(1, 1_000_000, node.CSReleased, -1, 0), t0)
	l.observe(mutexSnap(2, 1_010_000, node.CSHeld, 1_000_000, 1), t0.Add(33*time.Millisecond))
	// at ×1 the section ends 50 ms after it began: the next frame sees it released
	rel := mutexSnap(3, 1_050_000, node.CSReleased, -1, 1)
	for _, d := range []time.Duration{66, 100, 200, 332} {
		now := t0.Add(d * time.Millisecond)
		l.observe(rel, now)
		if l.expire(now) {
			t.Fatalf("the latch expired at %v, before 300 ms had passed since it was seen at 33ms", d*time.Millisecond)
		}
		cs, held := shownCS(&l, rel)
		if cs != "left" {
			t.Fatalf("at %v the section is drawn %q, want just left", d*time.Millisecond, cs)
		}
		if held != 50_000 {
			t.Errorf("at %v it is drawn as held for %dµs, want its true length 50000µs", d*time.Millisecond, held)
		}
	}
	if rel.Nodes[0].Status.CS != node.CSReleased {
		t.Fatal("apply changed the snapshot it was given")
	}
	now := t0.Add(333 * time.Millisecond)
	if !l.expire(now) {
		t.Fatal("the latch did not expire 300 ms after the section was seen")
	}
	if cs, _ := shownCS(&l, rel); cs != "" {
		t.Fatalf("after 300 ms the section is drawn %q, want nothing", cs)
	}
}

// TestLatchUnseenSection: a section entered and left between two frames (fast
// speeds) is known from the entries counter and drawn all the same.
func TestLatchUnseenSection(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var l csLatch
	l.observe(mutexSnap(1, 1_000_000, node.CSReleased, -1, 4), t0)
	s := mutexSnap(9, 3_000_000, node.CSReleased, -1, 5)
	l.observe(s, t0.Add(33*time.Millisecond))
	cs, held := shownCS(&l, s)
	if cs != "left" || held != -1 {
		t.Fatalf("drawn %q, held %d, want just left with no length (it was never seen held)", cs, held)
	}
	if l.expire(t0.Add(332*time.Millisecond)) || !l.expire(t0.Add(333*time.Millisecond)) {
		t.Fatal("an unseen section is not drawn for exactly 300 ms")
	}
}

// TestLatchLongSection: a section held longer than 300 ms is drawn as it is, and
// released as soon as it ends; a crash or a replay going back forgets latches.
func TestLatchLongSection(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var l csLatch
	l.observe(mutexSnap(1, 0, node.CSHeld, 0, 1), t0)
	rel := mutexSnap(2, 500_000, node.CSReleased, -1, 1)
	l.observe(rel, t0.Add(500*time.Millisecond))
	if cs, _ := shownCS(&l, rel); cs != "" {
		t.Fatalf("a section held 500 ms is drawn %q after it ended, want nothing", cs)
	}
	l.observe(mutexSnap(3, 600_000, node.CSHeld, 600_000, 2), t0.Add(600*time.Millisecond))
	down := mutexSnap(4, 610_000, node.CSReleased, -1, 2)
	down.Nodes[0].Up = false
	l.observe(down, t0.Add(610*time.Millisecond))
	if len(l.on) != 0 {
		t.Fatal("a crashed node keeps its latch")
	}
	l.observe(mutexSnap(5, 700_000, node.CSHeld, 700_000, 3), t0.Add(700*time.Millisecond))
	back := mutexSnap(2, 500_000, node.CSReleased, -1, 1)
	l.observe(back, t0.Add(710*time.Millisecond))
	if cs, _ := shownCS(&l, back); cs != "" {
		t.Fatalf("after a seek back the section is drawn %q, want nothing", cs)
	}
}

// TestLatchOnScreen: the dashboard, on a clock it is given, draws n2's critical
// section for 300 ms after it saw it, though n2 left it at once: held while it
// is, then as just left, never as held.
func TestLatchOnScreen(t *testing.T) {
	f := newFake(3, "ricart", "mutex")
	now := time.Unix(1000, 0)
	m := New(f, Options{Title: "ricart-demo", Clock: func() time.Time { return now }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	card := func() string {
		lines := strings.Split(plain(m.Render()), "\n")
		return strings.Join(lines[3:10], "\n")
	}
	if !strings.Contains(card(), "cs held") {
		t.Fatalf("n2 is not drawn in its critical section:\n%s", card())
	}
	// n2 leaves at once, one entry more
	f.mu.Lock()
	st := node.Status{CS: node.CSReleased, Counters: []node.Counter{{Name: "entries", Value: 3}}}
	f.t += 50_000
	f.emit(trace.Event{Ev: trace.StatusEv, Node: 2, Status: &st})
	f.publish()
	f.mu.Unlock()
	now = now.Add(100 * time.Millisecond)
	m.Update(tickMsg(now))
	if c := card(); !strings.Contains(c, "cs ◇ left, held 50ms") || strings.Contains(c, "cs held") {
		t.Fatalf("100 ms after it was seen n2's section is not drawn as just left:\n%s", c)
	}
	now = now.Add(200 * time.Millisecond)
	m.Update(tickMsg(now))
	if c := card(); strings.Contains(c, "cs held") || strings.Contains(c, "◇") {
		t.Fatalf("300 ms after it was seen n2's section is still drawn:\n%s", c)
	}
}
