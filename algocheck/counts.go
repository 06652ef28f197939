package algocheck

import (
	"math"
)

// Count is one textbook figure set beside what a preset's run measured.
type Count struct {
	Preset   string
	Metric   string
	Label    string // the formula
	Bound    string // "" exact, "max" an upper bound
	Theory   float64
	Measured float64
	Missing  bool // the run has no such metric
}

// Holds reports whether the measurement keeps to the figure: at most it for a
// bound, the same (to a part in a thousand) for an exact figure.
func (c Count) Holds() bool {
	if c.Missing || math.IsNaN(c.Measured) {
		return false
	}
	if c.Bound == "max" {
		return c.Measured <= c.Theory*(1+1e-9)
	}
	return math.Abs(c.Measured-c.Theory) <= 1e-3*math.Max(1, math.Abs(c.Theory))
}

// Counts sets each figure the algorithm declares (Spec.Theory) beside the
// metric its preset's run measured.
func Counts(ms []Measured) []Count {
	var out []Count
	for _, m := range ms {
		for _, t := range m.Theory {
			v, ok := m.Values[t.Metric]
			out = append(out, Count{Preset: m.Preset, Metric: t.Metric, Label: t.Label, Bound: t.Bound, Theory: t.Value, Measured: v, Missing: !ok})
		}
	}
	return out
}
