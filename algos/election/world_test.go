package election_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// world builds a lossless cluster of n processes with a constant 10ms latency, so
// that message counts are exact.
func world(t interface{ Fatal(...any) }, name string, n int, seed uint64, params map[string]any, script []netsim.Timed, sink trace.Sink) *netsim.World {
	return worldOn(t, netsim.Net{Latency: netsim.Latency{Dist: "constant", Mean: 10 * time.Millisecond}, Delta: 50 * time.Millisecond},
		name, n, seed, params, script, sink)
}

// worldOn is world on the given network.
func worldOn(t interface{ Fatal(...any) }, net netsim.Net, name string, n int, seed uint64, params map[string]any, script []netsim.Timed, sink trace.Sink) *netsim.World {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	spec, f, err := algos.Build(name, ids, params)
	if err != nil {
		t.Fatal(err)
	}
	w, err := netsim.New(netsim.Config{Name: name, Spec: spec, Factory: f, IDs: ids, Seed: seed,
		Net:      net,
		Monitors: netsim.DefaultMonitors, Script: script}, sink)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// bullyAfterCrash elects n5 among N processes, crashes the highest, and has one
// process detect it by a user request (the silence timeout is long, so no one else
// notices during the election). It returns the counts sent after the crash.
func bullyAfterCrash(t *testing.T, n int, detector node.ID) map[string]int {
	top := node.ID(n)
	script := []netsim.Timed{
		{At: time.Second, Action: netsim.Action{Verb: "crash", Node: top}},
		{At: time.Second, Action: netsim.Action{Verb: "request", Node: detector, What: "election"}},
	}
	w := world(t, "bully", n, 1, map[string]any{"timeout": "10s", "t_trans": "10ms", "t_proc": "5ms"}, script, nil)
	defer w.Close()
	w.RunUntil(time.Second)
	before := map[string]int{}
	for _, typ := range []string{"ELECTION", "ANSWER", "COORDINATOR"} {
		before[typ] = w.Sent(typ)
	}
	if st, _ := w.Status(1); st.Leader != top {
		t.Fatalf("before the crash n1 follows %v, want %v", st.Leader, top)
	}
	w.RunUntil(3 * time.Second)
	for _, id := range []node.ID{1, top - 1} {
		if st, _ := w.Status(id); st.Leader != top-1 {
			t.Fatalf("after the election %v follows %v, want %v", id, st.Leader, top-1)
		}
	}
	after := map[string]int{}
	for typ, k := range before {
		after[typ] = w.Sent(typ) - k
	}
	return after
}

// TestBullyBestCase: the second-highest detects the crash of the highest. Its one
// ELECTION goes to the dead process and is never answered, so after T it sends
// COORDINATOR to the N−2 lower ids: N−2 COORDINATOR messages, no ANSWER.
func TestBullyBestCase(t *testing.T) {
	for _, n := range []int{3, 5, 8} {
		got := bullyAfterCrash(t, n, node.ID(n-1))
		want := map[string]int{"ELECTION": 1, "ANSWER": 0, "COORDINATOR": n - 2}
		if got["ELECTION"] != want["ELECTION"] || got["ANSWER"] != 0 || got["COORDINATOR"] != want["COORDINATOR"] {
			t.Errorf("N=%d: %v, want %v", n, got, want)
		}
	}
}

// TestBullyWorstCase: the lowest id detects the crash of the highest, for N = 5.
//
//	ELECTION:    n1 → n2..n5 (4), n2 → n3..n5 (3), n3 → n4,n5 (2), n4 → n5 (1):
//	             N(N−1)/2 = 10, each process starting once.
//	ANSWER:      every live process answers each ELECTION from a lower id: n2 answers
//	             n1, n3 answers n1,n2, n4 answers n1,n2,n3: (N−1)(N−2)/2 = 6.
//	COORDINATOR: n4 hears no answer from n5 and tells n1,n2,n3: N−2 = 3.
//
// 19 messages in all, O(N²).
func TestBullyWorstCase(t *testing.T) {
	got := bullyAfterCrash(t, 5, 1)
	want := map[string]int{"ELECTION": 10, "ANSWER": 6, "COORDINATOR": 3}
	for typ, k := range want {
		if got[typ] != k {
			t.Errorf("%s: %d, want %d (all: %v)", typ, got[typ], k, got)
		}
	}
}

// leaderWatch is a sink that records every (term, leader) claim and whether a
// minority process claimed leadership of a term it started inside a partition.
type leaderWatch struct {
	termLeader map[int64]node.ID
	twoInTerm  bool
	minority   map[node.ID]bool
	termAtCut  int64
	minorWin   bool
	maxTerm    int64
}

func (l *leaderWatch) Record(e *trace.Event) {
	switch e.Ev {
	case trace.Partition:
		l.minority = map[node.ID]bool{}
		small := e.Groups[0]
		for _, g := range e.Groups {
			if len(g) < len(small) {
				small = g
			}
		}
		for _, id := range small {
			l.minority[id] = true
		}
		l.termAtCut = l.maxTerm
	case trace.Heal:
		l.minority = nil
	case trace.StatusEv:
		s := e.Status
		l.maxTerm = max(l.maxTerm, s.Term)
		if s.Leader != e.Node {
			return
		}
		if who, ok := l.termLeader[s.Term]; ok && who != e.Node {
			l.twoInTerm = true
		}
		l.termLeader[s.Term] = e.Node
		if l.minority[e.Node] && s.Term > l.termAtCut {
			l.minorWin = true
		}
	}
}

// TestRaftSafety: over random seeds, sizes, latencies, duplication, partitions and
// crashes, no two processes ever lead the same term, no process on the minority
// side of a partition is elected in a term started after the partition, and once
// the network heals and every process is up, exactly one leads within 3 seconds.
func TestRaftSafety(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(3, 7).Draw(rt, "n")
		var script []netsim.Timed
		at := time.Duration(0)
		for i := rapid.IntRange(1, 4).Draw(rt, "faults"); i > 0; i-- {
			at += time.Duration(rapid.IntRange(200, 1500).Draw(rt, "gap")) * time.Millisecond
			ids := rapid.Permutation([]node.ID{1, 2, 3, 4, 5, 6, 7}[:n]).Draw(rt, "perm")
			switch rapid.IntRange(0, 2).Draw(rt, "kind") {
			case 0:
				k := rapid.IntRange(1, (n-1)/2).Draw(rt, "minority")
				script = append(script, netsim.Timed{At: at, Action: netsim.Action{Verb: "partition", Groups: [][]node.ID{ids[:k], ids[k:]}}})
			case 1:
				script = append(script, netsim.Timed{At: at, Action: netsim.Action{Verb: "heal"}})
			case 2:
				verb := rapid.SampledFrom([]string{"crash", "recover"}).Draw(rt, "verb")
				script = append(script, netsim.Timed{At: at, Action: netsim.Action{Verb: verb, Node: ids[0]}})
			}
		}
		// Then the network heals and every process is up: a leader must emerge.
		at += 500 * time.Millisecond
		script = append(script, netsim.Timed{At: at, Action: netsim.Action{Verb: "heal"}})
		for id := 1; id <= n; id++ {
			script = append(script, netsim.Timed{At: at, Action: netsim.Action{Verb: "recover", Node: node.ID(id)}})
		}
		lw := &leaderWatch{termLeader: map[int64]node.ID{}}
		// Random latencies reorder messages; duplication makes a voter's VOTE arrive
		// twice (it must count once).
		net := netsim.Net{Latency: netsim.Latency{Dist: "uniform", Min: time.Millisecond, Max: time.Duration(rapid.IntRange(2, 60).Draw(rt, "maxms")) * time.Millisecond},
			Dup: rapid.SampledFrom([]float64{0, 0.3}).Draw(rt, "dup"), Delta: 100 * time.Millisecond}
		w := worldOn(rt, net, "raft", n, rapid.Uint64().Draw(rt, "seed"), nil, script, lw)
		defer w.Close()
		w.RunUntil(at + 3*time.Second)
		if lw.twoInTerm {
			rt.Fatal("two leaders in one term")
		}
		if lw.minorWin {
			rt.Fatal("a minority process was elected during a partition")
		}
		leaders := 0
		for id := 1; id <= n; id++ {
			if st, up := w.Status(node.ID(id)); up && st.Leader == node.ID(id) {
				leaders++
			}
		}
		if leaders != 1 {
			rt.Fatalf("%d leaders 3s after everything healed, want 1", leaders)
		}
	})
}
