package netsim

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// restoreConfig is a ping mesh of four, asynchronous until 1 s, whose script
// breaks everything it can before 500 ms, a swizzle lasting past it included.
func restoreConfig(t *testing.T) Config {
	cfg := pingConfig(4, 3)
	cfg.Net.GST = time.Second
	cfg.Net.PreLatency = cfg.Net.Latency
	for _, s := range []string{"0s crash n1", "10ms partition n2 | n3,n4", "20ms isolate n4", "30ms cut n2->n3",
		"40ms hold n3->n2", "50ms slow n2 10", "60ms set loss 0.3", "70ms set dup 0.2", "100ms crash n3", "400ms swizzle 1s"} {
		at, do, _ := strings.Cut(s, " ")
		d, _ := time.ParseDuration(at)
		a, err := ParseAction(do, cfg.IDs)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Script = append(cfg.Script, Timed{At: d, Action: a})
	}
	return cfg
}

// TestRestoreEndsEveryFault: at Config.FaultsEnd the world ends every fault from
// its own state, recorded as the action restore by "end" and its effects, in
// order: the heal, the recoveries by id, speed, loss, dup, GST. The swizzle's
// steps still to come are dropped. Without FaultsEnd the same script leaves the
// world broken, so the check can fail.
func TestRestoreEndsEveryFault(t *testing.T) {
	cfg := restoreConfig(t)
	broken := func(w *World) []string {
		var out []string
		for _, p := range w.procs {
			if !p.up || p.slow > 1 || p.group != 0 || p.isolated {
				out = append(out, p.id.String())
			}
		}
		if len(w.cuts) > 0 || len(w.held) > 0 || w.net.Loss != 0 || w.net.Dup != 0 || !w.sync {
			out = append(out, "network")
		}
		return out
	}
	run := func(cfg Config) (*World, []trace.Event) {
		var c collect
		w, err := New(cfg, &c)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Close)
		w.RunUntil(600 * time.Millisecond)
		return w, c.evs
	}
	if w, _ := run(cfg); len(broken(w)) == 0 {
		t.Fatal("the script breaks nothing that lasts: the test would not see a restore that does nothing")
	}
	end := 500 * time.Millisecond
	cfg.FaultsEnd = &end
	w, evs := run(cfg)
	if b := broken(w); len(b) > 0 {
		t.Fatalf("after faults.end still broken: %v", b)
	}
	if w.gstAt != end {
		t.Errorf("GST at %v, expected %v", w.gstAt, end)
	}
	i := slices.IndexFunc(evs, func(e trace.Event) bool { return e.Ev == trace.Action && e.Text == "restore" })
	if i < 0 || evs[i].By != byEnd || evs[i].T != end.Microseconds() {
		t.Fatalf("no restore action by %q at %v in the trace", byEnd, end)
	}
	var got []string
	for _, e := range evs[i+1:] {
		if e.T != end.Microseconds() {
			break
		}
		switch e.Ev {
		case trace.Heal, trace.GST:
			got = append(got, e.Ev)
		case trace.Recover:
			got = append(got, "recover "+e.Node.String())
		case trace.Knob:
			got = append(got, e.Name+" "+e.Value)
		case trace.Action:
			t.Errorf("an action %q recorded inside the restore", e.Text)
		}
	}
	want := []string{"heal", "recover n1", "recover n3", "slow 1", "loss 0", "dup 0", "gst"}
	if !slices.Equal(got[:min(len(got), len(want))], want) {
		t.Errorf("the restore did %v, expected %v", got, want)
	}
	for _, e := range evs {
		if e.By == bySwizzle && e.T > end.Microseconds() {
			t.Fatalf("a swizzle step %q at %d µs, after the end of every fault", e.Text, e.T)
		}
	}
	// It is part of the run: the same configuration makes the same trace.
	_, again := run(cfg)
	if !slices.EqualFunc(evs, again, func(a, b trace.Event) bool { return a.Seq == b.Seq && a.T == b.T && a.Ev == b.Ev && a.Text == b.Text }) {
		t.Error("two runs with faults.end differ")
	}
}
