package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clusterlab/clusterlab/internal/termtext"
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
	// Incomplete is set for a recording without its end record (cut, or killed
	// while it recorded) whose events match the re-run as far as they go.
	Incomplete bool
	Events     int
	Hash       string
	// On failure: Line is the line of the file the problem is on (0 if none), Field
	// the field that differs, Recorded and Rerun the two versions of the line (either
	// may be empty), Reason one line.
	Line     int
	Field    string
	Recorded string
	Rerun    string
	Reason   string
	// Problem is what kind of failure it is.
	Problem Problem
	// Completion is, when OK, how much of its scenario the recording ran.
	Completion trace.Completion
}

// Problem is what kind of failure a verdict is.
type Problem int

const (
	// Mismatch: the recording is not what its re-run gives (edited, cut short).
	Mismatch Problem = iota
	// Malformed: the file is not a well-formed recording (a line that is not an
	// event, a time past the run, a wrong number): bad input, whatever the re-run.
	Malformed
	// Limit: the re-run reached a limit (the event-storm guard, the memory
	// budget) before it could decide.
	Limit
)

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
// once to check it and find the user actions (see firstReading), once beside the
// re-run, which goes on while the first reading is still under way.
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
		if err := checkCode(path, h, cfg.Spec); err != nil {
			return &headerProblem{err}
		}
		return nil
	}, keepForVerify)
	if err != nil {
		var he *headerProblem
		if errors.As(err, &he) {
			// A header whose scenario was edited is a recording that does not
			// verify; one whose scenario is not a scenario is not a recording.
			v := &Verdict{Line: 1, Reason: err.Error(), Problem: Malformed}
			var hf *HeaderError
			var ce *CodeError
			if errors.As(err, &hf) {
				v.Field, v.Problem = hf.Field, Mismatch
			} else if errors.As(err, &ce) {
				v.Field, v.Problem = "code", Mismatch
			}
			return v, nil
		}
		return nil, err
	}
	// The lines are hashed on the second reading, beside the re-run, where it
	// costs no wall time; only a header with more nodes than a re-run to locate an
	// edit may have (maxLocateNodes) is hashed by the first, to refuse an edited
	// one before building its world.
	hashLater := len(tf.Header.Info.IDs) <= maxLocateNodes
	if hashLater {
		tf.SkipHash()
	}
	// A compressed file's second reading takes what the first decompressed, so it
	// waits for the first to end.
	first := readFirst(ctx, tf, path, hashLater && !tf.compressed())
	defer first.close()
	v, err := rerun(ctx, path, cfg, first, hashLater, opts)
	if errors.Is(err, errLateAction) {
		// An edited file whose times go back: the re-run went past a user action
		// found later. Run it again once the first reading has found them all.
		first.again()
		v, err = rerun(ctx, path, cfg, first, hashLater, opts)
	}
	if err == nil && !v.OK && (v.Problem == Mismatch || v.Recorded != "") && v.Line > 1 {
		// The comparison reads lines as bytes; the line that differs may not be
		// an event at all (a node the header lacks, an unknown kind, a time that
		// goes back, a wrong number). Such a file is not a recording: bad input,
		// said as every reader says it. (An edit every reader takes, such as a
		// later time, stays a difference from the re-run.)
		if serr := malformedUpTo(ctx, path, v.Line); serr != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			v = &Verdict{Line: v.Line, Reason: serr.Error(), Problem: Malformed}
		}
	}
	return v, err
}

// malformedUpTo reads path again, checking every event as every reader does (see
// trace.Reader.Next), up to line, and returns the first problem found, if any.
func malformedUpTo(ctx context.Context, path string, line int) error {
	tf, err := openTrace(path)
	if err != nil {
		return err
	}
	defer tf.Close()
	var e trace.Event
	for i := 0; tf.Line() < line; i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		err := tf.Next(&e)
		var endErr *trace.EndError
		switch {
		case err == io.EOF || errors.As(err, &endErr):
			return nil
		case err != nil:
			return err
		}
	}
	return nil
}

// errLateAction stops a re-run that has gone past the time of a user action that
// the first reading found after it.
var errLateAction = errors.New("a user action comes before the time the re-run has reached")

// rerun is verify's second pass: the re-run beside a second reading of the file,
// compared line by line. The first reading's problems come first: whatever the
// re-run finds, a problem of the file's own is the verdict.
func rerun(ctx context.Context, path string, cfg netsim.Config, first *firstReading, hashLater bool, opts VerifyOptions) (*Verdict, error) {
	hdr := first.tf.Header
	// The world is built once the first reading has gone past t=0, where the user
	// actions tell burstLimit whether the start is a storm.
	users, _, done, _ := first.next(0)
	if err := ctx.Err(); err != nil {
		return nil, err // a signal: the reading may still be under way
	}
	var runTo time.Duration
	if done {
		if first.verdict != nil {
			return first.verdict, nil
		}
		runTo = first.runTo()
	}
	// fileFirst is v, unless the file has a problem of its own, which comes first,
	// or a user action came too late for this re-run.
	fileFirst := func(v *Verdict) (*Verdict, error) {
		if first.settle() {
			return nil, errLateAction
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if first.verdict != nil {
			return first.verdict, nil
		}
		return v, nil
	}
	cfg.UserActions = users
	cfg.MaxPending = opts.MaxPending
	if err := burstLimit(path, cfg); err != nil {
		return fileFirst(&Verdict{Line: 1, Reason: err.Error(), Problem: Limit})
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
	var err error
	if done && first.kept != nil { // only a reading that is not live keeps anything
		rf, err = openKept(path, first.kept, sameHeader)
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
	cmp := &comparer{rd: rf}
	p := newPipe(cmp)
	w, err := netsim.New(cfg, p)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	p.start(w.Halt)
	defer p.close()
	// In slices, so that a signal stops the re-run between them. A difference
	// stops it too (an edited far-future time must not make verify simulate up to
	// it): once the comparer has decided, it halts the world at the end of its
	// window, and the next slice does not start. The world waits for the comparer
	// only when the batches in flight fill the pipe, never at every slice, so the
	// two run side by side throughout. While the first reading goes on, the world
	// runs only up to the time it has reached, taking the user actions it finds.
	for slice := time.Millisecond; !p.decided.Load(); slice = min(2*slice, maxVerifySlice) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		limit := runTo
		if !done {
			var reached time.Duration
			var late bool
			users, reached, done, late = first.next(w.Now())
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if late || w.Replay(users) != nil {
				return nil, errLateAction
			}
			if done {
				if first.verdict != nil {
					return first.verdict, nil
				}
				runTo = first.runTo()
				limit = runTo
			} else {
				limit = min(reached-time.Microsecond, presets.MaxUntil)
			}
		}
		if w.Now() >= limit {
			if done {
				break
			}
			if limit == presets.MaxUntil {
				first.wait() // the file goes past what any run may: runLimits will say so
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			continue
		}
		w.RunUntil(min(w.Now()+slice, limit))
		if err := checkRun(w, "the re-run"); err != nil {
			return nil, err
		}
		if err := w.Err(); err != nil {
			p.sync()
			return fileFirst(&Verdict{Line: cmp.n + 2, Reason: fmt.Sprintf("%s:%d: the re-run stopped: %v", path, cmp.n+2, err), Problem: Limit})
		}
	}
	if !done {
		// The comparer decided before the first reading ended: its verdict waits
		// for the file's own problems and for the user actions still to come.
		if v, err := fileFirst(nil); v != nil || err != nil {
			return v, err
		}
		runTo = first.runTo()
	}
	n, end := first.n, first.end
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
	endErr, hash := first.endErr, first.hash
	if hashLater && !cmp.differs() && cmp.n == n {
		// Every event matched: the second reading goes on to the end record, which
		// it checks against the hash of what it read (the first checked its count).
		var hashErr *trace.EndError
		if hashErr, hash = rf.drain(); endErr == nil {
			endErr = hashErr
		}
	}
	v := cmp.verdict(path, n, end, first.truncated, endErr, hash, first.lastT, opts)
	if v.OK {
		endT := first.lastT
		if end != nil {
			endT = end.T
		}
		v.Completion = trace.CompletionOf(hdr, endT, first.expects)
	}
	return v, nil
}

// firstReading is verify's first reading of a recording, in a goroutine of its own:
// it checks the file's structure and its end record, and finds the user actions.
// When live, it hands the actions over as it finds them, with the time its reading
// has reached, so that the re-run can go on beside it up to that time; otherwise
// only once it has read the whole file. Its results, and its verdict on the file if
// it has one, are there once it is done.
type firstReading struct {
	tf   *traceFile
	path string
	// Its waits (next, settle, wait) end early when ctx is cancelled (a signal),
	// with the reading perhaps still under way: the caller must then look at
	// nothing the reading sets.
	ctx context.Context

	stop   atomic.Bool
	signal chan struct{} // the reading got further (a token, capacity 1)
	exited chan struct{}

	mu      sync.Mutex
	live    bool
	users   []netsim.Timed // found so far
	taken   int            // of users, by next
	reached time.Duration  // the time of a line read: what is not read yet is not before it
	done    bool
	late    bool // a user action came before a time handed over already

	// Set by the reading's goroutine before done; read by the caller's after it.
	verdict   *Verdict
	n         int
	end       *trace.End
	endErr    *trace.EndError
	truncated bool
	hash      string
	kept      io.Reader
	lastT     int64
	expects   []trace.Event // the expectation results, their times and texts
}

// readFirst starts the first reading of tf.
func readFirst(ctx context.Context, tf *traceFile, path string, live bool) *firstReading {
	f := &firstReading{ctx: ctx, tf: tf, path: path, live: live, signal: make(chan struct{}, 1), exited: make(chan struct{})}
	go f.run()
	return f
}

// publishEvery is how many lines the first reading reads between two reports of how
// far it has got.
const publishEvery = 1024

func (f *firstReading) run() {
	defer close(f.exited)
	defer f.tf.Close()
	hdr := &f.tf.Header
	var users []netsim.Timed
	var last []byte
	var verdict *Verdict
	var handed time.Duration // the latest time handed over
	late, readToEnd := false, false
	var expects []trace.Event // the expectation results: their times and texts
	for i := 1; ; i++ {
		if f.stop.Load() {
			return
		}
		line, err := f.tf.NextLine()
		if err == io.EOF {
			readToEnd = true
			break
		}
		if errors.As(err, &f.endErr) {
			break
		}
		if err != nil {
			verdict = &Verdict{Line: f.tf.Line(), Reason: err.Error(), Problem: Malformed}
			break
		}
		if seq, ok := lineSeq(line); ok && seq != int64(i) {
			// As every reader refuses it, but at once: a file of a billion
			// copies of one line is not read through before it is refused.
			verdict = &Verdict{Line: f.tf.Line(), Problem: Malformed, Reason: fmt.Sprintf("%s:%d: found seq %d, expected %d (a line is missing, repeated or moved)", f.path, f.tf.Line(), seq, i)}
			break
		}
		if u, ok, err := userAction(line, hdr.Info.IDs); err != nil {
			verdict = &Verdict{Line: f.tf.Line(), Field: "text", Reason: fmt.Sprintf("%s:%d: %v", f.path, f.tf.Line(), err), Problem: Malformed}
			break
		} else if ok {
			users = append(users, u)
			late = late || u.At < handed
		}
		if mayBeKind(line, `"ev":"expect"`) {
			var e trace.Event
			if json.Unmarshal(line, &e) == nil && e.Ev == trace.Expect {
				expects = append(expects, trace.Event{T: e.T, Text: e.Text})
			}
		}
		last = append(last[:0], line...)
		if i%publishEvery == 0 {
			if t, ok := lineTime(line); ok {
				handed = max(handed, time.Duration(t)*time.Microsecond)
				f.publish(users, handed, late, false)
				users = nil
			}
		}
	}
	f.n, f.end, f.truncated, f.hash = int(f.tf.Count()), f.tf.End, f.tf.Truncated, f.tf.Hash()
	f.expects = expects
	f.kept = f.tf.Kept(readToEnd)
	if verdict == nil {
		verdict = f.check(last)
	}
	f.verdict = verdict
	f.publish(users, handed, late, true)
}

// check is the verdict on the whole file that the re-run cannot change, if any:
// its last event, its times, an edit that a big world is not re-run to locate.
func (f *firstReading) check(last []byte) *Verdict {
	path, hdr, n := f.path, &f.tf.Header, f.n
	if n > 0 {
		var e trace.Event
		if err := json.Unmarshal(last, &e); err != nil {
			return &Verdict{Line: n + 1, Reason: fmt.Sprintf("%s:%d: bad event line, expected one JSON event", path, n+1), Problem: Malformed}
		}
		f.lastT = e.T
	}
	if f.end == nil && f.lastT > hdr.RunUntil() {
		return &Verdict{Line: n + 1, Field: "t", Reason: fmt.Sprintf("%s:%d: found t=%s, after the run's until (%s), and there is no end record", path, n+1, fmtUS(f.lastT), fmtUS(hdr.RunUntil())), Problem: Malformed}
	}
	if f.endErr != nil && len(hdr.Info.IDs) > maxLocateNodes {
		// The file was edited, and the edit may be the header's node count: do not
		// build a big world only to say where the edit is.
		return &Verdict{Line: f.endErr.Line, Field: f.endErr.Field, Reason: f.endErr.Error() +
			fmt.Sprintf("; the header's %d nodes are too many to re-run only to find the edit", len(hdr.Info.IDs))}
	}
	if err := runLimits(path, f.end, f.lastT); err != nil {
		return &Verdict{Line: 1, Reason: err.Error(), Problem: Malformed}
	}
	return nil
}

// publish hands over the user actions found since the last time, how far the
// reading has got, and whether an action came before a time handed over earlier.
func (f *firstReading) publish(users []netsim.Timed, reached time.Duration, late, done bool) {
	f.mu.Lock()
	f.users = append(f.users, users...)
	f.reached, f.late, f.done = reached, late, done
	f.mu.Unlock()
	select {
	case f.signal <- struct{}{}:
	default:
	}
}

// next waits until the reading has got past now (by more than a microsecond: a
// user action still to find may be at the time reached), or is done, and takes the
// user actions found meanwhile. Until the reading is done, the re-run may run up to
// just before reached. A reading that is not live is only ever done.
//
// A live reading is late when a user action in the file comes before a time it
// had handed over already (an edited file, whose times go back): the re-run may
// have gone past it, and must be made again, once the reading is done (see again).
func (f *firstReading) next(now time.Duration) (users []netsim.Timed, reached time.Duration, done, late bool) {
	for {
		f.mu.Lock()
		if f.done || f.live && f.reached-time.Microsecond > now {
			users, reached, done, late = f.users[f.taken:], f.reached, f.done, f.live && f.late
			f.taken = len(f.users)
			f.mu.Unlock()
			return users, reached, done, late
		}
		f.mu.Unlock()
		select {
		case <-f.signal:
		case <-f.ctx.Done():
			return nil, 0, false, false
		}
	}
}

// again makes the reading hand over every user action anew, and only once it is
// done: for a second re-run, after a first went past a user action.
func (f *firstReading) again() {
	f.mu.Lock()
	f.live, f.taken = false, 0
	f.mu.Unlock()
}

// settle waits until the reading is done, and reports whether a user action came
// too late for a re-run that went on beside it (see next).
func (f *firstReading) settle() bool {
	if !f.wait() {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.live && f.late
}

// wait waits until the reading is done, and reports whether it is (false: ctx was
// cancelled first).
func (f *firstReading) wait() bool {
	select {
	case <-f.exited:
		return true
	case <-f.ctx.Done():
		return false
	}
}

// runTo is the time the re-run goes to: the end record's, or the last event's in a
// recording without one.
func (f *firstReading) runTo() time.Duration {
	if f.end != nil {
		return time.Duration(f.end.T) * time.Microsecond
	}
	return time.Duration(f.lastT) * time.Microsecond
}

// close stops the reading, if it is still going, and waits for it.
func (f *firstReading) close() {
	f.stop.Store(true)
	<-f.exited
}

// lineSeq is the number of an event line as the recorder writes it, read without
// decoding the line; false for a line in another form.
func lineSeq(line []byte) (int64, bool) {
	const key = `{"seq":`
	end := skipNumber(line, 0, key)
	if end < 0 || end == len(key) || end-len(key) > 18 || line[len(key)] == '-' {
		return 0, false
	}
	var seq int64
	for _, c := range line[len(key):end] {
		seq = seq*10 + int64(c-'0')
	}
	return seq, true
}

// lineTime is the time of an event line as the recorder writes it, read without
// decoding the line; false for a line in another form.
func lineTime(line []byte) (int64, bool) {
	const key = `,"t":`
	i := skipNumber(line, 0, `{"seq":`)
	if i < 0 {
		return 0, false
	}
	end := skipNumber(line, i, key)
	if end < 0 {
		return 0, false
	}
	t, err := strconv.ParseInt(string(line[i+len(key):end]), 10, 64)
	if err != nil {
		return 0, false
	}
	return t, true
}

// userAction reads a user action from an event line, if it is one: its text parsed
// against the scenario's ids, its instant and its place there.
func userAction(line []byte, ids []node.ID) (netsim.Timed, bool, error) {
	if !mayBeKind(line, `"ev":"action"`) {
		return netsim.Timed{}, false, nil
	}
	var e trace.Event
	if json.Unmarshal(line, &e) != nil || e.Ev != trace.Action || e.By != "user" {
		return netsim.Timed{}, false, nil
	}
	a, err := netsim.ParseAction(e.Text, ids)
	if err != nil {
		return netsim.Timed{}, false, fmt.Errorf("bad user action %q (%v)", e.Text, err)
	}
	return netsim.Timed{At: time.Duration(e.T) * time.Microsecond, Before: e.Before, Action: a}, true, nil
}

// mayBeKind reports whether an event line may be of the kind given as `"ev":"…"`,
// cheaply, for every line of a file: the recorder writes seq, t and ev first, so
// the kind is read right after them. A line in another form is searched whole.
func mayBeKind(line []byte, kind string) bool {
	i := skipNumber(line, 0, `{"seq":`)
	if i >= 0 {
		i = skipNumber(line, i, `,"t":`)
	}
	if i < 0 {
		return bytes.Contains(line, []byte(kind))
	}
	return len(line)-i > len(kind) && line[i] == ',' && string(line[i+1:i+1+len(kind)]) == kind
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
	if cfg.Generated != nil {
		if a, ok := cfg.Generated().Next(); ok && a.At == 0 {
			return 0
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
	return &pipe{cmp: cmp, cur: trace.NewBatch(), work: make(chan *trace.Batch, trace.BatchesQueued), spares: trace.NewSpares(4),
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

// Fill and Filled make the pipe a trace.Filler: the world writes its common events
// straight into the batch. (Once the comparison is decided they are still batched,
// and the comparer drops them, as it drops the rest of the batch under way.)
func (p *pipe) Fill() (*trace.Event, *node.Message) { return p.cur.Fill() }

func (p *pipe) Filled() {
	p.cur.Filled()
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
	ended bool // the file has no more events
	n     int  // lines matched so far
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
	case c.peek() != nil:
		return true
	case c.err != nil:
		return false
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
	if c.ended || c.diff {
		return nil
	}
	if !c.have {
		line, err := c.rd.NextLine()
		var endErr *trace.EndError
		switch {
		case err == io.EOF || errors.As(err, &endErr):
			// The end of the events: the end record's problem, if any, is drain's.
			c.ended = true
			return nil
		case err != nil:
			c.err = err
			return nil
		}
		c.rec, c.have = line, true
	}
	return c.rec
}

// sameSpan is the most bytes of the re-run's lines that the comparer matches
// against the file's at once: well within the reader's 64 kB buffer.
const sameSpan = 32 << 10

// compare checks a chunk of the re-run's lines, in order, against the file's next
// lines. Once the comparison is decided (a difference and the line after it, or the
// file's end and one event past it), the rest of the chunk is not looked at.
func (c *comparer) compare(chunk []byte) {
	// The common case: the file's next bytes are the re-run's lines. They are
	// compared a span of whole lines at a time; a span that differs anywhere is
	// gone through line by line, below.
	for len(chunk) > 0 && !c.have && !c.diff && !c.ended && c.err == nil {
		span := chunk
		if len(span) > sameSpan {
			span = span[:bytes.LastIndexByte(span[:sameSpan], '\n')+1]
		}
		n := bytes.Count(span, []byte{'\n'})
		if len(span) == 0 || !c.rd.SkipSame(span, n) {
			break
		}
		c.n += n
		chunk = chunk[len(span):]
	}
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
	}
	rec := c.peek()
	if rec == nil {
		if c.ended && c.extra == nil {
			c.extra = bytes.Clone(line)
		}
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
		v.Line, v.Reason, v.Problem = c.n+2, c.err.Error(), Malformed
	case c.diff:
		v.Line, v.Recorded, v.Rerun = c.n+2, string(c.rec), string(c.got)
		v.Field = lineDiff(c.rec, c.got)
		if !json.Valid(c.rec) {
			v.Problem = Malformed // not an event line at all
		}
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
		v.Line, v.Incomplete = n+2, true
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
		fmt.Fprintf(out, "verified prefix: %d events, hash %s (%s; the recording has no end record)%s\n", v.Events, v.Hash, v.Reason, v.incomplete())
		return
	case v.OK:
		fmt.Fprintf(out, "verified: %d events, hash %s%s\n", v.Events, v.Hash, v.incomplete())
		return
	}
	// The reason and the lines quote the file: through the sanitiser, so that a
	// forged line cannot paint a "verified:" of its own.
	fmt.Fprintf(out, "not verified: %s\n", termtext.Line(v.Reason))
	if v.Recorded != "" {
		fmt.Fprintf(out, "  recorded: %s\n", termtext.Line(v.Recorded))
	}
	if v.Rerun != "" {
		fmt.Fprintf(out, "  re-run:   %s\n", termtext.Line(v.Rerun))
	}
}

// incomplete is what Print adds to a verified recording that did not run its whole
// scenario: "; ended at 3.4s of 12s; 4 of 5 expectations not evaluated".
func (v *Verdict) incomplete() string {
	if c := v.Completion.String(); c != "" {
		return "; " + c
	}
	return ""
}
