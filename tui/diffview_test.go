package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// foldSide is a recording for the diff view: its events folded up to the time
// sought, by the dashboard's own fold.
type foldSide struct {
	h    trace.Header
	evs  []trace.Event
	snap *trace.Snapshot
}

func (s *foldSide) SeekTime(t int64) {
	st := trace.NewState(s.h)
	for i := range s.evs {
		if s.evs[i].T <= t {
			st.Apply(&s.evs[i])
		}
	}
	s.snap = st.Snapshot()
	s.snap.T = t
}

func (s *foldSide) Snapshot() *trace.Snapshot { return s.snap }
func (s *foldSide) End() int64                { return s.evs[len(s.evs)-1].T }

// diffSides are two runs of three processes that agree on n3 until 2s, when in
// B n1 takes itself for the leader; both end at 5s.
func diffSides() (a, b *foldSide) {
	h := trace.Header{Info: trace.Info{Name: "three", Algorithm: "bully", Family: "election", IDs: []node.ID{1, 2, 3}, GST: -1}}
	status := func(seq uint64, t int64, id node.ID, role string, leader node.ID) trace.Event {
		return trace.Event{Seq: seq, T: t, Ev: trace.StatusEv, Node: id, Status: &node.Status{Role: role, Leader: leader}}
	}
	common := []trace.Event{status(1, 0, 1, "follower", 3), status(2, 0, 2, "follower", 3), status(3, 0, 3, "leader", 3)}
	a = &foldSide{h: h, evs: append(append([]trace.Event{}, common...), trace.Event{Seq: 4, T: 5_000_000, Ev: trace.Marker, Text: "end"})}
	b = &foldSide{h: h, evs: append(append([]trace.Event{}, common...), status(4, 2_000_000, 1, "leader", 1), trace.Event{Seq: 5, T: 5_000_000, Ev: trace.Marker, Text: "end"})}
	return a, b
}

func diffSized(l lang.Lang, w, h int) (*diffModel, *foldSide, *foldSide) {
	a, b := diffSides()
	m := newDiffModel(a, b, DiffOptions{A: "a.jsonl", B: "b.jsonl", First: 2_000_000, Event: 4,
		Why: "why: n1 took itself for the leader", Lang: l})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m, a, b
}

// TestDiffView: the view opens at the first difference, with the nodes that
// differ marked and named, each side's Timeline under its Nodes with the row of
// the first difference marked ◆ (B's n1 taking the lead; A has none), the
// difference marked on the strip where its time falls, both sides on one clock;
// home, d, arrows and play move the clock, q quits. Goldens at 80×24 and
// 120×36, and the texts in pt.
func TestDiffView(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 36}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m, a, b := diffSized(lang.En, w, h)
			screen := m.Render()
			checkBox(t, screen, w, h)
			golden.RequireEqual(t, plain(screen))
			text := plain(screen)
			for _, want := range []string{"A a.jsonl · B b.jsonl │ t=2.000s", "first difference at 2.000s (event 4): why: n1 took itself for the leader",
				"now differ: n1", "A · Nodes (3)", "B · Nodes (3)", "◆ 2.000s", "5.000s"} {
				if !strings.Contains(text, want) {
					t.Errorf("the view does not show %q:\n%s", want, text)
				}
			}
			// B's Timeline marks its row of the first difference; A's has none.
			lines := strings.Split(text, "\n")
			marked := 0
			for _, l := range lines {
				if i := strings.Index(l, "│◆ 2.000s"); i >= 0 {
					marked++
					if i < w/2 || !strings.Contains(l, "leader n1") {
						t.Errorf("the row marked ◆ is not B's n1 taking the lead: %q", l)
					}
				}
			}
			if marked != 1 || !strings.Contains(text, "A · Timeline") || !strings.Contains(text, "B · Timeline") {
				t.Errorf("%d Timeline rows marked ◆, want B's alone:\n%s", marked, text)
			}
			// The mark stands where 2s falls on a strip of the screen's width.
			strip := []rune(lines[len(lines)-3])
			if col := int(2.0 / 5.0 * float64(w-1)); strip[col] != '◆' {
				t.Errorf("the strip has no ◆ at column %d: %q", col, string(strip))
			}
			if a.snap.T != 2_000_000 || b.snap.T != 2_000_000 {
				t.Errorf("the sides show %d and %d, want the first difference", a.snap.T, b.snap.T)
			}
		})
	}
	m, a, b := diffSized(lang.En, 100, 30)
	press := func(k string) { m.Update(keyMsg(k)) }
	press("home")
	if text := plain(m.Render()); a.snap.T != 0 || b.snap.T != 0 || !strings.Contains(text, "now: the same state on both sides") {
		t.Errorf("home: the sides at %d and %d:\n%s", a.snap.T, b.snap.T, text)
	}
	press("right")
	if a.snap.T != 50_000 || b.snap.T != 50_000 {
		t.Errorf("→ moves 1%% of the run (50ms): %d, %d", a.snap.T, b.snap.T)
	}
	press("d")
	if a.snap.T != 2_000_000 {
		t.Errorf("d: at %d, want the first difference", a.snap.T)
	}
	press("end")
	press("space") // at the end: plays from the start
	if !m.playing || m.t != 0 {
		t.Fatalf("space at the end: playing %v at %d", m.playing, m.t)
	}
	m.Update(diffTick{})
	if m.t != int64(diffFrame.Microseconds()) || a.snap.T != m.t || b.snap.T != m.t {
		t.Errorf("a frame of play at ×1: %d, %d, %d", m.t, a.snap.T, b.snap.T)
	}
	press("space")
	m.Update(diffTick{})
	if m.playing || m.t != int64(diffFrame.Microseconds()) {
		t.Errorf("paused, a frame moved the clock to %d", m.t)
	}
	if _, cmd := m.Update(keyMsg("q")); cmd == nil || fmt.Sprint(cmd()) != fmt.Sprint(tea.Quit()) {
		t.Error("q does not quit")
	}

	// With At, where both sides show their first differing event, the clock
	// opens there and d goes back to it.
	a, b = diffSides()
	m = newDiffModel(a, b, DiffOptions{A: "a.jsonl", B: "b.jsonl", First: 2_000_000, Event: 4, At: 2_500_000, Lang: lang.En})
	if m.t != 2_500_000 || a.snap.T != 2_500_000 {
		t.Errorf("with At 2.5s the view opens at %d", m.t)
	}
	press("home")
	press("d")
	if m.t != 2_500_000 {
		t.Errorf("d with At 2.5s: at %d", m.t)
	}

	pt, _, _ := diffSized(lang.Pt, 100, 30)
	if text := plain(pt.Render()); !strings.Contains(text, "primeira diferença em 2.000s (evento 4):") || !strings.Contains(text, "agora diferem: n1") {
		t.Errorf("pt:\n%s", text)
	}
}
