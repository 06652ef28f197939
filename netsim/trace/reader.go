package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/clusterlab/clusterlab/internal/membudget"
	"github.com/clusterlab/clusterlab/node"
)

// MaxLine is the longest line a reader accepts, in bytes, the header included. No line
// clusterlab writes comes near it; a file that has one is not a trace, and is refused
// before more of it is read.
const MaxLine = 1 << 20

// Resolver derives what a header implies from its scenario: it fills Seed and Info,
// and refuses a scenario that does not check. It lives with the scenario format (the
// session package), which this package does not know.
type Resolver func(h *Header) error

// Trace is a whole trace read into memory.
type Trace struct {
	Header Header
	Events []Event
	// End is the end record, nil when the recording is incomplete (a killed or cut
	// file). It is never among Events.
	End *End
	// Truncated is set when the last line was cut short (a killed recorder); it was
	// left out.
	Truncated bool
	Hash      string // the recording's hash: the header line and every event line
}

// Reader reads a trace line by line. It checks each event as it reads it: the
// numbering, the kind, the fields the kind needs, times that never decrease, node ids
// that are the header's; and at the end, that no time lies after the run (the end
// record's time, or the scenario's until when the recording has no end record).
type Reader struct {
	name      string
	br        *bufio.Reader
	buf       []byte
	line      int
	Header    Header
	hash      *Hasher
	Truncated bool
	// End is the end record once read, nil before it and in an incomplete recording.
	End *End

	raw    []byte // the line read last
	last   int64  // the last event's time
	ids    map[node.ID]bool
	dense  int   // when the ids are 1…dense, as most scenarios number them; else 0
	until  int64 // the scenario's end, µs; -1 when no resolver gave it
	beyond int   // the first line whose time is after until, 0 if none
	done   bool
	err    error // the error that stopped the reader, returned again
	badEnd *EndError
	noHash bool
	dec    decoder
	ev     Event // Scan's
	// Where the line read last starts, and where the next one does: offsets in
	// the content read (a compressed file's, decompressed).
	at, next int64
}

var errLong = errors.New("line too long")

// MaxT is the latest time a trace may hold, in µs: 24 hours, the longest run
// (presets.MaxUntil is defined from it). A time past it is refused on reading, so
// that no time read from a file comes near where µs overflow a duration (about
// 106 days in nanoseconds) or an int64.
const MaxT int64 = 24 * 3600 * 1_000_000

// NewReader reads and checks the header of a trace; name is used in error messages.
// resolve, if not nil, derives Seed and Info from the scenario; the reader then also
// checks node ids and times against them.
func NewReader(r io.Reader, name string, resolve Resolver) (*Reader, error) {
	rd := &Reader{name: name, br: bufio.NewReaderSize(r, 64<<10), hash: NewHasher(), until: -1}
	line, _, err := rd.readLine()
	rd.line = 1
	switch {
	case err == io.EOF:
		return nil, rd.errf("empty file, expected a clusterlab trace header")
	case err == errLong:
		return nil, rd.errf("found a first line longer than %d bytes, expected a clusterlab trace header", MaxLine)
	case err != nil:
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if json.Unmarshal(line, &rd.Header) != nil || rd.Header.Format != Format {
		return nil, rd.errf("not a clusterlab trace, expected a header line with \"format\":%q", Format)
	}
	if rd.Header.Version < OldestVersion || rd.Header.Version > Version {
		return nil, rd.errf("found trace version %d, expected %d to %d (record the run again with this clusterlab)", rd.Header.Version, OldestVersion, Version)
	}
	if len(rd.Header.Scenario) == 0 || rd.Header.Scenario[0] != '{' {
		return nil, rd.errf("found a header without \"scenario\", expected the recorded scenario")
	}
	if u := rd.Header.Until; u < 0 || u > MaxT {
		return nil, rd.errf("header field until_us: found %d, expected 1 to %d (24h, the longest run)", u, MaxT)
	}
	rd.hash.Header(line)
	if resolve != nil {
		if err := resolve(&rd.Header); err != nil {
			return nil, err
		}
		rd.ids = make(map[node.ID]bool, len(rd.Header.Info.IDs))
		dense := true
		for _, id := range rd.Header.Info.IDs {
			rd.ids[id] = true
			dense = dense && id >= 1 && int(id) <= len(rd.Header.Info.IDs)
		}
		if dense && len(rd.ids) == len(rd.Header.Info.IDs) {
			rd.dense = len(rd.ids)
		}
		rd.until = rd.Header.RunUntil()
	}
	return rd, nil
}

func (r *Reader) errf(format string, args ...any) error {
	return &FileError{fmt.Sprintf("%s:%d: %s", r.name, r.line, fmt.Sprintf(format, args...))}
}

// FileError is a line of a trace that the reader refuses (file:line: found …,
// expected …): the file is not a well-formed recording, whatever reads it.
type FileError struct{ msg string }

func (e *FileError) Error() string { return e.msg }

// readLine returns the next line without its newline, and whether it had one. The
// line is valid until the next call. A line over MaxLine is errLong.
func (r *Reader) readLine() ([]byte, bool, error) {
	r.buf = r.buf[:0]
	r.at = r.next
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.next += int64(len(chunk))
		if len(r.buf)+len(chunk) > MaxLine+1 {
			return nil, false, errLong
		}
		if err == nil && len(r.buf) == 0 {
			return chunk[:len(chunk)-1], true, nil
		}
		r.buf = append(r.buf, chunk...)
		switch err {
		case nil:
			return r.buf[:len(r.buf)-1], true, nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(r.buf) == 0 {
				return nil, false, io.EOF
			}
			return r.buf, false, nil
		default:
			return nil, false, err
		}
	}
}

var endPrefix = []byte(`{"ev":"end"`)

// lineEndPrefix is endPrefix at the start of a line that is not the first.
var lineEndPrefix = []byte("\n" + `{"ev":"end"`)

// NextLine reads the next event line without decoding it: verify compares lines as
// bytes and needs no more. The end record and a cut tail are handled as in Next, and
// the hash and count are kept, but the event itself is not checked. The line is
// valid until the next call.
func (r *Reader) NextLine() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	line, err := r.nextLine()
	if err != nil {
		r.err = err
	}
	return line, err
}

func (r *Reader) nextLine() ([]byte, error) {
	if r.done {
		return nil, io.EOF
	}
	line, nl, err := r.readLine()
	if err == io.EOF {
		return nil, r.finish()
	}
	r.line++
	if err == errLong {
		return nil, r.errf("found a line longer than %d bytes, expected one JSON event", MaxLine)
	}
	if err != nil {
		return nil, r.errf("%v", err)
	}
	if r.End != nil {
		return nil, r.errf("found a line after the end record, expected the end of the file")
	}
	if len(line) == 0 && nl {
		// Refused here, where lines are only counted, so that a file of empty
		// lines (gigabytes of them compress to nothing) is not read through.
		return nil, r.errf("found an empty line, expected one JSON event")
	}
	if !nl && !json.Valid(line) {
		// The tail of a killed recorder: left out, and said so.
		r.Truncated = true
		return nil, r.finish()
	}
	if bytes.HasPrefix(line, endPrefix) {
		if err := r.readEnd(line); err != nil {
			return nil, err
		}
		return r.nextLine()
	}
	if r.noHash {
		r.hash.n++
	} else {
		r.hash.AddLine(line)
	}
	r.raw = line
	return line, nil
}

// readEnd decodes and checks the end record against what came before it.
func (r *Reader) readEnd(line []byte) error {
	var end End
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&end); err != nil {
		return r.errf("bad end record (%s), expected {\"ev\":\"end\",\"events\":N,\"hash\":H,\"t\":T,\"reason\":R}", jsonProblem(err))
	}
	switch {
	case end.Reason != EndUntil && end.Reason != EndQuit && end.Reason != EndInterrupted:
		return r.errf("end record field reason: found %q, expected until, quit or interrupted", end.Reason)
	case end.T < r.last:
		return r.errf("end record field t: found %d, expected at least the last event's %d", end.T, r.last)
	case end.T > MaxT:
		return r.errf("end record field t: found %d, expected at most %d (24h, the longest run)", end.T, MaxT)
	}
	r.End = &end
	switch {
	case end.Events != r.hash.n:
		r.badEnd = &EndError{Line: r.line, Field: "events", err: r.errf("end record field events: found %d, expected %d (the events before it)", end.Events, r.hash.n)}
	case !r.noHash && end.Hash != r.hash.Sum():
		r.badEnd = &EndError{Line: r.line, Field: "hash", err: r.errf("end record field hash: found %s, expected %s (the header or an event was changed after recording)", end.Hash, r.hash.Sum())}
	}
	return nil
}

// EndError is an end record whose count or hash is not that of the lines before it:
// the file was edited after it was recorded. A reader returns it at the end of the
// file, after every event, so that verify can say more about where the edit is.
type EndError struct {
	Line  int    // the end record's line
	Field string // events or hash
	err   error
}

func (e *EndError) Error() string { return e.err.Error() }

// finish runs the checks that need the whole file, once, at its end.
func (r *Reader) finish() error {
	r.done = true
	if r.beyond > 0 && (r.End == nil || r.last > r.End.T) {
		limit := "the scenario's until, " + fmtT(r.until) + ", and there is no end record to say the run went on"
		if r.Header.Until > 0 {
			limit = "the run's until (given on the command line), " + fmtT(r.until) + ", and there is no end record to say the run went on"
		}
		if r.End != nil {
			limit = "the end record's t, " + fmtT(r.End.T)
		}
		r.line = r.beyond
		return r.errf("found a time after %s", limit)
	}
	if r.badEnd != nil {
		return r.badEnd
	}
	return io.EOF
}

func fmtT(us int64) string { return (time.Duration(us) * time.Microsecond).String() }

// Next reads and checks the next event. It returns io.EOF at the end, with End set if
// the file ended with its end record. A last line without a newline that does not
// parse is a truncated tail: Next sets Truncated and returns io.EOF. Any other bad
// line is an error naming the file, the line and what was expected.
func (r *Reader) Next(e *Event) error {
	line, err := r.NextLine()
	if err != nil {
		return err
	}
	return r.decode(line, e, false)
}

// decode reads line into e, through the decoder when the line is in the encoder's
// form, through encoding/json otherwise, and checks it.
func (r *Reader) decode(line []byte, e *Event, shared bool) error {
	if !r.dec.decode(line, e, shared) {
		*e = Event{}
		if err := json.Unmarshal(line, e); err != nil {
			r.err = r.errf("bad event line (%s), expected one JSON event", jsonProblem(err))
			return r.err
		}
	}
	if err := r.check(e); err != nil {
		r.err = r.errf("%s", err)
		return r.err
	}
	return nil
}

// Scan reads and checks the next event, as Next does, into an event of the
// reader's own, valid with what it points to (its message, its status) until the
// next read: for a caller that folds each event and keeps nothing of it, which
// then costs no allocation.
func (r *Reader) Scan() (*Event, error) {
	line, err := r.NextLine()
	if err != nil {
		return nil, err
	}
	if err := r.decode(line, &r.ev, true); err != nil {
		return nil, err
	}
	return &r.ev, nil
}

// check checks one decoded event against the lines before it and the header.
func (r *Reader) check(e *Event) error {
	if want := r.hash.n; e.Seq != want {
		return fmt.Errorf("found seq %d, expected %d (a line is missing, repeated or moved)", e.Seq, want)
	}
	if !knownKind(e.Ev) {
		return fmt.Errorf("found event kind %q, expected one of %s", e.Ev, kindList())
	}
	if e.T < r.last || e.T < 0 {
		return fmt.Errorf("found t=%d, expected at least %d: times never decrease", e.T, max(r.last, 0))
	}
	if e.T > MaxT {
		return fmt.Errorf("found t=%d, expected at most %d (24h, the longest run)", e.T, MaxT)
	}
	r.last = e.T
	if r.until >= 0 && e.T > r.until && r.beyond == 0 {
		r.beyond = r.line
	}
	need := func(ok bool, what string) error {
		if ok {
			return nil
		}
		return fmt.Errorf("found a %s event without %s, expected it", e.Ev, what)
	}
	var err error
	switch e.Ev {
	case Send, Deliver, Drop:
		err = need(e.Msg != nil && e.From != 0 && e.To != 0 && e.MID != 0, `"msg", "from", "to" or "mid"`)
	case StatusEv:
		err = need(e.Status != nil && e.Node != 0, `"node" or "status"`)
	case TimerEv, Crash, Recover, Isolate, Request, Log:
		err = need(e.Node != 0, `"node"`)
	case AlertCleared:
		err = need(e.Ref != 0 && e.Ref < e.Seq, `"ref" naming an earlier line`)
	}
	if e.Before != 0 && (e.Ev != Action || e.By != "user") {
		err = fmt.Errorf("found \"before\" on a %s event, expected it only on a user action", e.Ev)
	}
	if err != nil || r.ids == nil {
		return err
	}
	for _, id := range [...]node.ID{e.Node, e.From, e.To} {
		if err := r.known(id); err != nil {
			return err
		}
	}
	if e.Status != nil {
		if err := r.known(e.Status.Leader); err != nil {
			return err
		}
	}
	if e.Msg != nil && e.Msg.List != "" {
		for _, id := range e.Msg.List.IDs() {
			if err := r.known(id); err != nil {
				return err
			}
		}
	}
	for _, g := range e.Groups {
		for _, id := range g {
			if err := r.known(id); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Reader) known(id node.ID) error {
	if id == node.None || id > 0 && int(id) <= r.dense || r.ids[id] {
		return nil
	}
	return fmt.Errorf("found node %s, expected one of the header's %d nodes", id, len(r.ids))
}

func kindList() string {
	out := make([]string, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// jsonProblem says what is wrong with a line without Go type names.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("field %q has the wrong type: found a JSON %s", te.Field, te.Value)
	}
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "json: ")
	if i := strings.Index(msg, " of type "); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

// SkipHash stops hashing the lines read from now on: a reader that only compares
// lines (verify's second reading) needs no hash. The end record is then not checked
// against it; do not call it on a reader that must check the end record.
func (r *Reader) SkipHash() { r.noHash = true }

// HashInline makes the reader hash the lines it reads in its own goroutine, not in
// one of the hash's: for a reader that runs beside other work already (verify's
// second reading, beside the re-run), where one more goroutine would only compete
// with that work.
func (r *Reader) HashInline() { r.hash.Inline() }

// SkipSame reads on past p if the file's next bytes are exactly p, and reports
// whether it did. p is n whole event lines, each with its newline (verify's re-run
// as the recorder writes it); they are counted and hashed as NextLine would, without
// being split into lines: verify compares most of a recording this way, a few
// kilobytes at a time. A p longer than the reader's buffer, 64 kB, or one with an
// end record, is never skipped: read it by lines.
func (r *Reader) SkipSame(p []byte, n int) bool {
	if r.err != nil || r.done || r.End != nil || len(p) == 0 || p[len(p)-1] != '\n' ||
		bytes.HasPrefix(p, endPrefix) || bytes.Contains(p, lineEndPrefix) {
		return false
	}
	next, err := r.br.Peek(len(p))
	if err != nil || !bytes.Equal(next, p) {
		return false
	}
	r.br.Discard(len(p))
	r.next += int64(len(p))
	r.line += n
	if r.noHash {
		r.hash.n += uint64(n)
	} else {
		r.hash.AddLines(p, n)
	}
	return true
}

// Offset is where the line read last starts in the content read: a byte offset
// in the file, or, in a compressed file, in what it decompresses to.
func (r *Reader) Offset() int64 { return r.at }

// Raw is the event line read last, as in the file; valid until the next read.
func (r *Reader) Raw() []byte { return r.raw }

// Line is the number of the line read last.
func (r *Reader) Line() int { return r.line }

// Hash is the recording's hash so far: the header and the events read.
func (r *Reader) Hash() string { return r.hash.Sum() }

// Count is the number of events read so far.
func (r *Reader) Count() uint64 { return r.hash.n }

// Each reads every event left and hands each to f, in order, until the end of the
// file (not an error) or the first error, f's included. e is only valid during f.
func (r *Reader) Each(f func(e *Event) error) error {
	var e Event
	for {
		err := r.Next(&e)
		if err == io.EOF {
			return nil
		}
		if err == nil {
			err = f(&e)
		}
		if err != nil {
			return err
		}
	}
}

// ReadAll reads every event left into a Trace.
func (r *Reader) ReadAll() (*Trace, error) {
	t := &Trace{Header: r.Header}
	if err := r.Each(func(e *Event) error {
		if len(t.Events) == cap(t.Events) {
			// The events are kept whole: the memory budget is asked before the
			// slice grows (by a quarter, as append would), and the heap is
			// looked at as it does, for what the events point to.
			grow := max(1024, cap(t.Events)/4)
			what := func() string {
				return fmt.Sprintf("reading %s (%s events so far)", r.name, Thousands(len(t.Events)))
			}
			if err := membudget.Need(what(), uint64(cap(t.Events)+grow)*uint64(unsafe.Sizeof(Event{})), ""); err != nil {
				return err
			}
			if err := membudget.Check(func() string { return "while " + what() }, ""); err != nil {
				return err
			}
			t.Events = slices.Grow(t.Events, grow)
		}
		t.Events = append(t.Events, *e)
		return nil
	}); err != nil {
		return nil, err
	}
	t.Truncated, t.End, t.Hash = r.Truncated, r.End, r.Hash()
	return t, nil
}

// Read reads and checks a whole trace.
func Read(r io.Reader, name string, resolve Resolver) (*Trace, error) {
	rd, err := NewReader(r, name, resolve)
	if err != nil {
		return nil, err
	}
	return rd.ReadAll()
}

// ReadBytes reads a whole trace held in memory.
func ReadBytes(b []byte, name string, resolve Resolver) (*Trace, error) {
	return Read(bytes.NewReader(b), name, resolve)
}

// Thousands writes n with commas between groups of three digits: 3,996.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
