package netsim

import (
	"runtime"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

func hashRun(t interface{ Fatal(...any) }, cfg Config) (string, uint64) {
	return hashRunWith(t, cfg, nil)
}

// hashRunWith runs cfg to its end, lets look see the world before it closes (if
// not nil), and returns the trace's hash and length.
func hashRunWith(t interface{ Fatal(...any) }, cfg Config, look func(*World)) (string, uint64) {
	h := trace.NewHasher()
	w, err := New(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(cfg.Until)
	w.Finish()
	if look != nil {
		look(w)
	}
	return h.Sum(), h.Count()
}

// randomScript is up to most crashes, revivals, isolations, heals, GSTs and
// message-level actions of random nodes, links and messages at random whole ms up to
// horizon, in time order.
func randomScript(rt *rapid.T, ids []node.ID, most, horizon int) []Timed {
	var script []Timed
	for i := rapid.IntRange(0, most).Draw(rt, "steps"); i > 0; i-- {
		id := ids[rapid.IntRange(0, len(ids)-1).Draw(rt, "node")]
		at := time.Duration(rapid.IntRange(0, horizon).Draw(rt, "at")) * time.Millisecond
		verb := rapid.SampledFrom([]string{"crash", "recover", "isolate", "heal", "gst", "message"}).Draw(rt, "verb")
		a := Action{Verb: verb, Node: id}
		if verb == "message" {
			a = randomMessageAction(rt, ids)
		}
		script = append(script, Timed{At: at, Action: a})
	}
	sortTimed(script)
	return script
}

// randomMessageAction is a hold, release, swizzle, or an action on one of the first
// messages sent.
func randomMessageAction(rt *rapid.T, ids []node.ID) Action {
	from := ids[rapid.IntRange(0, len(ids)-1).Draw(rt, "from")]
	to := ids[rapid.IntRange(0, len(ids)-1).Draw(rt, "to")]
	mid := rapid.Uint64Range(1, 300).Draw(rt, "mid")
	switch v := rapid.SampledFrom([]string{"hold", "release", "drop", "delay", "deliver", "dup", "swizzle"}).Draw(rt, "message verb"); v {
	case "hold", "release":
		return Action{Verb: v, Node: from, To: to}
	case "delay":
		return Action{Verb: v, MID: mid, For: time.Duration(rapid.IntRange(1, 50).Draw(rt, "delay")) * time.Millisecond}
	case "swizzle":
		return Action{Verb: v, For: time.Duration(rapid.IntRange(1, 400).Draw(rt, "swizzle")) * time.Millisecond}
	default:
		return Action{Verb: v, MID: mid}
	}
}

// TestWindowsEqualOneAtATime proves the windowed, parallel dispatch gives exactly the
// trace of handling one event at a time, over random networks and fault scripts,
// whether the world handles small windows itself or hands everything out (to the
// processes' goroutines and the inserter).
func TestWindowsEqualOneAtATime(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 7).Draw(rt, "nodes")
		cfg := pingConfig(n, rapid.Uint64().Draw(rt, "seed"))
		cfg.Net = genNet(rt)
		cfg.Until = time.Duration(rapid.IntRange(100, 1500).Draw(rt, "until")) * time.Millisecond
		cfg.Script = randomScript(rt, cfg.IDs, 4, 1500)
		windowed, n1 := hashRun(rt, cfg)
		cfg.HandOut = true
		handedOut, n3 := hashRun(rt, cfg)
		cfg.Sequential, cfg.HandOut = true, false
		sequential, n2 := hashRun(rt, cfg)
		if windowed != sequential || n1 != n2 {
			rt.Fatalf("windowed run (%d events, %s) differs from one-at-a-time (%d events, %s)", n1, windowed, n2, sequential)
		}
		if handedOut != sequential || n3 != n2 {
			rt.Fatalf("run with every batch and message handed out (%d events, %s) differs from one-at-a-time (%d events, %s)", n3, handedOut, n2, sequential)
		}
	})
}

// TestStepEqualsRun checks that stepping one event at a time (the dashboard's `.`)
// gives the same trace as running.
func TestStepEqualsRun(t *testing.T) {
	cfg := pingConfig(4, 3)
	cfg.Until = 300 * time.Millisecond
	cfg.Script = []Timed{{At: 100 * time.Millisecond, Action: Action{Verb: "crash", Node: 2}}}
	want, _ := hashRun(t, cfg)
	h := trace.NewHasher()
	w, err := New(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for {
		te, ok := w.nextTime()
		if (!ok || te >= cfg.Until) && (w.next >= len(w.sched) || w.sched[w.next].at > cfg.Until) {
			break
		}
		w.Step()
	}
	if got := h.Sum(); got != want {
		t.Fatalf("stepping gave %s, running gave %s", got, want)
	}
}

// TestCrashReviveLeavesNoGoroutine runs 10,000 crash/revive cycles and checks that
// every incarnation's goroutine is gone.
func TestCrashReviveLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := pingConfig(3, 1)
	cfg.HandOut = true // every batch goes to a goroutine, so that every incarnation starts one
	w, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		w.Do(Action{Verb: "crash", Node: 2})
		w.RunUntil(w.Now() + time.Millisecond)
		w.Do(Action{Verb: "recover", Node: 2})
		w.RunUntil(w.Now() + time.Millisecond)
	}
	if st, up := w.Status(2); !up || st.Role != "pinger" {
		t.Fatalf("n2 after the cycles: up=%v status=%+v", up, st)
	}
	// A stopped incarnation's goroutine has signalled its exit but may not have
	// returned yet: give the last ones a moment, as after Close below.
	deadline := time.Now().Add(2 * time.Second)
	// Three processes' goroutines and the inserter's (HandOut hands every merge's
	// messages to it too).
	for runtime.NumGoroutine() > before+4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if during := runtime.NumGoroutine(); during > before+4 || during == before {
		t.Fatalf("%d goroutines while 3 processes and the inserter run, %d before", during, before)
	}
	w.Close()
	deadline = time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Fatalf("%d goroutines left after Close, %d before", after, before)
	}
}

// sleeper arms a long timer on Start only, and counts firings.
type sleeper struct{ fired int64 }

func (s *sleeper) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start:
		env.After(500*time.Millisecond, "late")
		env.Send(env.Self()%3+1, node.Message{Type: "HELLO"})
	case node.Timer:
		s.fired++
	}
}
func (s *sleeper) Status() node.Status {
	return node.Status{Counters: []node.Counter{{Name: "fired", Value: s.fired}}}
}

// TestDeadIncarnation checks that timers and messages addressed to a crashed
// incarnation never reach the next one.
func TestDeadIncarnation(t *testing.T) {
	cfg := pingConfig(3, 1)
	cfg.Factory = func(node.ID) node.Algorithm { return &sleeper{} }
	cfg.Net.Latency = Latency{Dist: "constant", Min: 50 * time.Millisecond, Mean: 50 * time.Millisecond, Max: 50 * time.Millisecond}
	cfg.Net.Delta = 100 * time.Millisecond
	cfg.Script = []Timed{
		{At: 10 * time.Millisecond, Action: Action{Verb: "crash", Node: 2}},
		{At: 20 * time.Millisecond, Action: Action{Verb: "recover", Node: 2}},
	}
	var c collect
	w, err := New(cfg, &c)
	if err != nil {
		t.Fatal(err)
	}
	w.RunUntil(time.Second)
	w.Close()
	fired := map[node.ID]int{}
	for _, e := range c.evs {
		if e.Ev == trace.TimerEv {
			fired[e.Node]++
		}
		if e.Ev == trace.Deliver && e.To == 2 {
			t.Errorf("n2's new incarnation received %v from %v, sent to the old one", e.Msg.Type, e.From)
		}
	}
	if fired[1] != 1 || fired[3] != 1 || fired[2] != 0 {
		t.Fatalf("timer firings %v: want n1 and n3 once, n2 (revived) never", fired)
	}
	drops := 0
	for _, e := range c.evs {
		if e.Ev == trace.Drop && e.To == 2 && e.Reason == trace.ReasonDown {
			drops++
		}
	}
	if drops != 1 {
		t.Fatalf("want the HELLO to n2 dropped as down once, got %d", drops)
	}
}
