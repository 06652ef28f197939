package export

import (
	"io"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// A Source is a recorded trace that an export reads as a stream of events, from
// its first event, once or more: a format that must know, at an event, what comes
// later (when a message sent now is delivered, whether an alert raised now is ever
// cleared) first reads the trace's lines without decoding them (see scan), then
// reads it again to write. Nothing holds the whole trace.
type Source interface {
	// Header is the trace's header, with Seed and Info.
	Header() *trace.Header
	// Open reads the trace again from its first event.
	Open() (Stream, error)
}

// Stream is one reading of a trace.
type Stream interface {
	// Next reads the next event into e, and gives io.EOF after the last. e is
	// overwritten by the next call, but its Msg, Status and Groups are not: an
	// export may keep them.
	Next(e *trace.Event) error
	// Scan reads the next event, as Next does, into an event of the stream's own,
	// valid with all it points to until the next call: for a reading that keeps
	// nothing of its events, which then costs no allocation. A stream is read
	// with Next or with Scan, not both.
	Scan() (*trace.Event, error)
	// Tail is what the end of the recording says, once Next or Scan gave
	// io.EOF.
	Tail() Tail
	Close() error
}

// Tail is what a recording says at its end.
type Tail struct {
	Events    int        // events read
	Last      int64      // the last one's time (µs)
	End       *trace.End // the end record; nil when the recording is incomplete
	Truncated bool       // the last line was cut short (a killed recorder) and left out
	Hash      string     // the recording's hash: the header line and every event line
}

// ReaderSource is the Source of a trace file: open opens the file anew, read to
// its header (session.OpenTrace), each time the export reads it.
func ReaderSource(h *trace.Header, open func() (*trace.Reader, io.Closer, error)) Source {
	return &readerSource{h: h, open: open}
}

type readerSource struct {
	h    *trace.Header
	open func() (*trace.Reader, io.Closer, error)
}

func (s *readerSource) Header() *trace.Header { return s.h }

func (s *readerSource) Open() (Stream, error) {
	r, c, err := s.open()
	if err != nil {
		return nil, err
	}
	return &readerStream{r: r, c: c}, nil
}

type readerStream struct {
	r *trace.Reader
	c io.Closer
}

func (s *readerStream) Next(e *trace.Event) error   { return s.r.Next(e) }
func (s *readerStream) Scan() (*trace.Event, error) { return s.r.Scan() }
func (s *readerStream) Close() error                { return s.c.Close() }
func (s *readerStream) Tail() Tail {
	return Tail{Events: int(s.r.Count()), End: s.r.End, Truncated: s.r.Truncated, Hash: s.r.Hash()}
}

// TraceSource is the Source of a trace held in memory (a test's, or one read
// whole).
func TraceSource(t *trace.Trace) Source { return memSource{t} }

type memSource struct{ t *trace.Trace }

func (s memSource) Header() *trace.Header { return &s.t.Header }
func (s memSource) Open() (Stream, error) { return &memStream{t: s.t}, nil }

type memStream struct {
	t *trace.Trace
	i int
}

func (s *memStream) Next(e *trace.Event) error {
	if s.i >= len(s.t.Events) {
		return io.EOF
	}
	*e = s.t.Events[s.i]
	s.i++
	return nil
}

func (s *memStream) Scan() (*trace.Event, error) {
	if s.i >= len(s.t.Events) {
		return nil, io.EOF
	}
	s.i++
	return &s.t.Events[s.i-1], nil
}

func (s *memStream) Tail() Tail {
	return Tail{Events: len(s.t.Events), End: s.t.End, Truncated: s.t.Truncated, Hash: s.t.Hash}
}

func (s *memStream) Close() error { return nil }

// ReadError is a trace that could not be read: a line that is not an event, a
// cut compressed stream, a file that went away. It says where, and the export
// command exits 2 on it, as on any bad input.
type ReadError struct{ Err error }

func (e *ReadError) Error() string { return e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// each reads src from its first event and hands every event to f, in order,
// until the end, f's error, or f's stop; it returns the recording's tail (zero
// when f stopped the reading early).
func each(src Source, f func(e *trace.Event) (stop bool, err error)) (Tail, error) {
	st, err := src.Open()
	if err != nil {
		return Tail{}, &ReadError{err}
	}
	defer st.Close()
	var e trace.Event
	var last int64
	for {
		err := st.Next(&e)
		if err == io.EOF {
			t := st.Tail()
			t.Last = last
			return t, nil
		}
		if err != nil {
			return Tail{}, &ReadError{err}
		}
		last = e.T
		stop, err := f(&e)
		if err != nil || stop {
			return Tail{}, err
		}
	}
}

// slots numbers the nodes of a trace from 0, so that what an export keeps per
// node is a slice: the header's nodes first, in its order, then any other id an
// event names (a hand-made trace's).
type slots struct {
	ids   []node.ID
	pos   map[node.ID]int
	dense bool // ids are 1…N: the slot of id is id-1
}

func newSlots(ids []node.ID) *slots {
	s := &slots{ids: append([]node.ID(nil), ids...), pos: make(map[node.ID]int, len(ids)), dense: true}
	for i, id := range ids {
		s.pos[id] = i
		s.dense = s.dense && id == node.ID(i+1)
	}
	return s
}

// of is id's slot, given one if it has none yet.
func (s *slots) of(id node.ID) int {
	if s.dense && id >= 1 && int(id) <= len(s.ids) {
		return int(id) - 1
	}
	if i, ok := s.pos[id]; ok {
		return i
	}
	s.dense = false
	s.pos[id] = len(s.ids)
	s.ids = append(s.ids, id)
	return len(s.ids) - 1
}

// n is how many slots there are.
func (s *slots) n() int { return len(s.ids) }

// grow makes x long enough for every slot, filling new places with zero.
func grow[T any](x []T, s *slots) []T {
	for len(x) < s.n() {
		var zero T
		x = append(x, zero)
	}
	return x
}
