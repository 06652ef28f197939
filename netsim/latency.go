// Package netsim is clusterlab's world: virtual time, the event queue, the scheduler
// that hands events to the process goroutines, the network model (latency, loss,
// duplication, GST, partitions, cuts, topology, slow nodes) and the monitors that
// check what each algorithm family promises.
package netsim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"
)

// Latency is a delay distribution. Min and Max bound every draw; Mean is used by
// constant, normal, exponential and pareto.
type Latency struct {
	Dist string        `json:"dist" toml:"dist"`
	Min  time.Duration `json:"min" toml:"min"`
	Mean time.Duration `json:"mean" toml:"mean"`
	Max  time.Duration `json:"max" toml:"max"`
}

// Dists lists the distribution names.
var Dists = []string{"constant", "uniform", "normal", "exponential", "pareto"}

// Validate checks the bounds. For constant only Mean (or Min) matters.
func (l Latency) Validate() error {
	switch l.Dist {
	case "constant":
		if l.Mean < 0 {
			return fmt.Errorf("constant latency needs mean >= 0")
		}
		return nil
	case "uniform", "normal", "exponential", "pareto":
	default:
		return fmt.Errorf("found latency dist %q, expected one of %s", l.Dist, strings.Join(Dists, ", "))
	}
	if l.Min < 0 || l.Max < l.Min {
		return fmt.Errorf("%s latency needs 0 <= min <= max", l.Dist)
	}
	if l.Dist != "uniform" && (l.Mean < l.Min || l.Mean > l.Max) {
		return fmt.Errorf("%s latency needs min <= mean <= max", l.Dist)
	}
	if l.Dist == "pareto" && l.Min == 0 {
		return fmt.Errorf("pareto latency needs min > 0")
	}
	return nil
}

// Floor is the smallest delay the distribution can draw.
func (l Latency) Floor() time.Duration {
	if l.Dist == "constant" {
		return l.Mean
	}
	return l.Min
}

// Sample draws one delay.
// Ceiling is the longest delay the distribution draws: its max (its mean for a
// constant).
func (l Latency) Ceiling() time.Duration {
	if l.Dist == "constant" {
		return l.Mean
	}
	return l.Max
}

func (l Latency) Sample(r *rand.Rand) time.Duration {
	var d float64
	lo, mean, hi := float64(l.Min), float64(l.Mean), float64(l.Max)
	switch l.Dist {
	case "constant":
		return l.Mean.Truncate(time.Microsecond)
	case "uniform":
		d = lo + r.Float64()*(hi-lo)
	case "normal":
		// Six standard deviations span the range, so clamping is rare.
		d = mean + r.NormFloat64()*(hi-lo)/6
	case "exponential":
		d = lo + r.ExpFloat64()*(mean-lo)
	case "pareto":
		// Pareto with scale min and the shape that gives the asked mean: heavy-tailed,
		// "unbounded in practice" up to the cap.
		alpha := 1e9
		if mean > lo {
			alpha = mean / (mean - lo)
		}
		d = lo / math.Pow(1-r.Float64(), 1/alpha)
	}
	d = math.Max(lo, math.Min(hi, d))
	// Virtual time ticks in microseconds, the unit of traces, so that an instant
	// read back from a trace is exact.
	return time.Duration(d).Truncate(time.Microsecond)
}

// String renders the distribution the way the `set latency` action takes it.
func (l Latency) String() string {
	switch l.Dist {
	case "constant":
		return "constant " + fmtDur(l.Mean)
	case "uniform":
		return fmt.Sprintf("uniform %s %s", fmtDur(l.Min), fmtDur(l.Max))
	default:
		return fmt.Sprintf("%s %s %s %s", l.Dist, fmtDur(l.Min), fmtDur(l.Mean), fmtDur(l.Max))
	}
}

// fmtDur renders a duration compactly ("5ms", "1.5s").
func fmtDur(d time.Duration) string { return d.String() }

// ParseLatency reads "uniform 5ms 20ms", "constant 10ms", "normal 5ms 10ms 20ms"
// (min mean max), "exponential …" and "pareto …" likewise.
func ParseLatency(fields []string) (Latency, error) {
	bad := fmt.Errorf("expected a latency such as \"uniform 5ms 20ms\", \"constant 10ms\" or \"pareto 5ms 150ms 4s\" (min mean max)")
	if len(fields) == 0 {
		return Latency{}, bad
	}
	ds := make([]time.Duration, len(fields)-1)
	for i, f := range fields[1:] {
		d, err := time.ParseDuration(f)
		if err != nil {
			return Latency{}, fmt.Errorf("found %q, %v", f, bad)
		}
		ds[i] = d
	}
	var l Latency
	switch {
	case fields[0] == "constant" && len(ds) == 1:
		l = Latency{Dist: "constant", Min: ds[0], Mean: ds[0], Max: ds[0]}
	case fields[0] == "uniform" && len(ds) == 2:
		l = Latency{Dist: "uniform", Min: ds[0], Mean: (ds[0] + ds[1]) / 2, Max: ds[1]}
	case len(ds) == 3:
		l = Latency{Dist: fields[0], Min: ds[0], Mean: ds[1], Max: ds[2]}
	default:
		return Latency{}, bad
	}
	if err := l.Validate(); err != nil {
		return Latency{}, err
	}
	return l, nil
}
