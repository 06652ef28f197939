package netsim_test

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/detector"
	_ "github.com/clusterlab/clusterlab/algos/election"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

func heartbeatConfig(b testing.TB, n int) netsim.Config { return netsim.MeshConfig(b, n) }

// BenchmarkWorldAllToAll runs 64 heartbeat-dp processes, all to all, headless with no
// recording, and reports delivered messages per second of wall time.
func BenchmarkWorldAllToAll(b *testing.B) {
	cfg := heartbeatConfig(b, 64)
	w, err := netsim.New(cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	heartbeatRate(b, w, 64, time.Second) // warm up: every process is heartbeating
}

// heartbeatRate runs an n-process heartbeat world past warm, then b.N intervals of
// 100ms of virtual time (n·(n−1) heartbeats each) under the meter, and reports the
// heartbeats delivered; fewer than 90 % of the expected fails the benchmark.
func heartbeatRate(b *testing.B, w *netsim.World, n int, warm time.Duration) {
	w.RunUntil(warm)
	start := w.Summary().Messages["HEARTBEAT"].Delivered
	b.ResetTimer()
	m := startMeter()
	w.RunUntil(w.Now() + time.Duration(b.N)*100*time.Millisecond)
	b.StopTimer()
	delivered := w.Summary().Messages["HEARTBEAT"].Delivered - start
	if delivered < b.N*n*(n-1)*9/10 {
		b.Fatalf("only %d heartbeats delivered in %d intervals", delivered, b.N)
	}
	m.report(b, delivered)
}

// meter measures a benchmark's wall and CPU time. On a shared machine the wall
// clock says as much about the neighbours as about the code; the CPU time the
// process used (all its threads, the garbage collector included) is steadier.
type meter struct {
	wall time.Time
	cpu  time.Duration
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startMeter() meter { return meter{time.Now(), cpuTime()} }

// report gives msgs/s (wall) and msgs/cpu-s for n delivered messages.
func (m meter) report(b *testing.B, n int) {
	wall, cpu := time.Since(m.wall), cpuTime()-m.cpu
	b.ReportMetric(float64(n)/wall.Seconds(), "msgs/s")
	if cpu > 0 {
		b.ReportMetric(float64(n)/cpu.Seconds(), "msgs/cpu-s")
	}
}

// BenchmarkWorldMesh1000 runs 1,000 heartbeat-dp processes, all to all, and reports
// delivered messages per second. Each iteration is 100ms of virtual time, about a
// million heartbeats, after 150ms of warm-up (the start and one heartbeat wave).
// The sub-benchmarks run it with one and with two processors, side by side.
func BenchmarkWorldMesh1000(b *testing.B) {
	for _, procs := range []int{1, 2} {
		b.Run(fmt.Sprintf("P%d", procs), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			w, err := netsim.New(heartbeatConfig(b, 1000), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			heartbeatRate(b, w, 1000, 150*time.Millisecond)
		})
	}
	// As the dashboard runs it: with an interrupt, so its windows stop inside the
	// heartbeat waves (the interrupt never fires here).
	b.Run("P2-dashboard", func(b *testing.B) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
		w, err := netsim.New(heartbeatConfig(b, 1000), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close()
		w.SetInterrupt(func() bool { return false })
		heartbeatRate(b, w, 1000, 150*time.Millisecond)
	})
}

// BenchmarkWorld1000Nodes reports the heap used per process of a 1,000-node
// heartbeat-dp cluster (its all-to-all state is what grows).
func BenchmarkWorld1000Nodes(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		w, err := netsim.New(heartbeatConfig(b, 1000), nil)
		if err != nil {
			b.Fatal(err)
		}
		w.RunUntil(250 * time.Millisecond)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1000, "heap-B/node")
		w.Close()
	}
}

// ringConfig is Chang-Roberts on a ring of n with ids 1..n in ring order and one
// initiator, n1 (the successor of the maximum): 2n−1 ELECTION and n ELECTED, one
// message in flight at a time, so every window holds a single event.
func ringConfig(b *testing.B, n int) netsim.Config {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	spec, f, err := algos.Build("ring", ids, map[string]any{"initiators": []any{"n1"}})
	if err != nil {
		b.Fatal(err)
	}
	return netsim.Config{Name: "ring", Spec: spec, Factory: f, IDs: ids, Seed: 1, Topology: "ring",
		Net:      netsim.Net{Latency: netsim.Latency{Dist: "constant", Mean: time.Millisecond}, Delta: 10 * time.Millisecond},
		Monitors: netsim.DefaultMonitors}
}

// benchRing runs the whole election, building the world included, and reports its
// wall and CPU time and the memory the process got from the system.
func benchRing(b *testing.B, n int) {
	for i := 0; i < b.N; i++ {
		runtime.GC()
		m := startMeter()
		w, err := netsim.New(ringConfig(b, n), nil)
		if err != nil {
			b.Fatal(err)
		}
		w.RunUntil(time.Duration(3*n+10) * time.Millisecond)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.Close()
		wall := time.Since(m.wall)
		s := w.Summary()
		if got := s.Messages["ELECTION"].Sent; got != 2*n-1 {
			b.Fatalf("ELECTION sent = %d, want 2N−1 = %d", got, 2*n-1)
		}
		if got := s.Messages["ELECTED"].Sent; got != n {
			b.Fatalf("ELECTED sent = %d, want N = %d", got, n)
		}
		b.ReportMetric(wall.Seconds(), "wall-s")
		b.ReportMetric((cpuTime() - m.cpu).Seconds(), "cpu-s")
		b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MB")
	}
}

// BenchmarkRing10k is Chang-Roberts with one initiator on 10,000 nodes.
func BenchmarkRing10k(b *testing.B) { benchRing(b, 10_000) }

// BenchmarkRing100k is Chang-Roberts with one initiator on 100,000 nodes.
func BenchmarkRing100k(b *testing.B) { benchRing(b, 100_000) }
