package mutex

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func vote(stamp, n int64) node.Message { return node.Message{Type: "VOTE", Stamp: stamp, Term: n} }
func inquire(stamp, n int64) node.Message {
	return node.Message{Type: "INQUIRE", Stamp: stamp, Term: n}
}
func relinquish(stamp, n int64) node.Message {
	return node.Message{Type: "RELINQUISH", Stamp: stamp, Term: n}
}

func TestGridSets(t *testing.T) {
	ids := nodetest.IDs(9)
	sets := gridSets(ids)
	// n5 is the centre of the 3×3 grid: row n4 n5 n6, column n2 n5 n8.
	if want := []node.ID{2, 4, 5, 6, 8}; !slices.Equal(sets[4], want) {
		t.Fatalf("V_5 = %v, want %v", sets[4], want)
	}
	if want := []node.ID{1, 2, 3, 4, 7}; !slices.Equal(sets[0], want) {
		t.Fatalf("V_1 = %v, want %v", sets[0], want)
	}
	// 5 processes in 3 columns: the last row is short.
	if want := []node.ID{2, 4, 5}; !slices.Equal(gridSets(nodetest.IDs(5))[4], want) {
		t.Fatalf("N=5: V_5 = %v, want %v", gridSets(nodetest.IDs(5))[4], want)
	}
	for n := 1; n <= 40; n++ {
		ids := nodetest.IDs(n)
		sets := gridSets(ids)
		for i := range sets {
			if !slices.Contains(sets[i], ids[i]) {
				t.Fatalf("N=%d: p%d ∉ V_%d", n, i+1, i+1)
			}
			for j := range sets {
				if !slices.ContainsFunc(sets[i], func(q node.ID) bool { return slices.Contains(sets[j], q) }) {
					t.Fatalf("N=%d: V_%d ∩ V_%d = ∅", n, i+1, j+1)
				}
			}
		}
	}
}

func TestMaekawaSetsParam(t *testing.T) {
	spec, _ := algos.Lookup("maekawa")
	build := func(n int, sets string) ([][]node.ID, error) {
		p, err := algos.NewParams(spec, map[string]any{"sets": sets})
		if err != nil {
			return nil, err
		}
		return votingSets(p, nodetest.IDs(n))
	}
	tri := [][]node.ID{{1, 2}, {2, 3}, {3, 1}}
	for _, s := range []string{"triangle", "n1 n2; n2 n3; n3 n1", "n1,n2;n2,n3;n3,n1"} {
		got, err := build(3, s)
		if err != nil || !slices.EqualFunc(got, tri, slices.Equal) {
			t.Errorf("sets %q: %v, %v; want %v", s, got, err, tri)
		}
	}
	for s, why := range map[string]string{
		"triangle":                   "exactly 3",
		"n1 n2; n2 n3":               "one per node",
		"n1 n2; n2 n3; n3":           "do not intersect",
		"n2; n2 n3; n3 n1 n2":        "does not contain",
		"n1 n2; n2 n9; n3 n1":        "n9",
		"n1 n2 n3; n1 n2; n1 n2 n3 ": "", // valid
	} {
		n := 3
		if s == "triangle" {
			n = 4
		}
		_, err := build(n, s)
		if why == "" {
			if err != nil {
				t.Errorf("sets %q: %v", s, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("sets %q: err = %v, want one saying %q", s, err, why)
		}
	}
}

func TestMaekawaCandidate(t *testing.T) {
	// N=4, 2 columns: V_1 = {n1, n2, n3}.
	h, _ := start(t, "maekawa", 4, 1, nil)
	wantSends(t, h.Request("cs"), to(2, msg("REQUEST", 1)), to(3, msg("REQUEST", 1)))
	wantCounter(t, h, "votes", 1) // its own, locally
	wantCounter(t, h, "voted_for", 1)
	wantSends(t, h.Deliver(3, vote(1, 1)))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Deliver(2, vote(1, 4)))
	wantCS(t, h, node.CSHeld)
	wantCounter(t, h, "votes", 3)
	wantSends(t, h.Fire(timerHold), to(2, msg("RELEASE", 1)), to(3, msg("RELEASE", 1)))
	wantCounter(t, h, "voted_for", 0)
}

func TestMaekawaVoterOneVoteAtATime(t *testing.T) {
	h, _ := start(t, "maekawa", 4, 2, nil)
	wantSends(t, h.Deliver(1, msg("REQUEST", 5)), to(1, vote(5, 1)))
	wantCounter(t, h, "voted_for", 1)
	// Basic algorithm: FIFO queue, whatever the timestamps.
	wantSends(t, h.Deliver(4, msg("REQUEST", 9)))
	wantSends(t, h.Deliver(3, msg("REQUEST", 2)))
	// Its own request waits too (it has voted).
	wantSends(t, h.Request("cs"), to(1, msg("REQUEST", 10)), to(4, msg("REQUEST", 10)))
	wantCounter(t, h, "votes", 0)
	wantSends(t, h.Deliver(1, msg("RELEASE", 5)), to(4, vote(9, 2)))
	wantSends(t, h.Deliver(4, msg("RELEASE", 9)), to(3, vote(2, 3)))
	wantSends(t, h.Deliver(3, msg("RELEASE", 2)))
	wantCounter(t, h, "voted_for", 2)
	wantCounter(t, h, "votes", 1)
	wantSends(t, h.Deliver(1, msg("INQUIRE", 10))) // not in the basic algorithm: ignored
}

func TestMaekawaDeadlockFreeVoter(t *testing.T) {
	h, _ := start(t, "maekawa", 4, 2, map[string]any{"deadlock_free": true})
	wantSends(t, h.Deliver(1, msg("REQUEST", 5)), to(1, vote(5, 1)))
	// An earlier request: ask n1 for the vote back.
	wantSends(t, h.Deliver(4, msg("REQUEST", 3)), to(1, inquire(5, 1)))
	// A later one: FAILED.
	wantSends(t, h.Deliver(3, msg("REQUEST", 7)), to(3, msg("FAILED", 7)))
	// An even earlier one overtakes n4, who had no FAILED yet: one INQUIRE only,
	// and n4 is told it must wait.
	wantSends(t, h.Deliver(3, msg("REQUEST", 1)), to(4, msg("FAILED", 3)))
	// A stale RELINQUISH (wrong vote number) changes nothing.
	wantSends(t, h.Deliver(1, relinquish(5, 9)))
	// n1 gives the vote back: it goes to the earliest, n3's (1); n1 gets no FAILED.
	wantSends(t, h.Deliver(1, relinquish(5, 1)), to(3, vote(1, 2)))
	wantSends(t, h.Deliver(3, msg("RELEASE", 1)), to(4, vote(3, 3)))
	wantSends(t, h.Deliver(4, msg("RELEASE", 3)), to(1, vote(5, 4)))
	wantSends(t, h.Deliver(1, msg("RELEASE", 5)), to(3, vote(7, 5)))
}

func TestMaekawaDeadlockFreeCandidate(t *testing.T) {
	// V_1 = {n1, n2, n3}.
	h, _ := start(t, "maekawa", 4, 1, map[string]any{"deadlock_free": true})
	h.Request("cs")
	wantSends(t, h.Deliver(2, vote(1, 1)))
	// INQUIRE before any FAILED: defer it.
	wantSends(t, h.Deliver(2, inquire(1, 1)))
	wantCounter(t, h, "votes", 2)
	// A FAILED shows we must wait: give back n2's vote, not our own.
	wantSends(t, h.Deliver(3, msg("FAILED", 1)), to(2, relinquish(1, 1)))
	wantCounter(t, h, "votes", 1)
	// Having given a vote back, a later INQUIRE is answered at once... once the
	// vote it names has arrived (links are not FIFO).
	wantSends(t, h.Deliver(2, inquire(1, 3)))
	wantSends(t, h.Deliver(2, vote(1, 3)), to(2, relinquish(1, 3)))
	wantSends(t, h.Deliver(2, vote(1, 5)))
	wantSends(t, h.Deliver(3, vote(1, 2)))
	wantCS(t, h, node.CSHeld)
	// Holding: INQUIRE is ignored, RELEASE will answer it.
	wantSends(t, h.Deliver(3, inquire(1, 2)))
	wantSends(t, h.Fire(timerHold), to(2, msg("RELEASE", 1)), to(3, msg("RELEASE", 1)))
}

func TestMaekawaTriangleDeadlock(t *testing.T) {
	// Notes 002: V1={p1,p2}, V2={p2,p3}, V3={p3,p1}; all three ask at once, each
	// votes for itself and queues the other: nobody ever enters.
	s := newSim(t, "maekawa", 3, map[string]any{"sets": "triangle"}, fixed(10*time.Millisecond))
	for _, id := range s.ids {
		s.request(id)
	}
	s.settle()
	if len(s.entries) != 0 {
		t.Fatalf("entries %+v, want a deadlock", s.entries)
	}
	if got := s.state(); !slices.Equal(got, []node.CSState{node.CSWanted, node.CSWanted, node.CSWanted}) {
		t.Fatalf("states %v", got)
	}
	for _, h := range s.hs {
		id := h.ID
		wantCounter(t, h, "voted_for", int64(id))
		wantCounter(t, h, "votes", 1)
	}

	// deadlock_free resolves it: all three enter, one at a time.
	s = newSim(t, "maekawa", 3, map[string]any{"sets": "triangle", "deadlock_free": true}, fixed(10*time.Millisecond))
	for _, id := range s.ids {
		s.request(id)
	}
	s.settle()
	if len(s.entries) != 3 || len(s.violations) != 0 {
		t.Fatalf("entries %+v, violations %v", s.entries, s.violations)
	}
	// p1's vote for itself precedes p3's request, so p3 is told FAILED and gives
	// its own vote (a local INQUIRE/RELINQUISH) to the earlier p2.
	if s.sent["FAILED"] == 0 {
		t.Errorf("no FAILED sent resolving the deadlock: %v", s.sent)
	}

}
