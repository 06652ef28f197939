package netsim

import (
	"math/bits"
	"slices"
	"sync"
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
// which waits in the timer queue. The queue keeps it packed (pev).
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
	name  string // a request's name
	msg   node.Message
}

// pev is a qev as the queue stores it: 48 bytes and no pointers, where a qev takes
// 120 with three. What a message says (its type, fields and List) waits in a body
// that the deliveries of one broadcast share; a request's name is interned to a
// small number. A storm, or a large mesh's heartbeat wave, holds millions of these,
// and the garbage collector never has to look inside them.
type pev struct {
	at    time.Duration
	seq   uint64
	mid   uint64
	to    int32
	from  int32
	inc   uint32
	body  int32 // the message's body slot in queue.bodies, or a request's interned name
	next  int32 // the next event of the same wheel bucket, or -1
	kind  qkind
	local bool
	dup   bool
}

// body is a queued message's content, shared by the deliveries of one broadcast
// (and by any run of sends of the same message): refs counts them.
type body struct {
	id    node.ID
	term  int64
	stamp int64
	typ   uint32 // interned
	list  int32  // the message's List: its slot in queue.lists + 1, or 0 if empty
	refs  int32
	flag  bool
}

func (a *pev) before(b *pev) bool { return earlier(a.at, a.seq, b.at, b.seq) }

// earlier is the world's order: by time, then by sequence number.
func earlier(at time.Duration, seq uint64, bt time.Duration, bseq uint64) bool {
	if at != bt {
		return at < bt
	}
	return seq < bseq
}

// hkey is a heap entry: the order key and where the event lives.
type hkey struct {
	at   time.Duration
	seq  uint64
	slot int32
}

func (a *hkey) before(b *hkey) bool { return earlier(a.at, a.seq, b.at, b.seq) }

// The heaps are 4-ary: half as deep as binary ones, and the four children of a node
// share a cache line or two, which matters once they hold millions.
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

// slots hold a queue's entries where they never move, so that its heap can sift
// small keys; a freed slot is reused before the slab grows. The slab is a list of
// fixed pages, not one slice: a slice that grows by appending is copied, and for
// that moment held twice, which for the 16.8 million messages a 4,096-node mesh
// has in flight at once is a gigabyte more.
type slots[T any] struct {
	pages [][]T
	n     int32 // slots handed out: the next new one
	free  []int32
	pool  *sync.Pool // where pages come from and go back to when the queue is released, if set
}

// pageBits sets a page's size: 4,096 entries, 192 kB of queued messages.
const (
	pageBits = 12
	pageSize = 1 << pageBits
	pageMask = pageSize - 1
)

// at is the entry in slot s.
func (p *slots[T]) at(s int32) *T { return &p.pages[s>>pageBits][s&pageMask] }

// capacity is how many entries the pages hold.
func (p *slots[T]) capacity() int { return len(p.pages) << pageBits }

// put stores v and returns its slot, and whether the slab grew for it.
func (p *slots[T]) put(v T) (s int32, grew bool) {
	if n := len(p.free); n > 0 {
		s = p.free[n-1]
		p.free = p.free[:n-1]
		*p.at(s) = v
		return s, false
	}
	s = p.n
	if int(s) == p.capacity() {
		p.pages = append(p.pages, p.page())
	}
	p.n++
	*p.at(s) = v
	return s, true
}

// take returns the value in slot s and frees the slot.
func (p *slots[T]) take(s int32) T {
	e := p.at(s)
	v := *e
	var zero T
	*e = zero
	p.free = append(p.free, s)
	return v
}

// page is a new page, from the pool when there is one. A page from the pool holds
// old entries: put overwrites an entry whole before anything reads it.
func (p *slots[T]) page() []T {
	if p.pool != nil {
		if pg, ok := p.pool.Get().(*[]T); ok {
			return *pg
		}
	}
	return make([]T, pageSize)
}

// reset empties the slots and lets go of their memory.
func (p *slots[T]) reset() { *p = slots[T]{pool: p.pool} }

// pooledPages is how many pages a queue gives back when it is released: enough for
// the small worlds that follow one another by the thousand (a sweep's), while a big
// world's pages go to the garbage collector. Pooled pages count as live until two
// collections pass, and a mesh's thousands of pages kept so would raise the heap
// goals that follow.
const pooledPages = 8

// release empties the slots and gives their first pages to the pool, if set.
func (p *slots[T]) release() {
	if p.pool != nil {
		for _, pg := range p.pages[:min(len(p.pages), pooledPages)] {
			p.pool.Put(&pg)
		}
	}
	p.reset()
}

// interner numbers strings: a run uses a handful of message types and request
// names, over and over.
type interner struct {
	names []string
	ids   map[string]uint32 // looked up, never iterated
	// The last string numbered: messages come in long stretches of one type, and
	// two equal strings from one constant compare by pointer.
	last   string
	lastID uint32
}

func (t *interner) id(s string) uint32 {
	if s == t.last && t.names != nil {
		return t.lastID
	}
	id, ok := t.ids[s]
	if !ok {
		if t.ids == nil {
			t.ids = map[string]uint32{}
		}
		id = uint32(len(t.names))
		t.ids[s] = id
		t.names = append(t.names, s)
	}
	t.last, t.lastID = s, id
	return id
}

func (t *interner) name(id uint32) string { return t.names[id] }

// The queue orders the events that are not timer firings by (time, sequence). Most
// events are due within a few tens of milliseconds, and those wait on a timing
// wheel: one bucket per microsecond, each a list in (time, sequence) order, and a
// bitmap of the buckets in use. Pushing and popping cost a few steps whatever the
// queue holds, where a heap of a million events costs forty comparisons. Events
// outside the wheel's span (far ahead, or before its cursor) wait in a heap; the
// head of the queue is the earlier of the two heads.
//
// A bucket stays in order without sorting: the world numbers events in the order
// it pushes them, so an event pushed later at the same time comes later. An event
// at a time that is not a whole microsecond may land before others in its bucket,
// and is inserted in its place.
//
// The wheel's events are stored by chunks of chunkSize consecutive slots, each
// filled by one bucket, so that a bucket's events, taken one after another, lie
// side by side in memory: a 1,000-node mesh holds a million events, and with each
// one wherever a slot was free, finding the next event was a cache miss per event,
// a quarter of the run (BenchmarkWorldMesh1000: 1.45 → 1.9 M msgs/s). A bucket's
// first event goes to a chunk that first events share: most buckets of a small
// world hold one event, and a chunk each would spread them eight times as thin. The
// far heap's events, taken in an order their slots do not follow, have slots of
// their own.
type queue struct {
	slots[pev]            // the wheel's events, by chunks
	chunks     []uint8    // per chunk: its events, and chunkOpen while its bucket fills it
	freeCh     []int32    // chunks with no event, not open
	firsts     int32      // the next slot of the chunk that buckets' first events fill, or -1
	farSlots   slots[pev] // the far heap's events
	far        heap4
	wheel      wheel
	n          int
	strs       interner
	bodies     slots[body]
	last       int32 // the body of the last message queued, + 1, while it is queued
	lists      slots[node.IDList]

	cur      hkey // the head, when known
	curWheel bool // whether the head is on the wheel
	known    bool
	low      bool          // the queue holds under a quarter of its slab…
	lowSince time.Duration // …since then
}

// wheelBits sets the wheel's span: 2¹⁶ buckets of a microsecond, 65 ms, longer than
// most links' delays. Its arrays take 780 kB.
const (
	wheelBits = 16
	wheelSize = 1 << wheelBits
	wheelMask = wheelSize - 1
)

type wheel struct {
	head, tail []int32 // each bucket's first and last slot, when in use
	fill       []int32 // each bucket's next slot in the chunk it fills, when in use (see wheelSlot)
	count      []int32 // each bucket's events, when in use (for World.plan)
	used       []uint64
	summary    []uint64 // bit i: used[i] != 0
	base       int64    // the cursor: the bucket (µs) of the earliest event that may be on the wheel
	n          int
}

// Closed worlds give their queues' memory back for the next world to take: a
// sweep makes thousands of small worlds one after another, and allocating and
// zeroing a wheel (520 kB) and the first pages of events and bodies (350 kB) was
// most of what each small world allocated (ring-complexity: 37 of 90 MB a sweep
// for the wheels alone), work and memory traffic that two jobs shared. What is
// reused never changes what a run does: a wheel comes back with no bucket in use,
// and an entry of a page is written whole before it is read. The pages of lists,
// which hold strings, are not pooled, so that nothing pooled keeps memory alive.
var (
	wheelPool, pevPages, bodyPages, tevPages sync.Pool
)

// wheelArrays are a wheel's arrays, as pooled.
type wheelArrays struct {
	head, tail, fill, count []int32
	used, summary           []uint64
}

// alloc gives the wheel its arrays, from the pool when it has some. head, tail,
// fill and count are read only for the buckets marked in used, so they need no
// zeroing.
func (w *wheel) alloc() {
	a, ok := wheelPool.Get().(*wheelArrays)
	if !ok {
		a = &wheelArrays{make([]int32, wheelSize), make([]int32, wheelSize), make([]int32, wheelSize), make([]int32, wheelSize), make([]uint64, wheelSize/64), make([]uint64, wheelSize/64/64)}
	}
	w.head, w.tail, w.fill, w.count, w.used, w.summary = a.head, a.tail, a.fill, a.count, a.used, a.summary
}

// pooled makes the queue take its pages from the pools and give them back on release.
func (q *queue) pooled() {
	q.slots.pool, q.farSlots.pool, q.bodies.pool = &pevPages, &pevPages, &bodyPages
}

// release empties the queue and gives its memory to the pools.
func (q *queue) release() {
	q.slots.release()
	q.farSlots.release()
	q.bodies.release()
	if w := &q.wheel; w.head != nil {
		clear(w.used)
		clear(w.summary)
		wheelPool.Put(&wheelArrays{w.head, w.tail, w.fill, w.count, w.used, w.summary})
	}
	*q = queue{}
}

// A chunk is chunkSize consecutive slots of the wheel's slab (a page holds a whole
// number of them). chunkOpen marks a chunk that its bucket still fills; the rest of
// its count is its events. A chunk neither open nor holding an event is free.
const (
	chunkBits = 3
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
	chunkOpen = 0x80
)

// newChunk opens a free chunk and returns its first slot.
func (q *queue) newChunk() int32 {
	var c int32
	if n := len(q.freeCh); n > 0 {
		c = q.freeCh[n-1]
		q.freeCh = q.freeCh[:n-1]
	} else {
		c = int32(len(q.chunks))
		q.chunks = append(q.chunks, 0)
		if int(c+1)<<chunkBits > q.slots.capacity() {
			q.slots.pages = append(q.slots.pages, q.slots.page())
		}
	}
	q.chunks[c] = chunkOpen
	return c << chunkBits
}

// wheelSlot is the slot for a new event of the bucket whose fill is given: the
// next one of the chunk it fills, or the first of a new chunk. fill holds the slot
// after the last one taken, which is a chunk's first slot once that chunk is full,
// or -1 when the bucket has no chunk.
func (q *queue) wheelSlot(fill *int32) int32 {
	s := *fill
	if s < 0 || s&chunkMask == 0 {
		s = q.newChunk()
	}
	c := s >> chunkBits
	q.chunks[c]++
	*fill = s + 1
	if (s+1)&chunkMask == 0 {
		q.chunks[c] &^= chunkOpen // full
	}
	return s
}

// closeFill ends the filling of a bucket's chunk: the bucket is empty, and the
// next event at its index (a later time) starts a chunk of its own.
func (q *queue) closeFill(fill *int32) {
	if s := *fill; s >= 0 && s&chunkMask != 0 {
		c := s >> chunkBits
		if q.chunks[c] &^= chunkOpen; q.chunks[c] == 0 {
			q.freeCh = append(q.freeCh, c)
		}
	}
	*fill = -1
}

// takeWheel returns the wheel's event in slot s and frees the slot: its chunk is
// free once it holds no event and is no longer filled.
func (q *queue) takeWheel(s int32) pev {
	v := *q.at(s) // a pev holds no pointer: the slot needs no clearing
	c := s >> chunkBits
	if q.chunks[c]--; q.chunks[c] == 0 {
		q.freeCh = append(q.freeCh, c)
	}
	return v
}

// room is how many events the slabs hold.
func (q *queue) room() int { return q.slots.capacity() + q.farSlots.capacity() }

func (q *queue) len() int { return q.n }

// bucketOf is the wheel bucket (the microsecond) of time at.
func bucketOf(at time.Duration) int64 { return int64(at / time.Microsecond) }

func (q *queue) push(e qev) { q.insert(q.pack(&e)) }

// pack is e as the queue stores it, its message's body or request's name interned.
func (q *queue) pack(e *qev) pev {
	p := pev{at: e.at, seq: e.seq, mid: e.mid, to: e.to, from: e.from, inc: e.inc, kind: e.kind, local: e.local, dup: e.dup, next: -1}
	switch e.kind {
	case qRequest:
		p.body = int32(q.strs.id(e.name))
	case qDeliver:
		p.body = q.bodyOf(&e.msg)
	}
	return p
}

// bodyOf is the body slot for a message being queued: the last one's when it says
// the same (a broadcast queues one message many times over), else a new one.
func (q *queue) bodyOf(m *node.Message) int32 {
	typ := q.strs.id(m.Type)
	if q.last > 0 && m.List == "" {
		b := q.bodies.at(q.last - 1)
		if b.typ == typ && b.id == m.ID && b.term == m.Term && b.stamp == m.Stamp && b.flag == m.Flag && b.list == 0 {
			b.refs++
			return q.last - 1
		}
	}
	b := body{id: m.ID, term: m.Term, stamp: m.Stamp, typ: typ, flag: m.Flag, refs: 1}
	if m.List != "" {
		s, _ := q.lists.put(m.List)
		b.list = s + 1
	}
	s, _ := q.bodies.put(b)
	q.last = s + 1
	return s
}

// message gives back a queued delivery's message, and lets go of its body when it
// was the last delivery to share it.
func (q *queue) message(p *pev) node.Message {
	b := q.bodies.at(p.body)
	m := node.Message{Type: q.strs.name(b.typ), ID: b.id, Term: b.term, Stamp: b.stamp, Flag: b.flag}
	if b.refs--; b.refs > 0 {
		if b.list > 0 {
			m.List = *q.lists.at(b.list - 1)
		}
		return m
	}
	if b.list > 0 {
		m.List = q.lists.take(b.list - 1)
	}
	q.bodies.take(p.body)
	if q.last == p.body+1 {
		q.last = 0
	}
	return m
}

// insert queues a packed event.
func (q *queue) insert(p pev) {
	q.n++
	if q.known && earlier(p.at, p.seq, q.cur.at, q.cur.seq) {
		q.known = false
	}
	if 4*q.n >= q.room() {
		q.low = false
	}
	w := &q.wheel
	b := bucketOf(p.at)
	if b < w.base || b >= w.base+wheelSize {
		s, _ := q.farSlots.put(p)
		q.far.push(hkey{p.at, p.seq, s})
		return
	}
	if w.head == nil {
		w.alloc()
	}
	w.n++
	i := int(b & wheelMask)
	if w.used[i>>6]&(1<<(i&63)) == 0 {
		w.used[i>>6] |= 1 << (i & 63)
		w.summary[i>>12] |= 1 << ((i >> 6) & 63)
		w.fill[i] = -1 // left from an earlier time at this index, or from the pool
		w.count[i] = 1
		s := q.wheelSlot(&q.firsts)
		*q.at(s) = p
		w.head[i], w.tail[i] = s, s
		return
	}
	w.count[i]++
	s := q.wheelSlot(&w.fill[i])
	*q.at(s) = p
	if t := w.tail[i]; !p.before(q.at(t)) {
		q.at(t).next = s
		w.tail[i] = s
		return
	}
	if h := w.head[i]; p.before(q.at(h)) {
		q.at(s).next = h
		w.head[i] = s
		return
	}
	prev := w.head[i]
	for nx := q.at(prev).next; nx >= 0 && !p.before(q.at(nx)); nx = q.at(prev).next {
		prev = nx
	}
	q.at(s).next = q.at(prev).next
	q.at(prev).next = s
}

// advance tells the queue that nothing will be pushed before now: an empty wheel
// moves its span there, or a run whose queue holds nothing but timers for a while
// would find every new event beyond the span.
func (q *queue) advance(now time.Duration) {
	if w := &q.wheel; w.n == 0 {
		w.base = max(w.base, bucketOf(now))
	}
}

// find is the first bucket in use at or after index i (of the wheel's arrays), or -1.
func (w *wheel) find(i int) int {
	if i >= wheelSize {
		return -1
	}
	wi := i >> 6
	if m := w.used[wi] & (^uint64(0) << (i & 63)); m != 0 {
		return wi<<6 + bits.TrailingZeros64(m)
	}
	wi++
	if wi >= len(w.used) {
		return -1
	}
	si := wi >> 6
	m := w.summary[si] & (^uint64(0) << (wi & 63))
	for m == 0 {
		si++
		if si >= len(w.summary) {
			return -1
		}
		m = w.summary[si]
	}
	wi = si<<6 + bits.TrailingZeros64(m)
	return wi<<6 + bits.TrailingZeros64(w.used[wi])
}

// first is the wheel's earliest bucket in use, as an index of its arrays; the wheel
// must not be empty. It moves the cursor there: nothing earlier is on the wheel.
func (w *wheel) first() int {
	start := int(w.base & wheelMask)
	i := w.find(start)
	if i < 0 {
		i = w.find(0)
	}
	w.base += int64((i - start) & wheelMask)
	return i
}

// next is the first microsecond at or after b that has events on the wheel, or -1.
func (w *wheel) next(b int64) int64 {
	if w.n == 0 || b >= w.base+wheelSize {
		return -1
	}
	b = max(b, w.base)
	start, i := int(w.base&wheelMask), int(b&wheelMask)
	if i >= start {
		// The arrays from the cursor's index to their end come first, then
		// those from 0 up to the cursor's.
		if j := w.find(i); j >= 0 {
			return w.base + int64(j-start)
		}
		i = 0
	}
	if j := w.find(i); j >= 0 && j < start {
		return w.base + int64(j+wheelSize-start)
	}
	return -1
}

// countAt is how many events the wheel holds at microsecond b.
func (w *wheel) countAt(b int64) int {
	if w.n == 0 || b < w.base || b >= w.base+wheelSize {
		return 0
	}
	i := int(b & wheelMask)
	if w.used[i>>6]&(1<<(i&63)) == 0 {
		return 0
	}
	return int(w.count[i])
}

// headKey is the next event's key; the queue must not be empty.
func (q *queue) headKey() *hkey {
	if q.known {
		return &q.cur
	}
	q.curWheel = false
	if q.wheel.n > 0 {
		s := q.wheel.head[q.wheel.first()]
		e := q.at(s)
		q.cur, q.curWheel = hkey{e.at, e.seq, s}, true
	}
	if len(q.far.keys) > 0 && (!q.curWheel || q.far.keys[0].before(&q.cur)) {
		q.cur, q.curWheel = q.far.keys[0], false
	}
	q.known = true
	return &q.cur
}

// pop takes the next event.
func (q *queue) pop() qev {
	k := *q.headKey()
	w := &q.wheel
	var p pev
	if q.curWheel {
		i := int(w.base & wheelMask)
		w.count[i]--
		if nx := q.at(k.slot).next; nx >= 0 {
			w.head[i] = nx
		} else {
			w.used[i>>6] &^= 1 << (i & 63)
			if w.used[i>>6] == 0 {
				w.summary[i>>12] &^= 1 << ((i >> 6) & 63)
			}
			q.closeFill(&w.fill[i])
		}
		w.n--
		p = q.takeWheel(k.slot)
	} else {
		q.far.remove(0)
		// The earliest event of all: nothing on the wheel is before it.
		if b := bucketOf(k.at); b > w.base {
			w.base = b
		}
		p = q.farSlots.take(k.slot)
	}
	q.known = false
	q.n--
	e := q.unpack(&p)
	q.shrink(p.at)
	return e
}

// unpack is a packed event taken from the queue, with its message or name.
func (q *queue) unpack(p *pev) qev {
	e := qev{at: p.at, seq: p.seq, kind: p.kind, local: p.local, dup: p.dup, to: p.to, from: p.from, inc: p.inc, mid: p.mid}
	switch p.kind {
	case qRequest:
		e.name = q.strs.name(uint32(p.body))
	case qDeliver:
		e.msg = q.message(p)
	}
	return e
}

// compactAbove is the slab size, in events, above which a queue that has held under
// a quarter of it for a second of virtual time is compacted: a burst (every process
// broadcasting at Start) must not keep its memory for the rest of the run, and a
// mesh whose heartbeat waves fill and drain the queue ten times a second must not
// give it back and grow it again every wave.
const compactAbove = 1 << 16

func (q *queue) shrink(now time.Duration) {
	if q.room() <= compactAbove || 4*q.n >= q.room() {
		return
	}
	switch {
	case !q.low:
		q.low, q.lowSince = true, now
	case now-q.lowSince >= time.Second:
		q.rebuild(func(*pev) {})
	}
}

// typeOf is the message type of a queued delivery.
func (q *queue) typeOf(p *pev) string { return q.strs.name(q.bodies.at(p.body).typ) }

// each calls f on every queued event, in no particular order.
func (q *queue) each(f func(*pev)) {
	for _, k := range q.far.keys {
		f(q.farSlots.at(k.slot))
	}
	w := &q.wheel
	if w.n == 0 {
		return
	}
	for i := w.find(0); i >= 0; i = w.find(i + 1) {
		for s := w.head[i]; ; s = q.at(s).next {
			f(q.at(s))
			if s == w.tail[i] {
				break
			}
		}
	}
}

// rebuild calls f on every queued event, which may change its time, then queues
// them all again in a new slab just big enough for them (and as many again). An
// event whose kind is 0 (see remove) is left out.
func (q *queue) rebuild(f func(*pev)) {
	all := make([]pev, 0, q.n)
	q.each(func(p *pev) {
		if p.kind == 0 {
			return
		}
		f(p)
		all = append(all, *p)
	})
	slices.SortFunc(all, func(a, b pev) int {
		switch {
		case a.before(&b):
			return -1
		case b.before(&a):
			return 1
		}
		return 0
	})
	base := q.wheel.base
	if len(all) > 0 {
		base = min(base, bucketOf(all[0].at))
	}
	head, tail, fill, count, used, summary := q.wheel.head, q.wheel.tail, q.wheel.fill, q.wheel.count, q.wheel.used, q.wheel.summary
	clear(used)
	clear(summary)
	q.wheel = wheel{head: head, tail: tail, fill: fill, count: count, used: used, summary: summary, base: base}
	q.slots.reset()
	q.farSlots.reset()
	q.chunks, q.freeCh, q.firsts = nil, nil, -1
	q.far.keys = make([]hkey, 0, len(all)/8)
	q.n, q.known, q.low = 0, false, false
	for i := range all {
		all[i].next = -1
		q.insert(all[i])
	}
}

// deliverBy brings every network delivery due after limit forward to limit.
func (q *queue) deliverBy(limit time.Duration) {
	q.rebuild(func(p *pev) {
		if p.kind == qDeliver && !p.local && p.at > limit {
			p.at = limit
		}
	})
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
	t := *q.at(k.slot)
	q.h.remove(0)
	q.h.pos[k.slot] = -1
	q.free = append(q.free, k.slot)
	return k.at, k.seq, t, k.slot
}

// due is when the firing in slot s is due, and its generation.
func (q *timerQueue) due(s int32) (time.Duration, uint32) {
	return q.h.keys[q.h.pos[s]].at, q.at(s).gen
}

// move gives the firing in slot s a new time, sequence number and generation.
func (q *timerQueue) move(s int32, at time.Duration, seq uint64, gen uint32) {
	q.at(s).gen = gen
	i := int(q.h.pos[s])
	k := hkey{at, seq, s}
	if !q.h.up(i, k) {
		q.h.down(i, k)
	}
}
