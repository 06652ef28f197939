package algos

import (
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// Theory is one textbook figure: the value a metric of a run should take under the
// configuration it was computed for, the formula as the source writes it, and the
// source.
type Theory struct {
	// Metric names what is measured, as the sweep's results.csv names it:
	// "sent.total", "sent.ELECTION", "rounds", "per_entry.total", "client_delay_s",
	// "sync_delay_s", "violations_per_entry".
	Metric string
	Value  float64
	// Unit is "" for counts and probabilities, "T" for a delay in message times
	// (one-way message delays), which presets.Scenario.Theory turns into seconds
	// ("s") when the delay is constant.
	Unit string
	// Bound is "" when the source claims the value exactly, "max" when it is an
	// upper bound (Franklin's rounds, the token ring's 0 to N).
	Bound  string
	Label  string // the formula, such as "3N−1 (one starter, the maximum's successor)"
	Source string // the paper or course notes section
}

// TheoryConfig is what a theory hook reads: the processes in ring order and the
// parameters (as Build gets them), and the facts of the scenario that some formulas
// need.
type TheoryConfig struct {
	Config
	// CrashRate is the crash rate per process and second of the scenario's fault
	// generator; 0 without one.
	CrashRate float64
	// Crashed lists the processes the script crashes at time 0, before anything
	// else happens (the bully's "the coordinator has failed").
	Crashed []node.ID
	// Delay is the one-way message delay when it is constant; 0 otherwise.
	Delay time.Duration
}

// TheoryFor is spec's figures for c, or none when the spec has no theory or its
// parameters do not read.
func TheoryFor(spec Spec, c TheoryConfig) []Theory {
	if spec.Theory == nil {
		return nil
	}
	return spec.Theory(c)
}
