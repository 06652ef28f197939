package netsim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// courier sends fixed messages: n1 sends A then B to n2 at the start, n3 sends C to
// n2 2 ms later. With a constant 10 ms latency n2 gets A and B at 10 ms, C at 12 ms;
// the messages' ids are 1 (A), 2 (B) and 3 (C).
type courier struct{}

func (courier) Step(env *node.Env, ev node.Event) {
	switch {
	case ev.Kind == node.Start && env.Self() == 1:
		env.Send(2, node.Message{Type: "A"})
		env.Send(2, node.Message{Type: "B"})
	case ev.Kind == node.Start && env.Self() == 3:
		env.After(2*time.Millisecond, "send")
	case ev.Kind == node.Timer:
		env.Send(2, node.Message{Type: "C"})
	}
}

func (courier) Status() node.Status { return node.Status{} }

func courierConfig(t *testing.T, script ...string) Config {
	t.Helper()
	ids := []node.ID{1, 2, 3}
	cfg := Config{Name: "courier", Spec: algos.Spec{Name: "courier"}, IDs: ids, Until: 100 * time.Millisecond,
		Factory:  func(node.ID) node.Algorithm { return courier{} },
		Net:      Net{Latency: Latency{Dist: "constant", Min: 10 * time.Millisecond, Mean: 10 * time.Millisecond, Max: 10 * time.Millisecond}, Delta: 50 * time.Millisecond},
		Monitors: DefaultMonitors}
	for _, l := range script {
		at, do, _ := strings.Cut(l, " ")
		d, err := time.ParseDuration(at)
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseAction(do, ids)
		if err != nil {
			t.Fatalf("%q: %v", do, err)
		}
		cfg.Script = append(cfg.Script, Timed{At: d, Action: a})
	}
	return cfg
}

// fates runs cfg and lists what became of each message, in trace order: "A@10ms",
// "A dropped (action)@5ms", "C dup@12ms".
func fates(t *testing.T, cfg Config) []string {
	t.Helper()
	var c collect
	w, err := New(cfg, &c)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(cfg.Until)
	var out []string
	for _, e := range c.evs {
		at := time.Duration(e.T) * time.Microsecond
		switch {
		case e.Ev == trace.Deliver && e.Dup:
			out = append(out, fmt.Sprintf("%s dup@%v", e.Msg.Type, at))
		case e.Ev == trace.Deliver:
			out = append(out, fmt.Sprintf("%s@%v", e.Msg.Type, at))
		case e.Ev == trace.Drop:
			out = append(out, fmt.Sprintf("%s dropped (%s)@%v", e.Msg.Type, e.Reason, at))
		}
	}
	return out
}

func TestMessageActions(t *testing.T) {
	for _, c := range []struct {
		name   string
		script []string
		want   string
	}{
		{"none", nil, "A@10ms B@10ms C@12ms"},
		// Holding n1->n2 keeps A and B until the release: C, sent later on another
		// link, comes first, and A and B follow in the order they were sent.
		{"hold and release reorder", []string{"0s hold n1->n2", "30ms release n1->n2"}, "C@12ms A@30ms B@30ms"},
		// What a link holds in flight is held too.
		{"hold in flight", []string{"5ms hold n1->n2", "30ms release n1->n2"}, "C@12ms A@30ms B@30ms"},
		// A release before a held message's own time delivers it at that time.
		{"short hold", []string{"0s hold n1->n2", "5ms release n1->n2"}, "A@10ms B@10ms C@12ms"},
		{"heal releases", []string{"0s hold n1->n2", "20ms heal"}, "C@12ms A@20ms B@20ms"},
		{"release of a link not held", []string{"5ms release n1->n2"}, "A@10ms B@10ms C@12ms"},
		{"drop", []string{"5ms drop #1"}, "A dropped (action)@5ms B@10ms C@12ms"},
		{"drop held", []string{"0s hold n1->n2", "5ms drop #2", "30ms release n1->n2"}, "B dropped (action)@5ms C@12ms A@30ms"},
		{"drop delivered", []string{"11ms drop #1"}, "A@10ms B@10ms C@12ms"},
		{"delay", []string{"5ms delay #1 15ms"}, "B@10ms C@12ms A@25ms"},
		// B is delivered at once, before A, which was due at the same instant.
		{"deliver next", []string{"10ms deliver #2"}, "B@10ms A@10ms C@12ms"},
		{"deliver early", []string{"5ms deliver #3"}, "C@5ms A@10ms B@10ms"},
		{"deliver held", []string{"0s hold n1->n2", "5ms deliver #2", "30ms release n1->n2"}, "B@5ms C@12ms A@30ms"},
		{"dup", []string{"5ms dup #3"}, "A@10ms B@10ms C@12ms C dup@12ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(fates(t, courierConfig(t, c.script...)), " ")
			if got != c.want {
				t.Errorf("%v:\n got %s\nwant %s", c.script, got, c.want)
			}
		})
	}
}

// TestMessageActionsReplay: a run with message-level actions is the same whether
// they come from the script or as user actions taken live at the same instants
// (what verify re-runs), whichever way windows fall.
func TestMessageActionsReplay(t *testing.T) {
	script := []string{"0s hold n1->n3", "15ms delay #5 7ms", "21ms deliver #9", "25ms dup #12", "31ms drop #14", "40ms release n1->n3", "45ms swizzle 60ms"}
	base := pingConfig(3, 9)
	base.Until = 200 * time.Millisecond
	scripted := base
	scripted.Script = courierConfig(t, script...).Script
	// Every action acts on a message in flight.
	var c collect
	w0, err := New(scripted, &c)
	if err != nil {
		t.Fatal(err)
	}
	w0.RunUntil(scripted.Until)
	w0.Close()
	seen := map[string]bool{}
	for _, e := range c.evs {
		switch {
		case e.Ev == trace.Drop && e.MID == 14 && e.Reason == trace.ReasonAction && e.T == 31000:
			seen["drop"] = true
		case e.Ev == trace.Deliver && e.MID == 9 && e.T == 21000:
			seen["deliver"] = true
		case e.Ev == trace.Deliver && e.MID == 12 && e.Dup:
			seen["dup"] = true
		case e.Ev == trace.Action && e.By == bySwizzle:
			seen["swizzle"] = true
		}
	}
	if len(seen) != 4 {
		t.Fatalf("the script's effects seen: %v, expected drop, deliver, dup and swizzle", seen)
	}
	want, n := hashRun(t, scripted)
	seq := scripted
	seq.Sequential = true
	if got, m := hashRun(t, seq); got != want || m != n {
		t.Fatalf("one at a time: %d events (%s), windowed %d (%s)", m, got, n, want)
	}
	// Taken live: the same effects, recorded as user actions.
	h := trace.NewHasher()
	w, err := New(base, h)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, s := range scripted.Script {
		w.RunUntil(s.At)
		w.Do(s.Action)
	}
	w.RunUntil(base.Until)
	live, liveN := h.Sum(), h.Count()
	replay := base
	replay.UserActions = w.UserActions()
	if got, m := hashRun(t, replay); got != live || m != liveN {
		t.Fatalf("user actions replayed: %d events (%s), live %d (%s)", m, got, liveN, live)
	}
}

// TestSwizzle: a swizzle holds links one at a time and releases them all by its
// end, each step recorded as an action by "swizzle"; nothing is lost.
func TestSwizzle(t *testing.T) {
	cfg := pingConfig(4, 5)
	cfg.Until = 400 * time.Millisecond
	cfg.Script = []Timed{{At: 50 * time.Millisecond, Action: Action{Verb: "swizzle", For: 200 * time.Millisecond}}}
	var c collect
	w, err := New(cfg, &c)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(cfg.Until)
	holds, releases, drops := 0, 0, 0
	var last time.Duration
	for _, e := range c.evs {
		switch {
		case e.Ev == trace.Action && e.By == bySwizzle && strings.HasPrefix(e.Text, "hold "):
			holds++
		case e.Ev == trace.Action && e.By == bySwizzle && strings.HasPrefix(e.Text, "release "):
			releases++
			last = time.Duration(e.T) * time.Microsecond
		case e.Ev == trace.Drop:
			drops++
		}
	}
	if holds == 0 || holds != releases {
		t.Fatalf("%d holds, %d releases: expected as many of each, at least one", holds, releases)
	}
	if last != 250*time.Millisecond {
		t.Errorf("the last release is at %v, expected the swizzle's end, 250ms", last)
	}
	if len(w.held) != 0 || w.heldN != 0 || drops != 0 {
		t.Errorf("after the swizzle: %d links held, %d messages, %d drops", len(w.held), w.heldN, drops)
	}
}

func TestParseMessageActions(t *testing.T) {
	ids := []node.ID{1, 2, 3}
	for _, s := range []string{"hold n1->n2", "release n3->n1", "drop #12", "delay #3 30ms", "deliver #7", "dup #1", "swizzle 1s", "swizzle 250ms"} {
		a, err := ParseAction(s, ids)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if a.String() != s {
			t.Errorf("%q reads back as %q", s, a.String())
		}
	}
	if a, _ := ParseAction("swizzle", ids); a.For != DefaultSwizzle {
		t.Errorf("swizzle without a duration lasts %v, expected %v", a.For, DefaultSwizzle)
	}
	for s, want := range map[string]string{
		"drop 12":                         `col 6: found "12", expected a message's id as the trace gives it (its mid), such as #12`,
		"drop #0":                         `col 6: found "#0", expected a message's id`,
		"deliver":                         `col 8: found the end, expected "deliver #SEQ"`,
		"delay #3":                        `col 9: found the end, expected "delay #SEQ 30ms"`,
		"delay #3 -1ms":                   `col 10: found "-1ms", expected a duration from 1µs to 1h0m0s`,
		"hold n1->n1":                     `col 6: found "n1->n1", expected a link between two different nodes`,
		"release n1":                      `col 9: found "n1", expected a link such as n1->n2`,
		"swizzle 1s 2s":                   `col 12: found "2s", expected the end after "swizzle 1s"`,
		"swizzle 100us":                   `col 9: found "100us", expected a duration from 1ms`,
		"dup #1 #2":                       `col 8: found "#2", expected the end after "dup #SEQ"`,
		"hold n1->n9":                     `col 10: found "n9", expected one of the scenario's nodes`,
		"delay #99999999999999999999 1ms": `col 7: found "#99999999999999999999"`,
	} {
		_, err := ParseAction(s, ids)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, expected %s…", s, err, want)
		}
	}
}

// TestFlights: the world lists every message in flight, whenever it was sent:
// A and B (ids 1, 2) at 5 ms, on n1→n2 held since 1 ms, as held; C (3), sent
// at 2 ms, due at 12 ms; after drop #2 and the release at 20 ms, nothing.
func TestFlights(t *testing.T) {
	cfg := courierConfig(t, "1ms hold n1->n2")
	w, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(5 * time.Millisecond)
	got := fmt.Sprint(w.Flights())
	if want := "[{1 n1 n2 A 10000 true} {2 n1 n2 B 10000 true} {3 n3 n2 C 12000 false}]"; got != want {
		t.Fatalf("Flights() at 5ms = %s, want %s", got, want)
	}
	w.Do(Action{Verb: "drop", MID: 2})
	w.Do(Action{Verb: "dup", MID: 3})
	if got := fmt.Sprint(w.Flights()); got != "[{1 n1 n2 A 10000 true} {3 n3 n2 C 12000 false}]" {
		t.Fatalf("Flights() after drop #2 and dup #3 = %s", got)
	}
	w.RunUntil(12 * time.Millisecond)
	if got := fmt.Sprint(w.Flights()); got != "[{1 n1 n2 A 10000 true} {3 n3 n2 C 12000 false}]" {
		t.Fatalf("Flights() at 12ms, C's copies due then = %s", got)
	}
	w.RunUntil(13 * time.Millisecond)
	w.Do(Action{Verb: "release", Node: 1, To: 2})
	w.RunUntil(14 * time.Millisecond)
	if got := w.Flights(); len(got) != 0 {
		t.Fatalf("Flights() after the release = %v", got)
	}
}
