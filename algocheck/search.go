package algocheck

import (
	"context"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/explore"
)

// SearchReport is the bounded search's result: how many presets and runs it
// made, and the first search that found a run breaking a property, shrunk.
type SearchReport struct {
	Presets int
	Runs    int
	Skipped []string
	// Found is the search that found something (nil if none), of Preset, with
	// the options it ran with (for its outputs).
	Found   *explore.Result
	Preset  string
	Options explore.Options
}

// SearchFaults are the fault classes a family's search draws from: the faults
// its textbook algorithms claim to tolerate. Mutual exclusion assumes reliable
// links and processes that do not crash, so only slowness (and the requests'
// timing) is drawn for it.
func SearchFaults(f algos.Family) []string {
	if f == algos.Mutex {
		return []string{explore.FaultSlow}
	}
	return []string{explore.FaultAll}
}

// searchShrinkTime bounds the shrinking of a finding.
const searchShrinkTime = 20 * time.Second

// Search runs explore's random mode, runs runs (0 skips), on every preset of
// spec's family adapted to it at the preset's own size, for the safety
// properties (two in the critical section; a split brain that outlives a heal),
// and stops at the first finding, shrunk. A detector has no property explore
// searches for: its properties are Properties'.
func Search(ctx context.Context, spec algos.Spec, runs, jobs int) *SearchReport {
	rep := &SearchReport{}
	if runs <= 0 || spec.Family == algos.Detector {
		return rep
	}
	for _, p := range FamilyPresets(spec.Family) {
		s, err := Adapt(p, spec, 0)
		if err != nil {
			rep.Skipped = append(rep.Skipped, p.Name+": "+err.Error())
			continue
		}
		cfg, err := s.Resolve()
		if err != nil {
			rep.Skipped = append(rep.Skipped, p.Name+": "+err.Error())
			continue
		}
		o := explore.Options{Mode: explore.ModeRandom, Runs: runs, Seed: 1, Jobs: jobs, Faults: SearchFaults(spec.Family),
			Findings: 1, ShrinkTime: searchShrinkTime}
		res, err := explore.Run(ctx, s, cfg, o)
		if err != nil {
			rep.Skipped = append(rep.Skipped, p.Name+": "+err.Error())
			continue
		}
		rep.Presets++
		rep.Runs += res.Runs
		if len(res.Findings) > 0 {
			rep.Found, rep.Preset, rep.Options = res, p.Name, o
			return rep
		}
		if ctx.Err() != nil {
			break
		}
	}
	return rep
}
