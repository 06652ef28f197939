package session

import (
	"runtime"
	"testing"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
)

// TestPresetExpectations runs every embedded preset headless and checks that all its
// expectations pass.
func TestPresetExpectations(t *testing.T) {
	for _, name := range presets.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, cfg, err := Open(Source{Preset: name})
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Expect) == 0 {
				t.Fatalf("preset %s has no expectations", name)
			}
			sum, err := Run(cfg, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range sum.Expectations {
				if !r.OK {
					t.Errorf("at %dµs %q failed: %s", r.AtUS, r.Text, r.Got)
				}
			}
		})
	}
}

// TestPresetDeterminism runs every preset twice at GOMAXPROCS 1 and 2, once with
// every batch handed to the processes' goroutines (the world handles small windows
// itself otherwise, and presets are small), and once handling one event at a time,
// and checks that the trace hash never changes.
func TestPresetDeterminism(t *testing.T) {
	for _, name := range presets.Names() {
		t.Run(name, func(t *testing.T) {
			hash := func(procs int, sequential, handOut bool) string {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				_, cfg, err := Open(Source{Preset: name})
				if err != nil {
					t.Fatal(err)
				}
				cfg.Sequential, cfg.HandOut = sequential, handOut
				h := trace.NewHasher()
				if _, err := Run(cfg, 0, h); err != nil {
					t.Fatal(err)
				}
				if h.Count() < 10 {
					t.Fatalf("only %d events", h.Count())
				}
				return h.Sum()
			}
			want := hash(2, false, false)
			for _, run := range []struct {
				procs               int
				sequential, handOut bool
			}{{2, false, false}, {1, false, false}, {1, false, false}, {2, false, true}, {2, true, false}} {
				if got := hash(run.procs, run.sequential, run.handOut); got != want {
					t.Fatalf("GOMAXPROCS=%d sequential=%v handOut=%v gave hash %s, first run %s", run.procs, run.sequential, run.handOut, got, want)
				}
			}
		})
	}
}
