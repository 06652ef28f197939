package trace

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"io"
	"sync"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// Sink receives the world's events as they happen. The event, and what it points to
// (its message, its status), is only valid during the call: a sink that keeps any of
// it must copy it.
type Sink interface {
	Record(e *Event)
}

// Filler is a sink that lends its own storage for the events it is given: the world
// fills each of its common events (send, deliver, timer, drop) in place, instead of
// building it and having the sink copy it (a recording's or verify's batch; with it,
// BenchmarkTrace/record went from 1.48–1.57× the plain run to 1.42–1.49×). Fill
// returns a zero event, and room for its message, which the caller sets whole if
// the event has one (Msg pointing at it); Filled takes it back, complete. Fill and
// Filled stand for one Record.
type Filler interface {
	Sink
	Fill() (*Event, *node.Message)
	Filled()
}

// Hasher is a sink that computes the stable hash of the event lines: SHA-256 over
// each line's JSON and its newline, exactly as the recorder writes them. A recording's
// hash (the one in its end record, printed by sim and verify) also covers the header
// line, hashed first with Header; a bare Hasher covers the events only, which is what
// the determinism tests compare across runs.
//
// Lines are gathered into batches, and each full batch is hashed by a goroutine of
// its own while the next one fills, so that hashing costs the caller (a run, or a
// reader) little while a core is free. At most one batch is in flight, and its
// goroutine ends by itself.
type Hasher struct {
	h      hash.Hash
	enc    Encoder
	n      uint64
	buf    []byte        // lines not hashed yet
	spare  []byte        // the batch in flight, then the next buffer
	busy   chan struct{} // closed when the batch in flight is hashed; nil if none
	inline bool          // hash full batches in the caller's goroutine
}

// hashBatch is how many bytes of lines a Hasher gathers before it hashes them.
const hashBatch = 64 << 10

// NewHasher makes an empty hasher. It hashes full batches in a goroutine of their
// own, beside the run that makes the lines. Its buffer takes a batch's room at
// once, not grown from nothing by doubling: a sweep makes one for each of its
// thousands of runs.
func NewHasher() *Hasher {
	return &Hasher{h: sha256.New(), buf: make([]byte, 0, hashBatch+hashBatch/4)}
}

// Inline makes the hasher hash the batches to come in the caller's goroutine: the
// same hash, for callers that keep every core busy already (a sweep's jobs, verify's
// comparer beside the re-run), where a goroutine per batch would only add
// hand-overs and move each batch between cores.
func (h *Hasher) Inline() {
	h.wait()
	h.inline = true
}

// Record adds e.
func (h *Hasher) Record(e *Event) {
	h.buf = h.enc.Append(h.buf, e)
	h.n++
	h.spill()
}

// Header adds the header line (without its newline) before any event. It does not
// count as an event.
func (h *Hasher) Header(line []byte) {
	h.buf = append(append(h.buf, line...), '\n')
	h.spill()
}

// AddLine adds one raw line (without its newline), as read from a file.
func (h *Hasher) AddLine(line []byte) {
	h.buf = append(append(h.buf, line...), '\n')
	h.n++
	h.spill()
}

// AddLines adds n raw lines, each with its newline, as read from a file.
func (h *Hasher) AddLines(p []byte, n int) {
	h.n += uint64(n)
	if h.inline {
		h.write(p) // no copy: it is hashed before the call returns
		return
	}
	h.buf = append(h.buf, p...)
	h.spill()
}

// write adds bytes that are whole lines already, in the caller's goroutine.
func (h *Hasher) write(p []byte) {
	h.flush()
	h.h.Write(p)
}

// spill hands a full batch to a goroutine, once the one before it is done.
func (h *Hasher) spill() {
	if len(h.buf) < hashBatch {
		return
	}
	if h.inline {
		h.h.Write(h.buf)
		h.buf = h.buf[:0]
		return
	}
	h.wait()
	data := h.buf
	h.buf, h.spare = h.spare[:0], data
	done := make(chan struct{})
	h.busy = done
	go func() {
		h.h.Write(data)
		close(done)
	}()
}

func (h *Hasher) wait() {
	if h.busy != nil {
		<-h.busy
		h.busy = nil
	}
}

// flush hashes everything gathered so far.
func (h *Hasher) flush() {
	h.wait()
	if len(h.buf) > 0 {
		h.h.Write(h.buf)
		h.buf = h.buf[:0]
	}
}

// Sum is the hash so far, in hex.
func (h *Hasher) Sum() string {
	h.flush()
	return hex.EncodeToString(h.h.Sum(nil))
}

// Count is the number of events hashed.
func (h *Hasher) Count() uint64 { return h.n }

// Recorder writes a trace file as it happens. Record copies the event into a batch
// (see Batch), in the caller's goroutine; full batches go to a writer goroutine that
// encodes, hashes and writes them, so that a recording costs the run little more
// than the copies while a core is free.
//
// A Recorder belongs to the goroutine that runs the world: Record, Flush, End,
// Hash, Count and Close are called by one goroutine at a time, so that Record takes
// no lock (at millions of events a second, a lock per event cost a tenth of a
// recording). Its writer and flusher goroutines are its own. The flusher pushes
// what the writer has to the file, through a compressor, at least every 100 ms of
// wall time (the only place clusterlab reads the wall clock, and it decides
// nothing about the run); a partly filled batch reaches the writer when it is full,
// or on Flush, End and Close. A world that runs hands batches over constantly; one
// that stops (a paused dashboard) calls Flush, so that a killed process leaves
// every full line on disk.
type Recorder struct {
	cur *Batch // events not yet handed to the writer
	n   uint64
	// Where Fill puts an event that comes after End or Close, to be ignored.
	scratch    Event
	scratchMsg node.Message
	closed     bool
	ended      bool
	final      string // the hash once closed

	ops     chan recOp
	spares  Spares
	stop    chan struct{}
	written chan struct{} // the writer goroutine ended
	ticked  chan struct{} // the flusher goroutine ended

	errMu sync.Mutex
	err   error

	// The writer goroutine's own.
	w     io.Writer
	c     io.Closer
	hash  *Hasher
	enc   Encoder
	lines []byte // a batch's lines
}

// recOp is one piece of work for the writer goroutine, done in order.
type recOp struct {
	batch *Batch      // events to encode, hash and write
	data  []byte      // a line to write only (the end record), not hashed
	flush bool        // push everything to the file, through a compressor
	sum   chan string // answer with the hash so far
	done  chan error  // answer when done, with the first error so far
}

// NewRecorder writes h and starts the writer and the flusher. If w is an io.Closer,
// Close closes it.
func NewRecorder(w io.Writer, h Header) (*Recorder, error) {
	h.Format, h.Version = Format, Version
	r := &Recorder{w: w, hash: NewHasher(), cur: NewBatch(),
		ops: make(chan recOp, BatchesQueued), spares: NewSpares(4),
		stop: make(chan struct{}), written: make(chan struct{}), ticked: make(chan struct{})}
	if c, ok := w.(io.Closer); ok {
		r.c = c
	}
	line, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	r.hash.Header(line)
	if _, err := w.Write(append(line, '\n')); err != nil {
		return nil, err
	}
	if err := r.flushUnder(); err != nil {
		return nil, err
	}
	go r.writer()
	go r.flusher()
	return r, nil
}

func (r *Recorder) setErr(err error) {
	r.errMu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.errMu.Unlock()
}

// Err is the first error writing the recording met (a full disk), or nil: what
// comes after it is not in the file.
func (r *Recorder) Err() error { return r.firstErr() }

func (r *Recorder) firstErr() error {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	return r.err
}

// flushUnder flushes a compressor's own buffer, when the file is compressed.
func (r *Recorder) flushUnder() error {
	if f, ok := r.w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

func (r *Recorder) writer() {
	defer close(r.written)
	for op := range r.ops {
		if op.batch != nil {
			r.lines = op.batch.Encode(&r.enc, r.lines[:0])
			r.hash.write(r.lines)
			r.write(r.lines)
			r.spares.Put(op.batch)
		}
		if op.data != nil {
			r.write(op.data)
		}
		if op.sum != nil {
			op.sum <- r.hash.Sum()
		}
		if op.flush && r.firstErr() == nil {
			r.setErr(r.flushUnder())
		}
		if op.done != nil {
			op.done <- r.firstErr()
		}
	}
}

// write writes p to the file unless a write failed before.
func (r *Recorder) write(p []byte) {
	if r.firstErr() == nil {
		_, err := r.w.Write(p)
		r.setErr(err)
	}
}

// handoff gives the events gathered to the writer.
func (r *Recorder) handoff() {
	if r.cur.Len() == 0 {
		return
	}
	r.ops <- recOp{batch: r.cur}
	r.cur = r.spares.Get()
}

// sum is the hash of everything recorded so far.
func (r *Recorder) sum() string {
	r.handoff()
	ch := make(chan string, 1)
	r.ops <- recOp{sum: ch}
	return <-ch
}

func (r *Recorder) flusher() {
	defer close(r.ticked)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			select {
			case r.ops <- recOp{flush: true}:
			case <-r.stop:
				return
			}
		}
	}
}

// Record writes e.
func (r *Recorder) Record(e *Event) {
	if r.closed || r.ended {
		return
	}
	r.n++
	r.cur.Add(e)
	if r.cur.Full() {
		r.handoff()
	}
}

// Fill lends the batch's room for the next event (see Filler).
func (r *Recorder) Fill() (*Event, *node.Message) {
	if r.closed || r.ended {
		// Ignored, as Record ignores it: the scratch room is overwritten each time.
		r.scratch = Event{}
		return &r.scratch, &r.scratchMsg
	}
	return r.cur.Fill()
}

// Filled takes the event back (see Filler).
func (r *Recorder) Filled() {
	if r.closed || r.ended {
		return
	}
	r.cur.Filled()
	r.n++
	if r.cur.Full() {
		r.handoff()
	}
}

// End writes the end record: the recording is whole, it stopped at virtual time t
// (µs) for reason (EndUntil, EndQuit or EndInterrupted). Events recorded after it are
// ignored; a second End does nothing. It returns once the file has it.
func (r *Recorder) End(reason string, t int64) error {
	if r.closed || r.ended {
		return r.firstErr()
	}
	r.ended = true
	line, _ := json.Marshal(End{Ev: EndEv, Events: r.n, Hash: r.sum(), T: t, Reason: reason})
	done := make(chan error, 1)
	r.ops <- recOp{data: append(line, '\n')}
	r.ops <- recOp{flush: true, done: done}
	return <-done
}

// Hash is the recording's hash so far: the header and the events written.
func (r *Recorder) Hash() string {
	if r.closed {
		return r.final
	}
	return r.sum()
}

// Count is the number of events written so far.
func (r *Recorder) Count() uint64 { return r.n }

// Flush hands the events recorded so far to the writer, which the flusher then
// pushes to the file within 100 ms: for a world that stops for a while (a paused
// dashboard), whose last events would otherwise wait for a full batch.
func (r *Recorder) Flush() {
	if !r.closed {
		r.handoff()
	}
}

// Close writes what is left, stops the writer and the flusher and closes the file.
// It reports the first write error, if any.
func (r *Recorder) Close() error {
	if r.closed {
		return r.firstErr()
	}
	close(r.stop)
	<-r.ticked // the flusher sends nothing more, and ops may be closed
	r.final = r.sum()
	r.closed = true
	r.ops <- recOp{flush: true}
	close(r.ops)
	<-r.written
	if r.c != nil {
		r.setErr(r.c.Close())
	}
	return r.firstErr()
}

// Multi fans events out to several sinks, skipping nil ones. When one of them is a
// Filler (the dashboard's recording beside its state), so is the Multi: that sink
// lends the room, and the others are given the filled event.
func Multi(sinks ...Sink) Sink {
	var out multi
	for _, s := range sinks {
		if s != nil {
			out = append(out, s)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	for i, s := range out {
		if f, ok := s.(Filler); ok {
			others := append(append(multi(nil), out[:i]...), out[i+1:]...)
			return &multiFiller{multi: out, lender: f, others: others}
		}
	}
	return out
}

type multi []Sink

func (m multi) Record(e *Event) {
	for _, s := range m {
		s.Record(e)
	}
}

// multiFiller is a Multi with a Filler among its sinks.
type multiFiller struct {
	multi
	lender Filler
	others multi
	cur    *Event // the event lent, until it is filled
}

func (m *multiFiller) Fill() (*Event, *node.Message) {
	e, msg := m.lender.Fill()
	m.cur = e
	return e, msg
}

// Filled gives the others the event before the lender takes it back: once taken
// back, it may be handed to a goroutine of the lender's.
func (m *multiFiller) Filled() {
	m.others.Record(m.cur)
	m.lender.Filled()
	m.cur = nil
}
