package explore

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/internal/cputime"
)

// The search's speed (docs/finding-bugs.md, "How fast"):
//
//	go test -run XXX -bench . -benchtime 3x ./explore/
//
// BenchmarkRandom reports the runs per second of random mode on a 3-node, 2 s
// mutual exclusion scenario (every fault class, nothing to find: Ricart-Agrawala
// by timestamps under a workload), with a job per processor; BenchmarkTimeBudget how
// far past --time a search returns; BenchmarkSystematic how long systematic mode
// takes to find the triangle's deadlock; BenchmarkMemory the peak RSS of a search
// of 100,000 runs.

// benchScenario is the 3-node, 2 s mutex scenario.
func benchSearch(b *testing.B, o Options) *Result {
	s, _ := load(b, "ricart-workload.toml")
	s.Until = "2s"
	cfg, err := s.Resolve()
	if err != nil {
		b.Fatal(err)
	}
	res, err := Run(context.Background(), s, cfg, o)
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Findings) > 0 {
		b.Fatalf("the benchmark's scenario broke: %+v", res.Findings[0].FoundWhat)
	}
	return res
}

func BenchmarkRandom(b *testing.B) {
	const runs = 5000
	var took time.Duration
	cpu := cputime.Process()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		benchSearch(b, Options{Seed: uint64(i + 1), Runs: runs, Faults: []string{FaultNetwork, FaultSlow}})
		took += time.Since(start)
	}
	b.ReportMetric(float64(runs*b.N)/took.Seconds(), "runs/s")
	if c := cputime.Process() - cpu; c > 0 {
		// The machine's other work aside: what each processor does.
		b.ReportMetric(float64(runs*b.N)/c.Seconds(), "runs/cpu-s")
	}
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}

// BenchmarkTimeBudget: short runs (the 3-node scenario), and a run far longer than
// the budget (1,000 bully processes for 5 s), which the search halts.
func BenchmarkTimeBudget(b *testing.B) {
	const budget = time.Second
	b.Run("short-runs", func(b *testing.B) {
		var over time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			benchSearch(b, Options{Seed: uint64(i + 1), Time: budget, Faults: []string{FaultNetwork, FaultSlow}})
			over = max(over, time.Since(start)-budget)
		}
		b.ReportMetric(over.Seconds(), "s-past-budget")
	})
	b.Run("long-run", func(b *testing.B) {
		s, _ := load(b, "bully")
		s.Nodes, s.Until = 1000, "5s"
		cfg, err := s.Resolve()
		if err != nil {
			b.Fatal(err)
		}
		var over time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			if _, err := Run(context.Background(), s, cfg, Options{Seed: uint64(i + 1), Time: budget}); err != nil {
				b.Fatal(err)
			}
			over = max(over, time.Since(start)-budget)
		}
		b.ReportMetric(over.Seconds(), "s-past-budget")
	})
}

// BenchmarkSystematic: systematic mode on the triangle's deadlock (issue: under
// 10 s), shrinking included; the wall time and the schedules explored.
func BenchmarkSystematic(b *testing.B) {
	s, cfg := load(b, "maekawa-workload.toml")
	var took time.Duration
	schedules := 0
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err := Run(context.Background(), s, cfg, Options{Mode: ModeSystematic, Liveness: true, Faults: []string{FaultNetwork}, Delays: DefaultDelays, Crashes: DefaultCrashes})
		if err != nil {
			b.Fatal(err)
		}
		took = max(took, time.Since(start))
		if len(res.Findings) == 0 || res.Findings[0].Violation.Kind != KindStarvation {
			b.Fatalf("no starvation in %d schedules (%s)", res.Runs, res.Stopped)
		}
		schedules = res.Runs
	}
	b.ReportMetric(took.Seconds(), "s-max")
	b.ReportMetric(float64(schedules), "schedules")
}

func BenchmarkMemory(b *testing.B) {
	const runs = 100_000
	// The peak is the process's: without a reset, it is that of a benchmark run
	// before (BenchmarkTimeBudget's 1,000 processes take some 300 MB).
	resetPeakRSS(b)
	for i := 0; i < b.N; i++ {
		benchSearch(b, Options{Seed: uint64(i + 1), Runs: runs, Faults: []string{FaultNetwork, FaultSlow}})
	}
	b.ReportMetric(float64(peakRSS())/(1<<20), "MB-peak-RSS")
}

// resetPeakRSS returns the heap's free memory to the system and sets the
// process's peak resident set to its present one (Linux's clear_refs, value 5).
func resetPeakRSS(b *testing.B) {
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("the peak RSS is the process's since it started: %v", err)
	}
}

// peakRSS is the process's peak resident set (VmHWM), in bytes; 0 where /proc has
// no such line.
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
