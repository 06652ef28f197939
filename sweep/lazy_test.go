package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/internal/race"
)

// liveHeapNow collects and returns the live heap.
func liveHeapNow() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestLazyPlan: a grid of 100,000 cells × 100 seeds (ten million runs) plans in
// a few MB: no run is listed, no cell kept beyond a small cache, and the first
// runs start at once, in run order. Under the race detector the grid has 10,000
// cells: checking each cell is the slow part there.
func TestLazyPlan(t *testing.T) {
	if testing.Short() {
		t.Skip("checks every cell of a large grid")
	}
	cells := 100000
	if race.Enabled {
		cells = 10000
	}
	var loss []string
	for i := range cells / 10 {
		loss = append(loss, fmt.Sprintf("%g", float64(i)/float64(cells)))
	}
	src := fmt.Sprintf("name = \"big\"\nbase = \"ring\"\nseeds = 100\n[set]\n\"params.initiators\" = [\"n1\"]\nuntil = \"2s\"\n[axes]\nnodes = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n\"network.loss\" = [%s]\n",
		strings.Join(loss, ", "))
	before := liveHeapNow()
	s, err := Parse("big.toml", []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(s, Shard{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	held := int64(liveHeapNow()) - int64(before)
	if want := cells * 100; p.Total() != want || p.Runs() != (want-2)/3+1 {
		t.Fatalf("%d runs in all, %d in shard 2/3; want %d and %d", p.Total(), p.Runs(), want, (want-2)/3+1)
	}
	if held > 16<<20 {
		t.Errorf("the plan of %d cells holds %d MB, want a few", cells, held>>20)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var got []int
	p.Execute(ctx, 2, func(r Result) {
		got = append(got, r.Index)
		if len(got) == 50 {
			cancel()
		}
	})
	for i, idx := range got[:50] {
		if want := 3*i + 1; idx != want {
			t.Fatalf("result %d is run %d, want run %d (shard 2/3, in run order)", i, idx, want)
		}
	}
	t.Logf("%d cells: plan holds %d kB; %d runs ended before the stop", cells, held>>10, len(got))
}

// TestMemoryFlatInSeeds: a sweep's memory does not grow with its runs. The live
// heap, sampled every few hundred runs while one cell runs with k seeds, peaks at
// the same height for 8 times the seeds (each result is written and dropped, not
// kept until the end).
func TestMemoryFlatInSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs thousands of small runs")
	}
	few, many := 1000, 8000
	if race.Enabled {
		few, many = 400, 3200
	}
	peak := func(seeds int) uint64 {
		s, err := Parse("flat.toml", []byte(fmt.Sprintf("base = \"ring\"\nseeds = %d\n[set]\nnodes = 3\n\"params.initiators\" = [\"n1\"]\n", seeds)), "")
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewPlan(s, Shard{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := openFolder(filepath.Join(t.TempDir(), "out"), false)
		if err != nil {
			t.Fatal(err)
		}
		defer f.abort()
		outs := p.newOutputs(f, true)
		var top uint64
		n := 0
		p.Execute(context.Background(), 2, func(r Result) {
			outs.add(r)
			if n++; n%(seeds/8) == 0 {
				top = max(top, liveHeapNow())
			}
		})
		if err := outs.finish(); err != nil {
			t.Fatal(err)
		}
		return top
	}
	a, b := peak(few), peak(many)
	t.Logf("peak live heap: %d kB for %d seeds, %d kB for %d", a>>10, few, b>>10, many)
	// What the old outputs kept, every result until the end, was about 4 kB a
	// run: 13 MB more for 3,200 seeds, 28 MB more for 8,000. Collections leave a
	// few MB of noise.
	if b > a+a/2+2<<20 {
		t.Errorf("the live heap grows with the runs: %d kB for %d seeds, %d kB for %d", a>>10, few, b>>10, many)
	}
}
