package detector

import (
	"testing"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func TestOmegaLeaderFollowsSuspicions(t *testing.T) {
	h := harness(t, "omega", 2, 3, nil) // heartbeat detector by default
	effs := h.Start()
	if got := nodetest.Types(effs); len(got) != 2 || got[0] != MsgHeartbeat {
		t.Fatalf("omega on heartbeat-dp sent %v at start, want two HEARTBEATs", got)
	}
	wantLeader(t, h.Status(), 2, 1) // nobody suspected: the lowest id leads
	wantCounter(t, h.Status(), CounterLeaderChanges, 1)

	h.Advance(100 * ms1)
	h.Deliver(3, hb(1))
	h.Fire(TimerCheck) // t=250: n1 silent, suspected; n3 heard at 100ms
	wantSuspects(t, h.Status(), 1)
	wantLeader(t, h.Status(), 2, 2)

	h.Deliver(1, hb(5)) // n1 was alive: trusted again, and leads again
	wantSuspects(t, h.Status())
	wantLeader(t, h.Status(), 2, 1)
	st := h.Status()
	wantCounter(t, st, CounterLeaderChanges, 3)
	wantCounter(t, st, CounterMistakes, 1)
	wantCounter(t, st, CounterTimeout, 300) // the composed detector's grown timeout
}

func TestOmegaMaxCriterion(t *testing.T) {
	h := harness(t, "omega", 1, 3, map[string]any{"criterion": "max"})
	h.Start()
	wantLeader(t, h.Status(), 1, 3)
	h.Advance(100 * ms1)
	h.Deliver(2, hb(1))
	h.Fire(TimerCheck) // t=250: n3 silent
	wantLeader(t, h.Status(), 1, 2)
	h.Fire(TimerCheck)              // t=350: n2 silent too
	wantLeader(t, h.Status(), 1, 1) // self is never suspected: it is the last one alive
	wantSuspects(t, h.Status(), 2, 3)
}

func TestOmegaComposesPullDetector(t *testing.T) {
	h := harness(t, "omega", 3, 3, map[string]any{"detector": "pull", "interval": "80ms", "delta": "20ms"})
	effs := h.Start()
	wantSends(t, effs, nodetest.Sent{To: 1, Msg: req(1)}, nodetest.Sent{To: 2, Msg: req(1)})
	wantTimers(t, effs, TimerTest, 80*ms1)
	wantLeader(t, h.Status(), 3, 1)

	// The host answers tests through the detector.
	wantSends(t, h.Deliver(2, req(4)), nodetest.Sent{To: 2, Msg: rep(4)})

	h.Deliver(2, rep(1))
	h.Fire(TimerTest) // n1 did not answer
	wantLeader(t, h.Status(), 3, 2)
	h.Deliver(1, rep(1))
	h.Deliver(2, rep(2))
	effs = h.Fire(TimerTest)
	wantLeader(t, h.Status(), 3, 1)
	wantTimers(t, effs, TimerTest, 100*ms1) // 80ms + Δ
	wantCounter(t, h.Status(), CounterTimeout, 100)
}

func TestOmegaPassesParamsToHeartbeatDetector(t *testing.T) {
	h := harness(t, "omega", 1, 2, map[string]any{"interval": "40ms", "timeout": "70ms", "delta": "5ms"})
	effs := h.Start()
	wantTimers(t, effs, TimerHeartbeat, 40*ms1, TimerCheck, 70*ms1)
	h.Fire(TimerCheck)
	h.Deliver(2, hb(9))
	if got := h.Alg.(*Omega).Detector().(Adaptive).Timeout(2); got != 75*ms1 {
		t.Fatalf("timeout of n2 %v, want 70ms + 5ms", got)
	}
}

func TestOmegaIgnoresOtherEvents(t *testing.T) {
	h := harness(t, "omega", 1, 3, nil)
	h.Start()
	before := h.Status().Clone()
	if effs := h.Request("election"); len(effs) != 0 {
		t.Fatalf("a request had effects: %v", effs)
	}
	if effs := h.Deliver(2, node.Message{Type: "ELECTION"}); len(effs) != 0 {
		t.Fatalf("a foreign message had effects: %v", effs)
	}
	if !h.Status().Equal(before) {
		t.Fatalf("status changed: %v → %v", before, h.Status())
	}
}

func TestOmegaRecoverRestartsDetector(t *testing.T) {
	h := harness(t, "omega", 2, 3, nil)
	h.Start()
	h.Fire(TimerCheck) // n1 and n3 silent
	wantLeader(t, h.Status(), 2, 2)
	effs := h.Recover()
	wantLeader(t, h.Status(), 2, 1)
	wantSuspects(t, h.Status())
	wantTimers(t, effs, TimerHeartbeat, 100*ms1, TimerCheck, 250*ms1)
}
