package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// Verdict is the result of verifying a recording.
type Verdict struct {
	OK bool
	// Prefix is set when OK stands for a verified prefix only (VerifyOptions.Partial
	// and a recording without its end record).
	Prefix bool
	Events int
	Hash   string
	// On failure: Line is the line of the file the problem is on (0 if none), Field
	// the field that differs, Recorded and Rerun the two versions of the line (either
	// may be empty), Reason one line.
	Line     int
	Field    string
	Recorded string
	Rerun    string
	Reason   string
}

// VerifyOptions change what Verify accepts.
type VerifyOptions struct {
	// Partial accepts a recording without its end record when every event it has
	// matches the re-run: a verified prefix, said so.
	Partial bool
	// MaxPending is the re-run's event-storm guard (netsim.Config.MaxPending); 0
	// is the world's default.
	MaxPending int
}

// maxLocateNodes is the largest world verify re-runs for a file whose end record
// already says it was edited, only to name the line and field.
const maxLocateNodes = 256

// maxVerifySlice is the most virtual time the re-run goes through before it looks
// whether it can stop: at a difference, or when it is cancelled.
const maxVerifySlice = time.Second

// Verify re-runs the scenario in the trace header with the recorded user actions and
// compares the result with the file line by line, byte for byte. Only a whole
// recording (one that ends with its end record) whose every line, the end record
// included, is what the re-run gives is verified. It reads the file twice, streaming:
// once to check it and find the user actions, once beside the re-run.
//
// The error is for files that are not clusterlab traces at all, or a cancelled ctx;
// a trace that does not match is a Verdict.
func Verify(ctx context.Context, path string, opts VerifyOptions) (*Verdict, error) {
	var cfg netsim.Config
	tf, err := openTraceWith(path, func(h *trace.Header) error {
		var err error
		if _, cfg, err = resolveHeader(path, h); err != nil {
			return &headerProblem{err}
		}
		return nil
	}, keepForVerify)
	if err != nil {
		var he *headerProblem
		if errors.As(err, &he) {
			v := &Verdict{Line: 1, Reason: err.Error()}
			var hf *HeaderError
			if errors.As(err, &hf) {
				v.Field = hf.Field
			}
			return v, nil
		}
		return nil, err
	}
	hdr := tf.Header
	// First pass: the structure, the end record and the user actions. The lines are
	// hashed on the second pass, beside the re-run, where it costs no wall time;
	// only a header with more nodes than a re-run to locate an edit may have
	// (maxLocateNodes) is hashed now, to refuse an edited one before building its
	// world.
	hashLater := len(hdr.Info.IDs) <= maxLocateNodes
	if hashLater {
		tf.SkipHash()
	}
	var users []netsim.Timed
	var last []byte
	var endErr *trace.EndError
	readToEnd := false
	for {
		line, err := tf.NextLine()
		if err == io.EOF {
			readToEnd = true
			break
		}
		if errors.As(err, &endErr) {
			break
		}
		if err != nil {
			tf.Close()
			return &Verdict{Line: tf.Line(), Reason: err.Error()}, nil
		}
		if mayBeAction(line) {
			var e trace.Event
			if json.Unmarshal(line, &e) == nil && e.Ev == trace.Action && e.By == "user" {
				a, err := netsim.ParseAction(e.Text, hdr.Info.IDs)
				if err != nil {
					tf.Close()
					return &Verdict{Line: tf.Line(), Field: "text", Reason: fmt.Sprintf("%s:%d: bad user action %q (%v)", path, tf.Line(), e.Text, err)}, nil
				}
				users = append(users, netsim.Timed{At: time.Duration(e.T) * time.Microsecond, Action: a})
			}
		}
		last = append(last[:0], line...)
	}
	n, end, truncated, hash := int(tf.Count()), tf.End, tf.Truncated, tf.Hash()
	kept := tf.Kept(readToEnd)
	tf.Close()
	var lastT int64
	if n > 0 {
		var e trace.Event
		if err := json.Unmarshal(last, &e); err != nil {
			return &Verdict{Line: n + 1, Reason: fmt.Sprintf("%s:%d: bad event line, expected one JSON event", path, n+1)}, nil
		}
		lastT = e.T
	}
	if end == nil && lastT > hdr.Info.Until {
		return &Verdict{Line: n + 1, Field: "t", Reason: fmt.Sprintf("%s:%d: found t=%s, after the scenario's until (%s), and there is no end record", path, n+1, fmtUS(lastT), fmtUS(hdr.Info.Until))}, nil
	}

	if endErr != nil && len(hdr.Info.IDs) > maxLocateNodes {
		// The file was edited, and the edit may be the header's node count: do not
		// build a big world only to say where the edit is.
		return &Verdict{Line: endErr.Line, Field: endErr.Field, Reason: endErr.Error() +
			fmt.Sprintf("; the header's %d nodes are too many to re-run only to find the edit", len(hdr.Info.IDs))}, nil
	}

	// Second pass: the re-run beside the file.
	if err := runLimits(path, end, lastT); err != nil {
		return &Verdict{Line: 1, Reason: err.Error()}, nil
	}
	cfg.UserActions = users
	cfg.MaxPending = opts.MaxPending
	if err := burstLimit(path, cfg); err != nil {
		return &Verdict{Line: 1, Reason: err.Error()}, nil
	}
	// The second reading takes the header checked by the first, if it is unchanged,
	// and a compressed file's content as the first decompressed it.
	sameHeader := func(h *trace.Header) error {
		if !bytes.Equal(h.Scenario, hdr.Scenario) {
			return fmt.Errorf("%s: the file changed while it was verified", path)
		}
		h.Seed, h.Info = hdr.Seed, hdr.Info
		return nil
	}
	var rf *traceFile
	if kept != nil {
		rf, err = openKept(path, kept, sameHeader)
	} else {
		rf, err = openTraceWith(path, sameHeader, 0)
	}
	if err != nil {
		return nil, err
	}
	defer rf.Close()
	if hashLater {
		rf.HashInline() // in the comparer's goroutine, beside the re-run
	} else {
		rf.SkipHash() // checked by the first reading; this one compares lines only
	}
	cmp := &comparer{rd: rf, want: n}
	p := newPipe(cmp)
	w, err := netsim.New(cfg, p)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	p.start(w.Halt)
	defer p.close()
	runTo := time.Duration(lastT) * time.Microsecond
	if end != nil {
		runTo = time.Duration(end.T) * time.Microsecond
	}
	// In slices, so that a signal stops the re-run between them. A difference
	// stops it too (an edited far-future time must not make verify simulate up to
	// it): once the comparer has decided, it halts the world at the end of its
	// window, and the next slice does not start. The world waits for the comparer
	// only when the batches in flight fill the pipe, never at every slice, so the
	// two run side by side throughout.
	for slice := time.Millisecond; !p.decided.Load() && w.Now() < runTo; slice = min(2*slice, maxVerifySlice) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w.RunUntil(min(w.Now()+slice, runTo))
		if err := w.Err(); err != nil {
			p.sync()
			return &Verdict{Line: cmp.n + 2, Reason: fmt.Sprintf("%s:%d: the re-run stopped: %v", path, cmp.n+2, err)}, nil
		}
	}
	p.sync() // the comparer has seen every line so far, and may be looked at
	if end == nil {
		// The recording stops at an event: go through its instant one event at a
		// time, and give the end-of-run expectations if the file has them.
		finished := false
		for p.sync() && cmp.busy(false) {
			if bytes.Contains(cmp.peek(), []byte(`"ev":"expect"`)) && !finished {
				finished = true
				w.Finish()
				continue
			}
			if t, ok := w.NextTime(); !ok || t > runTo || !w.Step() {
				break
			}
		}
	} else if end.Reason == trace.EndUntil && !cmp.differs() {
		w.Finish()
	}
	p.sync()
	if hashLater && !cmp.differs() && cmp.n == n {
		// Every event matched: the second reading goes on to the end record, which
		// it checks against the hash of what it read (the first checked its count).
		var hashErr *trace.EndError
		if hashErr, hash = rf.drain(); endErr == nil {
			endErr = hashErr
		}
	}
	return cmp.verdict(path, n, end, truncated, endErr, hash, lastT, opts), nil
}

// mayBeAction reports whether an event line may be an action, cheaply, for every line
// of a file: the recorder writes seq, t and ev first, so the kind is read right after
// them. A line in another form is searched whole.
func mayBeAction(line []byte) bool {
	i := skipNumber(line, 0, `{"seq":`)
	if i >= 0 {
		i = skipNumber(line, i, `,"t":`)
	}
	if i < 0 {
		return bytes.Contains(line, []byte(`"ev":"action"`))
	}
	const kind = `,"ev":"action"`
	return len(line)-i >= len(kind) && string(line[i:i+len(kind)]) == kind
}

// skipNumber returns the index after key and the integer that follows it at line[i:],
// or -1 if key is not there.
func skipNumber(line []byte, i int, key string) int {
	if len(line)-i < len(key) || string(line[i:i+len(key)]) != key {
		return -1
	}
	i += len(key)
	if i < len(line) && line[i] == '-' {
		i++
	}
	for i < len(line) && '0' <= line[i] && line[i] <= '9' {
		i++
	}
	return i
}

// keepForVerify is the most decompressed content verify keeps from its first
// reading of a compressed recording for its second: decompressing it again cost
// as much as a third of verify's time (BenchmarkTrace/verify.jsonl.gz).
const keepForVerify = 64 << 20

// runLimits refuses a re-run longer than the world allows before it starts. (The
// node count was checked with the scenario, and the world's pending-event guard
// bounds a storm.)
func runLimits(path string, end *trace.End, lastT int64) error {
	stop := time.Duration(lastT) * time.Microsecond
	if end != nil {
		stop = time.Duration(end.T) * time.Microsecond
	}
	if max := presets.MaxUntil; stop > max {
		return fmt.Errorf("%s: the recording runs to t=%s, expected at most %s of virtual time", path, stop, max)
	}
	return nil
}

// burstLimit refuses, before the re-run builds its world, a scenario whose first
// instant alone would hold more events than the event-storm guard allows: the re-run
// would stop at t=0 with an event storm anyway, but only after building them all (a
// full mesh of N processes that each broadcast at start makes N·(N−1) messages, and
// as many timers for a failure detector). This is how a header whose node count was
// edited up is refused in a moment instead of simulated into gigabytes.
func burstLimit(path string, cfg netsim.Config) error {
	limit := cfg.MaxPending
	if limit <= 0 {
		limit = netsim.DefaultMaxPending
	}
	if n := startBurst(cfg); n > limit {
		return fmt.Errorf("%s:1: found a scenario whose start makes about %s pending events at t=0 (%s nodes, %s), expected at most %s (the event-storm guard; --max-pending raises it)",
			path, netsim.Thousands(n), netsim.Thousands(len(cfg.IDs)), cfg.Topology, netsim.Thousands(limit))
	}
	return nil
}

// burstSample is how many processes startBurst steps.
const burstSample = 64

// startBurst estimates the events the processes' Start steps make at t=0 (messages
// and armed timers): it steps the algorithm of a sample of processes alone, without
// a world (the first, the last and others evenly between), and takes the fewest any
// of them made for every process. The fewest, so that an algorithm where only some
// processes start something (initiators) is not taken for a storm. It counts only
// on a full mesh with nothing scheduled at t=0, where every message sent at start is
// pending; elsewhere a message may be dropped at once, and it returns 0.
func startBurst(cfg netsim.Config) int {
	n := len(cfg.IDs)
	if (cfg.Topology != "" && cfg.Topology != "mesh") || n == 0 {
		return 0
	}
	for _, list := range [][]netsim.Timed{cfg.Script, cfg.UserActions} {
		for _, a := range list {
			if a.At == 0 {
				return 0
			}
		}
	}
	index := make(map[node.ID]int, n)
	for i, id := range cfg.IDs {
		index[id] = i
	}
	lookup := func(id node.ID) (int, bool) {
		i, ok := index[id]
		return i, ok
	}
	nbrs := make([]node.ID, 0, n)
	timers := map[int32]bool{}
	fewest := -1
	k := min(n, burstSample)
	for s := range k {
		i := 0
		if k > 1 {
			i = s * (n - 1) / (k - 1)
		}
		id := cfg.IDs[i]
		nbrs = append(append(nbrs[:0], cfg.IDs[:i]...), cfg.IDs[i+1:]...)
		env := node.NewEnv(id, cfg.IDs, nbrs, rand.New(rand.NewPCG(cfg.Seed, uint64(i))), nil)
		env.SetIndex(i)
		env.SetLookup(lookup)
		env.Apply(cfg.Factory(id), 0, node.Event{Kind: node.Start}, 0)
		made := 0
		clear(timers)
		for _, e := range env.Effects() {
			switch e.Kind {
			case node.EffSend:
				made++
			case node.EffTimer:
				timers[e.Timer] = true
			}
		}
		made += len(timers)
		if fewest < 0 || made < fewest {
			fewest = made
		}
		if fewest == 0 {
			return 0
		}
	}
	return fewest * n
}

func fmtUS(us int64) string { return (time.Duration(us) * time.Microsecond).String() }

// pipe is the re-run's sink: it copies the world's events into batches (see
// trace.Batch) and hands them to a goroutine of its own, which encodes them as the
// recorder does and gives the lines to the comparer, so that encoding, reading the
// file and comparing run beside the world, on another core when there is one.
// Between syncs the comparer belongs to that goroutine; sync waits until it has
// caught up, and then the caller may look at it. Once the comparison is decided
// the world is halted: the re-run does not go on past the difference.
type pipe struct {
	cmp     *comparer
	cur     *trace.Batch
	work    chan *trace.Batch // batches of events to compare; nil asks for a sync
	spares  trace.Spares
	synced  chan struct{}
	exited  chan struct{}
	decided atomic.Bool // the comparer needs no more events

	// The goroutine's own.
	enc   trace.Encoder
	lines []byte
}

func newPipe(cmp *comparer) *pipe {
	return &pipe{cmp: cmp, cur: trace.NewBatch(), work: make(chan *trace.Batch, 4), spares: trace.NewSpares(4),
		synced: make(chan struct{}), exited: make(chan struct{})}
}

// start starts the comparer's goroutine, which calls halt once the comparison is
// decided, so that the world stops at the end of its window.
func (p *pipe) start(halt func()) { go p.run(halt) }

func (p *pipe) Record(e *trace.Event) {
	if p.decided.Load() {
		return
	}
	p.cur.Add(e)
	if p.cur.Full() {
		p.send()
	}
}

func (p *pipe) send() {
	p.work <- p.cur
	p.cur = p.spares.Get()
}

// sync hands over what is gathered and waits until the comparer has seen it all.
// It returns true, to be used in a loop condition.
func (p *pipe) sync() bool {
	if p.cur.Len() > 0 {
		p.send()
	}
	p.work <- nil
	<-p.synced
	return true
}

func (p *pipe) run(halt func()) {
	defer close(p.exited)
	for batch := range p.work {
		if batch == nil {
			p.synced <- struct{}{}
			continue
		}
		if !p.cmp.decided() {
			p.lines = batch.Encode(&p.enc, p.lines[:0])
			p.cmp.compare(p.lines)
		}
		if p.cmp.decided() && !p.decided.Load() {
			p.decided.Store(true)
			halt()
		}
		p.spares.Put(batch)
	}
}

// close ends the goroutine.
func (p *pipe) close() {
	close(p.work)
	<-p.exited
}

// comparer checks the re-run's event lines against the file's, as bytes: neither
// side is decoded.
type comparer struct {
	rd    *traceFile
	want  int // events in the file
	n     int // lines matched so far
	diff  bool
	rec   []byte // the recorded line not matched yet (when have), or the one that differs
	have  bool
	got   []byte // the re-run's version of it
	next  []byte // the re-run's line after it
	extra []byte // the re-run's first event past the file's last
	err   error  // the file could not be read again
}

// busy reports whether the re-run should go on: to the end of the file or its first
// difference (and one more event, to tell a missing line from an edited one), and,
// for a whole recording, on to its end, to catch events the file lacks.
func (c *comparer) busy(whole bool) bool {
	switch {
	case c.err != nil:
		return false
	case c.diff:
		return c.next == nil
	case c.n < c.want:
		return true
	}
	return whole && c.extra == nil
}

// decided reports whether the comparer needs no more events: it has the line after
// a difference, or the first event past the file's last, or the file failed.
func (c *comparer) decided() bool { return c.err != nil || c.next != nil || c.extra != nil }

func (c *comparer) differs() bool { return c.diff || c.extra != nil || c.err != nil }

// peek is the next recorded line that the re-run has not matched yet; nil if none.
// It is the reader's own buffer, valid until the reader reads on, which it does only
// once this line is matched.
func (c *comparer) peek() []byte {
	if c.n >= c.want || c.diff {
		return nil
	}
	if !c.have {
		line, err := c.rd.NextLine()
		if err != nil {
			c.err = err
			return nil
		}
		c.rec, c.have = line, true
	}
	return c.rec
}

// compare checks a chunk of the re-run's lines, in order, against the file's next
// lines. Once the comparison is decided (a difference and the line after it, or the
// file's end and one event past it), the rest of the chunk is not looked at.
func (c *comparer) compare(chunk []byte) {
	for len(chunk) > 0 && !c.decided() {
		if rec := c.peek(); rec != nil && len(chunk) > len(rec) && chunk[len(rec)] == '\n' && bytes.Equal(chunk[:len(rec)], rec) {
			// The common case: the re-run's next line is the recorded one.
			chunk = chunk[len(rec)+1:]
			c.have = false
			c.n++
			continue
		}
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			i = len(chunk) // not written by AppendLine, which ends every line
		}
		c.line(chunk[:i])
		chunk = chunk[min(i+1, len(chunk)):]
	}
}

// line takes one of the re-run's lines that is not simply the next recorded one.
func (c *comparer) line(line []byte) {
	switch {
	case c.err != nil:
		return
	case c.diff:
		if c.next == nil {
			c.next = bytes.Clone(line)
		}
		return
	case c.n >= c.want:
		if c.extra == nil {
			c.extra = bytes.Clone(line)
		}
		return
	}
	rec := c.peek()
	if rec == nil {
		return
	}
	if !bytes.Equal(rec, line) {
		c.diff, c.got = true, bytes.Clone(line)
		return
	}
	c.have = false
	c.n++
}

func (c *comparer) verdict(path string, n int, end *trace.End, truncated bool, endErr *trace.EndError, hash string, lastT int64, opts VerifyOptions) *Verdict {
	v := &Verdict{Events: n}
	switch {
	case c.err != nil:
		v.Line, v.Reason = c.n+2, c.err.Error()
	case c.diff:
		v.Line, v.Recorded, v.Rerun = c.n+2, string(c.rec), string(c.got)
		v.Field = lineDiff(c.rec, c.got)
		v.Reason = fmt.Sprintf("%s:%d: field %s differs from the re-run", path, v.Line, v.Field)
		if c.next != nil && sameBut(c.next, c.rec, "seq") {
			v.Reason += " (the re-run's next line is this one: a line before it is missing)"
		} else if sameBut(c.got, c.rec, "seq") {
			v.Reason += " (only its number differs: a line was added or moved)"
		}
	case c.n < n:
		v.Line, v.Recorded = c.n+2, string(c.peek())
		v.Reason = fmt.Sprintf("%s:%d: the re-run has no such line: it ends before it", path, v.Line)
	case c.extra != nil && end != nil:
		v.Line, v.Rerun = n+2, string(c.extra)
		v.Reason = fmt.Sprintf("%s:%d: the re-run has an event here that the recording lacks before its end at t=%s", path, v.Line, fmtUS(end.T))
	case endErr != nil && endErr.Field == "hash":
		// Every event is what the re-run gives, so the edit is in the header (a field
		// that does not change the run) or in the end record's hash.
		v.Line, v.Field = endErr.Line, "hash"
		v.Reason = endErr.Error() + "; every event matches the re-run, so a header field that does not change the run (line 1) or the hash itself was edited"
	case endErr != nil:
		v.Line, v.Field, v.Reason = endErr.Line, endErr.Field, endErr.Error()
	case end == nil:
		stop := fmt.Sprintf("it stops at t=%s", fmtUS(lastT))
		if truncated {
			stop += ", in a line cut short"
		}
		if opts.Partial {
			v.OK, v.Prefix, v.Hash = true, true, hash
			v.Reason = stop
			return v
		}
		v.Line = n + 2
		v.Reason = fmt.Sprintf("incomplete recording: the first %d events match the re-run; %s (no end record: use --partial to accept the prefix)", n, stop)
	default:
		v.OK, v.Hash = true, hash
	}
	return v
}

// lineDiff names the first field that differs between two event lines.
func lineDiff(a, b []byte) string {
	var x, y any
	if decodeNumbers(a, &x) != nil {
		return "(the whole line: it is not valid JSON)"
	}
	if decodeNumbers(b, &y) != nil {
		return "(the whole line)"
	}
	path, _, _, ok := firstDiff("", x, y)
	if ok {
		return "(spacing or escaping: the values are equal but the bytes are not)"
	}
	if len(path) > 0 && path[0] == '.' {
		path = path[1:]
	}
	if path == "" {
		return "(the whole line)"
	}
	return path
}

// sameBut reports whether two event lines differ at most in one top-level field.
func sameBut(a, b []byte, field string) bool {
	var x, y map[string]any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	delete(x, field)
	delete(y, field)
	_, _, _, ok := firstDiff("", x, y)
	return ok
}

// Print writes the verdict for people.
func (v *Verdict) Print(out io.Writer) {
	switch {
	case v.OK && v.Prefix:
		fmt.Fprintf(out, "verified prefix: %d events, hash %s (%s; the recording has no end record)\n", v.Events, v.Hash, v.Reason)
		return
	case v.OK:
		fmt.Fprintf(out, "verified: %d events, hash %s\n", v.Events, v.Hash)
		return
	}
	fmt.Fprintf(out, "not verified: %s\n", v.Reason)
	if v.Recorded != "" {
		fmt.Fprintf(out, "  recorded: %s\n", v.Recorded)
	}
	if v.Rerun != "" {
		fmt.Fprintf(out, "  re-run:   %s\n", v.Rerun)
	}
}
