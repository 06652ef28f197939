package detector

import (
	"cmp"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

var hbParams = map[string]any{"interval": "100ms", "timeout": "250ms", "delta": "50ms"}

func TestHeartbeatStartSendsAndArmsOneCheckTimer(t *testing.T) {
	h := harness(t, "heartbeat-dp", 2, 3, hbParams)
	effs := h.Start()
	wantSends(t, effs, nodetest.Sent{To: 1, Msg: hb(1)}, nodetest.Sent{To: 3, Msg: hb(1)})
	wantTimers(t, effs,
		TimerHeartbeat, 100*ms1,
		TimerCheck, 250*ms1) // one timer for both peers' deadlines
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

// A heartbeat moves only its sender's deadline; the check timer stays at the
// earliest deadline, which is still n3's.
func TestHeartbeatReceiptMovesOnlyThatDeadline(t *testing.T) {
	h := harness(t, "heartbeat-dp", 1, 3, hbParams)
	h.Start()
	h.Advance(60 * ms1)
	effs := h.Deliver(2, hb(1))
	wantSends(t, effs) // a heartbeat is not answered
	wantTimers(t, effs)
	wantArmed(t, h, TimerCheck, 250*ms1)

	effs = h.Fire(TimerCheck) // t=250: n3's deadline; n2's is 310
	wantSuspects(t, h.Status(), 3)
	wantTimers(t, effs, TimerCheck, 60*ms1)
	wantArmed(t, h, TimerCheck, 310*ms1)
}

// A false suspicion followed by a late heartbeat grows that peer's timeout by exactly
// Δ and no other peer's; suspicion happens when the timeout expires, trust again at
// the heartbeat.
func TestHeartbeatFalseSuspicionGrowsThatTimeoutByDelta(t *testing.T) {
	h := harness(t, "heartbeat-dp", 1, 3, hbParams)
	h.Start()
	h.Advance(200 * ms1)
	h.Deliver(2, hb(3))
	effs := h.Fire(TimerCheck) // t=250
	if h.Now != 250*ms1 {
		t.Fatalf("check fired at %v, want 250ms", h.Now)
	}
	wantSends(t, effs)
	wantTimers(t, effs, TimerCheck, 200*ms1) // n2's deadline, 450ms
	wantSuspects(t, h.Status(), 3)

	h.Advance(10 * ms1)
	effs = h.Deliver(3, hb(2)) // t=260: n3 was alive after all
	wantSuspects(t, h.Status())
	wantTimers(t, effs) // n3's deadline 560ms is after the check at 450ms
	wantArmed(t, h, TimerCheck, 450*ms1)
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

	// n2 keeps sending; the check at 450ms suspects no one and moves on.
	h.Advance(180 * ms1)
	h.Deliver(2, hb(4)) // t=440: n2's deadline now 690ms
	effs = h.Fire(TimerCheck)
	wantSuspects(t, h.Status())
	wantTimers(t, effs, TimerCheck, 110*ms1)

	// If n3 goes silent again it is suspected after its grown timeout.
	h.Fire(TimerCheck)
	if h.Now != 560*ms1 {
		t.Fatalf("second suspicion at %v, want 560ms", h.Now)
	}
	wantSuspects(t, h.Status(), 3)
	wantArmed(t, h, TimerCheck, 690*ms1)
}

// With a timer per peer (Chandra & Toueg), peer q is suspected when its own timer,
// restarted at every heartbeat from q, fires: at lastHeard(q) + timeout(q). The one
// check timer must suspect each peer at exactly that virtual time. Each case lists
// when each peer's heartbeats arrive and when each peer must be suspected (0: never
// before the end).
func TestHeartbeatSuspectsAtTheSameTimeAsOneTimerPerPeer(t *testing.T) {
	const end = 2000 * ms1
	type peer struct {
		heard   []time.Duration // arrival times of its heartbeats
		suspect []time.Duration // expected suspicion times, in order
	}
	for _, c := range []struct {
		name  string
		peers map[node.ID]peer // n2.. of a 4-process cluster seen from n1; timeout 250ms, Δ 50ms
	}{
		{"silent from the start", map[node.ID]peer{
			2: {nil, []time.Duration{250 * ms1}},
			3: {nil, []time.Duration{250 * ms1}},
			4: {nil, []time.Duration{250 * ms1}},
		}},
		{"each stops at a different time", map[node.ID]peer{
			2: {[]time.Duration{10 * ms1, 110 * ms1}, []time.Duration{360 * ms1}},
			3: {[]time.Duration{17 * ms1, 117 * ms1, 217 * ms1, 317 * ms1}, []time.Duration{567 * ms1}},
			4: {[]time.Duration{12 * ms1}, []time.Duration{262 * ms1}},
		}},
		{"equal deadlines of two peers", map[node.ID]peer{
			2: {[]time.Duration{40 * ms1}, []time.Duration{290 * ms1}},
			3: {[]time.Duration{40 * ms1}, []time.Duration{290 * ms1}},
			4: {[]time.Duration{100 * ms1, 200 * ms1, 300 * ms1, 400 * ms1}, []time.Duration{650 * ms1}},
		}},
		{"a false suspicion grows the timeout by Δ", map[node.ID]peer{
			// suspected at 250 (no heartbeat yet), trusted at 400 with timeout
			// 300ms, suspected again at 700.
			2: {[]time.Duration{400 * ms1}, []time.Duration{250 * ms1, 700 * ms1}},
			3: {[]time.Duration{100 * ms1, 300 * ms1, 500 * ms1, 700 * ms1, 900 * ms1}, []time.Duration{1150 * ms1}},
			4: {[]time.Duration{230 * ms1, 479 * ms1}, []time.Duration{729 * ms1}},
		}},
		{"a heartbeat at its sender's deadline comes too late", map[node.ID]peer{
			// n2's own timer (armed at 0) fires before the heartbeat sent at
			// about 250ms arrives: suspected at 250, trusted, suspected at 550.
			2: {[]time.Duration{250 * ms1}, []time.Duration{250 * ms1, 550 * ms1}},
			3: {[]time.Duration{100 * ms1, 350 * ms1}, []time.Duration{350 * ms1, 650 * ms1}},
			4: {[]time.Duration{249 * ms1}, []time.Duration{499 * ms1}},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := harness(t, "heartbeat-dp", 1, 4, map[string]any{"interval": "10s", "timeout": "250ms", "delta": "50ms"})
			h.Start()
			type arrival struct {
				at   time.Duration
				from node.ID
			}
			var arrivals []arrival
			for q, p := range c.peers {
				for _, at := range p.heard {
					arrivals = append(arrivals, arrival{at, q})
				}
			}
			slices.SortFunc(arrivals, func(a, b arrival) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.from, b.from)) })
			got := map[node.ID][]time.Duration{}
			was := map[node.ID]bool{}
			note := func() {
				for q := node.ID(2); q <= 4; q++ {
					s := h.Status().Suspect(q)
					if s && !was[q] {
						got[q] = append(got[q], h.Now)
					}
					was[q] = s
				}
			}
			// Fire the check whenever it is due before the next arrival: a timer at
			// the same instant as an arrival fires first, as a peer's own timer did.
			for {
				at, armed := h.Armed(TimerCheck)
				if !armed || at > end {
					break
				}
				if len(arrivals) > 0 && arrivals[0].at < at {
					h.Now = arrivals[0].at
					h.Deliver(arrivals[0].from, hb(1))
					arrivals = arrivals[1:]
				} else {
					h.Fire(TimerCheck)
				}
				note()
			}
			for _, a := range arrivals {
				h.Now = a.at
				h.Deliver(a.from, hb(1))
				note()
			}
			for q, p := range c.peers {
				if !slices.Equal(got[q], p.suspect) {
					t.Errorf("%v suspected at %v, want %v", q, got[q], p.suspect)
				}
			}
		})
	}
}

// The heartbeat that arrives at its sender's deadline finds the sender suspected
// even when the check timer, due at the same instant, has not fired yet (it was
// armed after the heartbeat was sent, so the world orders it after).
func TestHeartbeatAtTheDeadlineBeforeTheCheck(t *testing.T) {
	h := harness(t, "heartbeat-dp", 1, 2, hbParams)
	h.Start()
	h.Advance(250 * ms1) // n2's deadline; the check is due now too
	effs := h.Deliver(2, hb(3))
	wantSuspects(t, h.Status()) // suspected and trusted again in the same step
	wantCounter(t, h.Status(), CounterMistakes, 1)
	wantCounter(t, h.Status(), CounterTimeout, 300)
	wantTimers(t, effs) // the check due now will find the new deadline, 550ms
	if got := logs(effs); !slices.Equal(got, []string{"fd: suspect n2", "fd: trust n2 again, its timeout now 300ms"}) {
		t.Fatalf("logs %q", got)
	}
	h.Fire(TimerCheck)
	wantSuspects(t, h.Status())
	wantArmed(t, h, TimerCheck, 550*ms1)
}

// A slow process's timers run slow: its deadlines are stretched exactly as its own
// timer per peer would have been, with the factor in force when it was heard.
func TestHeartbeatSlowProcessStretchesDeadlines(t *testing.T) {
	h := harness(t, "heartbeat-dp", 1, 3, hbParams)
	h.Env.SetSlow(3)
	h.Start()
	wantArmed(t, h, TimerCheck, 750*ms1)
	h.Env.SetSlow(2)
	h.Advance(100 * ms1)
	h.Deliver(2, hb(1)) // deadline 100 + 2×250
	wantArmed(t, h, TimerCheck, 600*ms1)
	h.Fire(TimerCheck)
	wantSuspects(t, h.Status(), 2)
	h.Fire(TimerCheck)
	if h.Now != 750*ms1 {
		t.Fatalf("n3 suspected at %v, want 750ms", h.Now)
	}
	wantSuspects(t, h.Status(), 2, 3)
}

// logs lists the trace lines effs write.
func logs(effs []node.Effect) []string {
	var out []string
	for _, e := range effs {
		if e.Kind == node.EffLog {
			out = append(out, e.Name)
		}
	}
	return out
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
