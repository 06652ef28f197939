package algocheck

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/presets"
)

// Sizes are the process counts the property runs use by default.
var Sizes = []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

// Run is one run of a check: a preset adapted to the algorithm, at a size.
type Run struct {
	Preset   string
	Nodes    int
	Scenario *presets.Scenario // as run, for a student to run again
}

// Failure is a run whose property did not hold, and what was seen, in words.
type Failure struct {
	Run
	What string
}

// Report is the result of one check over many runs.
type Report struct {
	Runs     int
	Skipped  []string // presets that could not be adapted, with why
	Failures []Failure
}

// OK reports whether every run passed.
func (r *Report) OK() bool { return len(r.Failures) == 0 }

// Properties runs every preset of spec's family with each size, every fault
// healed at the end (see withTail), and checks the family's properties:
//   - election: one live leader at the end, and every live process agrees on it;
//   - mutex: never two processes in the critical section (at any time), and no
//     request still waiting at the end after settle/2;
//   - detector: at the end every crashed process is suspected by every live one
//     (completeness) and no live process is suspected (eventual accuracy).
//
// jobs runs that many worlds at once (every core for jobs < 1). Texts are in l.
func Properties(spec algos.Spec, sizes []int, jobs int, l lang.Lang) *Report {
	var runs []Run
	rep := &Report{}
	for _, p := range FamilyPresets(spec.Family) {
		for _, n := range sizes {
			s, err := Adapt(p, spec, n)
			if err == nil {
				s, err = withTail(s, spec.Family, Settle)
			}
			if err != nil {
				rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s N=%d: %v", p.Name, n, err))
				continue
			}
			runs = append(runs, Run{Preset: p.Name, Nodes: n, Scenario: s})
		}
	}
	rep.Runs = len(runs)
	failures := make([]string, len(runs))
	each(jobs, len(runs), func(i int) {
		failures[i] = propertyRun(spec.Family, runs[i].Scenario, l)
	})
	for i, f := range failures {
		if f != "" {
			rep.Failures = append(rep.Failures, Failure{Run: runs[i], What: f})
		}
	}
	return rep
}

// propertyRun runs s and says what property failed, or "".
func propertyRun(f algos.Family, s *presets.Scenario, l lang.Lang) string {
	cfg, err := s.Resolve()
	if err != nil {
		return l.F("check.run.err", err)
	}
	cfg.Sequential = true // the parallelism is across runs
	w, err := netsim.New(cfg, nil)
	if err != nil {
		return l.F("check.run.err", err)
	}
	defer w.Close()
	w.RunUntil(cfg.Until)
	if err := w.Err(); err != nil {
		return l.F("check.run.err", err)
	}
	w.Finish()
	return Judge(f, w.Summary(), l)
}

// Judge says which of family f's properties a run's summary breaks, or "".
func Judge(f algos.Family, sum *netsim.Summary, l lang.Lang) string {
	var up, down []netsim.NodeSummary
	for _, n := range sum.Nodes {
		if n.Up {
			up = append(up, n)
		} else {
			down = append(down, n)
		}
	}
	switch f {
	case algos.Election:
		var leaders []string
		views := map[string][]string{}
		for _, n := range up {
			if n.Leader == n.ID.String() {
				leaders = append(leaders, n.Leader)
			}
			views[n.Leader] = append(views[n.Leader], n.ID.String())
		}
		switch {
		case len(leaders) != 1:
			return l.F("check.prop.leaders", len(leaders), list(leaders))
		case len(views) != 1:
			var parts []string
			for _, n := range up {
				leader := n.Leader
				if leader == "" {
					leader = "-"
				}
				parts = append(parts, n.ID.String()+"→"+leader)
			}
			return l.F("check.prop.agree", strings.Join(parts, " "))
		}
	case algos.Mutex:
		for _, a := range sum.Alerts {
			if a.Kind == "mutex" {
				return l.F("check.prop.mutex", time.Duration(a.AtUS)*time.Microsecond, a.Text)
			}
		}
		for _, a := range sum.Alerts {
			if a.Kind == "starvation" && a.ClearedUS < 0 {
				return l.F("check.prop.starve", a.Text)
			}
		}
	case algos.Detector:
		for _, p := range up {
			for _, q := range down {
				if !slices.Contains(p.Suspects, q.ID) {
					return l.F("check.prop.complete", p.ID, q.ID)
				}
			}
			for _, q := range up {
				if slices.Contains(p.Suspects, q.ID) {
					return l.F("check.prop.accurate", p.ID, q.ID)
				}
			}
		}
	}
	return ""
}

func list(ids []string) string {
	if len(ids) == 0 {
		return "-"
	}
	return strings.Join(ids, ", ")
}

// each runs f(0…n−1) over jobs goroutines (every core for jobs < 1).
func each(jobs, n int, f func(int)) {
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(jobs, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
