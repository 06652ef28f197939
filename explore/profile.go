package explore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// Fault classes, for --faults.
const (
	FaultNetwork = "network"
	FaultCrash   = "crash"
	FaultSlow    = "slow"
	FaultAll     = "all"
)

// faultSet is the fault classes a search draws from.
type faultSet struct{ network, crash, slow bool }

// parseFaults reads --faults: a list of network, crash, slow and all (all when
// empty).
func parseFaults(list []string) (faultSet, error) {
	if len(list) == 0 {
		return faultSet{true, true, true}, nil
	}
	var f faultSet
	for _, x := range list {
		switch x {
		case FaultNetwork:
			f.network = true
		case FaultCrash:
			f.crash = true
		case FaultSlow:
			f.slow = true
		case FaultAll:
			f = faultSet{true, true, true}
		default:
			return f, fmt.Errorf("--faults: found %q, expected network, crash, slow or all (a list: --faults network,crash)", x)
		}
	}
	return f, nil
}

func (f faultSet) String() string {
	var out []string
	for _, c := range []struct {
		on   bool
		name string
	}{{f.network, FaultNetwork}, {f.crash, FaultCrash}, {f.slow, FaultSlow}} {
		if c.on {
			out = append(out, c.name)
		}
	}
	if len(out) == 3 {
		return FaultAll
	}
	return strings.Join(out, ",")
}

// Profile is what a run of random mode drew from its seed: the verbs, how many
// actions, when, and the network. A finding prints it.
type Profile struct {
	Verbs   []string `json:"verbs"`
	Count   int      `json:"count"`
	Timing  string   `json:"timing"`
	Latency string   `json:"latency,omitempty"`
	Loss    *float64 `json:"loss,omitempty"`
	Dup     *float64 `json:"dup,omitempty"`
	GST     string   `json:"gst,omitempty"`

	// The timing, for Text: bursts (0 when spread), within window, half of the
	// actions spread.
	bursts int
	window time.Duration
	half   bool
}

// Text says what the run drew, in l.
func (p Profile) Text(l lang.Lang) string {
	var b strings.Builder
	timing := l.T("explore.profile.spread")
	switch {
	case p.bursts == 1:
		timing = l.F("explore.profile.burst", p.window)
	case p.bursts > 1:
		timing = l.F("explore.profile.bursts", p.bursts, p.window)
	}
	if p.bursts > 0 && p.half {
		timing += l.T("explore.profile.half")
	}
	if p.Count == 1 {
		b.WriteString(l.F("explore.profile.action", strings.Join(p.Verbs, ", "), timing))
	} else {
		b.WriteString(l.F("explore.profile.actions", p.Count, strings.Join(p.Verbs, ", "), timing))
	}
	if p.Latency != "" {
		b.WriteString(l.F("explore.profile.latency", l.Latency(p.Latency)))
	}
	if p.Loss != nil {
		b.WriteString(l.F("explore.profile.loss", *p.Loss))
	}
	if p.Dup != nil {
		b.WriteString(l.F("explore.profile.dup", *p.Dup))
	}
	if p.GST != "" {
		b.WriteString(l.F("explore.profile.gst", p.GST))
	}
	return b.String()
}

// maxDrawn is the most actions a run draws.
const maxDrawn = 40

// verbs are the kinds of action random mode draws, by fault class. A liveness
// search draws no fault that loses a message (partitions, cuts, isolations and loss
// drop what crosses them): the algorithms' liveness rests on reliable links, which
// only delay messages until GST, and held links and swizzles do that.
func (s *search) verbs() []string {
	var out []string
	if s.b.requestWhat() != "" {
		out = append(out, "request")
	}
	if s.faults.crash {
		out = append(out, "crash")
	}
	if s.faults.network {
		if !s.props.liveness {
			out = append(out, "partition", "cut", "isolate", "dup")
			if s.b.Config.CrashNotice == 0 { // P needs a run without loss
				out = append(out, "loss")
			}
		}
		out = append(out, "hold", "swizzle")
	}
	if s.faults.slow {
		out = append(out, "slow")
	}
	return out
}

// drawer draws one run's profile from its seed.
type drawer struct {
	s       *search
	r       *rand.Rand
	horizon time.Duration // actions fall in [0, horizon]
	window  time.Duration
	out     []netsim.Timed
	bursts  []time.Duration // burst starts; none when spread
	spread  float64         // the chance an action is spread rather than in a burst
}

// at is a time for the next action: in a burst (within one latency window of its
// start) or anywhere before the horizon.
func (d *drawer) at() time.Duration {
	if len(d.bursts) > 0 && d.r.Float64() >= d.spread {
		t := d.bursts[d.r.IntN(len(d.bursts))] + time.Duration(d.r.Int64N(int64(d.window)+1))
		return min(t, d.horizon).Truncate(time.Microsecond)
	}
	return time.Duration(d.r.Int64N(int64(d.horizon) + 1)).Truncate(time.Microsecond)
}

// lasting is how long a fault lasts: log-uniform from one latency window to half
// the horizon.
func (d *drawer) lasting() time.Duration {
	lo, hi := float64(d.window), float64(max(d.horizon/2, d.window))
	return time.Duration(lo * math.Exp(d.r.Float64()*math.Log(hi/lo))).Truncate(time.Microsecond)
}

// add adds an action, unless the run has drawn maxDrawn already: a burst of
// requests or a fault and its end may come after the count drawn is nearly
// reached. (A fault left without its end lasts to the horizon, as one whose end
// falls beyond it.) The draws go on as before, so that the runs below the bound
// stay as they were.
func (d *drawer) add(at time.Duration, a netsim.Action) {
	if len(d.out) < maxDrawn {
		d.out = append(d.out, netsim.Timed{At: at, Action: a})
	}
}

// pair adds a fault and, if it ends before the horizon, the action that ends it.
func (d *drawer) pair(at time.Duration, start, end netsim.Action) {
	d.add(at, start)
	if t := at + d.lasting(); t <= d.horizon {
		d.add(t, end)
	}
}

func (d *drawer) node() node.ID { return d.s.b.IDs[d.r.IntN(len(d.s.b.IDs))] }

// link is a random one-way link between two different nodes.
func (d *drawer) link() (node.ID, node.ID) {
	ids := d.s.b.IDs
	i := d.r.IntN(len(ids))
	j := d.r.IntN(len(ids) - 1)
	if j >= i {
		j++
	}
	return ids[i], ids[j]
}

// draw makes run seed's variant and profile.
func (s *search) draw(seed uint64) (*Variant, Profile, error) {
	base, err := s.b.baseActions(seed)
	if err != nil {
		return nil, Profile{}, err
	}
	v := &Variant{Seed: seed, Until: s.until}
	d := &drawer{s: s, r: rand.New(rand.NewPCG(seed, 0x70726f66696c65)), horizon: s.horizon, window: s.b.Window, // "profile"
		out: make([]netsim.Timed, 0, maxDrawn+len(s.b.IDs))}
	var p Profile
	// Swarm testing (Groce et al., ISSTA 2012): each run uses a random subset of
	// the verbs, so that one kind of fault is not always drowned by the others.
	all := s.allVerbs
	var on []string
	for _, k := range all {
		if d.r.IntN(2) == 0 {
			on = append(on, k)
		}
	}
	if len(on) == 0 && len(all) > 0 {
		on = append(on, all[d.r.IntN(len(all))])
	}
	p.Verbs = on
	count := d.r.IntN(maxDrawn + 1)
	switch k := d.r.IntN(3); {
	case k == 0 || len(on) == 0:
		p.Timing = "spread"
	default:
		n := 1 + d.r.IntN(3)
		for range n {
			d.bursts = append(d.bursts, time.Duration(d.r.Int64N(int64(max(d.horizon-d.window, 0))+1)).Truncate(time.Microsecond))
		}
		d.spread = 0
		p.bursts, p.window = n, d.window
		p.Timing = fmt.Sprintf("%d bursts within %v", n, d.window)
		if n == 1 {
			p.Timing = fmt.Sprintf("1 burst within %v", d.window)
		}
		if k == 2 {
			d.spread, p.half = 0.5, true
			p.Timing += ", half spread"
		}
	}
	for tries := 0; len(on) > 0 && len(d.out) < count && tries < 4*maxDrawn; tries++ {
		d.one(on[d.r.IntN(len(on))])
	}
	p.Count = len(d.out)
	if s.faults.network {
		s.drawNet(d, v, &p)
	}
	v.Actions = append(slices.Grow(base, len(d.out)), d.out...)
	sortTimed(v.Actions)
	if s.props.liveness {
		v.End = &s.horizon
	}
	return v, p, nil
}

// one draws the actions of one kind.
func (d *drawer) one(kind string) {
	b := d.s.b
	at := d.at()
	switch kind {
	case "request":
		// A burst of requests by different nodes, close together (within one
		// latency window) or apart.
		ids := slices.Clone(b.IDs)
		d.r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		close := d.r.IntN(2) == 0
		for _, id := range ids[:1+d.r.IntN(len(ids))] {
			t := at
			if close {
				t = min(at+time.Duration(d.r.Int64N(int64(d.window)+1)), d.horizon).Truncate(time.Microsecond)
			} else if id != ids[0] {
				t = d.at()
			}
			d.add(t, netsim.Action{Verb: "request", Node: id, What: b.requestWhat()})
		}
	case "crash":
		id := d.node()
		d.pair(at, netsim.Action{Verb: "crash", Node: id}, netsim.Action{Verb: "recover", Node: id})
	case "partition":
		if len(b.IDs) < 2 {
			return
		}
		d.pair(at, netsim.Action{Verb: "partition", Groups: netsim.TwoSides(b.IDs, d.r)}, netsim.Action{Verb: "heal"})
	case "cut":
		if len(b.IDs) < 2 {
			return
		}
		x, y := d.link()
		d.pair(at, netsim.Action{Verb: "cut", Node: x, To: y}, netsim.Action{Verb: "heal"})
	case "isolate":
		d.pair(at, netsim.Action{Verb: "isolate", Node: d.node()}, netsim.Action{Verb: "heal"})
	case "hold":
		if len(b.IDs) < 2 {
			return
		}
		x, y := d.link()
		d.pair(at, netsim.Action{Verb: "hold", Node: x, To: y}, netsim.Action{Verb: "release", Node: x, To: y})
	case "swizzle":
		if len(b.IDs) < 2 || d.horizon-at < 2*d.window {
			return
		}
		if dur := max(d.lasting(), 2*d.window); at+dur <= d.horizon {
			d.add(at, netsim.Action{Verb: "swizzle", For: dur})
		}
	case "slow":
		id := d.node()
		d.pair(at, netsim.Action{Verb: "slow", Node: id, Factor: 2 + d.r.IntN(9)}, netsim.Action{Verb: "slow", Node: id, Factor: 1})
	case "loss", "dup":
		n := b.Config.Net
		old := n.Loss
		if kind == "dup" {
			old = n.Dup
		}
		p := math.Round((0.1+0.8*d.r.Float64())*100) / 100
		d.pair(at, netsim.Action{Verb: "set", Knob: kind, Value: p}, netsim.Action{Verb: "set", Knob: kind, Value: old})
	}
}

// drawNet draws the network of a run, half the time: its latency distribution,
// its loss and duplication (not in a liveness search), and a GST.
func (s *search) drawNet(d *drawer, v *Variant, p *Profile) {
	r := d.r
	if r.IntN(2) == 0 {
		return
	}
	base := s.b.Config.Net.Latency
	lo := max(base.Floor(), time.Millisecond)
	hi := max(base.Max, base.Mean, lo) * time.Duration(1+r.IntN(5))
	var l netsim.Latency
	switch r.IntN(4) {
	case 0:
		l = netsim.Latency{Dist: "constant", Min: lo, Mean: lo, Max: lo}
	case 1:
		l = netsim.Latency{Dist: "uniform", Min: lo, Mean: (lo + hi) / 2, Max: hi}
	case 2:
		l = netsim.Latency{Dist: "exponential", Min: lo, Mean: lo + (hi-lo)/4, Max: hi}
	default:
		l = netsim.Latency{Dist: "pareto", Min: lo, Mean: lo + (hi-lo)/4, Max: hi}
	}
	l.Min, l.Mean, l.Max = l.Min.Truncate(time.Microsecond), l.Mean.Truncate(time.Microsecond), l.Max.Truncate(time.Microsecond)
	v.Net.Latency = &l
	p.Latency = l.String()
	if !s.props.liveness && s.b.Config.CrashNotice == 0 {
		if r.IntN(3) == 0 {
			x := math.Round(r.Float64()*0.2*100) / 100
			v.Net.Loss, p.Loss = &x, &x
		}
		if r.IntN(3) == 0 {
			x := math.Round(r.Float64()*0.2*100) / 100
			v.Net.Dup, p.Dup = &x, &x
		}
	}
	if s.b.Config.Net.GST == 0 && r.IntN(3) == 0 && s.b.Config.CrashNotice == 0 {
		g := time.Duration(r.Int64N(int64(s.horizon/2) + 1)).Truncate(time.Millisecond)
		if g > 0 {
			v.Net.GST = &g
			p.GST = g.String()
		}
	}
}
