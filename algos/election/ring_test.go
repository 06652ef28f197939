package election

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/algos/detector"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

// labHarness drives process self of algorithm algo among ids, event by event.
func labHarness(t *testing.T, algo string, self node.ID, ids []node.ID, params map[string]any) *nodetest.Harness {
	t.Helper()
	return nodetest.New(build(t, algo, ids, params), self, ids, 1)
}

// labSends checks the messages of effs of the given types (all if none), in order.
func labSends(t *testing.T, effs []node.Effect, want []nodetest.Sent, types ...string) {
	t.Helper()
	var got []nodetest.Sent
	for _, s := range nodetest.Sends(effs) {
		if len(types) == 0 || slices.Contains(types, s.Msg.Type) {
			got = append(got, s)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("sent %v, want %v", got, want)
	}
}

// labStatus checks role, leader and term.
func labStatus(t *testing.T, h *nodetest.Harness, role string, leader node.ID, term int64) {
	t.Helper()
	st := h.Status()
	if st.Role != role || st.Leader != leader || st.Term != term {
		t.Fatalf("%v: role %q, leader %v, term %d; want %q, %v, %d", h.ID, st.Role, st.Leader, st.Term, role, leader, term)
	}
}

func labCounter(t *testing.T, h *nodetest.Harness, name string, want int64) {
	t.Helper()
	if got, ok := h.Status().Counter(name); !ok || got != want {
		t.Fatalf("%v: counter %s = %d (present %v), want %d", h.ID, name, got, ok, want)
	}
}

func labElection(id node.ID, epoch int64) node.Message {
	return node.Message{Type: "ELECTION", ID: id, Stamp: epoch}
}

func labElected(id node.ID, epoch int64) node.Message {
	return node.Message{Type: "ELECTED", ID: id, Stamp: epoch}
}

func labTo(id node.ID, m node.Message) nodetest.Sent { return nodetest.Sent{To: id, Msg: m} }

func TestRingInitiatorSendsItsIDToTheSuccessor(t *testing.T) {
	ids := nodetest.IDs(5)
	h := labHarness(t, "ring", 3, ids, map[string]any{"initiators": []any{"n3"}})
	labSends(t, h.Start(), []nodetest.Sent{labTo(4, labElection(3, 1))})
	labStatus(t, h, "participant", node.None, 1)
	labCounter(t, h, "elections", 1)

	// The successor of the last process is the first.
	h = labHarness(t, "ring", 5, ids, nil) // default: every process initiates
	labSends(t, h.Start(), []nodetest.Sent{labTo(1, labElection(5, 1))})

	// A process that is not an initiator waits.
	h = labHarness(t, "ring", 2, ids, map[string]any{"initiators": "none"})
	labSends(t, h.Start(), nil)
	labStatus(t, h, "non-participant", node.None, 0)
	labCounter(t, h, "elections", 0)
}

func TestRingForwardReplaceSwallow(t *testing.T) {
	ids := nodetest.IDs(5)
	none := map[string]any{"initiators": "none"}

	// A larger id is forwarded, and makes this process a participant.
	h := labHarness(t, "ring", 3, ids, none)
	h.Start()
	labSends(t, h.Deliver(2, labElection(5, 1)), []nodetest.Sent{labTo(4, labElection(5, 1))})
	labStatus(t, h, "participant", node.None, 1)
	// Now a participant, a smaller id is swallowed...
	labSends(t, h.Deliver(2, labElection(1, 1)), nil)
	// ...and a larger one still forwarded.
	labSends(t, h.Deliver(2, labElection(4, 1)), []nodetest.Sent{labTo(4, labElection(4, 1))})

	// Not a participant: a smaller id is replaced with the own id.
	h = labHarness(t, "ring", 3, ids, none)
	h.Start()
	labSends(t, h.Deliver(2, labElection(1, 1)), []nodetest.Sent{labTo(4, labElection(3, 1))})
	labStatus(t, h, "participant", node.None, 1)
	labCounter(t, h, "elections", 0) // it joined, it did not start one
	// Its own id coming back: it won.
	labSends(t, h.Deliver(2, labElection(3, 1)), []nodetest.Sent{labTo(4, labElected(3, 1))})
	labStatus(t, h, "leader", 3, 1)
	// ELECTED back home stops; so does a late copy of its own id.
	labSends(t, h.Deliver(2, labElected(3, 1)), nil)
	labSends(t, h.Deliver(2, labElection(3, 1)), nil)
	labStatus(t, h, "leader", 3, 1)
}

func TestRingElectedIsRecordedAndForwardedOnce(t *testing.T) {
	h := labHarness(t, "ring", 2, nodetest.IDs(4), nil)
	h.Start()
	h.Deliver(1, labElection(4, 1))
	labSends(t, h.Deliver(1, labElected(4, 1)), []nodetest.Sent{labTo(3, labElected(4, 1))})
	labStatus(t, h, "follower", 4, 1)
	labSends(t, h.Deliver(1, labElected(4, 1)), nil) // a duplicate
	// A stale ELECTION of the decided epoch does nothing.
	labSends(t, h.Deliver(1, labElection(4, 1)), nil)
	labStatus(t, h, "follower", 4, 1)
}

func TestRingEpochs(t *testing.T) {
	ids := nodetest.IDs(5)
	h := labHarness(t, "ring", 3, ids, nil)
	h.Start()
	h.Deliver(2, labElection(5, 1))
	h.Deliver(2, labElected(5, 1))
	labStatus(t, h, "follower", 5, 1)

	// A newer epoch is joined as a non-participant: the smaller id is replaced.
	labSends(t, h.Deliver(2, labElection(1, 2)), []nodetest.Sent{labTo(4, labElection(3, 2))})
	labStatus(t, h, "participant", 5, 2) // the old leader stays until ELECTED
	// An older epoch's messages are dropped.
	labSends(t, h.Deliver(2, labElection(4, 1)), nil)
	labSends(t, h.Deliver(2, labElected(4, 1)), nil)
	labStatus(t, h, "participant", 5, 2)

	// A user request opens the next epoch, even while a participant.
	labSends(t, h.Request("election"), []nodetest.Sent{labTo(4, labElection(3, 3))})
	labCounter(t, h, "elections", 2)
	labSends(t, h.Request("cs"), nil) // not ours

	// An ELECTED of a newer epoch is taken at once.
	labSends(t, h.Deliver(2, labElected(4, 7)), []nodetest.Sent{labTo(4, labElected(4, 7))})
	labStatus(t, h, "follower", 4, 7)
}

func TestRingRecoverStartsANewerEpoch(t *testing.T) {
	ids := nodetest.IDs(3)
	h := labHarness(t, "ring", 2, ids, nil)
	h.Start()
	h.Deliver(1, labElection(3, 1))
	h.Deliver(1, labElected(3, 1))
	// The epoch is in stable storage; the leader is volatile.
	labSends(t, h.Recover(), []nodetest.Sent{labTo(3, labElection(2, 2))})
	labStatus(t, h, "participant", node.None, 2)
	labCounter(t, h, "elections", 1) // this incarnation's
}

func TestRingRelaunchesForAProcessThatMissedElections(t *testing.T) {
	// n1 decided epoch 4 while n3 was down. n3 comes back with epoch 3 stored and
	// starts epoch 4: its ELECTION reaches n1 straight from n3 (the sender is the
	// candidate) in an epoch n1 has decided. n1 starts epoch 5, which n3 will join.
	h := labHarness(t, "ring", 1, nodetest.IDs(3), map[string]any{"initiators": "none"})
	h.Start()
	h.Deliver(3, labElection(2, 4))
	h.Deliver(3, labElected(2, 4))
	labStatus(t, h, "follower", 2, 4)
	labSends(t, h.Deliver(3, labElection(3, 4)), []nodetest.Sent{labTo(2, labElection(1, 5))})
	labCounter(t, h, "elections", 1)
	// A stale message forwarded by someone else is just dropped.
	h.Deliver(3, labElected(3, 5))
	labSends(t, h.Deliver(3, labElection(2, 5)), nil)
}

func TestRingAlone(t *testing.T) {
	h := labHarness(t, "ring", 7, []node.ID{7}, nil)
	// The successor of a lone process is itself: local deliveries.
	labSends(t, h.Start(), []nodetest.Sent{labTo(7, labElection(7, 1))})
	labSends(t, h.Deliver(7, labElection(7, 1)), []nodetest.Sent{labTo(7, labElected(7, 1))})
	labSends(t, h.Deliver(7, labElected(7, 1)), nil)
	labStatus(t, h, "leader", 7, 1)
}

func TestRingRingOrderIsPeersOrder(t *testing.T) {
	// ids = [17, 24, 1, 28]: the successor of 24 is 1, of 28 is 17.
	ids := []node.ID{17, 24, 1, 28}
	h := labHarness(t, "ring", 24, ids, nil)
	labSends(t, h.Start(), []nodetest.Sent{labTo(1, labElection(24, 1))})
	h = labHarness(t, "ring", 28, ids, nil)
	labSends(t, h.Start(), []nodetest.Sent{labTo(17, labElection(28, 1))})
}

func TestRingSkipSuspected(t *testing.T) {
	ids := nodetest.IDs(5)
	skip := map[string]any{"skip_suspected": true, "initiators": "none", "timeout": "300ms", "interval": "100ms"}
	h := labHarness(t, "ring", 2, ids, skip)
	effs := h.Start()
	if got := nodetest.Targets(effs, detector.MsgHeartbeat); !slices.Equal(got, []node.ID{1, 3, 4, 5}) {
		t.Fatalf("heartbeats to %v, want [n1 n3 n4 n5]", got)
	}
	h.Deliver(1, labElection(5, 1))
	labSends(t, h.Deliver(1, labElected(5, 1)), []nodetest.Sent{labTo(3, labElected(5, 1))}, "ELECTED")
	labStatus(t, h, "follower", 5, 1)

	// The leader n5 falls silent: suspected, forgotten, and an election starts.
	h.Advance(100 * time.Millisecond)
	heard(h, 1, 3, 4)
	labSends(t, h.Fire(detector.TimerCheck), []nodetest.Sent{labTo(3, labElection(2, 2))}, "ELECTION") // t=300ms
	labStatus(t, h, "participant", node.None, 2)
	if st := h.Status(); !slices.Equal(st.Suspects, []node.ID{5}) {
		t.Fatalf("suspects %v, want [n5]", st.Suspects)
	}

	// n3, to which the ELECTION went, is suspected too: it may have crashed before
	// passing it on, so the ELECTION goes again to the next unsuspected successor.
	h.Advance(50 * time.Millisecond)
	heard(h, 1, 4)
	labSends(t, h.Fire(detector.TimerCheck), []nodetest.Sent{labTo(4, labElection(2, 2))}, "ELECTION") // t=400ms

	// An ELECTION for a suspected candidate is dropped, unless the candidate sent
	// it itself (then it is up).
	labSends(t, h.Deliver(1, labElection(5, 2)), nil, "ELECTION")
	labSends(t, h.Deliver(3, labElection(3, 2)), []nodetest.Sent{labTo(4, labElection(3, 2))}, "ELECTION")
	// Forwarding skips the suspected n3.
	labSends(t, h.Deliver(1, labElection(4, 2)), []nodetest.Sent{labTo(4, labElection(4, 2))}, "ELECTION")

	// A heartbeat from n3 makes it trusted, and the successor, again.
	h.Deliver(3, node.Message{Type: detector.MsgHeartbeat, Stamp: 9})
	labSends(t, h.Deliver(1, labElected(4, 2)), []nodetest.Sent{labTo(3, labElected(4, 2))}, "ELECTED")
	labStatus(t, h, "follower", 4, 2)
	labCounter(t, h, "elections", 1)
	labCounter(t, h, detector.CounterMistakes, 1)
}

func TestRingSkipSuspectedRestartsWhenTheCandidateIsSuspected(t *testing.T) {
	ids := nodetest.IDs(4)
	h := labHarness(t, "ring", 1, ids, map[string]any{"skip_suspected": true, "initiators": "none"})
	h.Start()
	// n1 passed n3's id on in epoch 1; n3 then falls silent.
	labSends(t, h.Deliver(4, labElection(3, 1)), []nodetest.Sent{labTo(2, labElection(3, 1))}, "ELECTION")
	h.Advance(100 * time.Millisecond)
	heard(h, 2, 4)
	labSends(t, h.Fire(detector.TimerCheck), []nodetest.Sent{labTo(2, labElection(1, 2))}, "ELECTION")
	labCounter(t, h, "elections", 1)
}

// heard delivers a heartbeat from each of from.
func heard(h *nodetest.Harness, from ...node.ID) {
	for _, p := range from {
		h.Deliver(p, node.Message{Type: detector.MsgHeartbeat, Stamp: 1})
	}
}

func TestRingParams(t *testing.T) {
	spec, _ := algos.Lookup("ring")
	for _, bad := range []map[string]any{
		{"skip_suspected": "maybe"},
		{"initiators": []any{"n9"}},
		{"detector": "psychic"},
		{"interval": "0s"},
		{"retry": "0s"},
	} {
		p, err := algos.NewParams(spec, bad)
		if err == nil {
			_, err = spec.Build(algos.Config{IDs: nodetest.IDs(3), Params: p})
		}
		if err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	for _, name := range []string{"initiators", "skip_suspected", "retry", "detector", "interval", "timeout", "delta"} {
		if _, ok := spec.Param(name); !ok {
			t.Errorf("ring has no parameter %s", name)
		}
	}
	if p, _ := spec.Param("initiators"); p.Default != "all" {
		t.Errorf("initiators default %q, want all", p.Default)
	}
	if p, _ := spec.Param("skip_suspected"); p.Default != "false" {
		t.Errorf("skip_suspected default %q, want false", p.Default)
	}
	if fmt.Sprint(spec.Messages) != "[ELECTION ELECTED]" || spec.Family != algos.Election {
		t.Errorf("messages %v, family %v", spec.Messages, spec.Family)
	}
}

// TestRingSurvivesCrashesWithSkipSuspected runs five processes on a mesh: n5 wins,
// then n5 and n3 crash at once. The ◊P detectors notice, the ring closes around
// them and n4 wins. n5 comes back with an old epoch; the process after it starts a
// newer one, which n5 joins and wins.
func TestRingSurvivesCrashesWithSkipSuspected(t *testing.T) {
	w := labWorld{ids: nodetest.IDs(5), script: []string{"1s crash n5", "1s crash n3", "4s recover n5"}}.
		run(t, "ring", map[string]any{"skip_suspected": true}, 900*time.Millisecond)
	labAgree(t, w, 5)
	w.RunUntil(3500 * time.Millisecond)
	labAgree(t, w, 4)
	w.RunUntil(7 * time.Second)
	labAgree(t, w, 5)
	for _, a := range w.Summary().Alerts {
		if a.Kind == "split-brain" || a.Kind == "no-leader" {
			t.Errorf("alert %s at %dµs: %s", a.Kind, a.AtUS, a.Text)
		}
	}
}

// TestRingWithoutSkipStallsOnACrash: plain Chang-Roberts tolerates no crash. n1 is
// down when everyone starts: n4's id, sent to n1, is lost, and every other id is
// swallowed by a participant. n1 comes back and starts epoch 1 too, and its id is
// swallowed as well: nobody ever learns a leader. A user request opens epoch 2,
// which completes.
func TestRingWithoutSkipStallsOnACrash(t *testing.T) {
	w := labWorld{ids: nodetest.IDs(4), topo: "ring", script: []string{"0s crash n1", "1s recover n1", "3s request n2 election"}}.
		run(t, "ring", nil, 2900*time.Millisecond)
	for _, id := range []node.ID{1, 2, 3, 4} {
		if st, _ := w.Status(id); st.Leader != node.None || st.Role != "participant" {
			t.Errorf("%v: role %q leader %v, want a stuck participant", id, st.Role, st.Leader)
		}
	}
	w.RunUntil(4 * time.Second)
	labAgree(t, w, 4)
	if st, _ := w.Status(4); st.Term != 2 {
		t.Errorf("n4 leads epoch %d, want 2", st.Term)
	}
}

func TestRingSkipSuspectedSafetyRules(t *testing.T) {
	ids := nodetest.IDs(5)
	skip := map[string]any{"skip_suspected": true, "initiators": []any{"n3"}}

	// n3 passed n5's id on; its own id coming back later (n5 was skipped on that
	// trip) is not a win.
	h := labHarness(t, "ring", 3, ids, skip)
	h.Start()
	labSends(t, h.Deliver(2, labElection(5, 1)), []nodetest.Sent{labTo(4, labElection(5, 1))}, "ELECTION", "ELECTED")
	labSends(t, h.Deliver(2, labElection(3, 1)), nil, "ELECTION", "ELECTED")
	labStatus(t, h, "participant", node.None, 1)

	// Two winners of one epoch: the larger ELECTED is kept, the smaller dropped.
	labSends(t, h.Deliver(2, labElected(4, 1)), []nodetest.Sent{labTo(4, labElected(4, 1))}, "ELECTED")
	labSends(t, h.Deliver(2, labElected(5, 1)), []nodetest.Sent{labTo(4, labElected(5, 1))}, "ELECTED")
	labSends(t, h.Deliver(2, labElected(4, 1)), nil, "ELECTED")
	labStatus(t, h, "follower", 5, 1)

	// With skip_suspected the leader's ELECTED, again, goes on round.
	labSends(t, h.Deliver(2, labElected(5, 1)), []nodetest.Sent{labTo(4, labElected(5, 1))}, "ELECTED")
	// An ELECTED of an older epoch straight from its leader: that process missed
	// the newer epochs; a newer one starts.
	labSends(t, h.Deliver(2, labElected(2, 0)), []nodetest.Sent{labTo(4, labElection(3, 2))}, "ELECTION", "ELECTED")
	labCounter(t, h, "elections", 2)

	// Without skip_suspected a duplicate ELECTED stops at once.
	h = labHarness(t, "ring", 3, ids, nil)
	h.Start()
	h.Deliver(2, labElection(5, 1))
	h.Deliver(2, labElected(5, 1))
	labSends(t, h.Deliver(2, labElected(5, 1)), nil)
}

func TestRingSkipSuspectedTimers(t *testing.T) {
	ids := nodetest.IDs(3)
	h := labHarness(t, "ring", 2, ids, map[string]any{"skip_suspected": true, "initiators": []any{"n2"}, "retry": "1s", "timeout": "10s"})
	h.Start()
	// A participant arms the retry timer: 1s plus up to 500ms at random.
	at, ok := h.Armed("ring.retry")
	if !ok || at < time.Second || at > 1500*time.Millisecond {
		t.Fatalf("retry armed %v at %v, want between 1s and 1.5s", ok, at)
	}
	// Undecided when it fires: a newer epoch, and the next wait is twice as long.
	labSends(t, h.Fire("ring.retry"), []nodetest.Sent{labTo(3, labElection(2, 2))}, "ELECTION")
	next, _ := h.Armed("ring.retry")
	if d := next - at; d < 2*time.Second || d > 2500*time.Millisecond {
		t.Fatalf("second retry after %v, want between 2s and 2.5s", d)
	}
	// Its own id comes back: it leads, the retry timer is gone, and every second
	// it sends ELECTED round again.
	labSends(t, h.Deliver(1, labElection(2, 2)), []nodetest.Sent{labTo(3, labElected(2, 2))}, "ELECTED")
	if _, ok := h.Armed("ring.retry"); ok {
		t.Fatal("retry still armed after winning")
	}
	h.Deliver(1, labElected(2, 2)) // home
	for range 3 {
		labSends(t, h.Fire("ring.refresh"), []nodetest.Sent{labTo(3, labElected(2, 2))}, "ELECTED")
	}
	// A follower has no timer of its own.
	h.Deliver(1, labElected(3, 5))
	labStatus(t, h, "follower", 3, 5)
	if names := h.TimerNames(); slices.Contains(names, "ring.refresh") || slices.Contains(names, "ring.retry") {
		t.Fatalf("a follower has timers %v", names)
	}
	// Without skip_suspected: no timer at all.
	h = labHarness(t, "ring", 2, ids, nil)
	h.Start()
	if names := h.TimerNames(); len(names) != 0 {
		t.Fatalf("plain ring armed %v", names)
	}
}

// TestRingSkipSuspectedConverges runs many random sequences of crashes and
// recoveries (half of them before GST, with heavy-tailed delays and 5% loss, so
// that the detectors make mistakes and messages get lost) and checks that, some
// seconds after the last fault, every live process believes the same live process
// leads.
func TestRingSkipSuspectedConverges(t *testing.T) {
	seeds := uint64(300)
	if testing.Short() {
		seeds = 40
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		r := rand.New(rand.NewPCG(seed, 9))
		n := 2 + r.IntN(7)
		var script []string
		down := make([]bool, n+1)
		at := 0
		for k := 0; k < 1+r.IntN(12); k++ {
			at += 50 + r.IntN(800)
			p := 1 + r.IntN(n)
			if down[p] {
				script = append(script, fmt.Sprintf("%dms recover n%d", at, p))
				down[p] = false
				continue
			}
			alive := 0
			for q := 1; q <= n; q++ {
				if !down[q] {
					alive++
				}
			}
			if alive > 1 {
				script = append(script, fmt.Sprintf("%dms crash n%d", at, p))
				down[p] = true
			}
		}
		lat := netsim.Latency{Dist: "uniform", Min: 2 * time.Millisecond, Max: 30 * time.Millisecond}
		lw := labWorld{ids: nodetest.IDs(n), lat: lat, seed: seed, script: script}
		if seed%2 == 0 {
			lw.gst = 2 * time.Second
		}
		w := lw.run(t, "ring", map[string]any{"skip_suspected": true}, time.Duration(max(at, 2000)+8000)*time.Millisecond)
		var leader node.ID
		ok := true
		var views []string
		for _, id := range nodetest.IDs(n) {
			st, up := w.Status(id)
			if !up {
				continue
			}
			views = append(views, fmt.Sprintf("%v:%s/%v/e%d", id, st.Role, st.Leader, st.Term))
			if leader == node.None {
				leader = st.Leader
			}
			ok = ok && st.Leader == leader && leader != node.None
		}
		if _, up := w.Status(leader); !ok || !up {
			t.Errorf("seed %d, N=%d, %v: %v", seed, n, script, views)
		}
		w.Close() // its memory goes to the next seed's world, not to the test's end
	}
}
