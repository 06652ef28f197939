package detector

import (
	"testing"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

var crParams = map[string]any{"interval": "100ms", "grow": "10ms"}

func TestOmegaCRStartStoresIncarnationAndBeats(t *testing.T) {
	h := harness(t, "omega-cr", 2, 3, crParams)
	effs := h.Start()
	if v, ok := h.Store.Get(StoreIncarnation); !ok || v != 1 {
		t.Fatalf("stored incarnation %d (%v), want 1", v, ok)
	}
	wantSends(t, effs, nodetest.Sent{To: 1, Msg: hbInc(1)}, nodetest.Sent{To: 3, Msg: hbInc(1)})
	wantTimers(t, effs, TimerHeartbeat, 100*ms1)
	st := h.Status()
	if st.Inc != 1 {
		t.Fatalf("Inc %d, want 1", st.Inc)
	}
	wantLeader(t, st, 2, node.None) // ⊥ until the first interval ends
	wantSuspects(t, st)
	wantCounter(t, st, CounterTimeout, 100)
}

func TestOmegaCRRecoverIncrementsStoredIncarnation(t *testing.T) {
	h := harness(t, "omega-cr", 2, 3, crParams)
	h.Start()
	h.Deliver(1, hbInc(1))
	h.Fire(TimerHeartbeat)
	wantLeader(t, h.Status(), 2, 1)

	for want := int64(2); want <= 3; want++ {
		effs := h.Recover()
		if v, _ := h.Store.Get(StoreIncarnation); v != want {
			t.Fatalf("stored incarnation %d after recovery, want %d", v, want)
		}
		st := h.Status()
		if st.Inc != want {
			t.Fatalf("Inc %d, want %d", st.Inc, want)
		}
		wantLeader(t, st, 2, node.None) // Leader ← ⊥ on recovery
		wantSends(t, effs, nodetest.Sent{To: 1, Msg: hbInc(want)}, nodetest.Sent{To: 3, Msg: hbInc(want)})
		wantTimers(t, effs, TimerHeartbeat, 100*ms1) // volatile interval restarts
	}
}

// The most stable process leads: a process with more incarnations is not chosen
// while one with fewer is heard, whatever the ids.
func TestOmegaCRChoosesFewestIncarnations(t *testing.T) {
	h := harness(t, "omega-cr", 3, 4, crParams)
	h.Start()
	h.Deliver(1, hbInc(3))
	h.Deliver(2, hbInc(2))
	h.Deliver(4, hbInc(2))
	h.Fire(TimerHeartbeat)
	wantLeader(t, h.Status(), 3, 3) // self has 1 incarnation: fewer than everyone heard

	h.Recover() // self now has incarnation 2
	h.Recover() // and 3
	h.Deliver(1, hbInc(3))
	h.Deliver(4, hbInc(2))
	h.Deliver(2, hbInc(5))
	h.Fire(TimerHeartbeat)
	wantLeader(t, h.Status(), 3, 4) // n4 has 2, fewer than n1 and self (3) and n2 (5)

	h.Deliver(1, hbInc(3))
	h.Deliver(2, hbInc(5))
	h.Fire(TimerHeartbeat)          // n4 not heard this interval
	wantLeader(t, h.Status(), 3, 1) // tie n1/self at 3: the lowest id
	wantSuspects(t, h.Status(), 4)
}

func TestOmegaCRKeepsLargestIncarnationHeard(t *testing.T) {
	for _, order := range [][2]int64{{1, 3}, {3, 1}} {
		h := harness(t, "omega-cr", 3, 3, crParams)
		h.Start()
		h.Recover() // self: incarnation 2
		h.Deliver(1, hbInc(order[0]))
		h.Deliver(1, hbInc(order[1])) // a stale heartbeat of an earlier incarnation, or the newer one
		h.Fire(TimerHeartbeat)
		wantLeader(t, h.Status(), 3, 3) // n1's incarnation is 3, more than self's 2
	}
}

// Candidates is cleared every interval; the interval grows by grow on each leader
// change (⊥ → p included), and only then.
func TestOmegaCRCandidatesPerIntervalAndGrowth(t *testing.T) {
	h := harness(t, "omega-cr", 3, 3, crParams)
	h.Start()
	h.Deliver(1, hbInc(1))
	effs := h.Fire(TimerHeartbeat) // t=100: ⊥ → n1
	wantLeader(t, h.Status(), 3, 1)
	wantSuspects(t, h.Status(), 2)
	wantSends(t, effs, nodetest.Sent{To: 1, Msg: hbInc(1)}, nodetest.Sent{To: 2, Msg: hbInc(1)})
	wantTimers(t, effs, TimerHeartbeat, 110*ms1)
	wantArmed(t, h, TimerHeartbeat, 210*ms1)

	h.Fire(TimerHeartbeat) // t=210: nobody heard, self is the only candidate
	wantLeader(t, h.Status(), 3, 3)
	wantSuspects(t, h.Status(), 1, 2)
	wantArmed(t, h, TimerHeartbeat, 330*ms1) // 120ms

	h.Deliver(1, hbInc(1))
	h.Fire(TimerHeartbeat) // t=330: n1 is back with the same incarnation: a false suspicion
	wantLeader(t, h.Status(), 3, 1)
	wantSuspects(t, h.Status(), 2)
	wantCounter(t, h.Status(), CounterMistakes, 1)
	wantArmed(t, h, TimerHeartbeat, 460*ms1) // 130ms

	h.Deliver(1, hbInc(1))
	effs = h.Fire(TimerHeartbeat) // t=460: same leader: no growth
	wantTimers(t, effs, TimerHeartbeat, 130*ms1)
	st := h.Status()
	wantCounter(t, st, CounterTimeout, 130)
	wantCounter(t, st, CounterLeaderChanges, 3)
	if got := h.Alg.(*OmegaCR).Interval(); got != 130*ms1 {
		t.Fatalf("interval %v, want 130ms", got)
	}
}

func TestOmegaCRRecoveredPeerIsNotAMistake(t *testing.T) {
	h := harness(t, "omega-cr", 3, 3, crParams)
	h.Start()
	h.Deliver(1, hbInc(1))
	h.Deliver(2, hbInc(1))
	h.Fire(TimerHeartbeat)
	h.Deliver(2, hbInc(1))
	h.Fire(TimerHeartbeat) // n1 crashed
	wantSuspects(t, h.Status(), 1)
	wantLeader(t, h.Status(), 3, 2)
	h.Deliver(1, hbInc(2)) // n1 recovered: a new incarnation, so it really had crashed
	h.Deliver(2, hbInc(1))
	h.Fire(TimerHeartbeat)
	wantSuspects(t, h.Status())
	wantLeader(t, h.Status(), 3, 2) // n1 now has more incarnations than n2
	wantCounter(t, h.Status(), CounterMistakes, 0)
}

func TestOmegaCRIgnoresStrangersSelfAndOtherEvents(t *testing.T) {
	h := harness(t, "omega-cr", 2, 3, crParams)
	h.Start()
	for _, from := range []node.ID{9, 2} {
		if effs := h.Deliver(from, hbInc(1)); len(effs) != 0 {
			t.Fatalf("heartbeat from %v had effects %v", from, effs)
		}
	}
	h.Deliver(1, node.Message{Type: MsgTestReq})
	h.Request("election")
	h.Fire(TimerHeartbeat)
	wantLeader(t, h.Status(), 2, 2)
	wantSuspects(t, h.Status(), 1, 3)
}
