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
// each line's JSON and its newline, exactly as the recorder writes them.
type Hasher struct {
	h   hash.Hash
	n   uint64
	buf []byte
}

// NewHasher makes an empty hasher.
func NewHasher() *Hasher { return &Hasher{h: sha256.New()} }

// Record adds e.
func (h *Hasher) Record(e *Event) {
	h.buf = appendLine(h.buf[:0], e)
	h.h.Write(h.buf)
	h.n++
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

func appendLine(buf []byte, e *Event) []byte {
	b, err := json.Marshal(e)
	if err != nil {
		// Event holds only plain data; failing to encode it is a bug.
		panic("trace: " + err.Error())
	}
	buf = append(buf, b...)
	return append(buf, '\n')
}

// Recorder writes a trace file as it happens. It flushes at least every 100 ms of
// wall time (the only place clusterlab reads the wall clock, and it decides nothing
// about the run) and on Close, so a killed process leaves every full line on disk.
type Recorder struct {
	mu     sync.Mutex
	w      *bufio.Writer
	c      io.Closer
	hash   *Hasher
	err    error
	buf    []byte
	stop   chan struct{}
	done   chan struct{}
	closed bool
}

// NewRecorder writes h and starts the flusher. If w is an io.Closer, Close closes it.
func NewRecorder(w io.Writer, h Header) (*Recorder, error) {
	h.Format, h.Version = Format, Version
	r := &Recorder{w: bufio.NewWriterSize(w, 64<<10), hash: NewHasher(), stop: make(chan struct{}), done: make(chan struct{})}
	if c, ok := w.(io.Closer); ok {
		r.c = c
	}
	line, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	r.w.Write(append(line, '\n'))
	if err := r.w.Flush(); err != nil {
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
				r.err = r.w.Flush()
			}
			r.mu.Unlock()
		}
	}
}

// Record writes e.
func (r *Recorder) Record(e *Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil || r.closed {
		return
	}
	r.buf = appendLine(r.buf[:0], e)
	r.hash.h.Write(r.buf)
	r.hash.n++
	_, r.err = r.w.Write(r.buf)
}

// Hash is the hash of the events written so far.
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
	if err := r.w.Flush(); r.err == nil {
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
