package session

import (
	"errors"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// checkpointEvery is how many events lie between two kept states, at least:
// seeking folds at most that many events from the nearest one. A long recording
// keeps at most maxCheckpoints states (fewer for a big cluster, whose states are
// big: see checkpointsFor), further apart (a power of two times checkpointEvery).
// A 730 MB recording of a 400-node mesh (6.4 million events) keeps 196 states, a
// state every 32,768 events, about 600 kB each.
const (
	checkpointEvery = 4096
	maxCheckpoints  = 256
)

// checkpointBytes is about how much memory the kept states may take (the garbage
// collector's room comes on top): with 64 MB, the 400-node mesh's states were
// twice as far apart, and its seeks took twice as long. (A variable for the
// tests.)
var checkpointBytes = 128 << 20

// checkpointsFor is how many states a replay of a cluster of n processes keeps at
// most: maxCheckpoints, or fewer when that many would take more than
// checkpointBytes, but never under 8. A state holds each process's view (about
// 250 bytes), the RecentCap recent events and their messages (330 bytes each),
// and the timeline's two rings of RowCap rows, full in any long recording.
func checkpointsFor(n int) int {
	size := 250*n + 330*trace.RecentCap + 2*trace.RowCap*int(unsafe.Sizeof(trace.Row{}))
	return max(8, min(maxCheckpoints, checkpointBytes/size))
}

// blockEvents is how many events lie between two of the places in a recording
// that a replay's index keeps (where the line starts, and its time): to find an
// event by its number or its time, a replay reads at most that many lines from the
// nearest place. It divides checkpointEvery, so that every kept state is at one.
const blockEvents = 1024

// Replay plays a recording back for the dashboard: no world runs, the events are
// folded into snapshots. It keeps an index of the recording rather than its lines:
// where every blockEvents-th line starts and its time, a folded state every
// r.every events, and the marks; it reads the lines again from the file, from the
// nearest place the index knows, when it seeks. Its memory is that of the index
// and the states, whatever the size of the recording: a 730 MB recording of a
// 400-node mesh (6.4 million events) takes a few tens of megabytes.
type Replay struct {
	Header trace.Header
	Name   string

	src    *source
	n      int     // events
	blocks []block // every blockEvents-th event's place
	last   int64   // the last event's time, µs
	marks  []mark  // markers, faults, alerts and leader changes
	cps    []checkpoint
	every  int // events between two of cps
	most   int // states kept at most, but for the first (checkpointsFor)
	// Truncated is set when the file's last line was cut short; Complete when the
	// file ends with its end record.
	Truncated, Complete bool

	mu     sync.Mutex // guards what follows, up to snap
	pos    int        // events folded so far
	state  *trace.State
	paused bool
	speed  float64
	clock  int64   // virtual time shown, µs
	posT   int64   // the time of the last event folded, µs (0 before any)
	fold   *cursor // reads the lines from pos on, once placed
	probe  *cursor // reads the lines of one block, for their times
	times  []int64 // the times of the events of block tblock
	tblock int     // the block times holds, or -1
	dec    trace.Decoder
	broken error // why the file could not be read again, if it could not

	snap   atomic.Pointer[trace.Snapshot]
	done   chan struct{}
	exited chan struct{}
	once   sync.Once

	// The timeout bars: the timers found by re-running the recording (RerunTimers)
	// in the background, or why there are none (note, under mu).
	timers    atomic.Pointer[Timers]
	note      string
	timersRan chan struct{}
	// firstAlert is the time of the recording's first alert (µs), or -1.
	firstAlert int64
}

// FirstAlert is the virtual time (µs) of the recording's first alert, if it has one.
func (r *Replay) FirstAlert() (int64, bool) { return r.firstAlert, r.firstAlert >= 0 }

// block is where an event's line starts in the content and its time.
type block struct {
	off int64
	t   int64
}

// mark is a marked event: its number (from 0) and its time.
type mark struct {
	i int
	t int64
}

// checkpoint is the state after some events, and the time of the last of them.
type checkpoint struct {
	st *trace.State
	t  int64
}

// OpenReplay reads and checks a recording (see openTrace), indexing it and folding
// it into checkpoints as it goes, paused at the start. Each event is folded once
// the reader has checked it; a file that fails a check further on is refused whole.
// The file stays open until Close.
func OpenReplay(path string) (*Replay, error) {
	src, content, err := openSource(path)
	if err != nil {
		return nil, err
	}
	r, err := indexReplay(path, src, content)
	if err != nil {
		src.Close()
		return nil, err
	}
	r.state = r.cps[0].st.Clone()
	r.publish()
	go r.loop()
	go r.rerun()
	return r, nil
}

// indexReplay reads the recording whole, once, and builds the replay's index.
func indexReplay(path string, src *source, content io.Reader) (*Replay, error) {
	rd, err := trace.NewReader(content, path, ResolveHeader(path))
	if err != nil {
		return nil, err
	}
	// The state folded, the one shown and a checkpoint, at first.
	if err := needFold(path, rd.Header, 3); err != nil {
		return nil, err
	}
	r := &Replay{Name: path, Header: rd.Header, src: src, paused: true, speed: 1, tblock: -1, firstAlert: -1,
		done: make(chan struct{}), exited: make(chan struct{}), timersRan: make(chan struct{})}
	x := r.newIndexer(checkpointEvery)
	for {
		e, err := rd.Scan()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if r.n%blockEvents == 0 {
			r.blocks = append(r.blocks, block{off: rd.Offset(), t: e.T})
		}
		if e.Ev == trace.Alert && r.firstAlert < 0 {
			r.firstAlert = e.T
		}
		if err := x.add(r.n, e); err != nil {
			return nil, err
		}
		r.n++
		r.last = e.T
	}
	r.Truncated, r.Complete = rd.Truncated, rd.End != nil
	r.fold, r.probe = newCursor(src), newCursor(src)
	return r, nil
}

// indexer folds a recording's events in order for its Replay: it notes the marks,
// and keeps a state every r.every events (r.cps), at most r.most + 1 of them: past
// that, r.every doubles and every other state goes.
type indexer struct {
	r       *Replay
	st      *trace.State
	leaders map[node.ID]node.ID // each node's believed leader, to find changes; looked up only
}

// newIndexer starts the replay's marks and states again, a state every events.
func (r *Replay) newIndexer(every int) *indexer {
	r.every, r.marks, r.most = every, nil, checkpointsFor(len(r.Header.Info.IDs))
	st := trace.NewState(r.Header)
	r.cps = []checkpoint{{st: st.Clone()}}
	return &indexer{r: r, st: st, leaders: map[node.ID]node.ID{}}
}

// add folds event i. It refuses to keep one more state when the memory budget
// cannot hold it.
func (x *indexer) add(i int, e *trace.Event) error {
	r := x.r
	switch e.Ev {
	case trace.Marker, trace.Alert, trace.Crash, trace.Recover, trace.Partition, trace.Heal, trace.GST, trace.Isolate, trace.Cut:
		r.marks = append(r.marks, mark{i, e.T})
	case trace.StatusEv:
		if old, ok := x.leaders[e.Node]; ok && old != e.Status.Leader && e.Status.Leader != node.None {
			r.marks = append(r.marks, mark{i, e.T})
		}
		x.leaders[e.Node] = e.Status.Leader
	}
	x.st.Apply(e)
	if (i+1)%r.every != 0 {
		return nil
	}
	if err := needFold(r.Name, r.Header, 1); err != nil {
		return err
	}
	r.cps = append(r.cps, checkpoint{x.st.Clone(), e.T})
	if len(r.cps) > r.most+1 {
		// cps[k] is the state after k·every events: the even ones are those
		// after k/2·(2·every).
		n := 0
		for k := 0; k < len(r.cps); k += 2 {
			r.cps[n] = r.cps[k]
			n++
		}
		clear(r.cps[n:])
		r.cps, r.every = r.cps[:n], 2*r.every
	}
	return nil
}

// rerun finds the timers for the timeout bars by re-running the recording, beside
// the playback, and shows them once it has them. A re-run that is not the
// recording leaves the bars out and says why in Note.
func (r *Replay) rerun() {
	defer close(r.timersRan)
	c := newCursor(r.src)
	defer c.Close()
	var broken error
	line := func(i int) []byte {
		if broken == nil && c.line != i {
			broken = r.place(c, i)
		}
		if broken != nil {
			return nil
		}
		l, err := c.next()
		broken = err
		return l
	}
	t, err := RerunTimers(r.Name, r.Header, r.n, line, r.done)
	select {
	case <-r.done:
		return
	default:
	}
	if broken != nil {
		err = broken
	}
	if err != nil {
		r.mu.Lock()
		r.note = err.Error() + ": no timeout bars"
		r.mu.Unlock()
		return
	}
	if t != nil {
		r.timers.Store(t)
		r.publish()
	}
}

// place makes c read line i next: from the place the index keeps before it.
func (r *Replay) place(c *cursor, i int) error {
	b := i / blockEvents
	if c.line < 0 || c.line > i || c.line < b*blockEvents {
		if err := c.place(r.blocks[b].off, b*blockEvents); err != nil {
			return err
		}
	}
	for c.line < i {
		if _, err := c.next(); err != nil {
			return err
		}
	}
	return nil
}

// TimersRan is closed once the re-run that finds the timeout bars is over (see
// Note for how it went).
func (r *Replay) TimersRan() <-chan struct{} { return r.timersRan }

// Note is why the replay shows no timeout bars when the re-run of the recording
// failed, or why it stopped reading the file (one line), or "".
func (r *Replay) Note() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.broken != nil {
		return r.broken.Error()
	}
	return r.note
}

// Len is the number of events.
func (r *Replay) Len() int { return r.n }

// End is the virtual time of the last event, µs.
func (r *Replay) End() int64 { return r.last }

// Marks lists the times of markers, faults, alerts and leader changes, µs.
func (r *Replay) Marks() []int64 {
	out := make([]int64, len(r.marks))
	for i, m := range r.marks {
		out[i] = m.t
	}
	return out
}

// Pos is how many events are folded, and the virtual time shown.
func (r *Replay) Pos() (int, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pos, r.clock
}

// foldTo moves the state to exactly n events folded, reading their lines from the
// file. Call with mu held.
func (r *Replay) foldTo(n int) {
	n = max(0, min(n, r.n))
	if n < r.pos || n-r.pos > r.every {
		c := min(n/r.every, len(r.cps)-1)
		if c*r.every > r.pos || n < r.pos {
			r.state = r.cps[c].st.Clone()
			r.pos, r.posT = c*r.every, r.cps[c].t
		}
	}
	if r.pos < n && r.broken == nil {
		r.broken = r.place(r.fold, r.pos)
	}
	for ; r.pos < n && r.broken == nil; r.pos++ {
		line, err := r.fold.next()
		if err != nil {
			r.broken = err
			break
		}
		e, err := r.dec.Decode(line)
		if err != nil {
			r.broken = err // checked when opened: the file changed since
			break
		}
		r.state.Apply(e)
		r.posT = e.T
	}
	r.clock = r.posT
}

// upTo is the number of events at or before virtual time t (µs). Call with mu held.
func (r *Replay) upTo(t int64) int {
	b := sort.Search(len(r.blocks), func(k int) bool { return r.blocks[k].t > t })
	switch {
	case b == 0:
		return 0
	case t >= r.last:
		return r.n
	}
	times := r.blockTimes(b - 1)
	return (b-1)*blockEvents + sort.Search(len(times), func(k int) bool { return times[k] > t })
}

// blockTimes is the times of the events of block b, read from the file once for
// the searches that follow (playback searches the same block frame after frame).
// Call with mu held.
func (r *Replay) blockTimes(b int) []int64 {
	if r.tblock == b || r.broken != nil {
		return r.times
	}
	r.times, r.tblock = r.times[:0], b
	if r.broken = r.place(r.probe, b*blockEvents); r.broken != nil {
		return r.times
	}
	var d trace.Decoder
	for i := b * blockEvents; i < min(r.n, (b+1)*blockEvents); i++ {
		line, err := r.probe.next()
		if err != nil {
			r.broken = err
			break
		}
		e, err := d.Decode(line)
		if err != nil {
			r.broken = err
			break
		}
		r.times = append(r.times, e.T)
	}
	return r.times
}

// SeekTime shows the state at virtual time t (µs): every event at or before t.
func (r *Replay) SeekTime(t int64) {
	r.mu.Lock()
	r.foldTo(r.upTo(t))
	r.clock = max(0, min(t, r.End()))
	r.mu.Unlock()
	r.publish()
}

// StepEvents moves by d events (negative: back).
func (r *Replay) StepEvents(d int) {
	r.mu.Lock()
	r.foldTo(r.pos + d)
	r.mu.Unlock()
	r.publish()
}

// NextMark moves to the next (dir > 0) or previous (dir < 0) marker, fault, alert
// or leader change, and reports whether there was one.
func (r *Replay) NextMark(dir int) bool {
	r.mu.Lock()
	pos := r.pos
	r.mu.Unlock()
	target := -1
	if dir > 0 {
		for _, m := range r.marks {
			if m.i >= pos {
				target = m.i + 1
				break
			}
		}
	} else {
		for i := len(r.marks) - 1; i >= 0; i-- {
			if r.marks[i].i+1 < pos {
				target = r.marks[i].i + 1
				break
			}
		}
	}
	if target < 0 {
		return false
	}
	r.mu.Lock()
	r.foldTo(target)
	r.mu.Unlock()
	r.publish()
	return true
}

func (r *Replay) publish() {
	r.mu.Lock()
	s := r.state.Snapshot()
	s.T = r.clock
	r.timers.Load().Fill(s)
	r.snap.Store(s) // under mu, so that a later picture is never replaced by an earlier one
	r.mu.Unlock()
}

const replayFrame = 33 * time.Millisecond

func (r *Replay) loop() {
	defer close(r.exited)
	t := time.NewTicker(replayFrame)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-r.done:
			return
		case now := <-t.C:
			el := now.Sub(last)
			last = now
			r.mu.Lock()
			if r.paused || r.pos >= r.n {
				r.mu.Unlock()
				continue
			}
			target := r.clock + int64(float64(el/time.Microsecond)*r.speed)
			r.foldTo(r.upTo(target))
			r.clock = min(target, r.End())
			r.mu.Unlock()
			r.publish()
		}
	}
}

// Snapshot is the picture at the current position.
func (r *Replay) Snapshot() *trace.Snapshot { return r.snap.Load() }

// Do refuses: a recording cannot be changed.
func (r *Replay) Do(string) error {
	return errors.New("this is a replay: actions cannot change a recording")
}

// SetPaused pauses or plays.
func (r *Replay) SetPaused(p bool) {
	r.mu.Lock()
	r.paused = p
	r.mu.Unlock()
}

// Paused reports whether playback is stopped.
func (r *Replay) Paused() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.paused
}

// Step shows one more event.
func (r *Replay) Step() { r.StepEvents(1) }

// SetSpeed sets the playback speed (virtual seconds per wall second); 0 plays as fast
// as the frames allow.
func (r *Replay) SetSpeed(x float64) {
	if x == 0 {
		x = 1000
	}
	r.mu.Lock()
	r.speed = min(max(x, 0.01), 1000)
	r.mu.Unlock()
}

// Speed is the playback speed.
func (r *Replay) Speed() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.speed
}

// Recording is empty: a replay records nothing.
func (r *Replay) Recording() string { return "" }

// ToggleRecording refuses.
func (r *Replay) ToggleRecording() (string, error) {
	return "", errors.New("this is a replay: it is a recording already")
}

// Close stops playback.
func (r *Replay) Close() error {
	r.once.Do(func() {
		close(r.done)
		<-r.exited
		<-r.timersRan
		r.fold.Close()
		r.probe.Close()
		r.src.Close()
	})
	return nil
}
