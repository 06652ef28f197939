package session

import (
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// checkpointEvery is how many events lie between two kept states, at least:
// seeking folds at most that many events from the nearest one. A long recording
// keeps at most maxCheckpoints states, further apart (a power of two times
// checkpointEvery): a state of a 400-node mesh is megabytes, and a 730 MB
// recording of one (6.5 million events) kept 1,600 of them.
const (
	checkpointEvery = 4096
	maxCheckpoints  = 64
)

// Replay plays a recording back for the dashboard: no world runs, the events are
// folded into snapshots. It keeps the raw lines and a folded state every
// checkpointEvery events, so it can seek anywhere quickly.
type Replay struct {
	Header trace.Header
	Name   string

	lines lineStore // raw event lines
	times []int64   // each line's virtual time, µs
	marks []int     // indices of markers, faults, alerts and leader changes
	cps   []*trace.State
	every int // events between two of cps
	// Truncated is set when the file's last line was cut short; Complete when the
	// file ends with its end record.
	Truncated, Complete bool

	mu     sync.Mutex // guards pos, state, paused, speed, clock
	pos    int        // events folded so far
	state  *trace.State
	paused bool
	speed  float64
	clock  int64 // virtual time shown, µs

	snap   atomic.Pointer[trace.Snapshot]
	done   chan struct{}
	exited chan struct{}
	once   sync.Once

	// The timeout bars: the timers found by re-running the recording (RerunTimers)
	// in the background, or why there are none (note, under mu).
	timers    atomic.Pointer[Timers]
	note      string
	timersRan chan struct{}
}

// OpenReplay reads and checks a recording (see openTrace) and folds it into
// checkpoints as it goes, paused at the start. Each event is folded once the
// reader has checked it; a file that fails a check further on is refused whole.
func OpenReplay(path string) (*Replay, error) {
	r := &Replay{Name: path, paused: true, speed: 1, done: make(chan struct{}), exited: make(chan struct{}), timersRan: make(chan struct{})}
	tf, err := openTrace(path)
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	r.Header = tf.Header
	x := r.newIndexer(checkpointEvery)
	if err := tf.Each(func(e *trace.Event) error {
		x.add(r.lines.len(), e)
		r.lines.add(tf.Raw())
		r.times = append(r.times, e.T)
		return nil
	}); err != nil {
		return nil, err
	}
	r.Truncated, r.Complete = tf.Truncated, tf.End != nil
	r.state = r.cps[0].Clone()
	r.publish()
	go r.loop()
	go r.rerun()
	return r, nil
}

// indexer folds a recording's events in order for its Replay: it notes the marks,
// and keeps a state every r.every events (r.cps), at most maxCheckpoints + 1 of
// them: past that, r.every doubles and every other state goes.
type indexer struct {
	r       *Replay
	st      *trace.State
	leaders map[node.ID]node.ID // each node's believed leader, to find changes; looked up only
}

// newIndexer starts the replay's marks and states again, a state every events.
func (r *Replay) newIndexer(every int) *indexer {
	r.every, r.marks = every, nil
	st := trace.NewState(r.Header)
	r.cps = []*trace.State{st.Clone()}
	return &indexer{r: r, st: st, leaders: map[node.ID]node.ID{}}
}

// add folds event i.
func (x *indexer) add(i int, e *trace.Event) {
	r := x.r
	switch e.Ev {
	case trace.Marker, trace.Alert, trace.Crash, trace.Recover, trace.Partition, trace.Heal, trace.GST, trace.Isolate, trace.Cut:
		r.marks = append(r.marks, i)
	case trace.StatusEv:
		if old, ok := x.leaders[e.Node]; ok && old != e.Status.Leader && e.Status.Leader != node.None {
			r.marks = append(r.marks, i)
		}
		x.leaders[e.Node] = e.Status.Leader
	}
	x.st.Apply(e)
	if (i+1)%r.every != 0 {
		return
	}
	r.cps = append(r.cps, x.st.Clone())
	if len(r.cps) > maxCheckpoints+1 {
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
}

// rerun finds the timers for the timeout bars by re-running the recording, beside
// the playback, and shows them once it has them. A re-run that is not the
// recording leaves the bars out and says why in Note.
func (r *Replay) rerun() {
	defer close(r.timersRan)
	t, err := RerunTimers(r.Name, r.Header, r.lines.len(), r.lines.line, r.done)
	select {
	case <-r.done:
		return
	default:
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

// TimersRan is closed once the re-run that finds the timeout bars is over (see
// Note for how it went).
func (r *Replay) TimersRan() <-chan struct{} { return r.timersRan }

// Note is why the replay shows no timeout bars when the re-run of the recording
// failed (one line), or "".
func (r *Replay) Note() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.note
}

// Len is the number of events.
func (r *Replay) Len() int { return r.lines.len() }

// End is the virtual time of the last event, µs.
func (r *Replay) End() int64 {
	if len(r.times) == 0 {
		return 0
	}
	return r.times[len(r.times)-1]
}

// Marks lists the times of markers, faults, alerts and leader changes, µs.
func (r *Replay) Marks() []int64 {
	out := make([]int64, len(r.marks))
	for i, m := range r.marks {
		out[i] = r.times[m]
	}
	return out
}

// Pos is how many events are folded, and the virtual time shown.
func (r *Replay) Pos() (int, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pos, r.clock
}

// foldTo moves the state to exactly n events folded. Call with mu held.
func (r *Replay) foldTo(n int) {
	n = max(0, min(n, r.lines.len()))
	if n < r.pos || n-r.pos > r.every {
		c := n / r.every
		if c >= len(r.cps) {
			c = len(r.cps) - 1
		}
		if c*r.every > r.pos || n < r.pos {
			r.state = r.cps[c].Clone()
			r.pos = c * r.every
		}
	}
	for ; r.pos < n; r.pos++ {
		var e trace.Event
		json.Unmarshal(r.lines.line(r.pos), &e) // checked when opened
		r.state.Apply(&e)
	}
	if n > 0 {
		r.clock = r.times[n-1]
	} else {
		r.clock = 0
	}
}

// SeekTime shows the state at virtual time t (µs): every event at or before t.
func (r *Replay) SeekTime(t int64) {
	n := sort.Search(len(r.times), func(i int) bool { return r.times[i] > t })
	r.mu.Lock()
	r.foldTo(n)
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
			if m >= pos {
				target = m + 1
				break
			}
		}
	} else {
		for i := len(r.marks) - 1; i >= 0; i-- {
			if r.marks[i]+1 < pos {
				target = r.marks[i] + 1
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
			if r.paused || r.pos >= r.lines.len() {
				r.mu.Unlock()
				continue
			}
			target := r.clock + int64(float64(el/time.Microsecond)*r.speed)
			n := sort.Search(len(r.times), func(i int) bool { return r.times[i] > target })
			r.foldTo(n)
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
	})
	return nil
}
