package netsim_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
)

// BenchmarkWorldMeshMemory runs an N-process heartbeat-dp mesh for one virtual
// second and reports the most memory the Go runtime held from the OS meanwhile
// (sampled every 10ms of virtual time; peak-MB, and per node), which is what the
// issue's "4,096 nodes run 1 virtual second in under 2 GB" measures, and the
// heartbeats delivered per second. Every process broadcasts at the same instants,
// so N·(N−1) messages are in flight at once: the event-storm guard is raised to let
// them. Each sub-benchmark builds a new world per iteration.
func BenchmarkWorldMeshMemory(b *testing.B) {
	for _, n := range []int{1000, 2048, 4096} {
		b.Run(fmt.Sprintf("N%d", n), func(b *testing.B) {
			for range b.N {
				cfg := heartbeatConfig(b, n)
				cfg.MaxPending = 2 * n * n
				runtime.GC()
				m := startMeter()
				w, err := netsim.New(cfg, nil)
				if err != nil {
					b.Fatal(err)
				}
				var peak uint64
				for t := 10 * time.Millisecond; t <= time.Second; t += 10 * time.Millisecond {
					w.RunUntil(t)
					var ms runtime.MemStats
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.Sys-ms.HeapReleased)
				}
				if err := w.Err(); err != nil {
					b.Fatal(err)
				}
				delivered := w.Summary().Messages["HEARTBEAT"].Delivered
				w.Close()
				m.report(b, delivered)
				b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
				b.ReportMetric(float64(peak)/float64(n), "peak-B/node")
			}
		})
	}
}
