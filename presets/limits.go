package presets

import (
	"fmt"
	"time"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// The ranges of the scenario format's numeric knobs. Every error about one names
// its range; the README lists them under "Scenario files".

// Node limits, per topology: a mesh sends to every other node, so its size is
// bounded by memory and time first; a ring or a sparse graph costs a few kB per
// node, so a million fit.
const (
	MaxNodesMesh  = 4096
	MaxNodesRing  = 1_000_000
	MaxNodesGraph = 1_000_000
)

// MaxLinks bounds a graph's links (nodes × degree / 2): no graph has more links
// than the largest mesh.
const MaxLinks = MaxNodesMesh * (MaxNodesMesh - 1) / 2

// MaxNodes is the node limit of a topology.
func MaxNodes(topology string) int {
	switch topology {
	case "ring":
		return MaxNodesRing
	case "graph":
		return MaxNodesGraph
	}
	return MaxNodesMesh
}

const (
	// MaxFileBytes is the largest scenario file read (1 MiB).
	MaxFileBytes = 1 << 20
	// MaxID is the largest process id (ids = [...]).
	MaxID = 1_000_000_000
	// MaxUntil is the longest run: until, and the time of every script action and
	// expectation. Traces are bounded by it on reading (trace.MaxT).
	MaxUntil = time.Duration(trace.MaxT) * time.Microsecond
	// MaxDelay bounds every latency (min, mean, max), delta and monitor time.
	MaxDelay = time.Hour
)

// durationIn checks a duration against [lo, hi] and says what was expected.
func durationIn(key, s string, lo, hi time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < lo || d > hi {
		ex := examples[key]
		if ex == "" {
			ex = `"1s"`
		}
		return d, fmt.Errorf("found %s = %q, expected a duration from %s to %s such as %s", key, s, fmtDur(lo), fmtDur(hi), ex)
	}
	return d, nil
}

// fmtDur writes a limit the way a scenario would: "24h", "1h", "0s", "1µs".
func fmtDur(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	}
	return d.String()
}
