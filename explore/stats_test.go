package explore

import (
	"context"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/internal/race"
)

// The statistical checks take twenty searches each, or thousands of runs: they
// run in a plain pass of .ci/run, not under the race detector, where they would
// take minutes.
func long(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("statistical check over 20 master seeds or 2,000 runs; skipped in -short mode and under -race (.ci/run runs it in its plain pass)")
	}
}

// seeds runs the search of name for master seeds 1 to 20 and counts those that
// found kind, shrunk to at most most actions. Each finding is written out and
// checked as a user meets it (checkFinding: it verifies, and it is 1-minimal).
func seeds(t *testing.T, name string, o Options, kind string, most int) (found, small int) {
	for seed := uint64(1); seed <= 20; seed++ {
		o.Seed = seed
		res, rep, dir := explored(t, name, o)
		if len(res.Findings) == 0 || res.Findings[0].Violation.Kind != kind {
			t.Logf("master seed %d: nothing in %d runs", seed, res.Runs)
			continue
		}
		found++
		f := res.Findings[0]
		if len(f.Variant.Actions) <= most {
			small++
		} else {
			t.Logf("master seed %d: shrunk to %d actions: %v", seed, len(f.Variant.Actions), f.Variant.Actions)
		}
		checkFinding(t, dir, rep.Findings[0])
	}
	t.Logf("%s: found for %d of 20 master seeds, %d of them in at most %d actions", name, found, small, most)
	return found, small
}

// TestMaekawaDeadlockSeeds: the triangle's deadlock is found within 500 runs for
// at least 19 of 20 master seeds, shrunk to at most 3 actions; with every fault
// class as with the network's alone.
func TestMaekawaDeadlockSeeds(t *testing.T) {
	long(t)
	for _, faults := range [][]string{nil, {FaultNetwork}} {
		found, small := seeds(t, "maekawa-workload.toml", Options{Runs: 500, Liveness: true, Faults: faults}, KindStarvation, 3)
		if found < 19 || small < found {
			t.Errorf("--faults %v: found for %d of 20 master seeds, %d of them in at most 3 actions", faults, found, small)
		}
	}
}

// TestQuorumAmnesiaSeeds: from an empty script, the amnesia violation is found
// for at least 19 of 20 master seeds (each search bounded at 120 s), shrunk to at
// most 5 actions.
func TestQuorumAmnesiaSeeds(t *testing.T) {
	long(t)
	found, small := seeds(t, "quorum-empty.toml", Options{Time: 120 * time.Second}, KindMutex, 5)
	if found < 19 || small < 19 {
		t.Errorf("found for %d of 20 master seeds, %d of them in at most 5 actions", found, small)
	}
}

// TestNegativeControls: 2,000 runs of each control find nothing.
func TestNegativeControls(t *testing.T) {
	long(t)
	control(t, 2000)
}

// TestMaekawaDeadlockSystematicSeeds: systematic mode finds the deadlock in the
// runs of the scenario's first five seeds within two departures from the default
// order.
func TestMaekawaDeadlockSystematicSeeds(t *testing.T) {
	long(t)
	s, _ := load(t, "maekawa-workload.toml")
	for seed := uint64(1); seed <= 5; seed++ {
		s.Seed = seed
		cfg, _ := s.Resolve()
		res, err := Run(context.Background(), s, cfg, Options{Mode: ModeSystematic, Liveness: true, Delays: 2, Crashes: 0})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) == 0 || res.Findings[0].Violation.Kind != KindStarvation || len(res.Findings[0].Variant.Actions) > 3 {
			t.Errorf("seed %d: %d schedules (%s), findings %v", seed, res.Runs, res.Stopped, res.Findings)
		}
	}
}
