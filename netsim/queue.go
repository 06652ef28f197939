package netsim

import (
	"time"

	"github.com/clusterlab/clusterlab/node"
)

type qkind uint8

const (
	qStart qkind = iota + 1
	qRecover
	qDeliver
	qRequest
)

// qev is an event waiting in the world's event queue: anything but a timer firing,
// which waits in the timer queue.
type qev struct {
	at    time.Duration
	seq   uint64
	kind  qkind
	local bool // a process's delivery to itself
	dup   bool
	to    int32 // process index
	from  int32
	inc   uint32 // the incarnation it is addressed to
	mid   uint64
	name  string // request, or the reason of a drop on arrival
	msg   node.Message
}

// hkey is a heap entry: the order key and where the event lives.
type hkey struct {
	at   time.Duration
	seq  uint64
	slot int32
}

func (a *hkey) before(b *hkey) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// The queues are 4-ary heaps: half as deep as binary ones, and the four children
// of a node share a cache line or two, which matters once they hold millions.
const arity = 4

// heap4 is a 4-ary min-heap of keys. With track set it keeps every slot's index in
// pos (the timer queue moves a re-armed timer in place).
type heap4 struct {
	keys  []hkey
	track bool
	pos   []int32 // slot → index in keys, when tracked
}

func (h *heap4) set(i int, k hkey) {
	h.keys[i] = k
	if h.track {
		h.pos[k.slot] = int32(i)
	}
}

func (h *heap4) push(k hkey) {
	h.keys = append(h.keys, k)
	h.up(len(h.keys)-1, k)
}

// up moves k, which belongs at index i, towards the root; it reports whether k moved.
func (h *heap4) up(i int, k hkey) bool {
	start := i
	for i > 0 {
		p := (i - 1) / arity
		if !k.before(&h.keys[p]) {
			break
		}
		h.set(i, h.keys[p])
		i = p
	}
	h.set(i, k)
	return i != start
}

// down moves k, which belongs at index i, towards the leaves.
func (h *heap4) down(i int, k hkey) {
	keys := h.keys
	n := len(keys)
	for {
		c := arity*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < c+arity && j < n; j++ {
			if keys[j].before(&keys[m]) {
				m = j
			}
		}
		if !keys[m].before(&k) {
			break
		}
		h.set(i, keys[m])
		i = m
	}
	h.set(i, k)
}

// remove takes out the key at index i.
func (h *heap4) remove(i int) {
	n := len(h.keys) - 1
	last := h.keys[n]
	h.keys = h.keys[:n]
	if i == n {
		return
	}
	if !h.up(i, last) {
		h.down(i, last)
	}
}

// fix restores the order after keys changed anywhere.
func (h *heap4) fix() {
	if len(h.keys) < 2 {
		return
	}
	for i := (len(h.keys) - 2) / arity; i >= 0; i-- {
		h.down(i, h.keys[i])
	}
}

// queue orders the events that are not timer firings by (time, sequence). Events
// live in a slab and the heap holds small keys, so sifting moves 24 bytes, not
// whole events. Nothing in it ever moves, so it keeps no positions.
type queue struct {
	h heap4
	slots[qev]
}

// slots hold a queue's entries where they never move, so that its heap can sift
// small keys; a freed slot is reused before the slab grows.
type slots[T any] struct {
	slab []T
	free []int32
}

// put stores v and returns its slot, and whether the slab grew for it.
func (p *slots[T]) put(v T) (s int32, grew bool) {
	if n := len(p.free); n > 0 {
		s = p.free[n-1]
		p.free = p.free[:n-1]
		p.slab[s] = v
		return s, false
	}
	p.slab = append(p.slab, v)
	return int32(len(p.slab) - 1), true
}

func (q *queue) len() int { return len(q.h.keys) }

// headKey is the next event's key.
func (q *queue) headKey() *hkey { return &q.h.keys[0] }

func (q *queue) push(e qev) {
	s, _ := q.put(e)
	q.h.push(hkey{e.at, e.seq, s})
}

// pop takes the next event.
func (q *queue) pop() qev {
	s := q.h.keys[0].slot
	e := q.slab[s]
	q.h.remove(0)
	q.slab[s] = qev{}
	q.free = append(q.free, s)
	if n := len(q.h.keys); cap(q.slab) > compactAbove && n < cap(q.slab)/4 {
		q.compact()
	}
	return e
}

// compactAbove is the slab size, in events, above which a queue that has emptied to
// a quarter of it is compacted: a burst (every process broadcasting at Start) must
// not keep its memory for the rest of the run.
const compactAbove = 1 << 16

// compact moves the queued events to a new slab just big enough for them (and as
// many again), renumbering their slots. Nothing outside the queue holds a slot.
func (q *queue) compact() {
	n := len(q.h.keys)
	slab := make([]qev, n, 2*n)
	keys := make([]hkey, n, 2*n)
	for i, k := range q.h.keys {
		slab[i] = q.slab[k.slot]
		k.slot = int32(i)
		keys[i] = k
	}
	q.slab, q.h.keys, q.free = slab, keys, nil
}

// each calls f on every queued event; f may change its time, after which fix must
// be called.
func (q *queue) each(f func(*qev)) {
	for _, k := range q.h.keys {
		f(&q.slab[k.slot])
	}
}

// fix restores the order after each changed times.
func (q *queue) fix() {
	for i := range q.h.keys {
		k := &q.h.keys[i]
		e := &q.slab[k.slot]
		k.at, k.seq = e.at, e.seq
	}
	q.h.fix()
}

// tev is a queued timer firing: 16 bytes, plus its 24-byte key.
type tev struct {
	proc int32
	id   int32  // the timer's id in the process's Env
	gen  uint32 // the firing's generation
	inc  uint32 // the incarnation that armed it
}

// timerQueue orders timer firings by (time, sequence). A process re-arms a timer
// far more often than it fires (a heartbeat detector re-arms one per message), so
// a queued firing is moved in place, which needs its position in the heap.
type timerQueue struct {
	h heap4 // tracked
	slots[tev]
}

func (q *timerQueue) len() int { return len(q.h.keys) }

func (q *timerQueue) headKey() *hkey { return &q.h.keys[0] }

// push queues a firing and returns its slot.
func (q *timerQueue) push(at time.Duration, seq uint64, t tev) int32 {
	s, grew := q.put(t)
	if grew {
		q.h.pos = append(q.h.pos, 0)
	}
	q.h.push(hkey{at, seq, s})
	return s
}

// pop takes the next firing, and says which slot it had.
func (q *timerQueue) pop() (time.Duration, uint64, tev, int32) {
	k := q.h.keys[0]
	t := q.slab[k.slot]
	q.h.remove(0)
	q.h.pos[k.slot] = -1
	q.free = append(q.free, k.slot)
	return k.at, k.seq, t, k.slot
}

// move gives the firing in slot s a new time, sequence number and generation.
func (q *timerQueue) move(s int32, at time.Duration, seq uint64, gen uint32) {
	q.slab[s].gen = gen
	i := int(q.h.pos[s])
	k := hkey{at, seq, s}
	if !q.h.up(i, k) {
		q.h.down(i, k)
	}
}
