package netsim

import (
	"fmt"

	"github.com/clusterlab/clusterlab/internal/membudget"
)

// The memory budget (internal/membudget) where worlds are built: a world's size is
// estimated from its node count and topology before any of it is allocated, so
// that a scenario, or a trace header edited to say a million nodes, is refused at
// once with what it would need, instead of being built into gigabytes.

// worldBytesPerNode is about what a world holds per process once its run is under
// way, beside its pending events (which the event-storm guard bounds): the
// process slot, its Env, Runner and algorithm, the index. Measured at 1.3–1.5 kB
// at start and 0.4–1.1 kB more after the first millisecond, on rings of 20,000
// processes of each family, and 2.6 kB beside its neighbour list on a 1000-node
// mesh (TestWorldEstimate checks the figure).
const worldBytesPerNode = 3072

// WorldBytes estimates what a world of cfg holds, beside its pending events: the
// processes, and the neighbour lists of a mesh (every process lists every other)
// or of a graph.
func WorldBytes(cfg Config) uint64 {
	n := uint64(len(cfg.IDs))
	b := n * worldBytesPerNode
	switch cfg.Topology {
	case "", "mesh":
		b += n * n * 8
	case "graph":
		links := uint64(len(cfg.Edges))
		if links == 0 {
			links = n * uint64(max(cfg.Degree, 1)) / 2
		}
		b += links * 80 // the edge set while it is built, then both ends' lists
	}
	return b
}

// needWorld refuses a world of cfg that the memory budget cannot hold.
func needWorld(cfg Config) error {
	topo := cfg.Topology
	if topo == "" {
		topo = "mesh"
	}
	return membudget.Need(fmt.Sprintf("a world of %s nodes (%s)", thousands(len(cfg.IDs)), topo), WorldBytes(cfg),
		"or lower the scenario's nodes")
}
