package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/internal/cputime"
)

// ringComplexity plans the ring-complexity sweep, all of it.
func ringComplexity(b *testing.B) *Plan {
	s, err := Load("ring-complexity")
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewPlan(s, Shard{})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkRingComplexityJobs times the runs of the ring-complexity sweep (72 runs,
// N up to 128) with 1 and with 2 jobs, for profiling; the ratio is
// BenchmarkRingComplexitySpeedup's.
//
//	go test ./sweep -run '^$' -bench RingComplexityJobs -benchtime 3x
func BenchmarkRingComplexityJobs(b *testing.B) {
	p := ringComplexity(b)
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			for b.Loop() {
				p.Execute(context.Background(), jobs, func(Result) {})
			}
			b.ReportMetric(float64(p.Runs())*float64(b.N)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}

// BenchmarkRingComplexitySpeedup does what `clusterlab sweep --preset
// ring-complexity --jobs J` does, but for starting the process and printing: plan
// the grid, run the 72 runs, write every output file. It does so with J = 1 and
// J = 2 in alternation, so that load from elsewhere on the machine falls on both
// alike, and reports
//
//	speedup       wall time with --jobs 1 over wall time with --jobs 2 (the target: ≥ 1.7 on two idle cores)
//	runs-speedup  the same for the runs alone
//	ceiling       the same ratio for a loop that only computes, timed in the same
//	              iterations: what the machine gave two threads meanwhile (2 on
//	              two idle cores, less when other work holds a core)
//	cpu-cost      CPU time with --jobs 2 over CPU time with --jobs 1: what running
//	              in parallel costs in work (1 if nothing), whatever the load
//
//	go test ./sweep -run '^$' -bench RingComplexitySpeedup -benchtime 3x -count 5
func BenchmarkRingComplexitySpeedup(b *testing.B) {
	dir := b.TempDir()
	var whole, runs, spin, cpu [3]time.Duration
	for b.Loop() {
		for _, jobs := range []int{1, 2} {
			out := filepath.Join(dir, fmt.Sprint(jobs))
			os.RemoveAll(out)
			t, c := time.Now(), cputime.Process()
			release := holdGC() // as Execute does, for the whole command
			p := ringComplexity(b)
			f, err := openFolder(out, false)
			if err != nil {
				b.Fatal(err)
			}
			outs := p.newOutputs(f, true)
			r := time.Now()
			p.Execute(context.Background(), jobs, outs.add)
			runs[jobs] += time.Since(r)
			if _, err := p.finish(f, outs, reportInfo{command: "bench"}, jobs, nil, false); err != nil {
				b.Fatal(err)
			}
			release()
			whole[jobs] += time.Since(t)
			cpu[jobs] += cputime.Process() - c
			t = time.Now()
			each(jobs, 72, func(int) { spinSink.Add(spinLoop(1 << 19)) })
			spin[jobs] += time.Since(t)
		}
	}
	b.ReportMetric(whole[1].Seconds()/whole[2].Seconds(), "speedup")
	b.ReportMetric(runs[1].Seconds()/runs[2].Seconds(), "runs-speedup")
	b.ReportMetric(spin[1].Seconds()/spin[2].Seconds(), "ceiling")
	if cpu[1] > 0 {
		b.ReportMetric(cpu[2].Seconds()/cpu[1].Seconds(), "cpu-cost")
	}
}

var spinSink atomic.Uint64

// spinLoop computes for a while (about 0.5 ms for n = 2¹⁹) without touching memory.
func spinLoop(n int) uint64 {
	x := uint64(1)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}
