package election

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

// labProbe is a PROBE of id in round r of epoch e travelling right (towards the
// successor) or left.
func labProbe(id node.ID, r, e int64, right bool) node.Message {
	return node.Message{Type: "PROBE", ID: id, Term: r, Stamp: e, Flag: right}
}

const (
	goingRight = true
	goingLeft  = false
)

// The ring used below: [1 5 2 4 3]. n5 sits between n1 (left) and n2 (right); n2
// between n5 and n4; n4 between n2 and n3; n3 between n4 and n1.
var frRing = []node.ID{1, 5, 2, 4, 3}

func TestFranklinRoundOneSendsBothWays(t *testing.T) {
	h := labHarness(t, "franklin", 5, frRing, nil)
	labSends(t, h.Start(), []nodetest.Sent{
		labTo(2, labProbe(5, 1, 1, goingRight)),
		labTo(1, labProbe(5, 1, 1, goingLeft)),
	})
	labStatus(t, h, "candidate", node.None, 1)
	labCounter(t, h, "elections", 1)
	labCounter(t, h, "round", 1)
}

func TestFranklinSurvivesARoundAndBuffersTheNext(t *testing.T) {
	h := labHarness(t, "franklin", 5, frRing, nil)
	h.Start()
	// From the left (travelling right) comes n1's id.
	labSends(t, h.Deliver(1, labProbe(1, 1, 1, goingRight)), nil)
	// A round-2 probe from the right arrives early (n4 won its round 1 first and n2
	// relays it): buffered.
	labSends(t, h.Deliver(2, labProbe(4, 2, 1, goingLeft)), nil)
	labCounter(t, h, "round", 1)
	// n2's id from the right: 5 beats 1 and 2, round 2 begins, and the buffered
	// probe is taken at once.
	labSends(t, h.Deliver(2, labProbe(2, 1, 1, goingLeft)), []nodetest.Sent{
		labTo(2, labProbe(5, 2, 1, goingRight)),
		labTo(1, labProbe(5, 2, 1, goingLeft)),
	})
	labCounter(t, h, "round", 2)
	labStatus(t, h, "candidate", node.None, 1)
	// Round 2's left side: n4's id again, this time round the other way. 5 wins
	// round 2 as well.
	labSends(t, h.Deliver(1, labProbe(4, 2, 1, goingRight)), []nodetest.Sent{
		labTo(2, labProbe(5, 3, 1, goingRight)),
		labTo(1, labProbe(5, 3, 1, goingLeft)),
	})
	// Its own id comes back from both sides: it is the leader.
	labSends(t, h.Deliver(1, labProbe(5, 3, 1, goingRight)), nil)
	labSends(t, h.Deliver(2, labProbe(5, 3, 1, goingLeft)), []nodetest.Sent{labTo(2, labElected(5, 1))})
	labStatus(t, h, "leader", 5, 1)
	labCounter(t, h, "round", 3)
	// ELECTED back home stops.
	labSends(t, h.Deliver(1, labElected(5, 1)), nil)
}

func TestFranklinRelayPassesMessagesOn(t *testing.T) {
	// n2 sits between n5 (left) and n4 (right).
	h := labHarness(t, "franklin", 2, frRing, nil)
	h.Start()
	labSends(t, h.Deliver(4, labProbe(4, 1, 1, goingLeft)), nil)
	// a round-2 probe of n5's, early: buffered while n2 is still active
	labSends(t, h.Deliver(5, labProbe(5, 2, 1, goingRight)), nil)
	// n5's round-1 id from the left: n2 loses (4 and 5 are larger) and becomes a
	// relay, which passes the buffered probe on, to the right.
	labSends(t, h.Deliver(5, labProbe(5, 1, 1, goingRight)), []nodetest.Sent{labTo(4, labProbe(5, 2, 1, goingRight))})
	labStatus(t, h, "relay", node.None, 1)
	labCounter(t, h, "round", 1)
	// A relay passes everything on in the direction it was going.
	labSends(t, h.Deliver(4, labProbe(4, 2, 1, goingLeft)), []nodetest.Sent{labTo(5, labProbe(4, 2, 1, goingLeft))})
	labSends(t, h.Deliver(5, labProbe(5, 3, 1, goingRight)), []nodetest.Sent{labTo(4, labProbe(5, 3, 1, goingRight))})
	// ELECTED is recorded and passed to the successor, once.
	labSends(t, h.Deliver(5, labElected(5, 1)), []nodetest.Sent{labTo(4, labElected(5, 1))})
	labStatus(t, h, "follower", 5, 1)
	labSends(t, h.Deliver(5, labElected(5, 1)), nil)
	// Leftovers of a finished election are dropped.
	labSends(t, h.Deliver(5, labProbe(5, 3, 1, goingRight)), nil)
}

func TestFranklinWakesUpOnTheFirstProbe(t *testing.T) {
	h := labHarness(t, "franklin", 4, frRing, map[string]any{"initiators": []any{"n5"}})
	labSends(t, h.Start(), nil)
	labStatus(t, h, "asleep", node.None, 0)
	// n2's probe wakes n4: it sends its own round-1 probes, then takes n2's.
	labSends(t, h.Deliver(2, labProbe(2, 1, 1, goingRight)), []nodetest.Sent{
		labTo(3, labProbe(4, 1, 1, goingRight)),
		labTo(2, labProbe(4, 1, 1, goingLeft)),
	})
	labStatus(t, h, "candidate", node.None, 1)
	labCounter(t, h, "elections", 0)
	// n3's id from the right: 4 beats 2 and 3.
	labSends(t, h.Deliver(3, labProbe(3, 1, 1, goingLeft)), []nodetest.Sent{
		labTo(3, labProbe(4, 2, 1, goingRight)),
		labTo(2, labProbe(4, 2, 1, goingLeft)),
	})
}

func TestFranklinEpochs(t *testing.T) {
	h := labHarness(t, "franklin", 2, frRing, nil)
	h.Start()
	h.Deliver(4, labProbe(4, 1, 1, goingLeft))
	h.Deliver(5, labProbe(5, 1, 1, goingRight))
	h.Deliver(5, labElected(5, 1))
	labStatus(t, h, "follower", 5, 1)
	// A request opens epoch 2 with fresh round-1 probes.
	labSends(t, h.Request("election"), []nodetest.Sent{
		labTo(4, labProbe(2, 1, 2, goingRight)),
		labTo(5, labProbe(2, 1, 2, goingLeft)),
	})
	labStatus(t, h, "candidate", 5, 2)
	labCounter(t, h, "elections", 2)
	// Epoch 1 is over: its messages are dropped.
	labSends(t, h.Deliver(5, labProbe(5, 2, 1, goingRight)), nil)
	labSends(t, h.Deliver(5, labElected(4, 1)), nil)
	// A probe of epoch 3 makes n2 drop epoch 2 and join 3, woken.
	labSends(t, h.Deliver(4, labProbe(4, 1, 3, goingLeft)), []nodetest.Sent{
		labTo(4, labProbe(2, 1, 3, goingRight)),
		labTo(5, labProbe(2, 1, 3, goingLeft)),
	})
	labStatus(t, h, "candidate", 5, 3)
	// A recovered process sits out the epoch it was in (3, from stable storage)...
	labSends(t, h.Recover(), nil)
	labStatus(t, h, "asleep", node.None, 3)
	labSends(t, h.Deliver(4, labProbe(4, 2, 3, goingLeft)), nil)
	labSends(t, h.Deliver(4, labElected(5, 3)), nil)
	labStatus(t, h, "asleep", node.None, 3)
	// ...and joins the next one.
	labSends(t, h.Deliver(5, labProbe(5, 1, 4, goingRight)), []nodetest.Sent{
		labTo(4, labProbe(2, 1, 4, goingRight)),
		labTo(5, labProbe(2, 1, 4, goingLeft)),
	})
	labStatus(t, h, "candidate", node.None, 4)
	// Or, asked to, starts it.
	h.Recover()
	labSends(t, h.Request("election"), []nodetest.Sent{
		labTo(4, labProbe(2, 1, 5, goingRight)),
		labTo(5, labProbe(2, 1, 5, goingLeft)),
	})
}

func TestFranklinTwoAndOne(t *testing.T) {
	// Two processes: both neighbours are the other one; Flag tells the sides apart.
	ids := []node.ID{1, 2}
	h := labHarness(t, "franklin", 2, ids, nil)
	labSends(t, h.Start(), []nodetest.Sent{labTo(1, labProbe(2, 1, 1, goingRight)), labTo(1, labProbe(2, 1, 1, goingLeft))})
	h.Deliver(1, labProbe(1, 1, 1, goingRight))
	labSends(t, h.Deliver(1, labProbe(1, 1, 1, goingLeft)), []nodetest.Sent{labTo(1, labProbe(2, 2, 1, goingRight)), labTo(1, labProbe(2, 2, 1, goingLeft))})
	h.Deliver(1, labProbe(2, 2, 1, goingLeft))
	labSends(t, h.Deliver(1, labProbe(2, 2, 1, goingRight)), []nodetest.Sent{labTo(1, labElected(2, 1))})
	labStatus(t, h, "leader", 2, 1)

	// One process: everything is local.
	h = labHarness(t, "franklin", 9, []node.ID{9}, nil)
	labSends(t, h.Start(), []nodetest.Sent{labTo(9, labProbe(9, 1, 1, goingRight)), labTo(9, labProbe(9, 1, 1, goingLeft))})
	h.Deliver(9, labProbe(9, 1, 1, goingRight))
	labSends(t, h.Deliver(9, labProbe(9, 1, 1, goingLeft)), []nodetest.Sent{labTo(9, labElected(9, 1))})
	labStatus(t, h, "leader", 9, 1)
}

func TestFranklinParams(t *testing.T) {
	spec, ok := algos.Lookup("franklin")
	if !ok {
		t.Fatal("franklin is not registered")
	}
	if fmt.Sprint(spec.Messages) != "[PROBE ELECTED]" || spec.Family != algos.Election {
		t.Errorf("messages %v, family %v", spec.Messages, spec.Family)
	}
	if p, _ := spec.Param("initiators"); p.Default != "all" {
		t.Errorf("initiators default %q, want all", p.Default)
	}
	p, err := algos.NewParams(spec, map[string]any{"initiators": "n7"})
	if err == nil {
		_, err = spec.Build(algos.Config{IDs: nodetest.IDs(3), Params: p})
	}
	if err == nil {
		t.Error("initiators = n7 on three nodes: no error")
	}
	if _, err := algos.NewParams(spec, map[string]any{"skip_suspected": true}); err == nil {
		t.Error("franklin accepted skip_suspected")
	}
}

// TestFranklinOneInitiatorWakesEveryone: only n3 starts; the others are woken by
// the probes and compete, so the maximum of the whole ring still wins, and a later
// request runs the election again (epoch 2) to the same result.
func TestFranklinOneInitiatorWakesEveryone(t *testing.T) {
	ids := labScrambled(9)
	w := labWorld{ids: ids, topo: "ring", script: []string{"2s request n4 election"}}.
		run(t, "franklin", map[string]any{"initiators": []any{"n3"}}, time.Second)
	labAgree(t, w, 9)
	for _, id := range ids {
		st, _ := w.Status(id)
		want := int64(0)
		if id == 3 {
			want = 1
		}
		if got, _ := st.Counter("elections"); got != want {
			t.Errorf("%v started %d elections, want %d", id, got, want)
		}
	}
	w.RunUntil(3 * time.Second)
	labAgree(t, w, 9)
	if st, _ := w.Status(9); st.Term != 2 || st.Role != "leader" {
		t.Errorf("n9: %+v, want the leader of epoch 2", st)
	}
}

// labFaultsThenRequest runs algo through random crashes and recoveries (every
// crashed process recovered at the end), then a user request at a random process,
// and checks that every process ends up agreeing on the maximum (franklin) or the
// minimum (yoyo). Neither algorithm tolerates the faults; the request is what
// restarts it, and a recovered process must join that newer election.
func labFaultsThenRequest(t *testing.T, algo string, topo string, winner func(n int) node.ID) {
	seeds := uint64(150)
	if testing.Short() {
		seeds = 20
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		r := rand.New(rand.NewPCG(seed, 9))
		n := 2 + r.IntN(7)
		var script []string
		down := make([]bool, n+1)
		at := 0
		for k := 0; k < 1+r.IntN(6); k++ {
			at += 5 + r.IntN(300)
			p := 1 + r.IntN(n)
			verb := "crash"
			if down[p] {
				verb = "recover"
			}
			script = append(script, fmt.Sprintf("%dms %s n%d", at, verb, p))
			down[p] = !down[p]
		}
		for p := 1; p <= n; p++ {
			if down[p] {
				at += 10
				script = append(script, fmt.Sprintf("%dms recover n%d", at, p))
			}
		}
		at += 1000
		script = append(script, fmt.Sprintf("%dms request n%d election", at, 1+r.IntN(n)))
		lat := netsim.Latency{Dist: "uniform", Min: 2 * time.Millisecond, Max: 30 * time.Millisecond}
		w := labWorld{ids: labScrambled(n), topo: topo, degree: 3, lat: lat, seed: seed, script: script}.
			run(t, algo, nil, time.Duration(at+5000)*time.Millisecond)
		var views []string
		ok := true
		for _, id := range nodetest.IDs(n) {
			st, _ := w.Status(id)
			views = append(views, fmt.Sprintf("%v:%s/%v/e%d", id, st.Role, st.Leader, st.Term))
			ok = ok && st.Leader == winner(n)
		}
		if !ok {
			t.Errorf("seed %d, N=%d, %v: %v", seed, n, script, views)
		}
	}
}

func TestFranklinRecoversThroughARequest(t *testing.T) {
	labFaultsThenRequest(t, "franklin", "ring", func(n int) node.ID { return node.ID(n) })
}
