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
// targets: record ≤ 1.5× plain, verify ≤ 2× plain. Each case reports cpu-ms/op, the
// CPU time of all the process's threads per operation, the kernel's included (a
// recording's writes and its fsync): on a loaded machine the wall time varies with
// the load, the CPU time much less. Every case but plain also reports x-plain, its
// CPU time over that of plain runs interleaved with it, and x-wall, the same for
// wall time (see loopCPU): a recording encodes on another core, so it costs more
// CPU than it costs time.
//
// The cases between plain and record split what a recording costs: sink, the
// world building each event for a sink that does nothing with it; hash, that and
// encoding and hashing each line (the SHA-256 of the end record); encode-discard,
// the recorder writing nowhere (the file's writes and fsync are what record adds).
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
	plain := func() {
		if _, err := Run(cfg, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("plain", func(b *testing.B) { loopCPU(b, nil, plain, nil) })
	b.Run("sink", func(b *testing.B) {
		loopCPU(b, nil, func() {
			if _, err := Run(cfg, 0, discard{}); err != nil {
				b.Fatal(err)
			}
		}, plain)
	})
	b.Run("hash", func(b *testing.B) {
		loopCPU(b, nil, func() {
			if _, err := Run(cfg, 0, trace.NewHasher()); err != nil {
				b.Fatal(err)
			}
		}, plain)
	})
	b.Run("encode-discard", func(b *testing.B) {
		loopCPU(b, nil, func() {
			rec, _ := trace.NewRecorder(io.Discard, Header(s, cfg))
			if _, err := Run(cfg, 0, rec); err != nil {
				b.Fatal(err)
			}
			rec.Close()
		}, plain)
	})
	for _, ext := range []string{".jsonl", ".jsonl.gz", ".jsonl.zst"} {
		path := filepath.Join(dir, "bench"+ext)
		b.Run("record"+ext, func(b *testing.B) {
			// Each run records to a new file, as `sim --record` does: removing the
			// last run's file (and freeing its pages) is not counted.
			loopCPU(b, func() { os.Remove(path) }, func() { record(b, path) }, plain)
			b.ReportMetric(float64(events), "events")
		})
		b.Run("verify"+ext, func(b *testing.B) {
			if _, err := os.Stat(path); err != nil {
				// Run alone (-bench 'Trace/verify'): make the recording first, untimed.
				record(b, path)
			}
			loopCPU(b, nil, func() {
				v, err := Verify(context.Background(), path, VerifyOptions{})
				if err != nil || !v.OK {
					b.Fatalf("%v %+v", err, v)
				}
			}, plain)
		})
	}
}

// loopCPU runs f as the benchmark's operation and reports cpu-ms/op, the CPU time
// of all the process's threads per operation. prep, if not nil, runs before each
// operation, untimed and uncounted. With a baseline, it runs the baseline after
// each operation, likewise untimed, and also reports x-plain and x-wall: the
// operations' CPU and wall time over the baseline's. Interleaved, both see the
// same load on a shared machine, so the ratios hold better than ones of separate
// runs.
func loopCPU(b *testing.B, prep, f, baseline func()) {
	var used, base, wall, baseWall time.Duration
	n := 0
	for b.Loop() {
		if prep != nil {
			b.StopTimer()
			prep()
			b.StartTimer()
		}
		start, t0 := cpuTime(), time.Now()
		f()
		used += cpuTime() - start
		wall += time.Since(t0)
		n++
		if baseline != nil {
			b.StopTimer()
			start, t0 := cpuTime(), time.Now()
			baseline()
			base += cpuTime() - start
			baseWall += time.Since(t0)
			b.StartTimer()
		}
	}
	if used <= 0 || n == 0 {
		return
	}
	b.ReportMetric(float64(used.Microseconds())/1e3/float64(n), "cpu-ms/op")
	if base > 0 {
		b.ReportMetric(float64(used)/float64(base), "x-plain")
		b.ReportMetric(float64(wall)/float64(baseWall), "x-wall")
	}
}

// discard is a sink that does nothing with the events it is given.
type discard struct{}

func (discard) Record(*trace.Event) {}

// cpuTime is the CPU time the process has used so far, every thread's, user and
// system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
