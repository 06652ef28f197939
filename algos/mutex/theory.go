package mutex

import (
	"math"
	"strconv"

	"github.com/clusterlab/clusterlab/algos"
)

// The textbook figures of the mutual-exclusion algorithms: messages per entry, and
// the client delay (request to entry without contention) and synchronisation delay
// (one exit to the next entry) in message times, from the notes' comparison table.

const (
	srcNotesTable = `course notes 002, "Comparação dos algoritmos"`
	srcRicart     = "Ricart & Agrawala 1981; " + srcNotesTable
	srcLamport    = "Lamport 1978 (CACM 21(7)); Kshemkalyani & Singhal 2008, ch. 9 (Lamport's algorithm)"
	srcMaekawa    = "Maekawa 1985; " + srcNotesTable
	// The notes' table has no token ring: Coulouris gives its delays, Tanenbaum
	// and van Steen its messages per entry.
	srcTokenDelay    = "Coulouris et al. 2012 (5th ed.), §15.2 (ring-based algorithm)"
	srcTokenMessages = "Tanenbaum & van Steen 2007 (2nd ed.), §6.3 (comparison of the algorithms)"
	srcQuorum        = `course notes 003, "Quórum", "Perda de memória"`
)

// delays are the notes' client and synchronisation delays, in message times.
func delays(client, sync string, src string) []algos.Theory {
	v := func(f string) float64 { n, _ := strconv.ParseFloat(f, 64); return n }
	return []algos.Theory{
		{Metric: "client_delay_s", Value: v(client), Unit: "T", Formula: client, Label: "client delay: request to entry, the critical section free", Source: src},
		{Metric: "sync_delay_s", Value: v(sync), Unit: "T", Formula: sync, Label: "synchronisation delay: one exit to the next entry", Source: src},
	}
}

func centralTheory(c algos.TheoryConfig) []algos.Theory {
	n := float64(len(c.IDs))
	return append([]algos.Theory{
		{Metric: "per_entry.total", Value: 3, Formula: "3", Label: "messages per entry: REQUEST, GRANT, RELEASE", Source: srcNotesTable},
		{Metric: "per_entry.total", Value: 3 * (n - 1) / n, Formula: "3(N−1)/N", Label: "messages per entry as counted: the coordinator's own entries cost 0", Source: srcNotesTable},
	}, delays("2", "2", srcNotesTable)...)
}

func ricartTheory(c algos.TheoryConfig) []algos.Theory {
	n := float64(len(c.IDs))
	return append([]algos.Theory{{Metric: "per_entry.total", Value: 2 * (n - 1), Formula: "2(N−1)", Label: "messages per entry", Source: srcRicart}},
		delays("2", "1", srcRicart)...)
}

func lamportTheory(c algos.TheoryConfig) []algos.Theory {
	n := float64(len(c.IDs))
	return []algos.Theory{{Metric: "per_entry.total", Value: 3 * (n - 1), Formula: "3(N−1)", Label: "messages per entry: REQUEST, ACK, RELEASE to the N−1 others", Source: srcLamport}}
}

// maekawaTheory uses the mean voting-set size |V| over the processes. A process does
// not message itself, so the count is 3(|V|−1); the notes write 3·|V|.
func maekawaTheory(c algos.TheoryConfig) []algos.Theory {
	sets, err := votingSets(c.Params, c.IDs)
	if err != nil {
		return nil
	}
	v := 0.0
	for _, s := range sets {
		v += float64(len(s))
	}
	v /= float64(len(sets))
	return append([]algos.Theory{
		{Metric: "per_entry.total", Value: 3 * (v - 1), Formula: "3(|V|−1)", Label: "messages per entry as counted (no message to itself)", Source: srcMaekawa},
		{Metric: "per_entry.total", Value: 3 * v, Formula: "3·|V|", Label: "messages per entry, as the notes write it", Source: srcMaekawa},
	}, delays("2", "2", srcMaekawa)...)
}

// tokenringTheory: the token goes round whether anyone wants it, so an entry costs
// at least one message and, under light load, any number (Tanenbaum and van
// Steen's 1 to ∞; about 500 per entry were measured at N = 4); a process waits 0
// to N message times for the token, and hands it on to the next one in 1 to N.
func tokenringTheory(c algos.TheoryConfig) []algos.Theory {
	n := float64(len(c.IDs))
	return []algos.Theory{
		{Metric: "per_entry.total", Value: 1, Bound: algos.AtLeast, Formula: "1", Label: "messages per entry (1 to ∞: the token goes round whether anyone wants it or not)", Source: srcTokenMessages},
		{Metric: "client_delay_s", Value: n, Bound: algos.Range, Unit: "T", LowFormula: "0", Formula: "N", Label: "client delay: request to entry, the critical section free", Source: srcTokenDelay},
		{Metric: "sync_delay_s", Value: n, Low: 1, Bound: algos.Range, Unit: "T", LowFormula: "1", Formula: "N", Label: "synchronisation delay: one exit to the next entry", Source: srcTokenDelay},
	}
}

// quorumTheory gives the messages of an entry nobody competes with, 3 per
// coordinator asked (n, or m with ask = "m"), and the notes' probability P_v of
// losing mutual exclusion to amnesia, with P the probability that a coordinator
// crashes (and forgets its grant) while the grant is held: P = 1−e^(−λ·cs_hold) for
// the fault generator's crash rate λ. P_v is the chance that 2m−n or more of the m
// coordinators a holder asked forget its grant, so that m free ones exist for
// another participant: it holds when the holder asked exactly m (ask = "m"); asking
// all n, a holder usually holds more grants than m and the rate falls far below.
func quorumTheory(c algos.TheoryConfig) []algos.Theory {
	coords, m, err := quorumSize(c.Params, c.IDs)
	if err != nil {
		return nil
	}
	n := len(coords)
	wl, err := readWorkload(c.Params)
	if err != nil {
		return nil
	}
	ask, err := c.Params.String("ask", "all", "m")
	if err != nil {
		return nil
	}
	asked, formula := n, "3n"
	if ask == "m" {
		asked, formula = m, "3m"
	}
	p := -math.Expm1(-c.CrashRate * wl.hold.Seconds())
	return []algos.Theory{
		{Metric: "per_entry.total", Value: float64(3 * asked), Bound: algos.AtMost, Formula: formula, Label: "messages per entry nobody competes with: REQUEST, GRANT, RELEASE per coordinator asked", Source: srcQuorum},
		{Metric: "violations_per_entry", Value: math.Pow(10, QuorumLog10Pv(n, m, p)), Formula: "Σ_{k=2m−n}^{n} C(m,k) P^k (1−P)^{m−k}",
			Label: "P_v, mutual-exclusion violations per entry, with P = 1−e^(−λ·cs_hold)", Source: srcQuorum},
	}
}
