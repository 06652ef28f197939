package netsim

import (
	"runtime"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// TestShardsKeepTheTrace runs worlds with two shards, with faults and
// message-level actions, windowed with the inserter's goroutine taking the second
// shard of the big windows, windowed on one processor, with every batch and message
// handed out, and one event at a time: the traces must be the same. The thresholds
// are brought down to these small worlds (shardFrom, shareFrom, windowCap), so that
// they shard, share and cap their windows as a mesh of hundreds does; the last
// world's waves are bigger than windowCap, so that plan brings window ends forward.
func TestShardsKeepTheTrace(t *testing.T) {
	defer func(a, b, c int) { shardFrom, shareFrom, windowCap = a, b, c }(shardFrom, shareFrom, windowCap)
	shardFrom, shareFrom, windowCap = 8, 64, 600
	ids := func(n int) []node.ID {
		out := make([]node.ID, n)
		for i := range out {
			out[i] = node.ID(i + 1)
		}
		return out
	}
	lossy := pingConfig(30, 11)
	lossy.Net.Loss, lossy.Net.Dup = 0.05, 0.05
	lossy.Until = 70 * time.Millisecond
	lossy.Script = []Timed{
		{At: 15 * time.Millisecond, Action: Action{Verb: "crash", Node: 7}},
		{At: 25 * time.Millisecond, Action: Action{Verb: "partition", Groups: [][]node.ID{ids(15), ids(30)[15:]}}},
		{At: 35 * time.Millisecond, Action: Action{Verb: "recover", Node: 7}},
		{At: 45 * time.Millisecond, Action: Action{Verb: "heal"}},
		{At: 50 * time.Millisecond, Action: Action{Verb: "slow", Node: 3, Factor: 4}},
		{At: 55 * time.Millisecond, Action: Action{Verb: "isolate", Node: 20}},
	}
	async := pingConfig(29, 12)
	async.Net.GST = 60 * time.Millisecond
	async.Net.PreLatency = Latency{Dist: "pareto", Min: 5 * time.Millisecond, Mean: 60 * time.Millisecond, Max: 500 * time.Millisecond}
	async.Net.PreLoss = 0.02
	async.Until = 90 * time.Millisecond
	async.Script = []Timed{
		{At: 12 * time.Millisecond, Action: Action{Verb: "hold", Node: 2, To: 3}},
		{At: 21 * time.Millisecond, Action: Action{Verb: "drop", MID: 1000}},
		{At: 25 * time.Millisecond, Action: Action{Verb: "delay", MID: 1500, For: 30 * time.Millisecond}},
		{At: 31 * time.Millisecond, Action: Action{Verb: "dup", MID: 2000}},
		{At: 41 * time.Millisecond, Action: Action{Verb: "deliver", MID: 2500}},
		{At: 50 * time.Millisecond, Action: Action{Verb: "release", Node: 2, To: 3}},
		{At: 70 * time.Millisecond, Action: Action{Verb: "crash", Node: 28}},
	}
	big := pingConfig(40, 13)
	big.Until = 45 * time.Millisecond
	// A wave's 1,560 messages arrive within a millisecond: more than windowCap in
	// a window of the lookahead, 5 ms.
	big.Net.Latency = Latency{Dist: "uniform", Min: 5 * time.Millisecond, Mean: 5500 * time.Microsecond, Max: 6 * time.Millisecond}
	for _, c := range []struct {
		name string
		cfg  Config
	}{{"lossy", lossy}, {"async", async}, {"big", big}} {
		run := func(procs int, adjust func(*Config)) (sum string, events uint64, shared, capped int) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			cfg := c.cfg
			if adjust != nil {
				adjust(&cfg)
			}
			sum, events = hashRunWith(t, cfg, func(w *World) {
				if len(w.shards) != 2 {
					t.Fatalf("%s: %d shards", c.name, len(w.shards))
				}
				shared, capped = w.shared, w.capped
			})
			return sum, events, shared, capped
		}
		want, n, _, _ := run(1, func(c *Config) { c.Sequential = true })
		sum2, n2, shared, capped := run(2, nil)
		sum1, n1, _, _ := run(1, nil)
		sumOut, nOut, _, _ := run(2, func(c *Config) { c.HandOut = true })
		if shared == 0 {
			t.Errorf("%s: no window's shards were taken by two goroutines", c.name)
		}
		if c.name == "big" && capped == 0 {
			t.Errorf("%s: no window's end was brought forward", c.name)
		}
		for _, got := range []struct {
			how string
			sum string
			n   uint64
		}{{"two processors", sum2, n2}, {"one processor", sum1, n1}, {"everything handed out", sumOut, nOut}} {
			if got.sum != want || got.n != n {
				t.Errorf("%s, %s: %d events %s, one at a time %d events %s", c.name, got.how, got.n, got.sum, n, want)
			}
		}
	}
}
