package detector

import (
	"testing"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

var pullParams = map[string]any{"interval": "100ms", "delta": "50ms"}

func TestPullStartTestsEveryOtherProcess(t *testing.T) {
	h := harness(t, "pull-dp", 2, 3, pullParams)
	effs := h.Start()
	wantSends(t, effs, nodetest.Sent{To: 1, Msg: req(1)}, nodetest.Sent{To: 3, Msg: req(1)})
	wantTimers(t, effs, TimerTest, 100*ms1)
	st := h.Status()
	if st.Role != "monitor" || st.Leader != node.None {
		t.Fatalf("role %q leader %v, want monitor and no leader", st.Role, st.Leader)
	}
	wantSuspects(t, st)
	wantCounter(t, st, CounterTimeout, 100)
	wantCounter(t, st, CounterMistakes, 0)
}

func TestPullAnswersTestRequestWithItsRound(t *testing.T) {
	h := harness(t, "pull-dp", 1, 3, pullParams)
	h.Start()
	effs := h.Deliver(3, req(7))
	wantSends(t, effs, nodetest.Sent{To: 3, Msg: rep(7)})
	wantTimers(t, effs) // answering arms nothing
	wantArmed(t, h, TimerTest, 100*ms1)
}

func TestPullSuspectsWhoDidNotReply(t *testing.T) {
	h := harness(t, "pull-dp", 1, 3, pullParams)
	h.Start()
	h.Advance(10 * ms1)
	if effs := h.Deliver(2, rep(1)); len(nodetest.Sends(effs)) != 0 {
		t.Fatalf("a reply must not send anything, sent %v", nodetest.Sends(effs))
	}
	wantSuspects(t, h.Status()) // nobody is suspected before the interval ends

	effs := h.Fire(TimerTest)
	wantSuspects(t, h.Status(), 3)
	wantSends(t, effs, nodetest.Sent{To: 2, Msg: req(2)}, nodetest.Sent{To: 3, Msg: req(2)})
	wantTimers(t, effs, TimerTest, 100*ms1)
	wantArmed(t, h, TimerTest, 200*ms1)

	// n3 stays suspected while it keeps silent; n2 is suspected as soon as it misses
	// one round.
	h.Deliver(3, node.Message{Type: "OTHER"}) // not a reply
	h.Fire(TimerTest)
	wantSuspects(t, h.Status(), 2, 3)
	wantCounter(t, h.Status(), CounterTimeout, 100)
}

// The heart of ◊P: a false suspicion followed by a late reply grows the monitoring
// interval by exactly Δ, and the process is trusted again at the next round, not
// before.
func TestPullLateReplyGrowsIntervalByDelta(t *testing.T) {
	h := harness(t, "pull-dp", 1, 3, pullParams)
	h.Start()
	h.Deliver(2, rep(1))
	h.Fire(TimerTest) // t=100: n3 did not reply in time
	wantSuspects(t, h.Status(), 3)

	h.Advance(50 * ms1)
	h.Deliver(3, rep(1)) // t=150: n3's late reply to round 1
	h.Deliver(2, rep(2))
	wantSuspects(t, h.Status(), 3) // trusted again only when the interval ends
	wantCounter(t, h.Status(), CounterMistakes, 0)

	effs := h.Fire(TimerTest) // t=200: Correct ∩ Suspects = {n3}
	if h.Now != 200*ms1 {
		t.Fatalf("round fired at %v, want 200ms", h.Now)
	}
	wantSuspects(t, h.Status())
	wantCounter(t, h.Status(), CounterMistakes, 1)
	wantCounter(t, h.Status(), CounterTimeout, 150)
	wantTimers(t, effs, TimerTest, 150*ms1)
	wantArmed(t, h, TimerTest, 350*ms1)
	wantSends(t, effs, nodetest.Sent{To: 2, Msg: req(3)}, nodetest.Sent{To: 3, Msg: req(3)})

	// A round without mistakes does not grow it further.
	h.Deliver(2, rep(3))
	h.Deliver(3, rep(3))
	effs = h.Fire(TimerTest)
	wantTimers(t, effs, TimerTest, 150*ms1)
	wantArmed(t, h, TimerTest, 500*ms1)
	wantCounter(t, h.Status(), CounterTimeout, 150)
}

// One interval serves every process: a round that reveals two mistakes adds Δ once,
// and the mistakes counter counts both.
func TestPullTwoMistakesInOneRoundAddDeltaOnce(t *testing.T) {
	h := harness(t, "pull-dp", 1, 4, pullParams)
	h.Start()
	h.Deliver(2, rep(1))
	h.Fire(TimerTest)
	wantSuspects(t, h.Status(), 3, 4)
	h.Deliver(2, rep(2))
	h.Deliver(4, rep(1))
	h.Deliver(3, rep(2))
	effs := h.Fire(TimerTest)
	wantSuspects(t, h.Status())
	wantCounter(t, h.Status(), CounterMistakes, 2)
	wantTimers(t, effs, TimerTest, 150*ms1)
	p := h.Alg.(*Monitor).FD.(*Pull)
	if got := p.Interval(); got != 150*ms1 {
		t.Fatalf("interval %v, want 150ms", got)
	}
	for _, pt := range p.PeerTimeouts() {
		if pt.Timeout != 150*ms1 {
			t.Fatalf("peer timeouts %v, want 150ms for all", p.PeerTimeouts())
		}
	}
	if p.Timeout(1) != 0 || p.Timeout(4) != 150*ms1 {
		t.Fatalf("Timeout(self)=%v Timeout(n4)=%v, want 0 and 150ms", p.Timeout(1), p.Timeout(4))
	}
}

func TestPullIgnoresStrangersAndForeignEvents(t *testing.T) {
	h := harness(t, "pull-dp", 1, 3, pullParams)
	h.Start()
	p := h.Alg.(*Monitor).FD.(*Pull)
	if p.Handle(h.Env, node.Event{Kind: node.Deliver, From: 2, Msg: hb(1)}) {
		t.Fatal("pull claimed a HEARTBEAT")
	}
	if p.Handle(h.Env, node.Event{Kind: node.Timer, Name: "election"}) {
		t.Fatal("pull claimed a foreign timer")
	}
	h.Env.TakeEffects()
	h.Deliver(9, rep(1)) // n9 is not in the cluster
	h.Fire(TimerTest)
	wantSuspects(t, h.Status(), 2, 3)
}

func TestPullRecoverStartsAfresh(t *testing.T) {
	h := harness(t, "pull-dp", 1, 3, pullParams)
	h.Start()
	h.Fire(TimerTest)
	wantSuspects(t, h.Status(), 2, 3)
	effs := h.Recover()
	wantSuspects(t, h.Status()) // Init: Correct ← Π, so the first round suspects no one
	wantSends(t, effs, nodetest.Sent{To: 2, Msg: req(1)}, nodetest.Sent{To: 3, Msg: req(1)})
	wantTimers(t, effs, TimerTest, 100*ms1)
}
