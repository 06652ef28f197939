package tui

import (
	"time"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// csHold is the least wall time the dashboard draws a critical section it has
// seen, whatever the speed: a 50 ms hold at ×1 lasts a frame or two, and would
// otherwise be missed (issue 12 sampled 27 screens in 30 with every node
// released).
const csHold = 300 * time.Millisecond

// OpeningSpeed is the speed a live dashboard opens at when none is asked for:
// ×1, and ×0.25 for mutual exclusion, where a 50 ms critical section then lasts
// 200 ms of wall time (and is drawn for at least csHold).
func OpeningSpeed(family string) float64 {
	if family == "mutex" {
		return 0.25
	}
	return 1
}

// csLatch is a display latch: a critical section the dashboard has seen, or
// knows happened between two snapshots (the node's entries counter grew), is drawn
// until csHold of wall time has passed since it was first seen: as held while it
// is, then as just left. It changes what is drawn only, never the simulation or
// its trace. Wall times are handed in, so that tests give synthetic ones.
type csLatch struct {
	on      map[node.ID]latched
	entries map[node.ID]int64
	seq     uint64
}

// latched is one critical section being drawn.
type latched struct {
	until time.Time // wall time it is drawn until, at least
	since int64     // virtual time it was entered (µs), or -1 if unseen
	end   int64     // virtual time it was left (µs), or -1 while held or unknown
	left  bool      // the node has left it
}

// observe takes the snapshot s, seen at wall time now.
func (l *csLatch) observe(s *trace.Snapshot, now time.Time) {
	if s == nil || s.Info.Family != "mutex" {
		return
	}
	if l.on == nil || s.Seq < l.seq {
		// first use, or a replay went back: nothing seen so far holds
		l.on, l.entries = map[node.ID]latched{}, map[node.ID]int64{}
	}
	l.seq = s.Seq
	for _, n := range s.Nodes {
		e, hasE := n.Status.Counter("entries")
		prev, seen := l.entries[n.ID]
		if hasE {
			l.entries[n.ID] = e
		}
		cur, ok := l.on[n.ID]
		switch {
		case !n.Up:
			delete(l.on, n.ID)
		case n.Status.CS == node.CSHeld:
			if !ok || cur.left || (n.HeldSince >= 0 && cur.since >= 0 && cur.since != n.HeldSince) {
				l.on[n.ID] = latched{until: now.Add(csHold), since: n.HeldSince, end: -1}
			}
		case ok && !cur.left:
			if !now.Before(cur.until) {
				delete(l.on, n.ID) // held for long enough already
				continue
			}
			cur.left, cur.end = true, s.T
			l.on[n.ID] = cur
		case !ok && seen && hasE && e > prev:
			// it entered and left between two snapshots: draw it all the same
			l.on[n.ID] = latched{until: now.Add(csHold), since: -1, end: -1, left: true}
		}
	}
}

// expire forgets the critical sections left and drawn for long enough by now, and
// reports whether any was, so that the screen is drawn again.
func (l *csLatch) expire(now time.Time) bool {
	changed := false
	for id, c := range l.on {
		if c.left && !now.Before(c.until) {
			delete(l.on, id)
			changed = true
		}
	}
	return changed
}

// left lists the nodes whose critical section the screen still draws though they
// have left it, each with how long it was held (µs; -1 when it was never seen
// held). They are drawn as just left (◇, in a style of their own), never as held:
// two holders on screen must not look alike (issue 23: n2 "cs held 52ms" beside
// n4 "cs held 2ms" in the same bold yellow, n2 gone for 8 ms).
func (l *csLatch) left(s *trace.Snapshot) map[node.ID]int64 {
	if s == nil || len(l.on) == 0 {
		return nil
	}
	var out map[node.ID]int64
	for _, n := range s.Nodes {
		h, ok := l.on[n.ID]
		if !ok || !h.left || !n.Up || n.Status.CS == node.CSHeld {
			continue
		}
		if out == nil {
			out = map[node.ID]int64{}
		}
		out[n.ID] = -1
		if h.since >= 0 && h.end >= h.since {
			out[n.ID] = h.end - h.since
		}
	}
	return out
}
