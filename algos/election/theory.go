package election

import (
	"math/bits"
	"slices"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// The textbook figures of the election algorithms, as functions of the configuration.
// Each one holds only for the case its label names; the others return nothing.

const (
	srcChangRoberts = `Chang & Roberts 1979; course notes 002, "Eleição em anel"`
	srcGarciaMolina = `Garcia-Molina 1982; course notes 001, "Algoritmo valentão"; course notes 002, "Algoritmo Bully"`
	srcCollect      = `course notes 003, "Algoritmo do Anel 2"`
	srcFranklin     = "Franklin 1982; Santoro 2007, ch. 3"
	srcYoyo         = "Santoro 2007, ch. 3 (Yo-Yo)"
)

// ringTheory counts Chang-Roberts' messages. With one starter k hops before the
// maximum (in ring order), ELECTION travels k hops to the maximum, which replaces the
// id with its own and sends it round once (N), then ELECTED goes round once (N):
// k+2N, which is 3N−1 for the maximum's successor and 2N for the maximum itself. When
// all start at time 0 each id travels until it meets a larger one (the maximum goes
// all the way round): N(N+1)/2 ELECTION with ids decreasing along the ring, 2N−1
// with ids increasing.
func ringTheory(c algos.TheoryConfig) []algos.Theory {
	skip, err := c.Params.Bool("skip_suspected")
	if err != nil || skip {
		return nil
	}
	starters, err := c.Params.Nodes("initiators", c.IDs)
	if err != nil || len(starters) == 0 {
		return nil
	}
	n := len(c.IDs)
	top := slices.Index(c.IDs, maxID(c.IDs))
	var election int
	var total, part, when string // the formulas of the total and the ELECTION part
	switch {
	case len(starters) == 1:
		k := (top - slices.Index(c.IDs, starters[0]) + n) % n
		election = k + n
		switch k {
		case n - 1:
			total, part, when = "3N−1", "2N−1", "one starter, the maximum's successor"
		case 0:
			total, part, when = "2N", "N", "the maximum starts alone"
		default:
			total, part, when = "k+2N", "k+N", "one starter k hops before the maximum"
		}
	case len(starters) == n:
		for i, id := range c.IDs {
			hops := 1
			for c.IDs[(i+hops)%n] < id && hops < n {
				hops++
			}
			election += hops
		}
		switch {
		case slices.IsSortedFunc(c.IDs, func(a, b node.ID) int { return int(b) - int(a) }):
			total, part, when = "N(N+1)/2+N", "N(N+1)/2", "all start, ids decreasing along the ring"
		case slices.IsSorted(c.IDs):
			total, part, when = "3N−1", "2N−1", "all start, ids increasing: every id but the maximum dies after one hop"
		default:
			total, part, when = "Σ hops+N", "Σ hops", "all start: each id travels to the next larger one"
		}
	default:
		return nil // who is a participant first depends on timing
	}
	return []algos.Theory{
		{Metric: "sent.total", Value: float64(election + n), Formula: total, Label: "messages (" + when + ")", Source: srcChangRoberts},
		{Metric: "sent.ELECTION", Value: float64(election), Formula: part, Label: "ELECTION messages (" + when + ")", Source: srcChangRoberts},
		{Metric: "sent.ELECTED", Value: float64(n), Formula: "N", Label: "ELECTED messages", Source: srcChangRoberts},
	}
}

// bullyTheory counts the bully's messages when the highest process has crashed before
// anything happens and one process detects it. The best case is the second-highest
// detecting: one ELECTION (to the dead maximum) and N−2 COORDINATOR. The worst is the
// lowest detecting: every live process ends up calling an election, N(N−1)/2
// ELECTION, (N−1)(N−2)/2 ANSWER and N−2 COORDINATOR, N²−N−1 in all; all detecting at
// once costs the same. With nobody crashed and all starting, the notes' N²−1.
func bullyTheory(c algos.TheoryConfig) []algos.Theory {
	starters, err := c.Params.Nodes("initiators", c.IDs)
	n := len(c.IDs)
	if err != nil || n < 3 {
		return nil
	}
	sorted := slices.Sorted(slices.Values(c.IDs))
	all := len(starters) == n
	counts := func(e, a, k string, ve, va, vk int, when string) []algos.Theory {
		return []algos.Theory{
			{Metric: "sent.ELECTION", Value: float64(ve), Formula: e, Label: "ELECTION messages (" + when + ")", Source: srcGarciaMolina},
			{Metric: "sent.ANSWER", Value: float64(va), Formula: a, Label: "ANSWER messages (" + when + ")", Source: srcGarciaMolina},
			{Metric: "sent.COORDINATOR", Value: float64(vk), Formula: k, Label: "COORDINATOR messages (" + when + ")", Source: srcGarciaMolina},
		}
	}
	if len(c.Crashed) == 0 && all {
		// Nobody has failed and all start: every process sends ELECTION up and
		// ANSWER down, and the maximum announces itself: N²−1 in all.
		return counts("N(N−1)/2", "N(N−1)/2", "N−1", n*(n-1)/2, n*(n-1)/2, n-1, "all start, nobody crashed: N²−1 in all")
	}
	if !slices.Equal(c.Crashed, sorted[n-1:]) {
		return nil
	}
	switch {
	case len(starters) == 1 && starters[0] == sorted[n-2]:
		return counts("1", "0", "N−2", 1, 0, n-2, "best case: the second-highest detects")
	case all || (len(starters) == 1 && starters[0] == sorted[0]):
		return counts("N(N−1)/2", "(N−1)(N−2)/2", "N−2", n*(n-1)/2, (n-1)*(n-2)/2, n-2, "worst case, the lowest detects, or all do: N²−N−1 in all")
	}
	return nil
}

// log2Ceil is ⌈log₂ n⌉ for n ≥ 1.
func log2Ceil(n int) int { return bits.Len(uint(n - 1)) }

// franklinTheory bounds Franklin's rounds: each round at least halves the active
// processes, so at most ⌈log₂N⌉+1 rounds (the last finds itself alone), each with 2
// PROBE per active process, at most 2N a round and 2N(⌈log₂N⌉+1) in all.
func franklinTheory(c algos.TheoryConfig) []algos.Theory {
	n := len(c.IDs)
	r := log2Ceil(n) + 1
	return []algos.Theory{
		{Metric: "rounds", Value: float64(r), Bound: algos.AtMost, Formula: "⌈log₂N⌉+1", Label: "rounds", Source: srcFranklin},
		{Metric: "sent.PROBE", Value: float64(2 * n * r), Bound: algos.AtMost, Formula: "2N(⌈log₂N⌉+1)", Label: "PROBE messages in all (at most 2N a round)", Source: srcFranklin},
		{Metric: "sent.ELECTED", Value: float64(n), Formula: "N", Label: "ELECTED messages", Source: srcFranklin},
	}
}

// yoyoTheory gives Santoro's bound: each iteration removes at least half of the
// sources, so one source is left by iteration ⌈log₂N⌉+1 at the latest. That bounds
// source_rounds (the first iteration with a single source, which sweeps measure from
// the processes' "source" roles), not rounds: the iteration counter goes on while
// pruning shrinks the graph down to the leader, a layer of leaves an iteration (72
// iterations at N = 100,000 on a degree-3 graph, where the bound is 18), so the
// figure is tied to the quantity it bounds and never set against the counter.
func yoyoTheory(c algos.TheoryConfig) []algos.Theory {
	return []algos.Theory{
		{Metric: "source_rounds", Value: float64(log2Ceil(len(c.IDs)) + 1), Bound: algos.AtMost, Formula: "⌈log₂N⌉+1",
			Label: "the iteration by which one source is left (the iteration counter, rounds, goes on while pruning)", Source: srcYoyo},
	}
}
