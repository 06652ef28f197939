package detector

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

// Property tests: random sequences of deliveries, timer firings and pauses, checked
// against a small model written straight from the notes' pseudocode.

func dur(t *rapid.T, label string, lo, hi int) time.Duration {
	return time.Duration(rapid.IntRange(lo, hi).Draw(t, label)) * time.Millisecond
}

func checkEffects(t *rapid.T, effs []node.Effect, allowed ...string) {
	for _, e := range effs {
		switch e.Kind {
		case node.EffTimer:
			if !strings.HasPrefix(e.Name, "fd.") {
				t.Fatalf("timer %q does not start with fd.", e.Name)
			}
		case node.EffSend:
			if !slices.Contains(allowed, e.Msg.Type) {
				t.Fatalf("sent %s, not one of %v", e.Msg.Type, allowed)
			}
		}
	}
}

func sortedSuspects(m map[node.ID]bool) []node.ID {
	var out []node.ID
	for p, s := range m {
		if s {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func sameIDs(a, b []node.ID) bool { return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b) }

// The model keeps a deadline per peer, as a timer per peer would (Chandra & Toueg):
// each peer is suspected exactly when the check fires at or after its deadline,
// and the one check timer is never later than the earliest deadline.
func TestHeartbeatMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 6).Draw(t, "n")
		self := node.ID(rapid.IntRange(1, n).Draw(t, "self"))
		interval, initial, delta := dur(t, "interval", 1, 200), dur(t, "timeout", 1, 300), dur(t, "delta", 0, 100)
		h := nodetest.New(func(node.ID) node.Algorithm { return &Monitor{FD: NewHeartbeat(interval, initial, delta)} },
			self, nodetest.IDs(n), 7)
		h.Start()

		timeout := map[node.ID]time.Duration{}
		deadline := map[node.ID]time.Duration{}
		suspected := map[node.ID]bool{}
		var mistakes int64
		for _, p := range nodetest.IDs(n) {
			if p != self {
				timeout[p], deadline[p] = initial, initial
			}
		}
		for range rapid.IntRange(0, 60).Draw(t, "steps") {
			var effs []node.Effect
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0: // a heartbeat from anyone, strangers and self included
				q := node.ID(rapid.IntRange(1, n+1).Draw(t, "from"))
				effs = h.Deliver(q, hb(1))
				if _, ok := timeout[q]; ok {
					// q's own timer, due by now, would have fired first.
					if suspected[q] || deadline[q] <= h.Now {
						suspected[q] = false
						timeout[q] += delta
						mistakes++
					}
					deadline[q] = h.Now + timeout[q]
				}
			case 1:
				h.Advance(dur(t, "pause", 0, 300))
			case 2:
				name, e := h.FireNext()
				effs = e
				if name == TimerCheck {
					for p, d := range deadline {
						if !suspected[p] && d <= h.Now {
							suspected[p] = true
						}
					}
				}
			}
			checkEffects(t, effs, MsgHeartbeat)
			st := h.Status()
			if want := sortedSuspects(suspected); !sameIDs(st.Suspects, want) {
				t.Fatalf("suspects %v, model %v", st.Suspects, want)
			}
			var maxT time.Duration
			earliest, watched := time.Duration(0), false
			for p, d := range timeout {
				maxT = max(maxT, d)
				if !suspected[p] && (!watched || deadline[p] < earliest) {
					earliest, watched = deadline[p], true
				}
				if got := h.Alg.(*Monitor).FD.(*Heartbeat).Timeout(p); got != d {
					t.Fatalf("timeout of %v = %v, model %v", p, got, d)
				}
			}
			at, armed := h.Armed(TimerCheck)
			if armed != watched || armed && at > earliest {
				t.Fatalf("check armed=%v at %v; model: a trusted peer %v, earliest deadline %v", armed, at, watched, earliest)
			}
			if v, _ := st.Counter(CounterTimeout); v != maxT.Milliseconds() {
				t.Fatalf("timeout_ms %d, model %v", v, maxT)
			}
			if v, _ := st.Counter(CounterMistakes); v != mistakes {
				t.Fatalf("mistakes %d, model %d", v, mistakes)
			}
		}
	})
}

func TestPullMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 6).Draw(t, "n")
		self := node.ID(rapid.IntRange(1, n).Draw(t, "self"))
		interval, delta := dur(t, "interval", 1, 200), dur(t, "delta", 0, 100)
		h := nodetest.New(func(node.ID) node.Algorithm { return &Monitor{FD: NewPull(interval, delta)} }, self, nodetest.IDs(n), 7)
		h.Start()

		// Alg. 5.1, with the first round at Start.
		correct, suspects := map[node.ID]bool{}, map[node.ID]bool{}
		var mistakes int64
		var peers []node.ID
		for _, p := range nodetest.IDs(n) {
			if p != self {
				peers = append(peers, p)
			}
		}
		for range rapid.IntRange(0, 60).Draw(t, "steps") {
			var effs []node.Effect
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				q := node.ID(rapid.IntRange(1, n+1).Draw(t, "from"))
				effs = h.Deliver(q, rep(1))
				if slices.Contains(peers, q) {
					correct[q] = true
				}
			case 1:
				q := node.ID(rapid.IntRange(1, n).Draw(t, "from"))
				effs = h.Deliver(q, req(3))
				if got := nodetest.Sends(effs); len(got) != 1 || got[0] != (nodetest.Sent{To: q, Msg: rep(3)}) {
					t.Fatalf("answer to TEST_REQ: %v", got)
				}
			case 2:
				effs = h.Fire(TimerTest)
				for p := range correct {
					if suspects[p] {
						interval += delta
						break
					}
				}
				for _, p := range peers {
					switch {
					case !correct[p] && !suspects[p]:
						suspects[p] = true
					case correct[p] && suspects[p]:
						suspects[p] = false
						mistakes++
					}
				}
				clear(correct)
				if got := nodetest.Targets(effs, MsgTestReq); !slices.Equal(got, peers) {
					t.Fatalf("tested %v, want %v", got, peers)
				}
				wantArmedAt, _ := h.Armed(TimerTest)
				if wantArmedAt != h.Now+interval {
					t.Fatalf("next round at %v, model %v", wantArmedAt, h.Now+interval)
				}
			}
			checkEffects(t, effs, MsgTestReq, MsgTestRep)
			st := h.Status()
			if want := sortedSuspects(suspects); !sameIDs(st.Suspects, want) {
				t.Fatalf("suspects %v, model %v", st.Suspects, want)
			}
			if v, _ := st.Counter(CounterTimeout); v != interval.Milliseconds() {
				t.Fatalf("timeout_ms %d, model %v", v, interval)
			}
			if v, _ := st.Counter(CounterMistakes); v != mistakes {
				t.Fatalf("mistakes %d, model %d", v, mistakes)
			}
		}
	})
}

func TestOmegaLeaderIsCriterionOfUnsuspected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "n")
		self := node.ID(rapid.IntRange(1, n).Draw(t, "self"))
		useMax := rapid.Bool().Draw(t, "max")
		pull := rapid.Bool().Draw(t, "pull")
		h := nodetest.New(func(node.ID) node.Algorithm {
			var fd FD = NewHeartbeat(50*ms1, 120*ms1, 10*ms1)
			if pull {
				fd = NewPull(100*ms1, 10*ms1)
			}
			return NewOmega(fd, useMax)
		}, self, nodetest.IDs(n), 7)
		h.Start()
		for range rapid.IntRange(0, 60).Draw(t, "steps") {
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				q := node.ID(rapid.IntRange(1, n).Draw(t, "from"))
				h.Deliver(q, hb(1))
				h.Deliver(q, rep(1))
			case 1:
				h.Advance(dur(t, "pause", 0, 200))
			case 2:
				h.FireNext()
			}
			st := h.Status()
			if st.Suspect(self) {
				t.Fatalf("%v suspects itself: %v", self, st.Suspects)
			}
			if !slices.IsSorted(st.Suspects) {
				t.Fatalf("suspects not sorted: %v", st.Suspects)
			}
			var alive []node.ID
			for _, p := range nodetest.IDs(n) {
				if !st.Suspect(p) {
					alive = append(alive, p)
				}
			}
			want := slices.Min(alive)
			if useMax {
				want = slices.Max(alive)
			}
			if st.Leader != want {
				t.Fatalf("leader %v, want %v of unsuspected %v (max=%v)", st.Leader, want, alive, useMax)
			}
			if (st.Role == "leader") != (st.Leader == self) {
				t.Fatalf("role %q with leader %v, self %v", st.Role, st.Leader, self)
			}
		}
	})
}

func TestOmegaCRMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "n")
		self := node.ID(rapid.IntRange(1, n).Draw(t, "self"))
		interval0, grow := dur(t, "interval", 1, 200), dur(t, "grow", 0, 20)
		h := nodetest.New(func(node.ID) node.Algorithm { return NewOmegaCR(interval0, grow) }, self, nodetest.IDs(n), 7)
		h.Start()

		inc := int64(1)
		interval := interval0
		leader := node.None
		cands := map[node.ID]int64{}
		for range rapid.IntRange(0, 60).Draw(t, "steps") {
			var effs []node.Effect
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0, 1, 2:
				q := node.ID(rapid.IntRange(1, n+1).Draw(t, "from"))
				k := int64(rapid.IntRange(1, 4).Draw(t, "inc"))
				effs = h.Deliver(q, hbInc(k))
				if q != self && q <= node.ID(n) {
					cands[q] = max(cands[q], k)
				}
			case 3, 4:
				effs = h.Fire(TimerHeartbeat)
				best, bestInc := self, inc
				var heard []node.ID
				for q, k := range cands {
					heard = append(heard, q)
					if k < bestInc || (k == bestInc && q < best) {
						best, bestInc = q, k
					}
				}
				if best != leader {
					interval += grow
					leader = best
				}
				var notHeard []node.ID
				for _, p := range nodetest.IDs(n) {
					if p != self && !slices.Contains(heard, p) {
						notHeard = append(notHeard, p)
					}
				}
				if st := h.Status(); !sameIDs(st.Suspects, notHeard) {
					t.Fatalf("suspects %v, not heard %v", st.Suspects, notHeard)
				}
				clear(cands)
			case 5:
				effs = h.Recover()
				inc++
				interval, leader = interval0, node.None
				clear(cands)
			}
			checkEffects(t, effs, MsgHeartbeat)
			for _, s := range nodetest.Sends(effs) {
				if s.Msg.Term != inc || s.To == self {
					t.Fatalf("heartbeat %v, want incarnation %d to others", s, inc)
				}
			}
			st := h.Status()
			if st.Leader != leader || st.Inc != inc {
				t.Fatalf("leader %v inc %d, model %v %d", st.Leader, st.Inc, leader, inc)
			}
			if v, _ := h.Store.Get(StoreIncarnation); v != inc {
				t.Fatalf("stored incarnation %d, model %d", v, inc)
			}
			if got := h.Alg.(*OmegaCR).Interval(); got != interval {
				t.Fatalf("interval %v, model %v", got, interval)
			}
			// time moves only when the timer fires, so it is always one interval ahead
			if at, ok := h.Armed(TimerHeartbeat); !ok || at != h.Now+interval {
				t.Fatalf("heartbeat timer at %v (%v), want %v", at, ok, h.Now+interval)
			}
		}
	})
}
