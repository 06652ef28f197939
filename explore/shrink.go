package explore

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// ShrinkStats says how shrinking went.
type ShrinkStats struct {
	Before, After int // actions
	Candidates    int // variants run
	Cached        int // variants met again, answered from the cache
	Rounds        int // rounds of every pass
	// Fixpoint is set when a whole round changed nothing: the result is then
	// 1-minimal, no single action of it can go. Otherwise the time ran out.
	Fixpoint bool
	Elapsed  time.Duration
}

// shrinker makes a failing variant smaller while it fails the same way.
type shrinker struct {
	s        *search
	v        *Variant
	x        Violation
	cache    map[string]*Violation
	stats    ShrinkStats
	deadline time.Time
}

// shrink runs the passes in order, again and again, until a round changes nothing
// or the time budget is spent:
//  1. delete chunks of 8, 4, 2, then 1 actions, from the end;
//  2. delete the actions that end a fault together with the fault (crash and
//     recover, partition and heal, hold and release, …), or replace a fault that
//     cut a node off for a while by the cut of one link (see cutsFor);
//  3. move actions earlier, to a coarse grid;
//  4. drop the nodes no action or setting names (nodes.go);
//  5. simplify the network: no loss, no duplication, a constant latency;
//  6. try seeds 1 to 16;
//  7. once a round of these changes nothing, delete chunks of actions under each
//     of the seeds 1 to 16 (see deleteReseeded), and if that helps go round again.
//
// A candidate is kept when it breaks the same property (the same alert kind).
func (s *search) shrink(v *Variant, x Violation) (*Base, *Variant, Violation, ShrinkStats) {
	start := time.Now()
	deadline := start.Add(s.o.ShrinkTime)
	if s.o.Time > 0 {
		// --time bounds the whole command: what shrinking may take is what is left
		// of it, and a second for the outputs.
		if end := s.start.Add(s.o.Time + time.Second); end.Before(deadline) {
			deadline = end
		}
	}
	s.stopAt = deadline // a candidate's run stops there too
	sh := &shrinker{s: s, v: v.clone(), x: x, cache: map[string]*Violation{}, deadline: deadline}
	sh.stats.Before = len(v.Actions)
	sh.cache[sh.key(sh.v)] = &x
	for !sh.expired() {
		sh.stats.Rounds++
		changed := false
		for _, pass := range []func() bool{sh.deleteChunks, sh.deletePairs, sh.moveEarlier, sh.closeGaps, sh.dropNodes, sh.simplifyNet, sh.smallSeeds} {
			if pass() {
				changed = true
			}
			if sh.expired() {
				break
			}
		}
		if !changed && !sh.expired() {
			changed = sh.deleteReseeded()
		}
		if !changed && !sh.expired() {
			sh.stats.Fixpoint = true
			break
		}
	}
	sh.stats.After = len(sh.v.Actions)
	sh.stats.Elapsed = time.Since(start)
	return sh.s.b, sh.v, sh.x, sh.stats
}

func (sh *shrinker) expired() bool { return time.Now().After(sh.deadline) || sh.s.ctx.Err() != nil }

// key identifies a variant for the cache.
func (sh *shrinker) key(v *Variant) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%v|%s", v.Seed, v.Until, netKey(v.Net))
	for _, a := range v.Actions {
		fmt.Fprintf(&b, "|%d %s", a.At, a.Action)
	}
	return b.String()
}

func netKey(n NetChange) string {
	var b strings.Builder
	if n.Latency != nil {
		b.WriteString(n.Latency.String())
	}
	if n.Loss != nil {
		fmt.Fprintf(&b, " loss %g", *n.Loss)
	}
	if n.Dup != nil {
		fmt.Fprintf(&b, " dup %g", *n.Dup)
	}
	if n.GST != nil {
		fmt.Fprintf(&b, " gst %v", *n.GST)
	}
	return b.String()
}

// try runs candidate c (its faults ending at its End, kept from the finding) and
// keeps it if it breaks the same property; it reports whether it did.
func (sh *shrinker) try(c *Variant) bool {
	if sh.expired() {
		return false
	}
	sortTimed(c.Actions)
	k := sh.key(c)
	x, seen := sh.cache[k]
	if seen {
		sh.stats.Cached++
	} else {
		sh.stats.Candidates++
		out, err := sh.s.run(c)
		if out.cut {
			return false // the time is up; not an answer to keep
		}
		if err == nil && !out.storm {
			x = out.x
		}
		sh.cache[k] = x
	}
	if x == nil || x.Kind != sh.x.Kind {
		return false
	}
	sh.v, sh.x = c, *x
	return true
}

// without is v without the actions at indices [i, j).
func without(v *Variant, i, j int) *Variant {
	c := v.clone()
	c.Actions = slices.Delete(c.Actions, i, j)
	return c
}

// deleteChunks deletes runs of 8, 4, 2 and 1 actions, from the end.
func (sh *shrinker) deleteChunks() bool {
	changed := false
	for _, k := range []int{8, 4, 2, 1} {
		for end := len(sh.v.Actions); end > 0; {
			start := max(end-k, 0)
			if end-start < k && k > 1 {
				// A short chunk at the start is tried by the smaller sizes.
				break
			}
			if sh.try(without(sh.v, start, end)) {
				changed = true
				end = min(start, len(sh.v.Actions))
				continue
			}
			end--
			if sh.expired() {
				return changed
			}
		}
	}
	return changed
}

// ends reports whether action b ends the fault that action a starts.
func ends(a, b netsim.Action) bool {
	switch a.Verb {
	case "crash":
		return b.Verb == "recover" && b.Node == a.Node
	case "partition", "cut", "isolate":
		return b.Verb == "heal"
	case "hold":
		return b.Verb == "release" && b.Node == a.Node && b.To == a.To
	case "slow":
		return a.Factor > 1 && b.Verb == "slow" && b.Node == a.Node && b.Factor == 1
	case "set":
		return b.Verb == "set" && b.Knob == a.Knob && a.Knob != "latency"
	}
	return false
}

// deletePairs deletes a fault together with the action that ends it. A crash,
// an isolation or a partition and its end that cannot both go may matter only for a
// message that did not get through meanwhile: they are then replaced by one action,
// the cut of one link, tried link by link.
func (sh *shrinker) deletePairs() bool {
	changed := false
	for i := len(sh.v.Actions) - 1; i >= 0; i-- {
		if i >= len(sh.v.Actions) {
			continue
		}
		a := sh.v.Actions[i]
		for j := i + 1; j < len(sh.v.Actions); j++ {
			if !ends(a.Action, sh.v.Actions[j].Action) {
				continue
			}
			c := without(sh.v, j, j+1)
			c.Actions = slices.Delete(c.Actions, i, i+1)
			if sh.try(c) {
				changed = true
				break
			}
			for _, cut := range cutsFor(a.Action, sh.s.b.IDs) {
				c := without(sh.v, j, j+1)
				c.Actions[i].Action = cut
				if sh.try(c) {
					changed = true
					break
				}
			}
			break
		}
		if sh.expired() {
			break
		}
	}
	return changed
}

// cutsFor are the single cuts that may stand for a fault that cuts a node off for
// a while (a crash, an isolation) or splits the network: the links into the node,
// or across the partition's groups.
func cutsFor(a netsim.Action, ids []node.ID) []netsim.Action {
	var out []netsim.Action
	switch a.Verb {
	case "crash", "isolate":
		for _, from := range ids {
			if from != a.Node {
				out = append(out, netsim.Action{Verb: "cut", Node: from, To: a.Node})
			}
		}
	case "partition":
		for gi, g := range a.Groups {
			for gj, h := range a.Groups {
				if gi == gj {
					continue
				}
				for _, from := range g {
					for _, to := range h {
						out = append(out, netsim.Action{Verb: "cut", Node: from, To: to})
					}
				}
			}
		}
	}
	return out
}

// grids are the steps moveEarlier snaps times to, coarse first.
var grids = []time.Duration{time.Second, 100 * time.Millisecond, 10 * time.Millisecond, time.Millisecond}

// moveEarlier moves each action to an earlier time: the start, the time of an
// earlier action, or its time (or half of it) rounded down to a coarse grid.
func (sh *shrinker) moveEarlier() bool {
	changed := false
	// An action moved earlier sorts before index i, and the actions between shift
	// up by one: the next one to try is still at i+1.
	for i := 0; i < len(sh.v.Actions); i++ {
		at := sh.v.Actions[i].At
		times := []time.Duration{0}
		for _, t := range sh.v.Actions[:i] {
			times = append(times, t.At)
		}
		times = append(times, snaps(at/2)...)
		times = append(times, snaps(at)...)
		tried := map[time.Duration]bool{}
		for _, t := range times {
			if t >= at || tried[t] {
				continue
			}
			tried[t] = true
			c := sh.v.clone()
			c.Actions[i].At = t
			if sh.try(c) {
				changed = true
				break
			}
		}
		if sh.expired() {
			break
		}
	}
	return changed
}

// closeGaps deletes an action whose only use was to make time pass, moving what
// comes after it earlier: each action is tried deleted with every later action
// moved back by the gap before the next instant, or by half of it.
func (sh *shrinker) closeGaps() bool {
	changed := false
	for i := len(sh.v.Actions) - 1; i >= 0; i-- {
		if i >= len(sh.v.Actions) {
			continue
		}
		at := sh.v.Actions[i].At
		j := i + 1
		for j < len(sh.v.Actions) && sh.v.Actions[j].At == at {
			j++
		}
		if j == len(sh.v.Actions) {
			continue
		}
		gap := sh.v.Actions[j].At - at
		for _, back := range []time.Duration{gap, (gap / 2).Truncate(time.Millisecond)} {
			if back <= 0 {
				continue
			}
			c := without(sh.v, i, i+1)
			for k := i; k < len(c.Actions); k++ {
				if c.Actions[k].At > at {
					c.Actions[k].At -= back
				}
			}
			if sh.try(c) {
				changed = true
				break
			}
		}
		if sh.expired() {
			break
		}
	}
	return changed
}

// snaps is at rounded down to each grid.
func snaps(at time.Duration) []time.Duration {
	var out []time.Duration
	for _, g := range grids {
		out = append(out, at.Truncate(g))
	}
	return out
}

// simplifyNet tries the network without loss, without duplication, and with a
// constant latency.
func (sh *shrinker) simplifyNet() bool {
	n := sh.s.b.Config.Net
	sh.v.Net.apply(&n)
	changed := false
	zero := 0.0
	if n.Loss > 0 {
		c := sh.v.clone()
		c.Net.Loss = &zero
		changed = sh.try(c) || changed
	}
	if n.Dup > 0 {
		c := sh.v.clone()
		c.Net.Dup = &zero
		changed = sh.try(c) || changed
	}
	if n.Latency.Dist != "constant" {
		m := n.Latency.Mean.Truncate(time.Millisecond)
		if m <= 0 {
			m = max(n.Latency.Min, time.Millisecond)
		}
		c := sh.v.clone()
		c.Net.Latency = &netsim.Latency{Dist: "constant", Min: m, Mean: m, Max: m}
		changed = sh.try(c) || changed
	}
	return changed
}

// smallSeeds tries the seeds 1 to 16, below the variant's own.
func (sh *shrinker) smallSeeds() bool {
	for seed := uint64(1); seed <= 16 && seed < sh.v.Seed; seed++ {
		c := sh.v.clone()
		c.Seed = seed
		if sh.try(c) {
			return true
		}
	}
	return false
}

// deleteReseeded deletes chunks of actions as deleteChunks does (8, 4, 2, then 1,
// from the end), each under each of the seeds 1 to 16. The randomness of a run
// (its latencies, its request workload, a swizzle's order) is drawn from the one
// seed in the order things happen, so a finding may need an action only for the
// draws it shifts: without it, the same seed makes another run, and another seed
// may then break the property without it. Runs are cheap beside a reader's time:
// at most 16 runs a chunk, tried only once the other passes are done.
func (sh *shrinker) deleteReseeded() bool {
	n := len(sh.v.Actions)
	for _, k := range []int{8, 4, 2, 1} {
		if k > n {
			continue
		}
		for end := n; end-k >= 0; end-- {
			for seed := uint64(1); seed <= 16; seed++ {
				if seed == sh.v.Seed {
					continue
				}
				c := without(sh.v, end-k, end)
				c.Seed = seed
				if sh.try(c) {
					return true
				}
				if sh.expired() {
					return false
				}
			}
		}
	}
	return false
}
