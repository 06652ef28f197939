package session

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// benchPreset is the fixed workload of the recording benchmarks.
const benchPreset = "dp-gst"

// BenchmarkTrace compares a plain headless run of one preset, made bigger, with the same run
// recorded (plain and compressed) and with verify of that recording. The issue's
// targets: record ≤ 1.5× plain, verify ≤ 2× plain (divide the ns/op). Each case also
// reports cpu-ms/op, the CPU time of all the process's threads per operation: on a
// loaded machine the wall time varies with the load, the CPU time much less.
func BenchmarkTrace(b *testing.B) {
	s, _, err := Open(Source{Preset: benchPreset})
	if err != nil {
		b.Fatal(err)
	}
	// 16 processes heartbeating each other: about 84,000 events (8.6 MB of lines),
	// so that what a recording costs per event shows, not what opening a file costs.
	s.Nodes, s.IDs = 16, nil
	cfg, err := s.Resolve()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	var events uint64
	record := func(b *testing.B, path string) {
		out, err := CreateOutput(path, true)
		if err != nil {
			b.Fatal(err)
		}
		rec, err := Record(out, s, cfg)
		if err != nil {
			b.Fatal(err)
		}
		_, now, err := RunContext(context.Background(), cfg, 0, rec, nil)
		if err != nil {
			b.Fatal(err)
		}
		rec.End(trace.EndUntil, node.Micros(now))
		if err := rec.Close(); err != nil {
			b.Fatal(err)
		}
		if err := out.Commit(); err != nil {
			b.Fatal(err)
		}
		events = rec.Count()
	}
	b.Run("plain", func(b *testing.B) {
		loopCPU(b, func() {
			if _, err := Run(cfg, 0, nil); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("hash", func(b *testing.B) {
		loopCPU(b, func() {
			if _, err := Run(cfg, 0, trace.NewHasher()); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("encode-discard", func(b *testing.B) {
		loopCPU(b, func() {
			rec, _ := trace.NewRecorder(io.Discard, Header(s, cfg))
			if _, err := Run(cfg, 0, rec); err != nil {
				b.Fatal(err)
			}
			rec.Close()
		})
	})
	for _, ext := range []string{".jsonl", ".jsonl.gz", ".jsonl.zst"} {
		path := filepath.Join(dir, "bench"+ext)
		b.Run("record"+ext, func(b *testing.B) {
			loopCPU(b, func() { record(b, path) })
			b.ReportMetric(float64(events), "events")
		})
		b.Run("verify"+ext, func(b *testing.B) {
			if _, err := os.Stat(path); err != nil {
				// Run alone (-bench 'Trace/verify'): make the recording first, untimed.
				record(b, path)
			}
			loopCPU(b, func() {
				v, err := Verify(context.Background(), path, VerifyOptions{})
				if err != nil || !v.OK {
					b.Fatalf("%v %+v", err, v)
				}
			})
		})
	}
}

// loopCPU runs f as the benchmark's operation and reports its CPU time per operation.
func loopCPU(b *testing.B, f func()) {
	start, n := cpuTime(), 0
	for b.Loop() {
		f()
		n++
	}
	if used := cpuTime() - start; used > 0 && n > 0 {
		b.ReportMetric(float64(used.Microseconds())/1e3/float64(n), "cpu-ms/op")
	}
}

// cpuTime is the CPU time the process has used so far, every thread's, user and
// system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
