// Package explore searches for the runs that break an algorithm: fault schedules
// and message orders that make a monitor raise an alert the algorithm promises
// never to raise. It shrinks what it finds to a minimal scenario and writes each
// finding as a scenario to run, a recording to replay and verify, and its story.
//
// Random mode (swarm testing, as TigerBeetle's VOPR) draws a whole fault profile
// from each run's seed; systematic mode, for small clusters, explores the orders in
// which messages in flight are delivered, with a bound on how far a schedule departs
// from the default order (the delay bounding of Emmi, Qadeer and Rakamarić, POPL
// 2011, as P uses it), and on crashes. Either mode's findings are scripts of the one
// action grammar (netsim.ParseAction), so they replay exactly.
//
// The package is headless: it runs worlds (netsim), never the dashboard.
package explore

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/sweep"
)

// Modes of a search.
const (
	ModeRandom     = "random"
	ModeSystematic = "systematic"
)

// Options set a search.
type Options struct {
	Mode string // ModeRandom (default) or ModeSystematic
	// Runs bounds random mode's runs (indices 0 … Runs−1, of which a shard runs its
	// share); Time bounds the search's wall time. Either may be 0 for no bound,
	// not both.
	Runs int
	Time time.Duration
	Seed uint64 // the master seed
	Jobs int    // runs at once; 0 is one per processor
	// Shard is this machine's share of random mode's runs: those whose index is
	// I−1 modulo K (a zero Shard runs all).
	Shard      sweep.Shard
	Faults     []string // fault classes drawn: network, crash, slow, all (all if empty)
	Properties []string // the properties checked (all that apply if empty)
	Liveness   bool
	// Findings stops the search once that many runs broke a property (default 1):
	// the first ones by run index, whatever Jobs.
	Findings int
	// ShrinkTime bounds the shrinking of each finding (default 60 s).
	ShrinkTime time.Duration
	// Delays and Crashes bound systematic mode: how many times a schedule departs
	// from the default order, and how many crash/recover faults it places.
	Delays, Crashes int
	// Progress, if set, is called about five times a second while runs go on.
	Progress func(Progress)
}

// Progress is where a search stands.
type Progress struct {
	Runs     int           // runs done
	Findings int           // runs that broke a property
	Elapsed  time.Duration // wall time so far
	Left     time.Duration // wall time left of --time, or -1
	Of       int           // the runs the search may do (random mode), or 0
}

// Defaults.
const (
	DefaultRuns       = 2000
	DefaultShrinkTime = 60 * time.Second
	DefaultDelays     = 3
	DefaultCrashes    = 1
	// MaxSystematicNodes is the largest cluster systematic mode explores.
	MaxSystematicNodes = 5
)

// BadInput is an error in what the search was asked: a flag or the scenario.
type BadInput struct{ Err error }

func (e *BadInput) Error() string { return e.Err.Error() }

func bad(format string, args ...any) error { return &BadInput{fmt.Errorf(format, args...)} }

// search is a search under way.
type search struct {
	b      *Base
	o      Options
	props  *properties
	faults faultSet
	// until ends every run; horizon is the last time a drawn action may have: a
	// liveness search's faults stop L before the end (see liveWindow).
	until, horizon time.Duration
	ctx            context.Context
	start          time.Time
	// stopAt is when the runs must stop (zero for never): start + --time while
	// searching, a finding's deadline while shrinking it.
	stopAt   time.Time
	allVerbs []string // what random mode draws from (verbs)
}

// newSearch checks the options against the scenario.
func newSearch(ctx context.Context, b *Base, o Options) (*search, error) {
	if o.Mode == "" {
		o.Mode = ModeRandom
	}
	switch {
	case o.Mode != ModeRandom && o.Mode != ModeSystematic:
		return nil, bad("--mode: found %q, expected random or systematic", o.Mode)
	case o.Runs < 0:
		return nil, bad("--runs: found %d, expected a positive number of runs", o.Runs)
	case o.Time < 0:
		return nil, bad("--time: found %v, expected a positive duration such as 30s", o.Time)
	case o.Jobs < 0:
		return nil, bad("--jobs: found %d, expected a positive number (0 for one per processor)", o.Jobs)
	case o.Findings < 0:
		return nil, bad("--findings: found %d, expected a positive number", o.Findings)
	case o.Delays < 0 || o.Crashes < 0:
		return nil, bad("--delays and --crashes: expected numbers from 0")
	case o.Mode == ModeSystematic && len(b.IDs) > MaxSystematicNodes:
		return nil, bad("--mode systematic: found %d nodes, expected at most %d (the orders of a bigger cluster are too many to explore; use random mode)", len(b.IDs), MaxSystematicNodes)
	case o.Mode == ModeSystematic && o.Shard.K > 1:
		return nil, bad("--shard: systematic mode explores one tree of schedules, which does not split by run; expected --mode random with --shard")
	}
	if o.Runs == 0 && o.Time == 0 && o.Mode == ModeRandom {
		o.Runs = DefaultRuns
	}
	if o.Jobs == 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	if o.Findings == 0 {
		o.Findings = 1
	}
	if o.ShrinkTime == 0 {
		o.ShrinkTime = DefaultShrinkTime
	}
	faults, err := parseFaults(o.Faults)
	if err != nil {
		return nil, &BadInput{err}
	}
	props, err := newProperties(b, o.Properties, o.Liveness)
	if err != nil {
		return nil, &BadInput{err}
	}
	if len(props.kinds) == 0 {
		return nil, bad("found %s, which has no property to search for (its family, %s, has no safety monitor; try --liveness or a scenario with [[expect]] no alert …)", b.describe(), b.Family)
	}
	s := &search{b: b, o: o, props: props, faults: faults, until: b.Config.Until, ctx: ctx, start: time.Now()}
	if o.Time > 0 {
		s.stopAt = s.start.Add(o.Time)
	}
	s.horizon = s.until
	if o.Liveness {
		l := s.liveWindow()
		if s.until-l < l {
			s.until = 2 * l
		}
		s.horizon = s.until - l
	}
	s.allVerbs = s.verbs()
	return s, nil
}

// Check reports what Run would refuse in a search's options for the scenario (a
// BadInput), without searching: so that a command can check them before it
// checks its outputs' folder.
func Check(s *presets.Scenario, cfg netsim.Config, o Options) error {
	b, err := NewBase(s, cfg)
	if err != nil {
		return err
	}
	_, err = newSearch(context.Background(), b, o)
	return err
}

// liveWindow is L, how long before the end a liveness search's faults stop: long
// enough for a starving request or a missing leader to be raised by its monitor
// after everything healed, and for a correct algorithm to have recovered.
func (s *search) liveWindow() time.Duration {
	wait := s.b.Settle
	if s.b.Family == algos.Mutex {
		wait = s.b.Starvation
	}
	return wait + max(time.Second, 20*s.b.Window)
}

// expired reports whether the search must stop: its time is up or it was cancelled.
func (s *search) expired() bool {
	if s.ctx.Err() != nil {
		return true
	}
	return !s.stopAt.IsZero() && !time.Now().Before(s.stopAt)
}

// watch halts w, a run under way, when the search must stop: so that --time
// bounds the command even when one run takes longer than it. The returned function
// stops watching.
func (s *search) watch(w *netsim.World) func() {
	var t *time.Timer
	if !s.stopAt.IsZero() {
		t = time.AfterFunc(time.Until(s.stopAt), w.Halt)
	}
	var done chan struct{}
	if s.ctx.Done() != nil {
		done = make(chan struct{})
		go func() {
			select {
			case <-s.ctx.Done():
				w.Halt()
			case <-done:
			}
		}()
	}
	return func() {
		if t != nil {
			t.Stop()
		}
		if done != nil {
			close(done)
		}
	}
}
