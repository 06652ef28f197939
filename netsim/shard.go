package netsim

import (
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// The events waiting for the processes are kept in shards, each the queue and the
// timer queue of some of the processes (every other one, by index), so that a big
// window's events can be taken from the queues by two goroutines at once, each
// filling the batches of its own processes: the world's, and the inserter's, which
// has nothing to do between merges. Taking a 1,000-node mesh's heartbeats off the
// queue, a memory read or two each from the slab's pages, was a third of the
// world's goroutine's time once the inserter took the merges' writes.
//
// Each shard's events are taken in (time, sequence) order, and its order lists the
// processes whose items they are; the merge walks the shards' orders side by side,
// and so applies the outcomes in the world's order whichever goroutine took the
// events, or in which order the shards were taken. A small world has one shard.
type shard struct {
	q      queue      // every event but timer firings
	tq     timerQueue // timer firings
	order  []int32    // the window's items' processes, in the order they were taken
	next   int        // the merge's cursor into order
	drops  []qev      // the window's deliveries dropped on arrival
	active []*proc    // the window's processes with work
	// The window's deliveries by message type, in stretches of one type: counted
	// as they are taken, by whichever goroutine takes them, and added to the
	// world's counts after the merge (which only read them between windows).
	delivered []typeRun
}

// typeRun is a number of deliveries of one message type.
type typeRun struct {
	typ string
	n   int
}

// addDelivered adds the window's deliveries to c.
func (sh *shard) addDelivered(c *counts) {
	for _, r := range sh.delivered {
		c.get(r.typ).Delivered += r.n
	}
	clear(sh.delivered) // they hold strings
	sh.delivered = sh.delivered[:0]
}

// shardFrom is the number of processes from which a world has two shards: smaller
// worlds' windows are too small for a second goroutine to take half of them. (A
// variable for the tests, which give small worlds shards.)
var shardFrom = 128

// shardOf is the shard of the process with index i.
func (w *World) shardOf(i int32) *shard { return &w.shards[int(i)&(len(w.shards)-1)] }

// pending is the number of queued events, timer firings included.
func (w *World) queued() int {
	n := 0
	for i := range w.shards {
		n += w.shards[i].q.len() + w.shards[i].tq.len()
	}
	return n
}

// headOf is the key of the shard's next event or timer firing, or nil, and
// whether it is a timer firing.
func (sh *shard) head() (*hkey, bool) {
	switch {
	case sh.q.len() == 0 && sh.tq.len() == 0:
		return nil, false
	case sh.q.len() == 0:
		return sh.tq.headKey(), true
	case sh.tq.len() == 0:
		return sh.q.headKey(), false
	}
	if a, b := sh.q.headKey(), sh.tq.headKey(); b.before(a) {
		return b, true
	}
	return sh.q.headKey(), false
}

// head is the key of the next event or timer firing of all, or nil, with its shard
// and whether it is a timer firing.
func (w *World) head() (*hkey, *shard, bool) {
	var k *hkey
	var at *shard
	timer := false
	for i := range w.shards {
		sh := &w.shards[i]
		if h, t := sh.head(); h != nil && (k == nil || h.before(k)) {
			k, at, timer = h, sh, t
		}
	}
	return k, at, timer
}

// take takes the shard's next event (a timer firing if timer), and returns the
// process it is work for and its item, or nil when it is none (a drop on arrival,
// kept in the shard's drops, or a firing for a dead incarnation).
func (w *World) take(sh *shard, timer bool) (*proc, node.Item) {
	if timer {
		at, seq, t, slot := sh.tq.pop()
		w.forgetTimer(&t, slot)
		if p := w.procs[t.proc]; p.up && p.inc == t.inc {
			return p, node.Item{At: at, Seq: seq, Gen: t.gen, Timer: t.id, Ev: node.Event{Kind: node.Timer, Name: p.env.TimerName(t.id)}}
		}
		return nil, node.Item{}
	}
	e := sh.q.pop()
	if p := w.classify(sh, &e); p != nil {
		return p, w.item(&e)
	}
	return nil, node.Item{}
}

// hand adds an item to its process's batch, in the shard's order, and counts it
// if it is a delivery from another process: each item has an outcome (only a
// stale timer's firing has none), which the merge applies unless the window runs
// out of budget.
func (sh *shard) hand(p *proc, it node.Item) {
	if len(p.batch.Items) == 0 {
		sh.active = append(sh.active, p)
	}
	if it.Ev.Kind == node.Deliver && it.Ev.From != p.id {
		if n := len(sh.delivered); n > 0 && sh.delivered[n-1].typ == it.Ev.Msg.Type {
			sh.delivered[n-1].n++
		} else {
			sh.delivered = append(sh.delivered, typeRun{it.Ev.Msg.Type, 1})
		}
	}
	p.batch.Items = append(p.batch.Items, it)
	sh.order = append(sh.order, int32(p.idx))
}

// takeWindow takes every event of the shard before end (or at t0, when end is t0)
// into its processes' batches. It touches nothing but the shard, its processes'
// batches and timers, and what it reads of the world: two goroutines may take two
// shards at once.
func (w *World) takeWindow(sh *shard, t0, end time.Duration) {
	for {
		h, timer := sh.head()
		if h == nil || !(h.at < end || h.at == t0) {
			return
		}
		if p, it := w.take(sh, timer); p != nil {
			sh.hand(p, it)
		}
	}
}

// takeShards takes the window [t0, end) from every shard: the second by the
// inserter's goroutine while the world takes the first, when there is a second
// processor and enough events to share. (Which goroutine takes a shard, and in
// which order the shards are taken, changes nothing: see shard.)
func (w *World) takeShards(t0, end time.Duration, n int) {
	if len(w.shards) > 1 && n >= shareFrom && w.twoProcs() {
		w.shared++
		w.startHelper()
		w.ins.take(func() { w.takeWindow(&w.shards[1], t0, end) })
		w.takeWindow(&w.shards[0], t0, end)
		w.ins.wait()
		return
	}
	for i := range w.shards {
		w.takeWindow(&w.shards[i], t0, end)
	}
}

// shareFrom is how many events a window has at least, for its shards to be taken by
// two goroutines: a hand-over wakes the inserter's goroutine on the other core. (A
// variable for the tests.)
var shareFrom = 4096

// plan is where a window from t0 that may go up to end stops, and about how many
// events it takes: at the first microsecond at which it would take more than
// windowCap events, unless that is its first (a bigger instant is taken whole). It
// counts each microsecond's events on the wheels, and the others (far off when
// they were queued, and timer firings) one by one. A world with fewer than
// shareFrom events queued has its window taken by one goroutine, whatever its
// size: plan does not count them.
func (w *World) plan(t0, end time.Duration) (time.Duration, int) {
	total := w.queued()
	if total < min(shareFrom, windowCap) {
		return end, total
	}
	upTo := end // the events before it are counted
	if end <= t0 {
		upTo = t0 + 1 // a window of the instant t0 alone
	}
	extra := w.planned[:0]
	for i := range w.shards {
		sh := &w.shards[i]
		extra = sh.q.far.below(upTo, windowCap, extra)
		extra = sh.tq.h.below(upTo, windowCap, extra)
	}
	slices.Sort(extra)
	w.planned = extra
	n, j := 0, 0
	last := bucketOf(upTo - 1)
	for b := bucketOf(t0); ; {
		// The next microsecond with an event: on a wheel, or among the others.
		next := int64(-1)
		for i := range w.shards {
			if nb := w.shards[i].q.wheel.next(b); nb >= 0 && (next < 0 || nb < next) {
				next = nb
			}
		}
		if j < len(extra) && (next < 0 || bucketOf(extra[j]) < next) {
			next = bucketOf(extra[j])
		}
		if next < 0 || next > last {
			return end, n
		}
		c := 0
		for i := range w.shards {
			c += w.shards[i].q.wheel.countAt(next)
		}
		for ; j < len(extra) && bucketOf(extra[j]) == next; j++ {
			c++
		}
		if n+c > windowCap && n > 0 && end > t0 {
			w.capped++
			return time.Duration(next) * time.Microsecond, n
		}
		n += c
		b = next + 1
	}
}

// below appends the times of the heap's keys before end to out, up to limit of
// them: the keys before end are a subtree at the root.
func (h *heap4) below(end time.Duration, limit int, out []time.Duration) []time.Duration {
	if len(h.keys) == 0 || h.keys[0].at >= end {
		return out
	}
	stack := []int{0}
	for len(stack) > 0 && len(out) < limit {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, h.keys[i].at)
		for c := arity*i + 1; c < arity*i+1+arity && c < len(h.keys); c++ {
			if h.keys[c].at < end {
				stack = append(stack, c)
			}
		}
	}
	return out
}
