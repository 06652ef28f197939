package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Trace is a whole trace read into memory.
type Trace struct {
	Header Header
	Events []Event
	// Truncated is set when the last line was cut short (a killed recorder); it was
	// left out.
	Truncated bool
	Hash      string // over the full event lines
}

// Reader reads a trace line by line.
type Reader struct {
	name      string
	sc        *bufio.Scanner
	line      int
	Header    Header
	hash      *Hasher
	Truncated bool
}

// NewReader reads the header of a trace; name is used in error messages.
func NewReader(r io.Reader, name string) (*Reader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	rd := &Reader{name: name, sc: sc, hash: NewHasher()}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return nil, fmt.Errorf("%s:1: empty file, expected a clusterlab trace header", name)
	}
	rd.line = 1
	if err := json.Unmarshal(sc.Bytes(), &rd.Header); err != nil || rd.Header.Format != Format {
		return nil, fmt.Errorf("%s:1: not a clusterlab trace, expected a header line with \"format\":%q", name, Format)
	}
	if rd.Header.Version != Version {
		return nil, fmt.Errorf("%s:1: trace version %d, expected %d", name, rd.Header.Version, Version)
	}
	return rd, nil
}

// Next reads the next event. It returns io.EOF at the end. A last line without a
// newline that does not parse is a truncated tail: Next sets Truncated and returns
// io.EOF. Any other bad line is an error naming the file and line.
func (r *Reader) Next(e *Event) error {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			return fmt.Errorf("%s:%d: %v", r.name, r.line+1, err)
		}
		return io.EOF
	}
	r.line++
	b := r.sc.Bytes()
	*e = Event{}
	if err := json.Unmarshal(b, e); err != nil {
		// bufio.Scanner hides whether the last line had its newline, so a line that
		// fails to parse and is the last one is taken for the tail of a killed
		// recorder; anything after it makes it a bad line.
		if !r.sc.Scan() && r.sc.Err() == nil {
			r.Truncated = true
			return io.EOF
		}
		return fmt.Errorf("%s:%d: bad event line (%v), expected one JSON event", r.name, r.line, err)
	}
	if e.Ev == "" || e.Seq == 0 {
		return fmt.Errorf("%s:%d: event without \"ev\" or \"seq\", expected a trace event", r.name, r.line)
	}
	if e.IsMessage() && (e.Msg == nil || e.From == 0 || e.To == 0) {
		return fmt.Errorf("%s:%d: %s event without \"msg\", \"from\" or \"to\", expected all three", r.name, r.line, e.Ev)
	}
	if e.Ev == StatusEv && (e.Status == nil || e.Node == 0) {
		return fmt.Errorf("%s:%d: status event without \"node\" or \"status\", expected both", r.name, r.line)
	}
	r.hash.AddLine(b)
	return nil
}

// Line is the number of the line read last.
func (r *Reader) Line() int { return r.line }

// Hash is the hash of the events read so far.
func (r *Reader) Hash() string { return r.hash.Sum() }

// Read reads a whole trace.
func Read(r io.Reader, name string) (*Trace, error) {
	rd, err := NewReader(r, name)
	if err != nil {
		return nil, err
	}
	t := &Trace{Header: rd.Header}
	for {
		var e Event
		err := rd.Next(&e)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		t.Events = append(t.Events, e)
	}
	t.Truncated = rd.Truncated
	t.Hash = rd.Hash()
	return t, nil
}

// ReadBytes reads a whole trace held in memory.
func ReadBytes(b []byte, name string) (*Trace, error) { return Read(bytes.NewReader(b), name) }
