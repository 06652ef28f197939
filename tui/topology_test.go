package tui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"

	"github.com/charmbracelet/x/exp/golden"
)

// story drives f through a deterministic history, handing every step's snapshot to
// m as a tick would, so that the history strip folds more than one snapshot: traffic,
// a crash of the leader, a partition with a split brain, a heal.
func story(f *fake, m *Model) {
	tick := func() { m.Update(tickMsg{}) }
	n := len(f.ids)
	for range 10 {
		f.traffic(3)
		f.publish()
		tick()
	}
	must(f.Do(fmt.Sprintf("crash n%d", n)))
	tick()
	for range 10 {
		f.traffic(3)
		f.publish()
		tick()
	}
	must(f.Do(fmt.Sprintf("partition n1,n2 | %s", rest(3, n-1))))
	tick()
	for range 10 {
		f.traffic(3)
		f.publish()
		tick()
	}
	// a message sent and not yet delivered, half way along its link
	f.t += 500
	f.inFlight(1, 2, "ELECTION")
	f.inFlight(3, 1, "COORDINATOR")
	f.t += 7000
	f.emit(trace.Event{Ev: trace.TimerEv, Node: 1, Name: "tick"}) // time passes
	f.publish()
	tick()
}

func rest(from, to int) string {
	var s []string
	for i := from; i <= to; i++ {
		s = append(s, fmt.Sprintf("n%d", i))
	}
	return strings.Join(s, ",")
}

func TestTopologyGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		for _, v := range []string{"v", "V"} {
			name := map[string]string{"v": "topology", "V": "history"}[v]
			t.Run(fmt.Sprintf("%s-%dx%d", name, w, h), func(t *testing.T) {
				f := newFake(5, "bully", "election")
				m := sized(f, w, h)
				story(f, m)
				m.Update(keyMsg(v))
				out := m.Render()
				checkBox(t, out, w, h)
				golden.RequireEqual(t, plain(out))
			})
		}
	}
}

// TestFlowTopology presses v and V in a running dashboard: the topology replaces the
// cards and follows a crash, the history strip replaces it, and v V bring the cards
// back.
func TestFlowTopology(t *testing.T) {
	f := startFlow(t, scenario(5, "bully", "election"), 120, 40)
	f.keys("v")
	f.waitFor("the topology", func(s string) bool {
		return strings.Contains(s, "Topology · mesh") && !strings.Contains(s, "Nodes (")
	})
	f.keys("3", "c")
	f.waitFor("n3 down in the topology's table", func(s string) bool {
		return regexp.MustCompile(`n3 ✖ down`).MatchString(s) && strings.Contains(s, "✖n3")
	})
	f.keys("V")
	f.waitFor("the history strip", func(s string) bool {
		return strings.Contains(s, "History · last 10s") && !strings.Contains(s, "Topology ·")
	})
	f.keys("V")
	f.waitFor("the cards again", func(s string) bool { return strings.Contains(s, "Nodes (5)") })
}

// TestTopologyInFlight checks the glyph of a message in flight, the letter of its
// type (E for ELECTION, so that types read without their colours): it moves along
// its link as virtual time passes, and it is gone once the message is delivered.
func TestTopologyInFlight(t *testing.T) {
	f := newFake(2, "bully", "election")
	f.traffic(1)
	f.t += 100_000
	f.inFlight(1, 2, "ELECTION")
	mid := f.mid
	p := &topoPane{st: DefaultStyles()}
	p.SetSize(60, 12)
	glyphAt := func() (int, int) {
		for y, l := range strings.Split(plain(p.draw(f.st.Snapshot(), -1, false)), "\n") {
			if x := strings.Index(l, "E"); x >= 0 && !strings.Contains(l, "ELECTION") {
				return len([]rune(l[:x])), y
			}
		}
		return -1, -1
	}
	var path [][2]int
	for range 3 {
		f.t += 3000
		f.emit(trace.Event{Ev: trace.TimerEv, Node: 1, Name: "tick"})
		x, y := glyphAt()
		if x < 0 {
			t.Fatalf("at t=%d no glyph in flight:\n%s", f.t, plain(p.draw(f.st.Snapshot(), -1, false)))
		}
		path = append(path, [2]int{x, y})
	}
	if path[0] == path[1] || path[1] == path[2] || path[0][1] >= path[2][1] {
		t.Errorf("the glyph does not travel from n1 (top) down to n2: %v", path)
	}
	msg := node.Message{Type: "ELECTION", ID: 1}
	f.emit(trace.Event{Ev: trace.Deliver, From: 1, To: 2, MID: mid, Msg: &msg})
	if x, _ := glyphAt(); x >= 0 {
		t.Errorf("a delivered message is still drawn:\n%s", plain(p.draw(f.st.Snapshot(), -1, false)))
	}
}

// TestHistoryRewind checks that the strip forgets what came after a replay's seek
// back, and keeps at most historyCap samples.
func TestHistoryRewind(t *testing.T) {
	f := newFake(3, "bully", "election")
	p := &historyPane{st: DefaultStyles()}
	p.observe(f.st.Snapshot())
	must(f.Do("crash n3"))
	p.observe(f.st.Snapshot())
	if len(p.samples) != 2 || p.samples[1].roles[2] != roleDown {
		t.Fatalf("samples %v: want the crash of n3 as a second sample", p.samples)
	}
	early := *f.st.Snapshot()
	early.T = p.samples[0].t
	early.Nodes = slices.Clone(early.Nodes)
	early.Nodes[2].Up = true
	p.observe(&early)
	if len(p.samples) != 1 {
		t.Errorf("after a seek back, %d samples, want 1", len(p.samples))
	}
	s := *f.st.Snapshot()
	s.Nodes = slices.Clone(s.Nodes)
	for i := range historyCap * 2 {
		s.T += 1000
		s.Nodes[2].Up = i%2 == 0
		p.observe(&s)
	}
	if len(p.samples) != historyCap {
		t.Errorf("%d samples kept, want at most %d", len(p.samples), historyCap)
	}
}

// benchPane measures one pane's View, alone (the rest of the screen has its own
// benchmarks), on a 160×48 screen with n nodes after a run that the history strip
// folded, once key has put the pane in the cards' place.
func benchPane(b *testing.B, n int, key string, view func(m *Model) string) {
	f := newFake(n, "bully", "election")
	m := sized(f, 160, 48)
	story(f, m)
	m.Update(keyMsg(key))
	b.ReportAllocs()
	for b.Loop() {
		_ = view(m)
	}
}

func topoView(m *Model) string { return m.place.topo.draw(m.snap, m.b.sel, false) }
func histView(m *Model) string { return m.place.hist.draw(m.snap, m.b.sel, false) }

func BenchmarkTopology64(b *testing.B)   { benchPane(b, 64, "v", topoView) }
func BenchmarkTopology1000(b *testing.B) { benchPane(b, 1000, "v", topoView) }
func BenchmarkHistory64(b *testing.B)    { benchPane(b, 64, "V", histView) }
func BenchmarkHistory1000(b *testing.B)  { benchPane(b, 1000, "V", histView) }

// TestTopologyGoldenGraphs draws a ring and a graph laid out by its links (the
// yoyo preset's shape: 10 nodes, 15 links), from the header's edges.
func TestTopologyGoldenGraphs(t *testing.T) {
	ring := [][2]node.ID{}
	for i := 1; i <= 8; i++ {
		ring = append(ring, [2]node.ID{node.ID(i), node.ID(i%8 + 1)})
	}
	graph := [][2]node.ID{{1, 4}, {1, 7}, {2, 5}, {2, 10}, {3, 6}, {3, 10}, {4, 8}, {4, 10},
		{5, 9}, {5, 10}, {6, 9}, {6, 10}, {7, 8}, {8, 9}, {9, 10}}
	for _, c := range []struct {
		name, topo string
		n          int
		edges      [][2]node.ID
	}{{"ring", "ring", 8, ring}, {"graph", "graph", 10, graph}} {
		for _, size := range [][2]int{{80, 20}, {160, 40}} {
			t.Run(fmt.Sprintf("%s-%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				f := newFake(c.n, "yoyo", "election")
				f.traffic(3)
				f.inFlight(1, 4, "ID")
				f.t += 5000
				f.emit(trace.Event{Ev: trace.TimerEv, Node: 1, Name: "tick"})
				s := f.st.Snapshot()
				s.Info.Topology, s.Info.Edges = c.topo, c.edges
				p := &topoPane{st: DefaultStyles()}
				p.SetSize(size[0], size[1])
				out := p.draw(s, 0, false)
				checkBox(t, out, size[0], size[1])
				golden.RequireEqual(t, plain(out))
			})
		}
	}
}

// TestTopologyEveryNodeInside draws 10 nodes on the circle and as a graph at many
// sizes: every node's glyph is inside the box (none rounded off its edge).
func TestTopologyEveryNodeInside(t *testing.T) {
	graph := [][2]node.ID{{1, 4}, {1, 7}, {2, 5}, {2, 10}, {3, 6}, {3, 10}, {4, 8}, {4, 10},
		{5, 9}, {5, 10}, {6, 9}, {6, 10}, {7, 8}, {8, 9}, {9, 10}}
	f := newFake(10, "yoyo", "election")
	for _, topo := range []string{"mesh", "graph"} {
		for h := 12; h <= 24; h++ {
			for w := 40; w <= 54; w += 7 {
				s := f.st.Snapshot()
				s.Info.Topology, s.Info.Edges = topo, nil
				if topo == "graph" {
					s.Info.Edges = graph
				}
				p := &topoPane{st: DefaultStyles()}
				p.SetSize(w, h)
				out := plain(p.draw(s, -1, false))
				if k := strings.Count(out, "●") + strings.Count(out, "★"); k != 10 {
					t.Errorf("%s at %d×%d: %d nodes drawn, want 10:\n%s", topo, w, h, k, out)
				}
			}
		}
	}
}

// TestTopologyCrowded draws 1,000 nodes on a circle of about a hundred cells: the
// title says that nodes share cells, and the two leaders of the split brain and
// the selected node (with its id) stay visible over their neighbours.
func TestTopologyCrowded(t *testing.T) {
	f := newFake(1000, "bully", "election")
	m := sized(f, 160, 48)
	story(f, m)
	if ls := m.snap.Leaders(); len(ls) != 2 {
		t.Fatalf("leaders %v, want the two of a split brain", ls)
	}
	p := &topoPane{st: DefaultStyles()}
	p.SetSize(56, 24) // no table beside the circle
	out := plain(p.draw(m.snap, 499, false))
	if !strings.Contains(out, "share cells") {
		t.Errorf("the title does not say that nodes share cells:\n%s", out)
	}
	if k := strings.Count(out, "★"); k != 2 {
		t.Errorf("%d leaders drawn, want 2:\n%s", k, out)
	}
	if !strings.Contains(out, "n500") {
		t.Errorf("the selected n500 is not labelled:\n%s", out)
	}
}

// TestTopologyBurst checks a dropped message: it bursts (✶) on its link for one mean
// delay after the drop, then is gone; a delivered one leaves nothing.
func TestTopologyBurst(t *testing.T) {
	f := newFake(2, "bully", "election")
	f.traffic(1)
	f.t += 100_000
	f.inFlight(1, 2, "ELECTION")
	f.t += 4000
	msg := node.Message{Type: "ELECTION", ID: 1}
	f.emit(trace.Event{Ev: trace.Drop, From: 1, To: 2, MID: f.mid, Msg: &msg, Reason: trace.ReasonLoss})
	p := &topoPane{st: DefaultStyles()}
	p.SetSize(40, 12)
	view := func() string { return plain(p.draw(f.st.Snapshot(), -1, false)) }
	if out := view(); !strings.Contains(out, "✶") || !strings.Contains(out, "0 in flight") {
		t.Errorf("just after the drop: no burst, or the message still in flight:\n%s", out)
	}
	f.t += p.meanDelay(f.st.Snapshot()) + 1
	f.emit(trace.Event{Ev: trace.TimerEv, Node: 1, Name: "tick"})
	if out := view(); strings.Contains(out, "✶") {
		t.Errorf("a mean delay after the drop, the burst is still drawn:\n%s", out)
	}
}

// TestTopologyReplaysIdentically renders the topology of a live run that the
// dashboard followed frame by frame, and of its recording replayed to the same
// event: the pane is the same, since it is drawn from the snapshot alone.
func TestTopologyReplaysIdentically(t *testing.T) {
	f := newFake(5, "bully", "election")
	m := sized(f, 120, 40)
	story(f, m)
	m.Update(keyMsg("v"))
	r := newFakeReplay(f)
	r.foldTo(len(r.events))
	mr := New(r, Options{Title: "bully-demo"})
	mr.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	mr.Update(keyMsg("v"))
	live, replay := m.place.topo.draw(m.snap, m.b.sel, false), mr.place.topo.draw(mr.snap, mr.b.sel, false)
	if live != replay {
		t.Errorf("the replay draws another topology:\nlive:\n%s\nreplay:\n%s", plain(live), plain(replay))
	}
	if !strings.Contains(plain(live), "2 in flight") {
		t.Errorf("want the story's two messages in flight:\n%s", plain(live))
	}
}

// TestTopologyBurstHeld: a drop's burst stays on the circle for half a second of
// wall time at the run's speed (issue 23: 0 of 250 frames showed one at ×1), half
// way along the link for a message lost, at the receiver for one sent to a down
// node.
func TestTopologyBurstHeld(t *testing.T) {
	for _, reason := range []string{trace.ReasonLoss, trace.ReasonDown} {
		f := newFake(2, "bully", "election")
		f.traffic(1)
		f.t += 100_000
		f.inFlight(1, 2, "ELECTION")
		msg := node.Message{Type: "ELECTION", ID: 1}
		f.emit(trace.Event{Ev: trace.Drop, From: 1, To: 2, MID: f.mid, Msg: &msg, Reason: reason})
		p := &topoPane{st: DefaultStyles(), hold: 500_000} // ×1
		p.SetSize(40, 20)
		at := func() int {
			for y, l := range strings.Split(plain(p.draw(f.st.Snapshot(), -1, false)), "\n") {
				if strings.Contains(l, "✶") {
					return y
				}
			}
			return -1
		}
		f.t += 400_000 // far past the mean delay, within half a second
		f.emit(trace.Event{Ev: trace.TimerEv, Node: 1, Name: "tick"})
		y := at()
		// n1 is at the top of the circle, n2 at the bottom (rows 1 and 18)
		switch {
		case y < 0:
			t.Errorf("%s: no burst 400 ms after the drop at ×1", reason)
		case reason == trace.ReasonLoss && (y < 7 || y > 12):
			t.Errorf("%s: the burst is at row %d, want half way along the link", reason, y)
		case reason == trace.ReasonDown && y < 13:
			t.Errorf("%s: the burst is at row %d, want at the receiver", reason, y)
		}
		f.t += 200_000
		f.emit(trace.Event{Ev: trace.TimerEv, Node: 1, Name: "tick"})
		if at() >= 0 {
			t.Errorf("%s: the burst is still drawn 600 ms after the drop", reason)
		}
	}
}

// TestTopologySaysWithoutColour: message types are letters (E, A…), the sides of a
// partition on a big circle are letters (A, B), and the title names the selected
// node, or the one under the pointer (issue 23: three • in three colours, groups
// in colour only).
func TestTopologySaysWithoutColour(t *testing.T) {
	f := newFake(300, "bully", "election")
	must(f.Do("partition n1,n2,n3 | n4,n5"))
	f.publish()
	m := sized(f, 160, 48)
	m.Update(keyMsg("v"))
	out := plain(m.Render())
	if !strings.Contains(out, "A") || strings.Count(out, "B") < 1 {
		t.Errorf("no group letters on the circle:\n%s", out)
	}
	if !regexp.MustCompile(`Topology · .* · n1: `).MatchString(out) {
		t.Errorf("the title does not name the selected node n1:\n%s", strings.Split(out, "\n")[2])
	}
	letters := typeLetters([]trace.TypeCount{{Type: "ANSWER"}, {Type: "COORDINATOR"}, {Type: "ELECTED"}, {Type: "ELECTION"}})
	if letters["ELECTED"] == letters["ELECTION"] || letters["ANSWER"] != 'A' || letters["ELECTED"] != 'E' {
		t.Errorf("type letters %q", letters)
	}
	// the pointer over a dot names it
	r := m.boxes()[paneNodes]
	q := m.place.topo.drawn.pos[150]
	m.Update(tea.MouseMotionMsg{X: r.x + q.x + 1, Y: r.y + q.y + 1})
	if h := m.b.hover - 1; h <= 0 || !strings.Contains(plain(m.Render()), "↖ "+m.snap.Nodes[h].ID.String()+":") {
		t.Errorf("the pointer over a dot does not name it (hover %d):\n%s", h, strings.Split(plain(m.Render()), "\n")[2])
	}
}
