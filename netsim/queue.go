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
	qTimer
	qRequest
)

// qev is an event waiting in the world's queue.
type qev struct {
	at    time.Duration
	seq   uint64
	kind  qkind
	local bool // a process's delivery to itself
	dup   bool
	to    int32 // process index
	from  int32
	inc   uint32 // the incarnation it is addressed to
	gen   uint32 // timer generation
	mid   uint64
	name  string // timer name or request
	msg   node.Message
}

func (a *qev) before(b *qev) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// hkey is a heap entry: the order key and where the event lives.
type hkey struct {
	at   time.Duration
	seq  uint64
	slot int32
}

func (a hkey) before(b hkey) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// queue orders events by (time, sequence). Events live in a slab and the heap holds
// small keys, so sifting moves 24 bytes, not whole events; pos lets a re-armed timer
// be moved in place instead of leaving a stale copy behind.
type queue struct {
	heap []hkey
	slab []qev
	pos  []int32 // slot → heap index, -1 when free
	free []int32
}

func (q *queue) len() int { return len(q.heap) }

// head is the next event.
func (q *queue) head() *qev { return &q.slab[q.heap[0].slot] }

func (q *queue) push(e qev) int32 {
	var s int32
	if n := len(q.free); n > 0 {
		s = q.free[n-1]
		q.free = q.free[:n-1]
		q.slab[s] = e
	} else {
		s = int32(len(q.slab))
		q.slab = append(q.slab, e)
		q.pos = append(q.pos, 0)
	}
	q.heap = append(q.heap, hkey{e.at, e.seq, s})
	q.pos[s] = int32(len(q.heap) - 1)
	q.up(len(q.heap) - 1)
	return s
}

// pop takes the next event, and says which slot it had.
func (q *queue) pop() (qev, int32) {
	s := q.heap[0].slot
	e := q.slab[s]
	q.remove(0)
	q.slab[s] = qev{}
	q.pos[s] = -1
	q.free = append(q.free, s)
	return e, s
}

// move gives the event in slot s a new time and sequence number.
func (q *queue) move(s int32, at time.Duration, seq uint64) {
	q.slab[s].at, q.slab[s].seq = at, seq
	i := int(q.pos[s])
	q.heap[i].at, q.heap[i].seq = at, seq
	if !q.up(i) {
		q.down(i)
	}
}

func (q *queue) remove(i int) {
	n := len(q.heap) - 1
	if i != n {
		q.swap(i, n)
	}
	q.heap = q.heap[:n]
	if i < n && !q.up(i) {
		q.down(i)
	}
}

func (q *queue) swap(i, j int) {
	h := q.heap
	h[i], h[j] = h[j], h[i]
	q.pos[h[i].slot] = int32(i)
	q.pos[h[j].slot] = int32(j)
}

func (q *queue) up(i int) bool {
	moved := false
	for i > 0 {
		p := (i - 1) / 2
		if !q.heap[i].before(q.heap[p]) {
			break
		}
		q.swap(i, p)
		i = p
		moved = true
	}
	return moved
}

func (q *queue) down(i int) {
	h := q.heap
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h[r].before(h[l]) {
			m = r
		}
		if !h[m].before(h[i]) {
			return
		}
		q.swap(i, m)
		i = m
	}
}

// each calls f on every queued event; f may change its time, after which fix must
// be called.
func (q *queue) each(f func(*qev)) {
	for _, k := range q.heap {
		f(&q.slab[k.slot])
	}
}

// fix restores the order after each changed times.
func (q *queue) fix() {
	for i := range q.heap {
		e := &q.slab[q.heap[i].slot]
		q.heap[i].at, q.heap[i].seq = e.at, e.seq
	}
	for i := len(q.heap)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}
