package netsim_test

import (
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/mutex" // ricart
	"github.com/clusterlab/clusterlab/internal/rss"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// flooder answers every message with two to every other process: the number of
// messages in flight doubles every hop, the shape of a restart storm.
type flooder struct{}

func (flooder) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start:
		if env.Self() == 1 {
			env.Broadcast(node.Message{Type: "ELECTION"})
		}
	case node.Deliver:
		env.Broadcast(node.Message{Type: "ELECTION"})
		env.Send(ev.From, node.Message{Type: "ANSWER"})
	}
}

func (flooder) Status() node.Status { return node.Status{Role: "flooder"} }

func stormConfig(n, limit int, f node.Factory) netsim.Config {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	return netsim.Config{Name: "storm", Spec: algos.Spec{Name: "flooder"}, Factory: f, IDs: ids, Seed: 1,
		Until: time.Second, MaxPending: limit, Monitors: netsim.DefaultMonitors,
		Net: netsim.Net{Latency: netsim.Latency{Dist: "uniform", Min: time.Millisecond, Mean: 2 * time.Millisecond, Max: 3 * time.Millisecond},
			Delta: 10 * time.Millisecond}}
}

// heapMB is the live heap after a collection, in MB.
func heapMB() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc >> 20)
}

// TestEventStormStopsTheRun floods the network and checks that the guard stops the
// run with the time and the flooding types, before the queue passes its limit, and
// that the world then refuses to go on.
func TestEventStormStopsTheRun(t *testing.T) {
	cfg := stormConfig(16, 20_000, func(node.ID) node.Algorithm { return flooder{} })
	// Delays spread over half a second: the flood piles up in flight, window
	// after window, until the queue is full.
	cfg.Net.Latency.Max, cfg.Net.Delta = 500*time.Millisecond, time.Second
	w, err := netsim.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(time.Second)
	err = w.Err()
	if err == nil {
		t.Fatalf("no storm reported; %d events pending at %v", w.Pending(), w.Now())
	}
	re := regexp.MustCompile(`^event storm: 20,000 events pending at t=0\.\d+s; ELECTION 9\d%(, ANSWER \d%)?`)
	if !re.MatchString(err.Error()) {
		t.Fatalf("storm error %q does not match %v", err, re)
	}
	if w.Pending() > 20_000 {
		t.Fatalf("%d events pending, over the limit", w.Pending())
	}
	if w.Now() >= time.Second {
		t.Fatalf("the run went on to %v after the storm", w.Now())
	}
	at := w.Now()
	stepped := w.Step()
	w.RunUntil(2 * time.Second)
	if stepped || w.Now() != at {
		t.Fatalf("the world moved from %v to %v after the storm", at, w.Now())
	}
}

// TestEventStormInOneWindow: a flood fast enough to make more than the limit within
// one window is stopped before the world queues any of it.
func TestEventStormInOneWindow(t *testing.T) {
	w, err := netsim.New(stormConfig(64, 20_000, func(node.ID) node.Algorithm { return flooder{} }), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(time.Second)
	re := regexp.MustCompile(`^event storm: [\d,]+ events made within 1ms at t=0\.00\d+s; ELECTION 9\d%`)
	if err := w.Err(); err == nil || !re.MatchString(err.Error()) {
		t.Fatalf("storm error %v does not match %v", err, re)
	}
	if w.Pending() > 20_000 {
		t.Fatalf("%d events pending, over the limit", w.Pending())
	}
}

// broadcaster sends one message to every other process when it starts: one step
// each, many effects each.
type broadcaster struct{}

func (broadcaster) Step(env *node.Env, ev node.Event) {
	if ev.Kind == node.Start {
		env.Broadcast(node.Message{Type: "HELLO"})
	}
}

func (broadcaster) Status() node.Status { return node.Status{Role: "broadcaster"} }

// TestEventStormAtStart: 300 processes that each make 299 messages in their one
// step of the window (Start) add up to 89,700, past a limit of 20,000. The window's
// budget counts them, so the run stops there, before any of it is queued, and the
// batches still to run do not run.
func TestEventStormAtStart(t *testing.T) {
	w, err := netsim.New(stormConfig(300, 20_000, func(node.ID) node.Algorithm { return broadcaster{} }), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(time.Second)
	re := regexp.MustCompile(`^event storm: ([\d,]+) events made within 1ms at t=0s; start 100%`)
	m := re.FindStringSubmatch(fmt.Sprint(w.Err()))
	if m == nil {
		t.Fatalf("storm error %v does not match %v", w.Err(), re)
	}
	if made, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); made > 40_000 {
		t.Fatalf("%d events made before the budget stopped the window, limit 20,000", made)
	}
	if w.Pending() != 0 {
		t.Fatalf("%d events queued by a window that overflowed", w.Pending())
	}
}

// spinner re-arms a zero-delay timer forever: time never passes for it, the shape
// of a request generator asked for 10¹² requests per second.
type spinner struct{}

func (spinner) Step(env *node.Env, ev node.Event) {
	if ev.Kind == node.Start || ev.Kind == node.Timer {
		env.After(0, "spin")
	}
}

func (spinner) Status() node.Status { return node.Status{Role: "spinner"} }

// TestEventStormInsideAWindow: a process that makes events forever at one instant
// never queues one: its own zero-delay timers are handled inside the window. The
// window's budget stops it too, in bounded memory. (A generator asked for 10¹²
// requests per second was such a process; cs_rate is now refused above its range
// before a run starts, and the guard stops whatever gets through.)
func TestEventStormInsideAWindow(t *testing.T) {
	cfg := stormConfig(3, 50_000, func(id node.ID) node.Algorithm {
		if id == 2 {
			return spinner{}
		}
		return flooder{}
	})
	if _, _, err := algos.Build("ricart", cfg.IDs, map[string]any{"cs_rate": 1e12}); err == nil {
		t.Log("ricart accepts cs_rate = 1e12: the guard below is what stops it")
	}
	before := heapMB()
	w, err := netsim.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(2 * time.Second)
	var peak runtime.MemStats
	runtime.ReadMemStats(&peak)
	if err := w.Err(); err == nil || !regexp.MustCompile(`^event storm: [\d,]+ events made within 1ms at t=0s; timer spin 9\d%`).MatchString(err.Error()) {
		t.Fatalf("got error %v, want an event storm of spin timers", err)
	}
	if grew := int64(peak.HeapSys>>20) - before; grew > 300 {
		t.Fatalf("the heap took %d MB more", grew)
	}
}

// BenchmarkStormDefaultGuard floods the network until the default guard
// (DefaultMaxPending) stops the run, and reports the process's peak RSS and the
// heap taken per pending event. Peak RSS is the process's: run one sub-benchmark
// per process, as scripts/bench does. "queue": delays up to half a second pile the
// flood up in the queue, beyond the timing wheel's span, in its heap (the dearer
// place). "window": 64 processes with 1–3 ms links make the flood within one
// window, where the window's budget stops it.
func BenchmarkStormDefaultGuard(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
		max  time.Duration
	}{{"queue", 16, 500 * time.Millisecond}, {"window", 64, 3 * time.Millisecond}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cfg := stormConfig(c.n, 0, func(node.ID) node.Algorithm { return flooder{} })
				cfg.Net.Latency.Max = c.max
				cfg.Net.Delta = max(cfg.Net.Delta, c.max)
				before := heapMB()
				w, err := netsim.New(cfg, nil)
				if err != nil {
					b.Fatal(err)
				}
				w.RunUntil(time.Second)
				if w.Err() == nil {
					b.Fatalf("no storm; %d events pending", w.Pending())
				}
				pending := w.Pending()
				live := heapMB() - before
				w.Close()
				b.ReportMetric(rss.PeakMB(), "peak-RSS-MB")
				b.ReportMetric(float64(live<<20)/float64(max(pending, 1)), "live-B/pending")
				b.ReportMetric(float64(pending), "pending")
			}
		})
	}
}
