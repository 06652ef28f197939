package trace

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"io"
	"sync"
	"time"
)

// Sink receives the world's events as they happen. The event is only valid during
// the call: a sink that keeps it must copy it.
type Sink interface {
	Record(e *Event)
}

// Hasher is a sink that computes the stable hash of the event lines: SHA-256 over
// each line's JSON and its newline, exactly as the recorder writes them. A recording's
// hash (the one in its end record, printed by sim and verify) also covers the header
// line, hashed first with Header; a bare Hasher covers the events only, which is what
// the determinism tests compare across runs.
type Hasher struct {
	h   hash.Hash
	n   uint64
	buf []byte
}

// NewHasher makes an empty hasher.
func NewHasher() *Hasher { return &Hasher{h: sha256.New()} }

// Record adds e.
func (h *Hasher) Record(e *Event) {
	h.buf = AppendLine(h.buf[:0], e)
	h.h.Write(h.buf)
	h.n++
}

// Header adds the header line (without its newline) before any event. It does not
// count as an event.
func (h *Hasher) Header(line []byte) {
	h.h.Write(line)
	h.h.Write([]byte{'\n'})
}

// AddLine adds one raw line (without its newline), as read from a file.
func (h *Hasher) AddLine(line []byte) {
	h.h.Write(line)
	h.h.Write([]byte{'\n'})
	h.n++
}

// Sum is the hash so far, in hex.
func (h *Hasher) Sum() string { return hex.EncodeToString(h.h.Sum(nil)) }

// Count is the number of events hashed.
func (h *Hasher) Count() uint64 { return h.n }

// Recorder writes a trace file as it happens. It flushes at least every 100 ms of
// wall time (the only place clusterlab reads the wall clock, and it decides nothing
// about the run) and on Close, so a killed process leaves every full line on disk.
type Recorder struct {
	mu     sync.Mutex
	w      *bufio.Writer
	under  io.Writer // flushed too, when it can be (a compressor)
	c      io.Closer
	hash   *Hasher
	err    error
	buf    []byte
	stop   chan struct{}
	done   chan struct{}
	closed bool
	ended  bool
}

// NewRecorder writes h and starts the flusher. If w is an io.Closer, Close closes it.
func NewRecorder(w io.Writer, h Header) (*Recorder, error) {
	h.Format, h.Version = Format, Version
	r := &Recorder{w: bufio.NewWriterSize(w, 64<<10), under: w, hash: NewHasher(), stop: make(chan struct{}), done: make(chan struct{})}
	if c, ok := w.(io.Closer); ok {
		r.c = c
	}
	line, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	r.hash.Header(line)
	r.w.Write(append(line, '\n'))
	if err := r.flush(); err != nil {
		return nil, err
	}
	go r.flusher()
	return r, nil
}

func (r *Recorder) flusher() {
	defer close(r.done)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			r.mu.Lock()
			if r.err == nil {
				r.err = r.flush()
			}
			r.mu.Unlock()
		}
	}
}

// flush pushes the buffer to the file, through a compressor's own buffer if there is
// one, so that a killed process leaves every full line readable. Call with mu held.
func (r *Recorder) flush() error {
	if err := r.w.Flush(); err != nil {
		return err
	}
	if f, ok := r.under.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// Record writes e.
func (r *Recorder) Record(e *Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil || r.closed || r.ended {
		return
	}
	r.buf = AppendLine(r.buf[:0], e)
	r.hash.h.Write(r.buf)
	r.hash.n++
	_, r.err = r.w.Write(r.buf)
}

// End writes the end record: the recording is whole, it stopped at virtual time t
// (µs) for reason (EndUntil, EndQuit or EndInterrupted). Events recorded after it are
// ignored; a second End does nothing.
func (r *Recorder) End(reason string, t int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.ended {
		return r.err
	}
	r.ended = true
	line, _ := json.Marshal(End{Ev: EndEv, Events: r.hash.n, Hash: r.hash.Sum(), T: t, Reason: reason})
	if r.err == nil {
		_, r.err = r.w.Write(append(line, '\n'))
	}
	if r.err == nil {
		r.err = r.flush()
	}
	return r.err
}

// Hash is the recording's hash so far: the header and the events written.
func (r *Recorder) Hash() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hash.Sum()
}

// Count is the number of events written so far.
func (r *Recorder) Count() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hash.n
}

// Close flushes, stops the flusher and closes the file. It reports the first write
// error, if any.
func (r *Recorder) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return r.err
	}
	r.closed = true
	r.mu.Unlock()
	close(r.stop)
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.flush(); r.err == nil {
		r.err = err
	}
	if r.c != nil {
		if err := r.c.Close(); r.err == nil {
			r.err = err
		}
	}
	return r.err
}

// Multi fans events out to several sinks, skipping nil ones.
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
	return out
}

type multi []Sink

func (m multi) Record(e *Event) {
	for _, s := range m {
		s.Record(e)
	}
}
