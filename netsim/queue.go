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

// queue is a binary heap ordered by (time, sequence). It is written out rather than
// built on container/heap to keep events out of interfaces on the hot path.
type queue []qev

func (q *queue) push(e qev) {
	*q = append(*q, e)
	h := *q
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].before(&h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *queue) pop() qev {
	h := *q
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h[n] = qev{}
	h = h[:n]
	*q = h
	q.down(0)
	return top
}

func (q queue) down(i int) {
	n := len(q)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && q[r].before(&q[l]) {
			m = r
		}
		if !q[m].before(&q[i]) {
			return
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
}

// fix restores the heap after arbitrary changes of times.
func (q queue) fix() {
	for i := len(q)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}
