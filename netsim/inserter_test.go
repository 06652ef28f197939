package netsim

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestInserterKeepsTheTrace runs pingers with the inserter taking the merges'
// messages and without it (one processor): the traces must be the same.
//   - 190 pingers route 35,910 messages in one merge, and with two processors the
//     inserter starts by itself after handOverAfter of them.
//   - With HandOut it takes every merge's messages. 60 pingers whose messages take
//     up to fifty periods fill the queue until the storm guard trips in a merge,
//     while the inserter holds part of a wave; it must trip at the same event.
func TestInserterKeepsTheTrace(t *testing.T) {
	for _, c := range []struct {
		nodes, limit  int
		slow, handOut bool
	}{{190, 0, false, false}, {60, 20_000, true, true}} {
		cfg := pingConfig(c.nodes, 7)
		cfg.Until = 25 * time.Millisecond
		if c.slow {
			cfg.Net.Latency = Latency{Dist: "uniform", Min: 5 * time.Millisecond, Mean: 250 * time.Millisecond, Max: 500 * time.Millisecond}
			cfg.Net.Delta = time.Second
			cfg.Until = 200 * time.Millisecond
		}
		cfg.MaxPending = c.limit
		run := func(procs int, handOut bool) (sum string, events uint64, err error, used bool) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			cfg := cfg
			cfg.HandOut = handOut
			sum, events = hashRunWith(t, cfg, func(w *World) { err, used = w.Err(), w.ins.work != nil })
			return sum, events, err, used
		}
		sum2, n2, err2, used := run(2, c.handOut)
		sum1, n1, err1, used1 := run(1, false)
		if !used || used1 {
			t.Fatalf("%+v: inserter used: %v, and in the run with one processor: %v", c, used, used1)
		}
		if c.limit > 0 && (err1 == nil || !strings.Contains(err1.Error(), "pending at")) {
			t.Fatalf("%+v: want a storm of pending events, got %v", c, err1)
		}
		if sum1 != sum2 || n1 != n2 || !sameErr(err1, err2) {
			t.Fatalf("%+v: with the inserter %d events %s (%v), without %d events %s (%v)", c, n2, sum2, err2, n1, sum1, err1)
		}
	}
}

func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}
