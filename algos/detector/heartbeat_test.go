package detector

import (
	"reflect"
	"testing"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

var hbParams = map[string]any{"interval": "100ms", "timeout": "250ms", "delta": "50ms"}

func TestHeartbeatStartSendsAndArmsOneTimeoutPerPeer(t *testing.T) {
	h := harness(t, "heartbeat-dp", 2, 3, hbParams)
	effs := h.Start()
	wantSends(t, effs, nodetest.Sent{To: 1, Msg: hb(1)}, nodetest.Sent{To: 3, Msg: hb(1)})
	wantTimers(t, effs,
		TimerHeartbeat, 100*ms1,
		"fd.timeout.n1", 250*ms1,
		"fd.timeout.n3", 250*ms1)
	st := h.Status()
	if st.Role != "monitor" || st.Leader != node.None {
		t.Fatalf("role %q leader %v, want monitor and no leader", st.Role, st.Leader)
	}
	wantSuspects(t, st)
	wantCounter(t, st, CounterTimeout, 250)
	wantCounter(t, st, CounterMistakes, 0)
}

func TestHeartbeatPeriodicSend(t *testing.T) {
	h := harness(t, "heartbeat-dp", 1, 3, hbParams)
	h.Start()
	effs := h.Fire(TimerHeartbeat)
	wantSends(t, effs, nodetest.Sent{To: 2, Msg: hb(2)}, nodetest.Sent{To: 3, Msg: hb(2)})
	wantTimers(t, effs, TimerHeartbeat, 100*ms1)
	wantArmed(t, h, TimerHeartbeat, 200*ms1)
}

func TestHeartbeatReceiptRearmsOnlyThatPeer(t *testing.T) {
	h := harness(t, "heartbeat-dp", 1, 3, hbParams)
	h.Start()
	h.Advance(60 * ms1)
	effs := h.Deliver(2, hb(1))
	wantSends(t, effs) // a heartbeat is not answered
	wantTimers(t, effs, "fd.timeout.n2", 250*ms1)
	wantArmed(t, h, "fd.timeout.n2", 310*ms1)
	wantArmed(t, h, "fd.timeout.n3", 250*ms1)
}

// A false suspicion followed by a late heartbeat grows that peer's timeout by exactly
// Δ and no other peer's; suspicion happens when the timeout expires, trust again at
// the heartbeat.
func TestHeartbeatFalseSuspicionGrowsThatTimeoutByDelta(t *testing.T) {
	h := harness(t, "heartbeat-dp", 1, 3, hbParams)
	h.Start()
	h.Advance(200 * ms1)
	h.Deliver(2, hb(3))
	effs := h.Fire("fd.timeout.n3") // t=250
	if h.Now != 250*ms1 {
		t.Fatalf("timeout fired at %v, want 250ms", h.Now)
	}
	wantSends(t, effs)
	wantTimers(t, effs)
	wantSuspects(t, h.Status(), 3)

	h.Advance(10 * ms1)
	effs = h.Deliver(3, hb(2)) // t=260: n3 was alive after all
	wantSuspects(t, h.Status())
	wantTimers(t, effs, "fd.timeout.n3", 300*ms1)
	wantArmed(t, h, "fd.timeout.n3", 560*ms1)
	st := h.Status()
	wantCounter(t, st, CounterMistakes, 1)
	wantCounter(t, st, CounterTimeout, 300) // the max over peers

	d := h.Alg.(*Monitor).FD.(*Heartbeat)
	want := []PeerTimeout{{2, 250 * ms1}, {3, 300 * ms1}}
	if got := d.PeerTimeouts(); !reflect.DeepEqual(got, want) {
		t.Fatalf("peer timeouts %v, want %v", got, want)
	}
	if d.Timeout(2) != 250*ms1 || d.Timeout(3) != 300*ms1 || d.Timeout(1) != 0 {
		t.Fatalf("Timeout n2=%v n3=%v self=%v", d.Timeout(2), d.Timeout(3), d.Timeout(1))
	}

	// A heartbeat from a trusted peer does not grow anything.
	h.Deliver(3, hb(3))
	wantCounter(t, h.Status(), CounterMistakes, 1)
	if d.Timeout(3) != 300*ms1 {
		t.Fatalf("timeout of n3 %v after a normal heartbeat, want 300ms", d.Timeout(3))
	}

	// If n3 goes silent again it is suspected after its grown timeout.
	h.Fire("fd.timeout.n3")
	if h.Now != 560*ms1 {
		t.Fatalf("second suspicion at %v, want 560ms", h.Now)
	}
	wantSuspects(t, h.Status(), 3)
}

func TestHeartbeatIgnoresStrangersAndForeignEvents(t *testing.T) {
	h := harness(t, "heartbeat-dp", 1, 3, hbParams)
	h.Start()
	d := h.Alg.(*Monitor).FD.(*Heartbeat)
	if d.Handle(h.Env, node.Event{Kind: node.Deliver, From: 2, Msg: req(1)}) {
		t.Fatal("heartbeat detector claimed a TEST_REQ")
	}
	if d.Handle(h.Env, node.Event{Kind: node.Timer, Name: TimerTest}) {
		t.Fatal("heartbeat detector claimed pull's timer")
	}
	if len(h.Env.TakeEffects()) != 0 {
		t.Fatal("unclaimed events had effects")
	}
	effs := h.Deliver(9, hb(1))
	wantTimers(t, effs)
	if d.Timeout(9) != 0 {
		t.Fatal("a stranger got a timeout")
	}
}
