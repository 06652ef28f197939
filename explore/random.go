package explore

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
)

// Finding is a run that broke a property, and the smallest variant of it that
// still breaks it the same way.
type Finding struct {
	Run     int    // random mode: the run's index; systematic mode: the schedule's
	Seed    uint64 // the run's seed
	Profile Profile
	// Schedule is, in systematic mode, how the schedule departs from the default
	// order, as actions.
	Schedule []netsim.Timed
	// Found is the run as found, and what it broke.
	Found     *Variant
	FoundWhat Violation
	// Variant is the shrunk run and Violation what it breaks: the same kind. Base
	// is its scenario, which shrinking may have made smaller.
	Base      *Base
	Variant   *Variant
	Violation Violation
	Shrink    ShrinkStats
}

// Result is a search's outcome.
type Result struct {
	Mode string
	// Runs is how many runs count: in random mode, those up to the last finding
	// when the search found all it was asked for, else all it made; in
	// systematic mode, the schedules explored.
	Runs     int
	Findings []*Finding
	Elapsed  time.Duration
	// Stopped says why the search ended: "runs" (its runs were all made),
	// "findings", "time", "interrupted", or in systematic mode "exhausted" (every
	// schedule within the bounds).
	Stopped string
	// Storms is how many runs the event-storm guard stopped.
	Storms int
	// Bound is, in systematic mode, the deepest bound explored: delays and crashes.
	Bound string
	Seed  uint64 // the master seed

	// What the outputs say of the search.
	scenario, algorithm string
	nodes               int
	faults              string
	props               []string
	until, horizon      time.Duration
	delays, crashes     int
	findings, jobs      int
	budgetRuns          int // --runs, or the default when neither --runs nor --time bounds random mode
	// searchTime is the wall time of the runs, shrinking left out.
	searchTime time.Duration
}

// unit is what a finding's number counts: a run or a schedule.
func (res *Result) unit() string {
	if res.Mode == ModeSystematic {
		return "schedule"
	}
	return "run"
}

// Run searches the scenario of b as o says.
func Run(ctx context.Context, s *presets.Scenario, cfg netsim.Config, o Options) (*Result, error) {
	b, err := NewBase(s, cfg)
	if err != nil {
		return nil, err
	}
	sr, err := newSearch(ctx, b, o)
	if err != nil {
		return nil, err
	}
	var res *Result
	if sr.o.Mode == ModeSystematic {
		res, err = sr.systematic()
	} else {
		res, err = sr.random()
	}
	if err != nil {
		return nil, err
	}
	res.searchTime = time.Since(sr.start)
	res.Seed, res.scenario, res.algorithm, res.nodes = sr.o.Seed, s.Name, s.Algorithm, len(b.IDs)
	res.faults, res.props, res.until, res.horizon = sr.faults.String(), sr.props.kinds, sr.until, sr.horizon
	res.delays, res.crashes, res.findings, res.jobs, res.budgetRuns = sr.o.Delays, sr.o.Crashes, sr.o.Findings, sr.o.Jobs, sr.o.Runs
	kept := res.Findings[:0]
	for _, f := range res.Findings {
		if sr.ctx.Err() != nil {
			break
		}
		f.Base, f.Variant, f.Violation, f.Shrink = sr.shrink(f.Found, f.FoundWhat)
		kept = append(kept, f)
	}
	res.Findings = kept
	res.Elapsed = time.Since(sr.start)
	if sr.ctx.Err() != nil {
		res.Stopped = "interrupted"
	}
	return res, nil
}

// outcome is what one run did.
type outcome struct {
	x     *Violation
	storm bool
	cut   bool // stopped before its end: it counts for nothing
}

// run makes one run of v and checks the properties.
func (s *search) run(v *Variant) (outcome, error) { return s.runInto(v, nil) }

// runInto is run with the run's events going to sink (nil for none).
func (s *search) runInto(v *Variant, sink trace.Sink) (outcome, error) {
	cfg, err := s.b.config(v)
	if err != nil {
		return outcome{}, err
	}
	w, err := netsim.New(cfg, sink)
	if err != nil {
		return outcome{}, err
	}
	defer w.Close()
	stop := s.watch(w)
	w.RunUntil(cfg.Until)
	stop()
	if w.Err() != nil {
		return outcome{storm: true}, nil
	}
	if w.Now() < cfg.Until {
		return outcome{cut: true}, nil // halted: the search's time is up
	}
	results := w.Finish()
	return outcome{x: s.props.check(s.b, v, s.b.withEnd(v, cfg.Script), w.Alerts(), results, cfg.Until)}, nil
}

// index is the run index of the shard's j-th run.
func (s *search) index(j int) int {
	if s.o.Shard.K <= 1 {
		return j
	}
	return j*s.o.Shard.K + s.o.Shard.I - 1
}

// hit is a run that broke a property, before shrinking.
type hit struct {
	j int
	v *Variant
	p Profile
	x Violation
}

// random runs the shard's runs, o.Jobs at a time, until the budget is spent or
// o.Findings runs broke a property. Which runs count never depends on the jobs:
// once enough runs broke a property, the runs before the last of the first
// o.Findings of them are finished and the later ones dropped.
func (s *search) random() (*Result, error) {
	var (
		mu     sync.Mutex
		hits   []hit
		limit  = -1 // the shard's last run that counts, once the findings are in
		next   atomic.Int64
		done   atomic.Int64
		storms atomic.Int64
		errs   []error
		wg     sync.WaitGroup
	)
	of := 0
	if s.o.Runs > 0 {
		for of = 0; s.index(of) < s.o.Runs; of++ {
		}
	}
	stopProgress := s.progress(func() Progress {
		mu.Lock()
		n := len(hits)
		mu.Unlock()
		return Progress{Runs: int(done.Load()), Findings: n, Of: of}
	})
	for range s.o.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if s.expired() {
					return
				}
				j := int(next.Add(1) - 1)
				mu.Lock()
				over := limit >= 0 && j > limit || len(errs) > 0
				mu.Unlock()
				if over || (of > 0 && j >= of) {
					return
				}
				v, p, err := s.draw(RunSeed(s.o.Seed, s.index(j)))
				var out outcome
				if err == nil {
					out, err = s.run(v)
				}
				if out.cut {
					return
				}
				mu.Lock()
				switch {
				case err != nil:
					errs = append(errs, fmt.Errorf("run %d: %w", s.index(j), err))
				case out.x != nil:
					hits = append(hits, hit{j, v, p, *out.x})
					if len(hits) >= s.o.Findings {
						slices.SortFunc(hits, func(a, b hit) int { return a.j - b.j })
						limit = hits[s.o.Findings-1].j
					}
				}
				mu.Unlock()
				if out.storm {
					storms.Add(1)
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	stopProgress()
	if len(errs) > 0 {
		return nil, errs[0]
	}
	res := &Result{Mode: ModeRandom, Storms: int(storms.Load())}
	slices.SortFunc(hits, func(a, b hit) int { return a.j - b.j })
	switch {
	case limit >= 0:
		hits = hits[:s.o.Findings]
		res.Runs, res.Stopped = limit+1, "findings"
	case s.ctx.Err() != nil:
		res.Runs, res.Stopped = int(done.Load()), "interrupted"
	case of > 0 && int(done.Load()) >= of:
		res.Runs, res.Stopped = of, "runs"
	default:
		res.Runs, res.Stopped = int(done.Load()), "time"
	}
	for _, h := range hits {
		res.Findings = append(res.Findings, &Finding{Run: s.index(h.j), Seed: h.v.Seed, Profile: h.p, Found: h.v, FoundWhat: h.x})
	}
	return res, nil
}

// progress calls o.Progress with what now says, five times a second, until the
// returned function is called.
func (s *search) progress(now func() Progress) func() {
	if s.o.Progress == nil {
		return func() {}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	report := func() {
		p := now()
		p.Elapsed, p.Left = time.Since(s.start), -1
		if s.o.Time > 0 {
			p.Left = max(s.o.Time-p.Elapsed, 0)
		}
		s.o.Progress(p)
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				report()
			}
		}
	}()
	return func() {
		close(stop)
		wg.Wait()
		report()
	}
}
