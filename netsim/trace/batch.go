package trace

import (
	"slices"

	"github.com/clusterlab/clusterlab/node"
)

// Batch holds copies of events, and of what they point to, so that another
// goroutine can encode them while the world runs on: a sink's event is valid only
// during its call (see Sink), and encoding is most of what a recording costs. A
// copy is a few hundred bytes moved; encoding the line is several times that work.
//
// The copies' pointers (Msg, Status, its Suspects and Counters) point into the
// batch's own arrays, which Reset keeps for the next batch. An array that grows
// leaves the pointers taken before into the old one, which still holds the same
// values: nothing in a batch is written twice until Reset.
type Batch struct {
	evs   []Event
	msgs  []node.Message
	stats []node.Status
	ids   []node.ID
	ctrs  []node.Counter
}

// BatchEvents is how many events a Batch gathers before it is handed over: enough
// that handing over costs nothing per event, few enough that the copies stay in the
// cache until they are encoded. (BenchmarkTrace/record with 128 or 64 was 25 % and
// 80 % slower, the handovers' wake-ups; with 1,024 or 2,048, 5–10 % slower.)
const BatchEvents = 512

// BatchesQueued is how many full batches a recording or verify's re-run queues for
// the goroutine that encodes them, beyond the one it encodes: enough that the run
// seldom waits for it, few enough that the batches in flight stay in the caches.
// BenchmarkTrace/record, in wall time over the plain run, with 1, 2, 3, 4 and 8:
// 1.76–1.89×, 1.39–1.49×, 1.42–1.53×, 1.44–1.52× and 1.51–1.59×; verify with 2
// and 4: 1.58–1.71× and 1.63–1.83×.
const BatchesQueued = 2

// NewBatch is an empty batch with room for BatchEvents.
func NewBatch() *Batch {
	return &Batch{evs: make([]Event, 0, BatchEvents), msgs: make([]node.Message, 0, BatchEvents),
		stats: make([]node.Status, 0, BatchEvents/4)}
}

// Len is the number of events in the batch.
func (b *Batch) Len() int { return len(b.evs) }

// Full reports whether the batch has BatchEvents or more.
func (b *Batch) Full() bool { return len(b.evs) >= BatchEvents }

// Reset empties the batch, keeping its room.
func (b *Batch) Reset() {
	clear(b.evs) // drop what the copies point to outside the batch (strings, groups)
	b.evs, b.msgs, b.stats, b.ids, b.ctrs = b.evs[:0], b.msgs[:0], b.stats[:0], b.ids[:0], b.ctrs[:0]
}

// Add copies e into the batch.
func (b *Batch) Add(e *Event) {
	b.evs = append(b.evs, *e)
	c := &b.evs[len(b.evs)-1]
	if e.Msg != nil {
		b.msgs = append(b.msgs, *e.Msg) // its List is a string: shared, never changed
		c.Msg = &b.msgs[len(b.msgs)-1]
	}
	if e.Status != nil {
		b.stats = append(b.stats, *e.Status)
		s := &b.stats[len(b.stats)-1]
		if s.Suspects != nil {
			from := len(b.ids)
			b.ids = append(b.ids, s.Suspects...)
			s.Suspects = b.ids[from:len(b.ids):len(b.ids)]
		}
		if s.Counters != nil {
			from := len(b.ctrs)
			b.ctrs = append(b.ctrs, s.Counters...)
			s.Counters = b.ctrs[from:len(b.ctrs):len(b.ctrs)]
		}
		c.Status = s
	}
	// The rare kinds (partitions, expectations) are copied the simple way.
	if e.Groups != nil {
		c.Groups = make([][]node.ID, len(e.Groups))
		for i, g := range e.Groups {
			c.Groups[i] = slices.Clone(g)
		}
	}
	if e.OK != nil {
		ok := *e.OK
		c.OK = &ok
	}
}

// Fill adds a zero event to the batch and returns it, with room for its message,
// to be filled in place (see Filler) instead of copied by Add. The message is not
// zeroed: the caller sets it whole, or leaves the event without one.
func (b *Batch) Fill() (*Event, *node.Message) {
	// Grown, not appended to, so that nothing is written: past its length evs holds
	// zeros (Reset clears what it held, a new array is zero).
	b.evs = slices.Grow(b.evs, 1)[:len(b.evs)+1]
	b.msgs = slices.Grow(b.msgs, 1)[:len(b.msgs)+1]
	return &b.evs[len(b.evs)-1], &b.msgs[len(b.msgs)-1]
}

// Filled takes back the last event from Fill, set; an event without a message
// gives its room back.
func (b *Batch) Filled() {
	if b.evs[len(b.evs)-1].Msg == nil {
		b.msgs = b.msgs[:len(b.msgs)-1]
	}
}

// Encode appends the batch's lines to dst, in order, as enc writes them.
func (b *Batch) Encode(enc *Encoder, dst []byte) []byte {
	for i := range b.evs {
		dst = enc.Append(dst, &b.evs[i])
	}
	return dst
}

// Spares are batches that their consumer has encoded, kept for the producer to
// fill again: a recording hands over thousands of batches, and a few in turn
// serve them all. A full Spares drops a batch for the garbage collector.
type Spares chan *Batch

// NewSpares keeps up to n batches.
func NewSpares(n int) Spares { return make(Spares, n) }

// Get is a spare batch, or a new one.
func (s Spares) Get() *Batch {
	select {
	case b := <-s:
		return b
	default:
		return NewBatch()
	}
}

// Put empties b and keeps it, if there is room.
func (s Spares) Put(b *Batch) {
	b.Reset()
	select {
	case s <- b:
	default:
	}
}
