package netsim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// instantConfig is a random cluster on a random network with a random fault
// script: of pingers, which all tick at the same instants and send themselves a
// message there (events handled inside a window), or of one of the lab's
// algorithms whose monitors schedule checks (no leader, split brain, false
// suspicions), to be run at their places among the events.
func instantConfig(rt *rapid.T) Config {
	n := rapid.IntRange(2, 7).Draw(rt, "nodes")
	var cfg Config
	switch algo := rapid.SampledFrom([]string{"ping", "bully", "omega", "heartbeat-dp", "raft"}).Draw(rt, "algo"); algo {
	case "ping":
		cfg = pingConfig(n, 0)
	default:
		cfg = labConfig(rt, algo, n, nil, Latency{}, "")
	}
	cfg.Seed = rapid.Uint64().Draw(rt, "seed")
	cfg.Net = genNet(rt)
	cfg.Until = time.Duration(rapid.IntRange(50, 600).Draw(rt, "until")) * time.Millisecond
	cfg.Script = randomScript(rt, cfg.IDs, 3, 600)
	return cfg
}

// runStopping runs w to until, calling stopped each time the run returns before
// it, inside an instant or between two.
func runStopping(w *World, until time.Duration, stopped func()) {
	for {
		w.RunUntil(until)
		if _, before := w.Position(); before == 0 && w.Now() >= until {
			return
		}
		stopped()
	}
}

// insideInstant reports whether w stands inside an instant.
func insideInstant(w *World) bool {
	_, before := w.Position()
	return before > 0
}

// interrupted is a world whose windows stop inside instants after a random amount
// of work, and whose RunUntil returns there when a random interrupt says so.
func interrupted(rt *rapid.T, cfg Config, sink trace.Sink) *World {
	w, err := New(cfg, sink)
	if err != nil {
		rt.Fatal(err)
	}
	w.SetInterrupt(func() bool { return rapid.Bool().Draw(rt, "interrupt") })
	w.cutWork = rapid.IntRange(1, 40).Draw(rt, "cut work")
	return w
}

// randomAction is a user action on one of ids.
func randomAction(rt *rapid.T, ids []node.ID) Action {
	id := ids[rapid.IntRange(0, len(ids)-1).Draw(rt, "user node")]
	switch v := rapid.SampledFrom([]string{"crash", "recover", "isolate", "heal", "slow", "partition", "set", "message"}).Draw(rt, "user verb"); v {
	case "message":
		return randomMessageAction(rt, ids)
	case "slow":
		return Action{Verb: v, Node: id, Factor: rapid.IntRange(1, 4).Draw(rt, "factor")}
	case "partition":
		return Action{Verb: v, Groups: [][]node.ID{{id}}}
	case "set":
		return Action{Verb: v, Knob: "loss", Value: rapid.Float64Range(0, 0.5).Draw(rt, "loss")}
	default:
		return Action{Verb: v, Node: id}
	}
}

// TestStopsInsideInstantsKeepTrace checks that windows which stop inside an
// instant, and runs that return there, give the trace of a run without them: where
// the world stops is the dashboard's business, never the run's.
func TestStopsInsideInstantsKeepTrace(t *testing.T) {
	stops := 0
	rapid.Check(t, func(rt *rapid.T) {
		cfg := instantConfig(rt)
		want, wantN := hashRun(rt, cfg)
		h := trace.NewHasher()
		w := interrupted(rt, cfg, h)
		defer w.Close()
		runStopping(w, cfg.Until, func() {
			if insideInstant(w) {
				stops++
			}
		})
		w.Finish()
		if got, n := h.Sum(), h.Count(); got != want || n != wantN {
			rt.Fatalf("a run stopped inside instants gave %d events (%s), without stops %d (%s)", n, got, wantN, want)
		}
	})
	if stops == 0 {
		t.Fatal("no run stopped inside an instant: the test checked nothing")
	}
}

// TestActionsInsideInstantsReplay checks that user actions taken where a run
// stopped inside an instant are put back at their places: from the start
// (Config.UserActions, as verify does), and by running to each place and acting
// there (RunTo and Do, as the dashboard's backfill does). Both give the trace of
// the run they were taken in, "before" fields included.
func TestActionsInsideInstantsReplay(t *testing.T) {
	inside := 0
	rapid.Check(t, func(rt *rapid.T) {
		cfg := instantConfig(rt)
		h := trace.NewHasher()
		w := interrupted(rt, cfg, h)
		defer w.Close()
		runStopping(w, cfg.Until, func() {
			for i := rapid.IntRange(0, 2).Draw(rt, "actions here"); i > 0; i-- {
				w.Do(randomAction(rt, cfg.IDs))
				if insideInstant(w) {
					inside++
				}
			}
		})
		w.Finish()
		want, wantN := h.Sum(), h.Count()
		users := append([]Timed(nil), w.UserActions()...)

		from := cfg
		from.UserActions = users
		if got, n := hashRun(rt, from); got != want || n != wantN {
			rt.Fatalf("the user actions %v from the start gave %d events (%s), taken live %d (%s)", users, n, got, wantN, want)
		}

		h2 := trace.NewHasher()
		w2, err := New(cfg, h2)
		if err != nil {
			rt.Fatal(err)
		}
		defer w2.Close()
		for _, u := range users {
			w2.RunTo(u.At, u.Before)
			if at, before := w2.Position(); at != u.At || before != u.Before {
				rt.Fatalf("RunTo(%v, %d) stopped at (%v, %d)", u.At, u.Before, at, before)
			}
			w2.Do(u.Action)
		}
		w2.RunUntil(cfg.Until)
		w2.Finish()
		if got, n := h2.Sum(), h2.Count(); got != want || n != wantN {
			rt.Fatalf("running to each action's place and acting there gave %d events (%s), taken live %d (%s)", n, got, wantN, want)
		}
	})
	if inside == 0 {
		t.Fatal("no action was taken inside an instant: the test checked nothing")
	}
}

// TestActionInsideInstantIsRecorded checks the line of a user action taken inside
// an instant: its "before" is the number of the next event of the instant, and
// the events of the instant numbered below it come before the action's line.
func TestActionInsideInstantIsRecorded(t *testing.T) {
	cfg := pingConfig(6, 1)
	cfg.Until = 100 * time.Millisecond
	sink := &collect{}
	w, err := New(cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetInterrupt(func() bool { return true })
	w.cutWork = 3
	w.RunUntil(cfg.Until)
	at, before := w.Position()
	if before == 0 {
		t.Fatalf("the run did not stop inside an instant: at %v", at)
	}
	lines := len(sink.evs)
	w.Do(Action{Verb: "crash", Node: 2})
	e := sink.evs[lines]
	if e.Ev != trace.Action || e.By != "user" || e.Before != before || e.T != node.Micros(at) {
		t.Fatalf("the action's line is %+v, expected a user action at %v before %d", e, at, before)
	}
	if got := fmt.Sprint(w.UserActions()); got != fmt.Sprintf("[{%v %d crash n2}]", at, before) {
		t.Fatalf("user actions %s", got)
	}
	// Some of the instant's events came before the action, others after it.
	var earlier, later int
	for i, ev := range sink.evs {
		if ev.T == node.Micros(at) && i < lines {
			earlier++
		}
	}
	w.SetInterrupt(nil)
	w.RunUntil(cfg.Until)
	for _, ev := range sink.evs[lines+1:] {
		if ev.T == node.Micros(at) {
			later++
		}
	}
	if earlier == 0 || later == 0 {
		t.Fatalf("%d events of the instant before the action and %d after, expected some of each", earlier, later)
	}
}

// TestCheckWaitsForItsPlace checks that a window which stops inside an instant
// runs the monitor checks before where it stops, and no other of that instant,
// even once the window's own outcomes are all merged.
func TestCheckWaitsForItsPlace(t *testing.T) {
	m := &monitors{}
	at := 10 * time.Millisecond
	m.checks = []check{{at: at, seq: 7}, {at: at, seq: 9}}
	cut := &hkey{at: at, seq: 8}
	if _, ok := m.due(0, 0, false, at, at, false, cut); !ok {
		t.Fatal("the check numbered 7 is before the stop at 8, and not due")
	}
	if c, ok := m.due(0, 0, false, at, at, false, cut); ok {
		t.Fatalf("the check numbered %d is after the stop at 8, and due", c.seq)
	}
	if _, ok := m.due(0, 0, false, at, at, false, nil); !ok {
		t.Fatal("without a stop, the check numbered 9 of the window's instant is not due")
	}
}

// TestDenseInstantStopsEarly: pingers that all tick at one instant, each tick a
// broadcast, and a quiet timer (echo) 1 ms after. With an interrupt, a window of a
// tick instant takes a couple of ticks and stops, at the first wave (whose cost is
// not known yet) as at the later ones, which come after windows of quiet timers
// only: the stops come from what each process's own timer made last time, not
// from an average over timers.
func TestDenseInstantStopsEarly(t *testing.T) {
	const n = 20
	cfg := pingConfig(n, 1)
	cfg.Until = 45 * time.Millisecond
	sink := &collect{}
	w, err := New(cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(5 * time.Millisecond) // the starts
	w.SetInterrupt(func() bool { return true })
	w.cutWork = 2 * (n + 1)
	var stops []string
	from := len(sink.evs)
	runStopping(w, cfg.Until, func() {
		if !insideInstant(w) {
			return
		}
		at, _ := w.Position()
		ticks := 0
		for _, e := range sink.evs[from:] {
			if e.Ev == trace.TimerEv && e.Name == "tick" && e.T == node.Micros(at) {
				ticks++
			}
		}
		from = len(sink.evs)
		if ms := at / time.Millisecond; at%(10*time.Millisecond) == 0 {
			stops = append(stops, fmt.Sprintf("%dms:%d", ms, min(ticks, 9)))
		} else {
			stops = append(stops, fmt.Sprintf("%dms", ms))
		}
	})
	// Two or three ticks a window: 10, 9, 9 ticks stopped after at 10 ms (counted
	// since the last stop, the first window's share included), and so on.
	got := strings.Join(stops, " ")
	for _, wave := range []string{"10ms", "20ms", "30ms", "40ms"} {
		if !strings.Contains(got, wave+":") || strings.Contains(got, wave+":9") {
			t.Fatalf("stops %s: expected stops every 1 to 3 ticks at %s", got, wave)
		}
	}
	// The first echoes, not known yet, stop every other one; later ones are known
	// to send nothing, and a window stops among them only where the deliveries
	// before them in it have made enough.
	if strings.Count(got, "11ms") < 5 || strings.Count(got, "21ms") > 2 || strings.Count(got, "31ms") > 2 || strings.Count(got, "41ms") > 2 {
		t.Fatalf("stops %s: expected the echoes at 11 ms to stop every other one, and those after at most twice", got)
	}
}

// TestRunWholeIgnoresInterrupt: the dashboard's step key and the end of a
// recording run to their time whatever the interrupt says.
func TestRunWholeIgnoresInterrupt(t *testing.T) {
	cfg := pingConfig(20, 1)
	w, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetInterrupt(func() bool { return true })
	w.cutWork = 3
	w.RunUntil(50 * time.Millisecond)
	if w.Now() >= 50*time.Millisecond {
		t.Fatalf("with an interrupt that always fires, RunUntil ran to %v", w.Now())
	}
	w.RunWhole(50 * time.Millisecond)
	if at, before := w.Position(); at != 50*time.Millisecond || before != 0 {
		t.Fatalf("RunWhole stopped at (%v, %d), expected 50ms", at, before)
	}
	w.RunUntil(60 * time.Millisecond)
	if w.Now() >= 60*time.Millisecond {
		t.Fatal("after RunWhole, the interrupt no longer fires")
	}
}
