package sweep

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkRingComplexityJobs runs the ring-complexity sweep (72 runs, N up to 128)
// with 1 and with 2 jobs. Runs share nothing, so on two idle cores 2 jobs should take
// well under half again the time of 1 (target: ≥ 1.7× faster).
//
//	go test ./sweep -run '^$' -bench RingComplexityJobs -benchtime 3x
func BenchmarkRingComplexityJobs(b *testing.B) {
	s, err := Load("ring-complexity")
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewPlan(s, Shard{})
	if err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			for b.Loop() {
				p.Execute(jobs, nil)
			}
			b.ReportMetric(float64(len(p.Runs))*float64(b.N)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}

// BenchmarkRingComplexitySpeedup times both in alternation and reports the ratio,
// so that load from elsewhere on the machine hits both alike.
func BenchmarkRingComplexitySpeedup(b *testing.B) {
	s, _ := Load("ring-complexity")
	p, err := NewPlan(s, Shard{})
	if err != nil {
		b.Fatal(err)
	}
	var one, two time.Duration
	for b.Loop() {
		t := time.Now()
		p.Execute(1, nil)
		one += time.Since(t)
		t = time.Now()
		p.Execute(2, nil)
		two += time.Since(t)
	}
	b.ReportMetric(one.Seconds()/two.Seconds(), "speedup")
}
