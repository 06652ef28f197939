package presets

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
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
// drawn from the scenario's seed. Resolve expands it into timed script actions, so
// a run with generated faults records, replays and verifies like a scripted one.
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
	if _, err := ParseRate(f.CrashRate); err != nil {
		return fail("faults.crash_rate", "%v", err)
	}
	if f.PartitionRate == "" {
		f.PartitionRate = "0/s"
	}
	if _, err := ParseRate(f.PartitionRate); err != nil {
		return fail("faults.partition_rate", "%v", err)
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

// faultScript expands the generator into timed actions up to until: for each listed
// process in id order, crash after an exponential gap, recover after down_for, and
// again; then partitions into two random non-empty sides, each healed after
// down_for. Every draw comes from one source seeded by the scenario's seed.
func (s *Scenario) faultScript(ids []node.ID, until time.Duration) []netsim.Timed {
	f := s.Faults
	if f == nil {
		return nil
	}
	r := rand.New(rand.NewPCG(s.Seed, 0x6661756c7473)) // "faults"
	down, _ := f.DownFor.resolve()
	crash, _ := ParseRate(f.CrashRate)
	part, _ := ParseRate(f.PartitionRate)
	gap := func(rate float64) time.Duration {
		return time.Duration(r.ExpFloat64() / rate * float64(time.Second)).Round(time.Microsecond)
	}
	var out []netsim.Timed
	add := func(at time.Duration, verb string, a netsim.Action) {
		a.Verb = verb
		out = append(out, netsim.Timed{At: at, Action: a})
	}
	victims := ids
	if len(f.Nodes) > 0 {
		victims = nil
		for _, n := range f.Nodes {
			id, _ := node.ParseID(n)
			victims = append(victims, id)
		}
	}
	victims = slices.Compact(slices.Sorted(slices.Values(victims)))
	for _, id := range victims {
		for t := time.Duration(0); crash > 0; {
			t += gap(crash)
			if t >= until {
				break
			}
			add(t, "crash", netsim.Action{Node: id})
			t += down.Sample(r).Round(time.Microsecond)
			if t >= until {
				break
			}
			add(t, "recover", netsim.Action{Node: id})
		}
	}
	for t := time.Duration(0); part > 0 && len(ids) > 1; {
		t += gap(part)
		if t >= until {
			break
		}
		var a, b []node.ID
		for len(a) == 0 || len(b) == 0 {
			a, b = a[:0], b[:0]
			for _, id := range ids {
				if r.IntN(2) == 0 {
					a = append(a, id)
				} else {
					b = append(b, id)
				}
			}
		}
		add(t, "partition", netsim.Action{Groups: [][]node.ID{slices.Clone(a), slices.Clone(b)}})
		t += down.Sample(r).Round(time.Microsecond)
		if t >= until {
			break
		}
		add(t, "heal", netsim.Action{})
	}
	slices.SortStableFunc(out, func(x, y netsim.Timed) int { return cmp.Compare(x.At, y.At) })
	return out
}
