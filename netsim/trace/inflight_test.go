package trace_test

import (
	"fmt"
	"testing"
	"time"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/session"
	"pgregory.net/rapid"
)

// inFlightCheck folds every event a run makes and checks, after each, that the
// messages in flight are those sent whose first copy has neither arrived nor been
// lost: never fewer than none, whatever the duplicates.
type inFlightCheck struct {
	st    *trace.State
	open  map[uint64]bool // sent, first copy not yet landed
	dups  int             // duplicate copies seen
	fails []string
}

func (c *inFlightCheck) Record(e *trace.Event) {
	c.st.Apply(e)
	switch {
	case e.Ev == trace.Send:
		c.open[e.MID] = true
	case (e.Ev == trace.Deliver && !e.Local || e.Ev == trace.Drop) && e.Dup:
		c.dups++
	case e.Ev == trace.Deliver && !e.Local || e.Ev == trace.Drop:
		delete(c.open, e.MID)
	}
	if got := c.st.InFlight(); got != len(c.open) && len(c.fails) < 3 {
		c.fails = append(c.fails, fmt.Sprintf("after line %d (%s, dup %v): in flight %d, want %d", e.Seq, e.Ev, e.Dup, got, len(c.open)))
	}
}

// TestInFlightWithDuplicates runs presets of each family on a network that
// duplicates and loses messages, under a random fault script (crashes, recoveries,
// isolations, heals, messages duplicated by hand), and folds the trace as the
// dashboard and the cast do: in flight is always the messages whose first copy is
// on its way, never negative (it went to -2,072 when every duplicate's delivery
// was taken off).
func TestInFlightWithDuplicates(t *testing.T) {
	dupRuns, withDups := 0, 0
	defer func() {
		if withDups < dupRuns/2 {
			t.Errorf("only %d of %d runs had a duplicate copy: the property was hardly tested", withDups, dupRuns)
		}
	}()
	rapid.Check(t, func(rt *rapid.T) {
		preset := rapid.SampledFrom([]string{"bully", "omega-crash", "ricart", "dp-gst", "raft-partition", "lamport"}).Draw(rt, "preset")
		s, cfg, err := session.Open(session.Source{Preset: preset})
		if err != nil {
			rt.Fatal(err)
		}
		cfg.Net.Dup = rapid.Float64Range(0.2, 0.8).Draw(rt, "dup")
		cfg.Net.Loss = rapid.Float64Range(0, 0.2).Draw(rt, "loss")
		cfg.Until = time.Duration(rapid.IntRange(200, 1000).Draw(rt, "until")) * time.Millisecond
		var script []netsim.Timed
		for range rapid.IntRange(0, 8).Draw(rt, "faults") {
			at := time.Duration(rapid.IntRange(0, int(cfg.Until/time.Millisecond)).Draw(rt, "at")) * time.Millisecond
			verb := rapid.SampledFrom([]string{"crash", "recover", "isolate", "heal", "dup"}).Draw(rt, "verb")
			a := netsim.Action{Verb: verb, Node: cfg.IDs[rapid.IntRange(0, len(cfg.IDs)-1).Draw(rt, "node")]}
			if verb == "dup" {
				a = netsim.Action{Verb: "dup", MID: rapid.Uint64Range(1, 400).Draw(rt, "mid")}
			}
			script = append(script, netsim.Timed{At: at, Action: a})
		}
		cfg.Script = append(cfg.Script, script...) // the world orders its script
		c := &inFlightCheck{st: trace.NewState(session.Header(s, cfg)), open: map[uint64]bool{}}
		if _, err := session.Run(cfg, cfg.Until, c); err != nil {
			rt.Fatal(err)
		}
		if len(c.fails) > 0 {
			rt.Fatalf("%s with dup %.2f: %v", preset, cfg.Net.Dup, c.fails)
		}
		if c.st.Snapshot().InFlight != c.st.InFlight() {
			rt.Fatalf("the snapshot says %d in flight, the state %d", c.st.Snapshot().InFlight, c.st.InFlight())
		}
		dupRuns++
		if c.dups > 0 {
			withDups++
		}
	})
}
