package session

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/netsim"
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

// TestPresetHashes checks every preset's trace hash against the one kept in
// testdata/preset-hashes.txt: a change to the engine that changes a trace, even the
// same way on every run, shows here. A trace that changes on purpose comes with a
// new trace-format version; then CLUSTERLAB_UPDATE_HASHES=1 rewrites the file.
func TestPresetHashes(t *testing.T) {
	const path = "testdata/preset-hashes.txt"
	var got strings.Builder
	run := func(label, name string, adjust func(*netsim.Config)) {
		_, cfg, err := Open(Source{Preset: name})
		if err != nil {
			t.Fatal(err)
		}
		adjust(&cfg)
		h := trace.NewHasher()
		if _, err := Run(cfg, 0, h); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "%s %d %s\n", label, h.Count(), h.Sum())
	}
	for _, name := range presets.Names() {
		run(name, name, func(*netsim.Config) {})
	}
	// No preset duplicates messages: one that does, and loses some.
	run("dp-gst+dup+loss", "dp-gst", func(cfg *netsim.Config) { cfg.Net.Dup, cfg.Net.Loss = 0.3, 0.1 })
	if os.Getenv("CLUSTERLAB_UPDATE_HASHES") == "1" {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Each line is a run's label, its event count and its hash.
	kept := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		label, rest, _ := strings.Cut(line, " ")
		kept[label] = rest
	}
	for _, line := range strings.Split(strings.TrimSpace(got.String()), "\n") {
		label, rest, _ := strings.Cut(line, " ")
		if kept[label] != rest {
			t.Errorf("%s: %s has %q kept, and the run gives %q", path, label, kept[label], rest)
		}
		delete(kept, label)
	}
	for label := range kept {
		t.Errorf("%s keeps %s, which no run gives", path, label)
	}
}
