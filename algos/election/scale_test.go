package election

import (
	"testing"
	"time"
)

// The textbook counts at 100,000 nodes: the lab must run every ring algorithm at
// the sizes its complexity speaks of. Each run takes seconds, so they are skipped
// with -short and under the race detector (which makes them ten times slower and
// finds nothing that the small runs do not).
func skipScale(t *testing.T) {
	t.Helper()
	if testing.Short() || raceEnabled {
		t.Skip("100,000-node runs: skipped with -short and with -race")
	}
}

const scaleN = 100_000

// TestScaleRing100k: Chang-Roberts with one initiator, the successor of the
// maximum, on ids increasing along the ring: 2N−1 ELECTION and N ELECTED, as at
// N = 8 (TestRingOneInitiatorIs3NMinus1).
func TestScaleRing100k(t *testing.T) {
	skipScale(t)
	w := labWorld{ids: labSeq(scaleN), topo: "ring"}.run(t, "ring", map[string]any{"initiators": []any{"n1"}}, time.Duration(3*scaleN+10)*10*time.Millisecond)
	labAgree(t, w, scaleN)
	if got := labSent(w, "ELECTION"); got != 2*scaleN-1 {
		t.Errorf("ELECTION sent = %d, want 2N−1 = %d", got, 2*scaleN-1)
	}
	if got := labSent(w, "ELECTED"); got != scaleN {
		t.Errorf("ELECTED sent = %d, want N = %d", got, scaleN)
	}
}

// TestScaleFranklin100k: every process starts, ids increase along the ring, so only
// the maximum beats both neighbours in round 1 and its id goes round in round 2:
// 2 rounds, 2N PROBE a round, N ELECTED (as TestFranklinCounts at N = 8 and 64).
func TestScaleFranklin100k(t *testing.T) {
	skipScale(t)
	w := labWorld{ids: labSeq(scaleN), topo: "ring"}.run(t, "franklin", nil, time.Duration(4*scaleN+10)*10*time.Millisecond)
	labAgree(t, w, scaleN)
	if got := labRounds(t, w, scaleN); got != 2 {
		t.Errorf("rounds = %d, want 2", got)
	}
	if got := labSent(w, "PROBE"); got != 4*scaleN {
		t.Errorf("PROBE sent = %d, want 2N·rounds = %d", got, 4*scaleN)
	}
	if got := labSent(w, "ELECTED"); got != scaleN {
		t.Errorf("ELECTED sent = %d, want N = %d", got, scaleN)
	}
}

// TestScaleYoyo100k: Yo-Yo on a random connected graph of mean degree 3: the
// minimum wins and everyone learns it; every link is pruned exactly once (PRUNE =
// |E|); the setup sends an id each way on every link (ID ≥ 2|E|); the flood of
// ELECTED costs 2|E| − (N−1) (as TestYoyoRandomGraphs at N ≤ 24).
func TestScaleYoyo100k(t *testing.T) {
	skipScale(t)
	w := labWorld{ids: labScrambled(scaleN), topo: "graph", degree: 3}.run(t, "yoyo", nil, 600*time.Second)
	e := len(w.Edges())
	labAgree(t, w, 1)
	if got := labSent(w, "PRUNE"); got != e {
		t.Errorf("PRUNE sent = %d, want |E| = %d", got, e)
	}
	if got, want := labSent(w, "ELECTED"), 2*e-(scaleN-1); got != want {
		t.Errorf("ELECTED sent = %d, want 2|E|−(N−1) = %d", got, want)
	}
	if got := labSent(w, "ID"); got < 2*e {
		t.Errorf("ID sent = %d, fewer than the setup's 2|E| = %d", got, 2*e)
	}
	// Not asserted: the number of iterations. Sources halve every iteration, so
	// one is left after at most ⌈log₂N⌉+1 = 18, but the winner only knows it won
	// once pruning has removed every link, a layer of leaves an iteration: on this
	// graph that takes 72 iterations.
	st, _ := w.Status(1)
	it, _ := st.Counter("iteration")
	t.Logf("%d links, n1 won in iteration %d", e, it)
}
