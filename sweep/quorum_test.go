package sweep

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/clusterlab/clusterlab/algos/mutex"
	"github.com/clusterlab/clusterlab/internal/race"
)

// TestQuorumAmnesiaMeetsPv: in the quorum-amnesia sweep's cell of 3 coordinators
// asked the notes' way (ask = "m", m = 2), where P = 0.1 makes the notes' P_v =
// 1−(1−P)² = 0.19, the violations measured per entry over the sweep's seeds lie
// within the 95 % binomial interval of P_v. The same runs asking all coordinators
// (the lab's default) stay far below it: a holder then holds every free grant.
func TestQuorumAmnesiaMeetsPv(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("runs 25 minutes of a quorum's life, 7 million events: skipped in -short mode and under the race detector (.ci/run runs it in a plain pass)")
	}
	s, err := Load("quorum-amnesia")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(s, Shard{})
	if err != nil {
		t.Fatal(err)
	}
	rate := func(ask string, seeds int) (violations, entries float64, pv float64) {
		var runs []Run
		for k := range p.Runs() {
			r := p.Run(k)
			if s.Label(s.Cell(r.Cell)) == "params.coordinators=3 params.ask="+ask && len(runs) < seeds {
				runs = append(runs, r)
			}
		}
		if len(runs) != seeds {
			t.Fatalf("found %d runs of the cell with 3 coordinators and ask = %q, want %d", len(runs), ask, seeds)
		}
		results := make([]Result, len(runs))
		var wg sync.WaitGroup
		for i, r := range runs {
			wg.Go(func() { results[i] = p.execute(context.Background(), r, false) })
		}
		wg.Wait()
		for _, r := range results {
			violations += r.Values["violations"]
			entries += r.Values["entries"]
			pv = r.theory["violations_per_entry"][0].Value
		}
		return violations, entries, pv
	}
	v, e, pv := rate("m", len(s.SeedList))
	if want := 1 - math.Pow(1-(1-math.Exp(-0.10536)), 2); math.Abs(pv-want) > 1e-3 || pv < 0.1 {
		t.Fatalf("P_v of the cell is %.4f, want 1−(1−P)² = %.4f with P = 0.1", pv, want)
	}
	if got, want := pv, math.Pow(10, mutex.QuorumLog10Pv(3, 2, 1-math.Exp(-0.10536))); math.Abs(got-want) > 1e-12 {
		t.Fatalf("P_v %v, the notes' sum %v", got, want)
	}
	half := 1.96 * math.Sqrt(pv*(1-pv)/e)
	t.Logf("ask = m: %v violations in %v entries: %.4f, P_v %.4f ± %.4f", v, e, v/e, pv, half)
	if e < 1000 || math.Abs(v/e-pv) > half {
		t.Errorf("measured %.4f violations per entry over %v entries, outside P_v = %.4f ± %.4f", v/e, e, pv, half)
	}
	va, ea, _ := rate("all", 1)
	t.Logf("ask = all: %v violations in %v entries: %.4f", va, ea, va/ea)
	if va/ea > pv/3 {
		t.Errorf("asking all coordinators gave %.4f violations per entry, want far below P_v = %.4f", va/ea, pv)
	}
}
