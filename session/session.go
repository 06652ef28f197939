// Package session ties a scenario to a world: it opens presets and files, runs them
// headless, records them, and (in live.go) drives a live world for the dashboard.
package session

import (
	"context"
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
	// Seed and Info are not written; they are filled in for this process's own use,
	// as a reader derives them from the scenario (see ResolveHeader).
	return trace.Header{Format: trace.Format, Version: trace.Version, Program: "clusterlab " + Version,
		Scenario: cfg.Scenario, Code: CodeOf(cfg.Spec), Seed: cfg.Seed, Info: s.Info(cfg)}
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
	sum, _, err := RunContext(context.Background(), cfg, until, sink, nil)
	return sum, err
}

// RunWatched is Run that, when report is not nil, reports after each slice of the
// run (see RunContext).
func RunWatched(cfg netsim.Config, until time.Duration, sink trace.Sink, report func(Progress)) (*netsim.Summary, error) {
	sum, _, err := RunContext(context.Background(), cfg, until, sink, report)
	return sum, err
}

// RunContext runs in slices of virtual time of about a tenth of a wall second each;
// after each one it reports (when report is not nil) and stops early if ctx is
// cancelled (a signal), returning the virtual time reached and ctx's error. Slices
// give the same trace as one run: the world runs to each slice's end exactly as it
// runs through it.
func RunContext(ctx context.Context, cfg netsim.Config, until time.Duration, sink trace.Sink, report func(Progress)) (*netsim.Summary, time.Duration, error) {
	if until <= 0 {
		until = cfg.Until
	}
	w, err := netsim.New(cfg, sink)
	if err != nil {
		return nil, 0, err
	}
	defer w.Close()
	if err := runSliced(ctx, w, until, max(until/10000, time.Millisecond), report); err != nil {
		return w.Summary(), w.Now(), err
	}
	if err := w.Err(); err != nil {
		return nil, w.Now(), err
	}
	w.Finish()
	return w.Summary(), w.Now(), nil
}

// runSliced runs w to until in slices that start at slice long and adapt so that
// each takes about 100 ms of wall time. It returns ctx's error if ctx is cancelled
// before the end.
func runSliced(ctx context.Context, w *netsim.World, until, slice time.Duration, report func(Progress)) error {
	start := time.Now()
	for w.Err() == nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		w.RunUntil(min(w.Now()+slice, until))
		if err := checkRun(w, "the run"); err != nil {
			return err
		}
		switch took := time.Since(t0); {
		case took < 50*time.Millisecond:
			slice *= 2
		case took > 200*time.Millisecond && slice > time.Microsecond:
			slice /= 2
		}
		if report != nil {
			report(Progress{Now: w.Now(), Until: until, Events: w.Events(), Wall: time.Since(start)})
		}
		if w.Now() >= until {
			return nil
		}
	}
	return nil
}
