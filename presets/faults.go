package presets

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// Orders lists the values of the scenario key `order`: how the ids are laid along
// the ring (and the ring order every algorithm sees). "random" shuffles them from
// the scenario's seed; "bit-reversal" puts the ids, largest first, at the
// bit-reversed positions (8 4 6 2 7 3 5 1 for 8), where every round of a
// neighbour-comparing election such as Franklin's keeps exactly half.
var Orders = []string{"increasing", "decreasing", "random", "bit-reversal"}

// Faults is the [faults] table: a generator of crashes, recoveries and partitions
// drawn from the scenario's seed. Resolve makes it the run's generated script
// actions (netsim.Config.Generated), drawn as the run reaches them, so a run with
// generated faults records, replays and verifies like a scripted one.
type Faults struct {
	// CrashRate is the rate at which each listed process crashes while up, such as
	// "0.2/s": the gaps between a recovery and the next crash are exponential.
	CrashRate string `toml:"crash_rate" json:"crash_rate"`
	// DownFor is how long a crashed process stays down (and a partition lasts).
	DownFor *Latency `toml:"down_for" json:"down_for,omitempty"`
	// Nodes are the processes that crash; empty means all.
	Nodes []string `toml:"nodes" json:"nodes,omitempty"`
	// PartitionRate is the rate of partitions of the whole network into two random
	// sides, each healed after DownFor.
	PartitionRate string `toml:"partition_rate" json:"partition_rate,omitempty"`
	// End, when set, is when every fault ends (netsim.Config.FaultsEnd): cuts,
	// partitions, isolations, held links and swizzles heal, nodes down recover,
	// slow nodes run at speed, loss and duplication return to [network]'s, and GST
	// holds. The generator draws nothing from then on. A liveness finding ends its
	// faults with it, so that what heals is the property's, not its script's.
	End string `toml:"end" json:"end,omitempty"`
}

// FaultsEnd is faults.end, when the scenario sets it.
func (s *Scenario) FaultsEnd() (time.Duration, bool) {
	if s.Faults == nil || s.Faults.End == "" {
		return 0, false
	}
	d, err := dur(s.Faults.End)
	return d, err == nil
}

// DefaultDownFor is how long a generated fault lasts when down_for is left out.
var DefaultDownFor = Latency{Dist: "uniform", Min: "100ms", Max: "1s"}

// ParseRate reads a rate such as "0.2/s" or "3/min" as events per second.
func ParseRate(s string) (float64, error) {
	num, unit, ok := strings.Cut(s, "/")
	per := map[string]float64{"s": 1, "min": 60, "ms": 0.001}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if !ok || per == 0 || err != nil || v < 0 {
		return 0, fmt.Errorf("found %q, expected a rate such as \"0.2/s\"", s)
	}
	return v / per, nil
}

// CrashRate is the generator's crash rate per process and second (0 without one).
func (s *Scenario) CrashRate() float64 {
	if s.Faults == nil {
		return 0
	}
	r, _ := ParseRate(s.Faults.CrashRate)
	return r
}

func (s *Scenario) checkOrderAndFaults(fail func(path, format string, args ...any) error) error {
	if s.Order != "" && !slices.Contains(Orders, s.Order) {
		return fail("order", "found order = %q, expected %s", s.Order, strings.Join(Orders, ", "))
	}
	f := s.Faults
	if f == nil {
		return nil
	}
	if f.CrashRate == "" {
		f.CrashRate = "0/s"
	}
	if r, err := ParseRate(f.CrashRate); err != nil {
		return fail("faults.crash_rate", "%v", err)
	} else if r > MaxRate {
		return fail("faults.crash_rate", "found %q, expected at most %d/s per process", f.CrashRate, MaxRate)
	}
	if f.PartitionRate == "" {
		f.PartitionRate = "0/s"
	}
	if r, err := ParseRate(f.PartitionRate); err != nil {
		return fail("faults.partition_rate", "%v", err)
	} else if r > MaxRate {
		return fail("faults.partition_rate", "found %q, expected at most %d/s", f.PartitionRate, MaxRate)
	}
	if f.DownFor == nil {
		d := DefaultDownFor
		f.DownFor = &d
	}
	if err := f.DownFor.check("faults.down_for", fail); err != nil {
		return err
	}
	ids := s.NodeIDs()
	for i, n := range f.Nodes {
		if !hasID(ids, n) {
			return fail(fmt.Sprintf("faults.nodes[%d]", i), "found %q, expected one of the scenario's nodes", n)
		}
	}
	return nil
}

// ordered lays ids out as `order` says.
func (s *Scenario) ordered(ids []node.ID) []node.ID {
	switch s.Order {
	case "increasing":
		slices.Sort(ids)
	case "decreasing":
		slices.Sort(ids)
		slices.Reverse(ids)
	case "random":
		slices.Sort(ids)
		r := rand.New(rand.NewPCG(s.Seed, 0x6f72646572)) // "order"
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	case "bit-reversal":
		slices.Sort(ids)
		slices.Reverse(ids)
		k := bits.Len(uint(len(ids) - 1))
		out := make([]node.ID, 0, len(ids))
		for i := range 1 << k {
			if r := bits.Reverse(uint(i)) >> (bits.UintSize - k); k > 0 && int(r) < len(ids) {
				out = append(out, ids[r])
			} else if k == 0 {
				out = append(out, ids[0])
			}
		}
		return out
	}
	return ids
}

// MaxRate bounds crash_rate and partition_rate, per second: a process that
// crashes a thousand times a second is already only ever down.
const MaxRate = 1000

// faults makes the generator's actions as the run reaches them (netsim.Config's
// Generated), never up front: a thousand processes crashing at 0.2/s for 24 hours
// are 35 million actions, which a list would hold in gigabytes. The draws are those
// of the generator's definition, one source seeded by the scenario's seed, taken
// in turn: for each listed process in id order, crash after an exponential gap,
// recover after down_for, and again up to until; then partitions into two random
// non-empty sides, each healed after down_for. To make each process's actions as
// they are due, the source's state where each process's draws begin is found once
// (a pass over the draws that keeps nothing, when the first world asks for them),
// and each stream draws from a copy of it. The streams are merged by time, in
// the same order as the definition's list sorted by time: a process's before the
// partitions and in id order at one instant.
func (s *Scenario) faults(ids []node.ID, until time.Duration) func() netsim.ActionSource {
	f := s.Faults
	if f == nil {
		return nil
	}
	crash, _ := ParseRate(f.CrashRate)
	part, _ := ParseRate(f.PartitionRate)
	victims := ids
	if len(f.Nodes) > 0 {
		victims = nil
		for _, n := range f.Nodes {
			id, _ := node.ParseID(n)
			victims = append(victims, id)
		}
	}
	victims = slices.Compact(slices.Sorted(slices.Values(victims)))
	if crash == 0 {
		victims = nil
	}
	if part == 0 || len(ids) < 2 {
		part = 0
	}
	if len(victims) == 0 && part == 0 {
		return nil
	}
	down, _ := f.DownFor.resolve()
	proto := faultGen{until: until, down: down, crash: crash, part: part, ids: ids}
	var once sync.Once
	var starts []rand.PCG // where each stream's draws begin
	seed := s.Seed
	return func() netsim.ActionSource {
		once.Do(func() {
			src := rand.NewPCG(seed, 0x6661756c7473) // "faults"
			g := proto
			for _, id := range victims {
				starts = append(starts, *src)
				g.streams = append(g.streams[:0], faultStream{node: id, r: rand.New(src)})
				for g.draw(0) {
				}
			}
			starts = append(starts, *src) // the partitions'
		})
		g := &faultGen{until: until, down: down, crash: crash, part: part, ids: ids}
		for i, id := range victims {
			src := starts[i]
			g.streams = append(g.streams, faultStream{node: id, r: rand.New(&src)})
		}
		if part > 0 {
			src := starts[len(victims)]
			g.streams = append(g.streams, faultStream{partition: true, r: rand.New(&src)})
		}
		for i := range g.streams {
			if g.draw(i) {
				g.push(i)
			}
		}
		return g
	}
}

// faultGen merges the streams of generated faults by time.
type faultGen struct {
	until       time.Duration
	down        netsim.Latency
	crash, part float64 // rates per second
	ids         []node.ID
	streams     []faultStream
	heads       []int // streams with a next action, a heap by (time, stream)
}

// faultStream is one process's crashes and recoveries, or the partitions.
type faultStream struct {
	node      node.ID
	partition bool
	r         *rand.Rand
	t         time.Duration
	down      bool // crashed (a partition standing): the next action undoes it
	next      netsim.Timed
}

// Next is the next generated action, in time order.
func (g *faultGen) Next() (netsim.Timed, bool) {
	if len(g.heads) == 0 {
		return netsim.Timed{}, false
	}
	i := g.heads[0]
	out := g.streams[i].next
	g.heads[0] = g.heads[len(g.heads)-1]
	g.heads = g.heads[:len(g.heads)-1]
	g.siftDown(0)
	if g.draw(i) {
		g.push(i)
	}
	return out, true
}

// draw makes stream i's next action, drawing as the definition does (the gap or
// the time down first, then, for a partition, its sides), and reports whether
// there is one before until.
func (g *faultGen) draw(i int) bool {
	st := &g.streams[i]
	if st.down {
		st.t += g.down.Sample(st.r).Round(time.Microsecond)
		if st.t >= g.until {
			return false
		}
		a := netsim.Action{Verb: "recover", Node: st.node}
		if st.partition {
			a = netsim.Action{Verb: "heal"}
		}
		st.down, st.next = false, netsim.Timed{At: st.t, Action: a}
		return true
	}
	rate := g.crash
	if st.partition {
		rate = g.part
	}
	st.t += time.Duration(st.r.ExpFloat64() / rate * float64(time.Second)).Round(time.Microsecond)
	if st.t >= g.until {
		return false
	}
	a := netsim.Action{Verb: "crash", Node: st.node}
	if st.partition {
		a = netsim.Action{Verb: "partition", Groups: netsim.TwoSides(g.ids, st.r)}
	}
	st.down, st.next = true, netsim.Timed{At: st.t, Action: a}
	return true
}

// push puts stream i, whose next action is drawn, among the heads.
func (g *faultGen) push(i int) {
	g.heads = append(g.heads, i)
	for k := len(g.heads) - 1; k > 0; {
		up := (k - 1) / 2
		if !g.before(g.heads[k], g.heads[up]) {
			break
		}
		g.heads[k], g.heads[up] = g.heads[up], g.heads[k]
		k = up
	}
}

func (g *faultGen) before(i, j int) bool {
	a, b := g.streams[i].next.At, g.streams[j].next.At
	return a < b || a == b && i < j
}

func (g *faultGen) siftDown(k int) {
	for {
		l := 2*k + 1
		if l >= len(g.heads) {
			return
		}
		if r := l + 1; r < len(g.heads) && g.before(g.heads[r], g.heads[l]) {
			l = r
		}
		if !g.before(g.heads[l], g.heads[k]) {
			return
		}
		g.heads[k], g.heads[l] = g.heads[l], g.heads[k]
		k = l
	}
}
