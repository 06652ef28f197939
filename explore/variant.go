package explore

import (
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// Variant is one run of a search: the base scenario with its own seed, network and
// script. Shrinking changes variants; a finding is written from one.
type Variant struct {
	Seed uint64
	Net  NetChange
	// Actions are the script, in time order: the scenario's own actions and those
	// drawn or chosen by the search. Shrinking deletes and moves them.
	Actions []netsim.Timed
	// End, when set, is when every fault ends (the scenario key faults.end): a
	// liveness search's end of faults, after which the world heals and recovers
	// itself. It is part of the property, not an action: never shrunk. Nil keeps
	// the scenario's own.
	End *time.Duration
	// Until ends the run; 0 keeps the scenario's.
	Until time.Duration
}

// NetChange overrides the scenario's network; nil fields keep it.
type NetChange struct {
	Latency *netsim.Latency
	Loss    *float64
	Dup     *float64
	GST     *time.Duration // netsim.Never for never
}

func (c NetChange) apply(n *netsim.Net) {
	if c.Latency != nil {
		n.Latency = *c.Latency
	}
	if c.Loss != nil {
		n.Loss, n.PreLoss = *c.Loss, *c.Loss
	}
	if c.Dup != nil {
		n.Dup = *c.Dup
	}
	if c.GST != nil {
		n.GST = *c.GST
	}
}

// clone copies v deeply enough that changing the copy's actions leaves v alone.
func (v *Variant) clone() *Variant {
	c := *v
	c.Actions = slices.Clone(v.Actions)
	return &c
}

// endOf is when every fault of v's run ends, if ever: v's end, or the scenario's.
func (b *Base) endOf(v *Variant) (time.Duration, bool) {
	switch {
	case v.End != nil:
		return *v.End, true
	case b.Config.FaultsEnd != nil:
		return *b.Config.FaultsEnd, true
	}
	return 0, false
}

// withEnd is a run's script with the restore that faults.end schedules, where the
// world takes it: after the script's actions of its instant.
func (b *Base) withEnd(v *Variant, script []netsim.Timed) []netsim.Timed {
	end, ok := b.endOf(v)
	if !ok {
		return script
	}
	out := append(slices.Clone(script), netsim.Restore(end))
	sortTimed(out)
	return out
}

// netState is what the actions of a script have done to the cluster and the
// network by some time: who is down or slow, whether some link is cut, held or
// partitioned, whether GST has come, and the loss and duplication set.
type netState struct {
	down      []node.ID
	slow      []node.ID
	cut       bool // a partition, a cut or an isolation is in force
	held      [][2]node.ID
	swizzleTo time.Duration // a swizzle holds links until then
	sync      bool
	loss, dup float64
	lossSet   bool
	dupSet    bool
}

// stateAt plays the actions up to and including time at over the scenario's
// network. It reports, besides the state, when the network last became whole (no
// cut, partition, isolation or held link, and synchronous) by then.
func (b *Base) stateAt(v *Variant, script []netsim.Timed, at time.Duration) (netState, time.Duration) {
	n := b.Config.Net
	v.Net.apply(&n)
	st := netState{sync: n.GST == 0, loss: n.Loss, dup: n.Dup}
	whole := time.Duration(0)
	if !st.sync {
		whole = -1
	}
	broken := func() bool { return st.cut || len(st.held) > 0 || !st.sync }
	mark := func(t time.Duration, was bool) {
		if was && !broken() {
			whole = t
		}
		if broken() {
			whole = -1
		}
	}
	for _, a := range script {
		if a.At > at {
			break
		}
		if !st.sync && n.GST > 0 && a.At >= n.GST {
			st.sync = true
			mark(n.GST, true)
		}
		if st.swizzleTo > 0 && a.At >= st.swizzleTo {
			st.swizzleTo = 0
		}
		was := broken()
		switch x := a.Action; x.Verb {
		case "crash":
			st.down = addNode(st.down, x.Node)
		case "recover":
			st.down = slices.DeleteFunc(st.down, func(id node.ID) bool { return id == x.Node })
		case "slow":
			st.slow = slices.DeleteFunc(st.slow, func(id node.ID) bool { return id == x.Node })
			if x.Factor > 1 {
				st.slow = append(st.slow, x.Node)
			}
		case "partition", "cut", "isolate":
			st.cut = true
		case "heal":
			st.cut, st.held = false, nil
		case "hold":
			l := [2]node.ID{x.Node, x.To}
			if !slices.Contains(st.held, l) {
				st.held = append(st.held, l)
			}
		case "release":
			l := [2]node.ID{x.Node, x.To}
			st.held = slices.DeleteFunc(st.held, func(h [2]node.ID) bool { return h == l })
		case "swizzle":
			st.swizzleTo = max(st.swizzleTo, a.At+x.For)
		case "gst":
			st.sync = true
		case netsim.Restore(0).Action.Verb:
			st = netState{sync: true, loss: n.Loss, dup: n.Dup}
		case "set":
			switch x.Knob {
			case "loss":
				st.loss, st.lossSet = x.Value, true
			case "dup":
				st.dup, st.dupSet = x.Value, true
			}
		}
		mark(a.At, was)
	}
	if !st.sync && n.GST > 0 && n.GST <= at {
		st.sync = true
		mark(n.GST, true)
	}
	if st.swizzleTo > at {
		whole = -1
	}
	return st, whole
}

func addNode(ids []node.ID, id node.ID) []node.ID {
	if slices.Contains(ids, id) {
		return ids
	}
	return append(ids, id)
}

// brokenAt reports whether the actions of v's script leave a fault standing at
// time at: what the end of every fault there repairs (see netsim's restore).
func (b *Base) brokenAt(v *Variant, script []netsim.Timed, at time.Duration) bool {
	n := b.Config.Net
	v.Net.apply(&n)
	st, _ := b.stateAt(v, script, at)
	return len(st.down) > 0 || len(st.slow) > 0 || st.cut || len(st.held) > 0 || st.swizzleTo > at || !st.sync ||
		st.lossSet && st.loss != n.Loss || st.dupSet && st.dup != n.Dup
}
