// Package session ties a scenario to a world: it opens presets and files, runs them
// headless, records them, and (in live.go) drives a live world for the dashboard.
package session

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
)

// Version is the program version written into trace headers.
var Version = "dev"

// Source names a scenario: a preset or a file, with an optional seed override.
type Source struct {
	Preset string
	File   string
	Seed   *uint64
}

// Open loads and checks the scenario, applies the seed override and resolves it.
func Open(src Source) (*presets.Scenario, netsim.Config, error) {
	var s *presets.Scenario
	var err error
	switch {
	case src.Preset != "" && src.File != "":
		return nil, netsim.Config{}, errors.New("--preset and --file: expected one of them, not both")
	case src.File != "":
		s, err = presets.LoadFile(src.File)
	case src.Preset != "":
		s, err = presets.Load(src.Preset)
	default:
		return nil, netsim.Config{}, errors.New("expected --preset NAME or --file F")
	}
	if err != nil {
		return nil, netsim.Config{}, err
	}
	if src.Seed != nil {
		s.Seed = *src.Seed
	}
	cfg, err := s.Resolve()
	return s, cfg, err
}

// Header is the trace header of a run of s.
func Header(s *presets.Scenario, cfg netsim.Config) trace.Header {
	return trace.Header{Format: trace.Format, Version: trace.Version, Seed: cfg.Seed, Program: "clusterlab " + Version,
		Info: s.Info(cfg), Scenario: cfg.Scenario}
}

// Create opens path for a new recording. It never overwrites a file unless force.
// It writes in place; CreateOutput is the safe way to write a command's output.
func Create(path string, force bool) (*os.File, error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("%s already exists; expected a new file name (or --force to overwrite)", path)
	}
	return f, err
}

// Run runs cfg headless to until (cfg.Until if 0), recording into sink, and returns
// the summary with every expectation checked.
func Run(cfg netsim.Config, until time.Duration, sink trace.Sink) (*netsim.Summary, error) {
	return RunWatched(cfg, until, sink, nil)
}

// RunWatched is Run that, when report is not nil, runs in slices of virtual time
// of about a tenth of a wall second each and reports after each one. Slices give
// the same trace as one run: the world runs to each slice's end exactly as it runs
// through it.
func RunWatched(cfg netsim.Config, until time.Duration, sink trace.Sink, report func(Progress)) (*netsim.Summary, error) {
	if until <= 0 {
		until = cfg.Until
	}
	w, err := netsim.New(cfg, sink)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	if report == nil {
		w.RunUntil(until)
	} else {
		runSliced(w, until, max(until/10000, time.Millisecond), report)
	}
	if err := w.Err(); err != nil {
		return nil, err
	}
	w.Finish()
	return w.Summary(), nil
}

// runSliced runs w to until in slices that start at slice long and adapt so that
// each takes about 100 ms of wall time.
func runSliced(w *netsim.World, until, slice time.Duration, report func(Progress)) {
	start := time.Now()
	for w.Now() < until && w.Err() == nil {
		t0 := time.Now()
		w.RunUntil(min(w.Now()+slice, until))
		switch took := time.Since(t0); {
		case took < 50*time.Millisecond:
			slice *= 2
		case took > 200*time.Millisecond && slice > time.Microsecond:
			slice /= 2
		}
		report(Progress{Now: w.Now(), Until: until, Events: w.Events(), Wall: time.Since(start)})
	}
}
