package election

import (
	"fmt"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func labYoyo(t *testing.T, self node.ID, nbrs []node.ID, params map[string]any) *nodetest.Harness {
	t.Helper()
	h := labHarness(t, "yoyo", self, nodetest.IDs(9), params)
	h.SetNeighbors(nbrs)
	return h
}

func labID(v node.ID, iter, epoch int64) node.Message {
	return node.Message{Type: "ID", ID: v, Term: iter, Stamp: epoch}
}

func labVote(typ string, iter, epoch int64) node.Message {
	return node.Message{Type: typ, Term: iter, Stamp: epoch}
}

func labPrune(yes bool, iter, epoch int64) node.Message {
	return node.Message{Type: "PRUNE", Term: iter, Stamp: epoch, Flag: yes}
}

// The path n1 — n3 — n2, seen from each of its three processes. Setup orients
// 1→3 and 2→3: n1 and n2 are sources, n3 a sink.
func TestYoyoPathSink(t *testing.T) {
	h := labYoyo(t, 3, []node.ID{1, 2}, nil)
	labSends(t, h.Start(), []nodetest.Sent{labTo(1, labID(3, 0, 1)), labTo(2, labID(3, 0, 1))})
	labStatus(t, h, "setup", node.None, 1)
	labSends(t, h.Deliver(1, labID(1, 0, 1)), nil)
	labSends(t, h.Deliver(2, labID(2, 0, 1)), nil)
	labStatus(t, h, "sink", node.None, 1)
	labCounter(t, h, "iteration", 1)
	// Iteration 1: values 1 and 2 come down; YES to the minimum, NO to the other,
	// which flips 2→3 into 3→2.
	labSends(t, h.Deliver(1, labID(1, 1, 1)), nil)
	labSends(t, h.Deliver(2, labID(2, 1, 1)), []nodetest.Sent{labTo(1, labVote("YES", 1, 1)), labTo(2, labVote("NO", 1, 1))})
	labStatus(t, h, "internal", node.None, 1)
	// Iteration 2: internal (1→3→2). The value goes on down; n2, a leaf sink,
	// answers PRUNE (a YES that removes the link), and n3 votes YES up.
	labSends(t, h.Deliver(1, labID(1, 2, 1)), []nodetest.Sent{labTo(2, labID(1, 2, 1))})
	labSends(t, h.Deliver(2, labPrune(true, 2, 1)), []nodetest.Sent{labTo(1, labVote("YES", 2, 1))})
	// Iteration 3: one link left, incoming: a leaf sink, which prunes itself.
	labStatus(t, h, "sink", node.None, 1)
	labSends(t, h.Deliver(1, labID(1, 3, 1)), []nodetest.Sent{labTo(1, labPrune(true, 3, 1))})
	labStatus(t, h, "pruned", node.None, 1)
	// The leader's ELECTED is flooded on the original links.
	labSends(t, h.Deliver(1, labElected(1, 1)), []nodetest.Sent{labTo(2, labElected(1, 1))})
	labStatus(t, h, "follower", 1, 1)
	labSends(t, h.Deliver(2, labElected(1, 1)), nil)
}

func TestYoyoPathSources(t *testing.T) {
	// n1: a source that wins.
	h := labYoyo(t, 1, []node.ID{3}, nil)
	h.Start()
	labSends(t, h.Deliver(3, labID(3, 0, 1)), []nodetest.Sent{labTo(3, labID(1, 1, 1))})
	labStatus(t, h, "source", node.None, 1)
	labSends(t, h.Deliver(3, labVote("YES", 1, 1)), []nodetest.Sent{labTo(3, labID(1, 2, 1))})
	labSends(t, h.Deliver(3, labVote("YES", 2, 1)), []nodetest.Sent{labTo(3, labID(1, 3, 1))})
	// Its last link pruned: it is the only process left.
	labSends(t, h.Deliver(3, labPrune(true, 3, 1)), []nodetest.Sent{labTo(3, labElected(1, 1))})
	labStatus(t, h, "leader", 1, 1)
	labCounter(t, h, "iteration", 3)

	// n2: a source that loses. The NO flips its link: now a leaf sink, it prunes
	// itself in iteration 2.
	h = labYoyo(t, 2, []node.ID{3}, nil)
	h.Start()
	labSends(t, h.Deliver(3, labID(3, 0, 1)), []nodetest.Sent{labTo(3, labID(2, 1, 1))})
	labSends(t, h.Deliver(3, labVote("NO", 1, 1)), nil)
	labStatus(t, h, "sink", node.None, 1)
	labSends(t, h.Deliver(3, labID(1, 2, 1)), []nodetest.Sent{labTo(3, labPrune(true, 2, 1))})
	labStatus(t, h, "pruned", node.None, 1)
	labSends(t, h.Deliver(3, labElected(1, 1)), nil) // no other neighbour
	labStatus(t, h, "follower", 1, 1)
}

// n5 with neighbours n1, n2 (below it: incoming) and n7 (above: outgoing).
func labInternal(t *testing.T) *nodetest.Harness {
	h := labYoyo(t, 5, []node.ID{1, 2, 7}, map[string]any{"initiators": "none"})
	h.Start()
	labSends(t, h.Deliver(1, labID(1, 0, 1)), []nodetest.Sent{labTo(1, labID(5, 0, 1)), labTo(2, labID(5, 0, 1)), labTo(7, labID(5, 0, 1))})
	h.Deliver(2, labID(2, 0, 1))
	h.Deliver(7, labID(7, 0, 1))
	labStatus(t, h, "internal", node.None, 1)
	return h
}

func TestYoyoInternalAllYes(t *testing.T) {
	h := labInternal(t)
	labSends(t, h.Deliver(1, labID(1, 1, 1)), nil)
	labSends(t, h.Deliver(2, labID(2, 1, 1)), []nodetest.Sent{labTo(7, labID(1, 1, 1))})
	labSends(t, h.Deliver(7, labVote("YES", 1, 1)), []nodetest.Sent{labTo(1, labVote("YES", 1, 1)), labTo(2, labVote("NO", 1, 1))})
	// The NO flipped 2→5 into 5→2: next iteration only n1 is below.
	labSends(t, h.Deliver(1, labID(1, 2, 1)), []nodetest.Sent{labTo(2, labID(1, 2, 1)), labTo(7, labID(1, 2, 1))})
}

func TestYoyoInternalNoPrunesDuplicatesAndBuffers(t *testing.T) {
	h := labInternal(t)
	// The same value from n1 and n2: n1's link is kept, n2 will be asked to prune.
	labSends(t, h.Deliver(1, labID(1, 1, 1)), nil)
	labSends(t, h.Deliver(2, labID(1, 1, 1)), []nodetest.Sent{labTo(7, labID(1, 1, 1))})
	// n7's value of iteration 2 overtakes its vote of iteration 1: buffered.
	labSends(t, h.Deliver(7, labID(1, 2, 1)), nil)
	// A NO from below: NO on every incoming link, the duplicate as PRUNE.
	labSends(t, h.Deliver(7, labVote("NO", 1, 1)), []nodetest.Sent{
		labTo(1, labVote("NO", 1, 1)), labTo(2, labPrune(false, 1, 1)),
		// iteration 2: 7→5 and 5→1 flipped, 5–2 pruned; the buffered value goes down
		labTo(1, labID(1, 2, 1)),
	})
	labCounter(t, h, "iteration", 2)
	labStatus(t, h, "internal", node.None, 1)
}

func TestYoyoEpochsAndStaleMessages(t *testing.T) {
	h := labYoyo(t, 1, []node.ID{3}, nil)
	h.Start()
	h.Deliver(3, labID(3, 0, 1))
	// Votes of another iteration, or from a process that is not below, are ignored.
	labSends(t, h.Deliver(3, labVote("YES", 2, 1)), nil)
	labSends(t, h.Deliver(4, labVote("YES", 1, 1)), nil)
	// A newer epoch starts a new setup: n1 is woken and sends its id.
	labSends(t, h.Deliver(3, labID(3, 0, 2)), []nodetest.Sent{labTo(3, labID(1, 0, 2)), labTo(3, labID(1, 1, 2))})
	labStatus(t, h, "source", node.None, 2)
	// An older one is dropped.
	labSends(t, h.Deliver(3, labVote("YES", 1, 1)), nil)
	labSends(t, h.Request("election"), []nodetest.Sent{labTo(3, labID(1, 0, 3))})
	labCounter(t, h, "elections", 2)
	// A recovered process sits out its epoch (3), then joins the next.
	labSends(t, h.Recover(), nil)
	labStatus(t, h, "asleep", node.None, 3)
	labSends(t, h.Deliver(3, labID(3, 0, 3)), nil)
	labSends(t, h.Deliver(3, labElected(3, 3)), nil)
	labSends(t, h.Deliver(3, labID(3, 0, 4)), []nodetest.Sent{labTo(3, labID(1, 0, 4)), labTo(3, labID(1, 1, 4))})
	labStatus(t, h, "source", node.None, 4)
}

func TestYoyoAlone(t *testing.T) {
	h := labYoyo(t, 4, nil, nil)
	labSends(t, h.Start(), nil)
	labStatus(t, h, "leader", 4, 1)
}

func TestYoyoParams(t *testing.T) {
	spec, ok := algos.Lookup("yoyo")
	if !ok {
		t.Fatal("yoyo is not registered")
	}
	if fmt.Sprint(spec.Messages) != "[ID YES NO PRUNE ELECTED]" || spec.Family != algos.Election {
		t.Errorf("messages %v, family %v", spec.Messages, spec.Family)
	}
	if p, _ := spec.Param("initiators"); p.Default != "all" {
		t.Errorf("initiators default %q, want all", p.Default)
	}
}

// TestYoyoPathCounts runs the path n1 — n3 — n2 (the unit tests above, together)
// and counts every message:
//   - setup: every process sends its id on each link: 2|E| = 4 ID;
//   - iteration 1: sources n1, n2 send 2 ID to the sink n3, which answers YES to n1
//     and NO to n2 (flipping it to 3→2);
//   - iteration 2: 1→3→2: 2 ID; n2, a leaf sink, PRUNEs; n3 votes YES;
//   - iteration 3: 1→3: 1 ID; n3, now a leaf sink, PRUNEs; n1 has no link left;
//   - ELECTED: n1 to n3, n3 to n2: 2|E| − (N−1) = 2.
//
// ID 4+2+2+1 = 9, YES 2, NO 1, PRUNE 2 (= |E|: every link is pruned once), ELECTED
// 2; 3 iterations.
func TestYoyoPathCounts(t *testing.T) {
	w := labWorld{ids: nodetest.IDs(3), topo: "graph", edges: [][2]node.ID{{1, 3}, {3, 2}}}.run(t, "yoyo", nil, 2*time.Second)
	labAgree(t, w, 1)
	for typ, want := range map[string]int{"ID": 9, "YES": 2, "NO": 1, "PRUNE": 2, "ELECTED": 2} {
		if got := labSent(w, typ); got != want {
			t.Errorf("%s sent = %d, want %d", typ, got, want)
		}
	}
	if st, _ := w.Status(1); st.Role != "leader" {
		t.Errorf("n1 is %q", st.Role)
	} else if it, _ := st.Counter("iteration"); it != 3 {
		t.Errorf("n1 ended in iteration %d, want 3", it)
	}
}

// TestYoyoRandomGraphs runs Yo-Yo on random connected graphs, with random
// latencies so that messages of different iterations overtake one another: the
// minimum always wins and everyone learns it; every link is pruned exactly once
// (PRUNE = |E|, the last source is left alone); the flood costs 2|E| − (N−1).
func TestYoyoRandomGraphs(t *testing.T) {
	lat := netsim.Latency{Dist: "uniform", Min: time.Millisecond, Max: 25 * time.Millisecond}
	for _, n := range []int{2, 5, 10, 24} {
		for _, degree := range []int{2, 3, 5} {
			for seed := uint64(1); seed <= 5; seed++ {
				ids := labScrambled(n)
				w := labWorld{ids: ids, topo: "graph", degree: degree, lat: lat, seed: seed}.run(t, "yoyo", nil, 10*time.Second)
				e := len(w.Edges())
				name := fmt.Sprintf("N=%d degree=%d seed=%d (%d links)", n, degree, seed, e)
				labAgree(t, w, 1)
				if got := labSent(w, "PRUNE"); got != e {
					t.Errorf("%s: PRUNE sent = %d, want |E| = %d", name, got, e)
				}
				if got, want := labSent(w, "ELECTED"), 2*e-(n-1); got != want {
					t.Errorf("%s: ELECTED sent = %d, want 2|E|−(N−1) = %d", name, got, want)
				}
				if got := labSent(w, "ID"); got < 2*e {
					t.Errorf("%s: ID sent = %d, fewer than the setup's 2|E| = %d", name, got, 2*e)
				}
				if a := w.Summary().Alerts; len(a) > 0 {
					t.Errorf("%s: alerts %v", name, a)
				}
			}
		}
	}
}

// TestYoyoOneInitiatorAndARequest: only n4 starts; the others are woken by its
// setup messages. A later request at n7 runs the whole election again (epoch 2).
func TestYoyoOneInitiatorAndARequest(t *testing.T) {
	w := labWorld{ids: labScrambled(10), topo: "graph", degree: 3, script: []string{"2s request n7 election"}}.
		run(t, "yoyo", map[string]any{"initiators": []any{"n4"}}, time.Second)
	labAgree(t, w, 1)
	pruned := labSent(w, "PRUNE")
	w.RunUntil(3 * time.Second)
	labAgree(t, w, 1)
	if got := labSent(w, "PRUNE"); got != 2*pruned {
		t.Errorf("PRUNE after two elections = %d, want twice %d", got, pruned)
	}
	if st, _ := w.Status(1); st.Term != 2 {
		t.Errorf("n1 leads epoch %d, want 2", st.Term)
	}
}

func TestYoyoRecoversThroughARequest(t *testing.T) {
	labFaultsThenRequest(t, "yoyo", "graph", func(int) node.ID { return 1 })
}

// link_timeout: n2, whose neighbour n9 stays silent (its link is cut), gives up on
// it after the timeout and orients its other links without it: a source of three
// links, not four. Without the timeout it would wait in the setup for ever. An id
// that comes after the link was given up changes nothing.
func TestYoyoLinkTimeout(t *testing.T) {
	h := labYoyo(t, 2, []node.ID{5, 8, 7, 9}, map[string]any{"link_timeout": "200ms"})
	labSends(t, h.Start(), []nodetest.Sent{labTo(5, labID(2, 0, 1)), labTo(8, labID(2, 0, 1)), labTo(7, labID(2, 0, 1)), labTo(9, labID(2, 0, 1))})
	for _, q := range []node.ID{5, 8, 7} {
		labSends(t, h.Deliver(q, labID(q, 0, 1)), nil)
	}
	labStatus(t, h, "setup", node.None, 1)
	if d, ok := h.Armed("yoyo.link"); !ok || d != 200*time.Millisecond {
		t.Fatalf("link timer armed %v for %v, want 200ms", ok, d)
	}
	labSends(t, h.Fire("yoyo.link"), []nodetest.Sent{labTo(5, labID(2, 1, 1)), labTo(8, labID(2, 1, 1)), labTo(7, labID(2, 1, 1))})
	labStatus(t, h, "source", node.None, 1)
	labSends(t, h.Deliver(9, labID(9, 0, 1)), nil)
	labSends(t, h.Deliver(9, labVote("NO", 1, 1)), nil) // not a link of its view any more

	// The same setup without the timeout waits for n9: no timer, still in setup.
	h = labYoyo(t, 2, []node.ID{5, 8, 7, 9}, nil)
	h.Start()
	for _, q := range []node.ID{5, 8, 7} {
		labSends(t, h.Deliver(q, labID(q, 0, 1)), nil)
	}
	if _, ok := h.Armed("yoyo.link"); ok {
		t.Fatal("a link timer without link_timeout")
	}
	labStatus(t, h, "setup", node.None, 1)

	// A setup that completes in time cancels the timer.
	h = labYoyo(t, 2, []node.ID{5, 9}, map[string]any{"link_timeout": "200ms"})
	h.Start()
	h.Deliver(5, labID(5, 0, 1))
	h.Deliver(9, labID(9, 0, 1))
	if _, ok := h.Armed("yoyo.link"); ok {
		t.Fatal("the link timer is still armed after every id came")
	}
}
