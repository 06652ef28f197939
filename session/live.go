package session

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// Live runs a world in its own goroutine, paced against the wall clock, and publishes
// an immutable snapshot for the dashboard after each slice of work. The dashboard
// never waits for the simulation and the simulation never waits for the screen:
// they meet only at an atomic pointer and a command channel.
//
// User actions are applied at the world's current virtual instant and recorded, so a
// live session replays exactly.
type Live struct {
	scn *presets.Scenario
	cfg netsim.Config

	snap   atomic.Pointer[trace.Snapshot]
	cmds   chan func()
	wake   chan struct{} // resumes a paused loop
	done   chan struct{}
	exited chan struct{}
	closed sync.Once

	// Owned by the loop goroutine.
	w     *netsim.World
	state *trace.State
	fold  *foldSink // folds the world's events into state, counting them
	rec   *trace.Recorder
	out   *Output // the recording started with R, named when it ends
	file  string
	bg    *backfill // R's recording of the past, being written
	lag   time.Duration
	pace  pacer // the rate the world really runs at
	steps int   // runStep calls so far, for tests
	// published is how many events the last picture folded (fold.n then)
	published uint64
	// step is the virtual time one RunUntil covers, adapted so that one takes a
	// small part of wallSlice: a 1,000-node mesh handles millions of events in
	// 50 ms of virtual time, and a key waits for the step under way
	step time.Duration

	mu      sync.Mutex // guards the fields the dashboard and a backfill read
	paused  bool
	speed   float64
	recAt   string
	err     error          // why the world stopped early (an event storm), or nil
	now     time.Duration  // the world's instant at the last frame
	actions []netsim.Timed // the user actions so far, for a backfill
	written float64        // how much of the past a backfill has written, 0 to 1
	rate    float64        // the pacer's rate and behind, as of the last frame
	behind  bool
	events  uint64 // events folded so far, as of the last frame
	// pauseAt is an instant the loop pauses at (0: none), and storyStops says
	// that it pauses just after each story line (a scripted marker) too
	pauseAt    time.Duration
	storyStops bool
	forked     *ForkedFrom // where a fork came from (Fork), or nil
	// recErr is why the recording stopped early (a full disk), or nil (Note)
	recErr    error
	forkNote  string // why a saved fork is not a scenario's run (ForkNote)
	forkSaved string // the name it was saved under (ForkSaved)
}

// LiveOptions configure a live session.
type LiveOptions struct {
	Record string  // record from the start to this file ("" for none)
	Force  bool    // overwrite Record if it exists
	Speed  float64 // virtual seconds per wall second; 0 is as fast as possible
	Paused bool
}

// NewLive starts the world for s and its loop.
func NewLive(s *presets.Scenario, cfg netsim.Config, opts LiveOptions) (*Live, error) {
	return newLive(s, cfg, opts, func(l *Live) error {
		if opts.Record == "" {
			return l.startWorld(nil)
		}
		// Written to NAME.partial until the recording ends (CreateRecording).
		out, err := CreateRecording(opts.Record, opts.Force)
		if err != nil {
			return err
		}
		if err := l.startWorld(out); err != nil {
			out.Abort()
			return err
		}
		return nil
	})
}

// newLive makes a live session whose world start builds (see startWorld), and
// starts its loop.
func newLive(s *presets.Scenario, cfg netsim.Config, opts LiveOptions, start func(*Live) error) (*Live, error) {
	l := &Live{scn: s, cfg: cfg, step: time.Millisecond, cmds: make(chan func(), 64), wake: make(chan struct{}, 1), done: make(chan struct{}), exited: make(chan struct{}), speed: opts.Speed, paused: opts.Paused}
	if err := start(l); err != nil {
		return nil, err
	}
	l.publish()
	go l.loop()
	return l, nil
}

// startWorld builds the world from the scenario, recording into out if given.
func (l *Live) startWorld(out *Output) error {
	hdr := Header(l.scn, l.cfg)
	state := trace.NewState(hdr)
	l.fold = &foldSink{st: state}
	var sink trace.Sink = l.fold
	var rec *trace.Recorder
	name := ""
	if out != nil {
		var err error
		if rec, err = Record(out, l.scn, l.cfg); err != nil {
			return err
		}
		sink = trace.Multi(l.fold, rec)
		name = out.Path()
	}
	w, err := netsim.New(l.cfg, sink)
	if err != nil {
		if rec != nil {
			rec.Close()
		}
		return err
	}
	w.SetInterrupt(l.waiting)
	l.w, l.state, l.rec, l.out, l.file = w, state, rec, out, name
	l.setRecording(name, 1)
	return nil
}

// waiting reports whether a command waits for the loop: the world's interrupt, so
// that a key waits for a slice of a dense instant, not for all of it.
func (l *Live) waiting() bool { return len(l.cmds) > 0 }

const (
	frame     = 50 * time.Millisecond  // the snapshot rate: 20 a second, the dashboard's
	idleFrame = 500 * time.Millisecond // the same, with nothing pending
	maxSlice  = 50 * time.Millisecond  // virtual time per slice at most
	wallSlice = 40 * time.Millisecond  // wall time spent computing per frame, at most
	// maxLagWall is how much wall time's worth of virtual time (at the speed
	// chosen) a slow machine may owe: at ×1 one virtual second, at ×1000 a
	// thousand, so that a fast speed is not capped by what one frame may owe
	maxLagWall = time.Second
	// rateWindow is the wall time over which the real rate is measured
	rateWindow = time.Second
)

// loop advances the world a frame at a time while running and sleeps while paused:
// a paused session costs nothing. Each frame's work is bounded by wallSlice, so a
// command never waits longer than a frame, whatever the speed. A frame does the
// work the clock asks for and then sleeps until the next one: it never spins on
// an instant it cannot reach.
func (l *Live) loop() {
	defer close(l.exited)
	tick := time.NewTicker(frame)
	defer tick.Stop()
	period := frame
	// a world with nothing pending only moves its clock: a frame a half second
	// is enough, until a command may have given it something to do
	setPeriod := func(d time.Duration) {
		if d != period {
			period = d
			tick.Reset(d)
		}
	}
	last := time.Now()
	for {
		// A command (a key) goes before the next frame's computing, which may hold
		// a dense instant: the select below alone would pick either at random.
		select {
		case f := <-l.cmds:
			f()
			setPeriod(frame)
			continue
		default:
		}
		l.mu.Lock()
		paused := l.paused
		l.mu.Unlock()
		// a world stopped by the storm guard is over: no more frames, so the
		// clock stays at the instant it stopped
		var frames <-chan time.Time
		if !paused && l.w.Err() == nil {
			frames = tick.C
		}
		select {
		case <-l.done:
			return
		case f := <-l.cmds:
			f()
			setPeriod(frame)
		case <-l.wake:
			last = time.Now() // the pause does not count as elapsed time
			l.pace.restart(last, l.w.Now())
			setPeriod(frame)
		case <-frames:
			// the time the tick holds may be stale: a ticker keeps one tick while
			// nobody reads it (a pause), and taking it as the last frame's time
			// would owe the whole pause to the next frame (a jump of a second)
			now := time.Now()
			el := max(now.Sub(last), 0)
			last = now
			l.mu.Lock()
			paused, speed := l.paused, l.speed
			l.mu.Unlock()
			if !paused {
				l.advance(el, speed)
				l.pace.frame(time.Now(), l.w.Now(), speed, l.lag)
			}
			l.publish()
			if _, pending := l.w.NextTime(); pending || l.bg != nil {
				setPeriod(frame)
			} else {
				setPeriod(idleFrame)
			}
		}
	}
}

// advance moves virtual time on by el×speed, whether or not anything is pending:
// the clock is honest. At full speed (0) it computes for wallSlice; at any speed it
// stops after wallSlice, or at once when a command waits (a key is not kept
// waiting for the rest of a frame), and owes the rest (up to maxLagWall's worth) to
// the next frame. While R writes the past at full speed, the present waits for it
// to catch up.
//
// The world's clock moves in whole microseconds: the target is one too, and the
// fraction below it is owed to the next frame. A target in nanoseconds is never
// reached (the world stops at the microsecond under it), and the frame would spin
// to the end of its slice asking for it.
func (l *Live) advance(el time.Duration, speed float64) {
	start := time.Now()
	if l.w.Err() != nil {
		return // the world stopped on the storm guard and does nothing more
	}
	stop, stops := l.nextStop()
	defer func() {
		if stops && l.w.Now() >= stop {
			l.mu.Lock()
			l.paused = true
			if stop == l.pauseAt {
				l.pauseAt = 0
			}
			l.mu.Unlock()
			l.lag = 0
		}
	}()
	if speed <= 0 {
		if l.bg != nil {
			return
		}
		for time.Since(start) < wallSlice && l.w.Err() == nil && len(l.cmds) == 0 && (!stops || l.w.Now() < stop) {
			t := l.w.Now() + maxSlice
			if stops {
				t = min(t, stop)
			}
			l.runStep(t)
		}
		return
	}
	owed := min(l.lag+time.Duration(float64(el)*speed), time.Duration(float64(maxLagWall)*speed))
	from := l.w.Now()
	target := (from + owed).Truncate(time.Microsecond)
	if stops {
		target = min(target, stop)
	}
	for l.w.Now() < target && time.Since(start) < wallSlice && l.w.Err() == nil && len(l.cmds) == 0 {
		l.runStep(target)
	}
	l.lag = from + owed - l.w.Now()
}

// nextStop is the next instant the loop pauses at, if any: the one PauseAt set,
// or, with story stops on, just after the next scripted marker (the instant after
// its own, so that the line is on screen when the run stops). The world stops
// there exactly, whatever the speed and however late the frames come.
func (l *Live) nextStop() (time.Duration, bool) {
	l.mu.Lock()
	stop, stories := l.pauseAt, l.storyStops
	l.mu.Unlock()
	now := l.w.Now()
	ok := stop > now
	if !ok {
		stop = 0
	}
	if stories {
		for _, a := range l.cfg.Script {
			if at := a.At.Truncate(time.Microsecond) + time.Microsecond; a.Action.Verb == "marker" && at > now && (!ok || at < stop) {
				stop, ok = at, true
			}
		}
	}
	return stop, ok
}

// PauseAt makes the run pause when its clock reaches t (a test's way to stop at
// an exact instant at full speed; 0 forgets it).
func (l *Live) PauseAt(t time.Duration) {
	l.mu.Lock()
	l.pauseAt = t.Truncate(time.Microsecond)
	l.mu.Unlock()
}

// SetStoryStops makes the run pause just after each story line, the instant its
// marker is taken (tui.StoryStopper: P in the dashboard, for lectures).
func (l *Live) SetStoryStops(on bool) {
	l.mu.Lock()
	l.storyStops = on
	l.mu.Unlock()
}

// runStep runs the world to at most t, a step on, and adapts the step to what it
// cost: at once in proportion when it took more than stepWall (a burst must not
// cost frame after frame), doubled when it took under a quarter of that. A step
// never covers more than the events pending allow (stepCap): a quiet start must
// not grow a step that the first burst then fills with millions of events. Slices
// give the same trace as one run, so the step changes when things happen on the
// wall clock, never what happens.
func (l *Live) runStep(t time.Duration) {
	l.steps++
	step := min(l.step, l.stepCap())
	t = min(t, l.w.Now()+step)
	whole := t-l.w.Now() >= step
	t0 := time.Now()
	l.w.RunUntil(t)
	switch took := time.Since(t0); {
	case took > stepWall:
		l.step = max(time.Duration(float64(step)*float64(stepWall)/float64(took)), time.Microsecond)
	case took < stepWall/4 && whole:
		l.step = min(step*2, maxSlice)
	}
}

// stepWall is the wall time one step aims at: a command waits at most for the
// step under way.
const stepWall = wallSlice / 4

// stepCap is the longest step the pending events allow: maxSlice up to 2,000
// pending, and less in proportion beyond (a 1,000-node mesh holds about 100,000).
func (l *Live) stepCap() time.Duration {
	return max(time.Microsecond, maxSlice*2000/time.Duration(max(l.w.Pending(), 2000)))
}

// foldSink folds events into a State and counts them: a frame in which nothing
// happened publishes its picture without copying the state again.
type foldSink struct {
	st *trace.State
	n  uint64
}

func (f *foldSink) Record(e *trace.Event) {
	f.st.Apply(e)
	f.n++
}

// deadlineNodes is the largest cluster whose timers a snapshot carries for the
// timeout bars: a detector's next suspicion is found among all its peers, and no
// screen shows the bars of more nodes.
const deadlineNodes = 256

// publish stores the picture of now. Its time is the world's clock, not the last
// event's, and it says when nothing is pending.
func (l *Live) publish() {
	now := l.w.Now()
	_, pending := l.w.NextTime()
	if prev := l.snap.Load(); prev != nil && l.fold.n == l.published && prev.Idle == !pending {
		// nothing happened since the last picture: the same one, later (its
		// slices are shared, and no one writes to a published picture)
		s := *prev
		s.T = max(s.T, now.Microseconds())
		l.snap.Store(&s)
	} else {
		s := l.state.Snapshot()
		s.T = max(s.T, now.Microseconds())
		s.Idle = !pending
		if len(s.Nodes) <= deadlineNodes {
			for i := range s.Nodes {
				s.Nodes[i].Status.Deadline = l.w.Deadline(s.Nodes[i].ID)
			}
		}
		l.snap.Store(s)
		l.published = l.fold.n
	}
	if l.rec != nil {
		// A paused world records nothing more: what it did so far goes to the
		// file now, not when a batch fills.
		l.rec.Flush()
		if l.rec.Err() != nil {
			// a full disk: the recording stops at once, kept as NAME.partial,
			// and the dashboard says so (Note) instead of showing REC on
			err := l.endRecording(trace.EndInterrupted)
			l.mu.Lock()
			l.recErr = err
			l.mu.Unlock()
		}
	}
	l.mu.Lock()
	l.now = now
	l.err = l.w.Err()
	l.rate, l.behind = l.pace.rate, l.pace.behind
	l.events = l.fold.n
	if k := len(l.w.UserActions()); k != len(l.actions) {
		l.actions = append(l.actions, l.w.UserActions()[len(l.actions):]...)
	}
	l.mu.Unlock()
}

// Snapshot is the latest picture.
func (l *Live) Snapshot() *trace.Snapshot { return l.snap.Load() }

// Err is why the world stopped before its end (the storm guard's "event storm: …"
// line, as sim prints it), or nil while it runs.
func (l *Live) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// errStopped refuses actions on a world that stopped on the storm guard: it would
// record them, but nothing follows from them any more.
var errStopped = errors.New("the run has stopped on an event storm; actions have no effect")

// Do parses cmd in the action grammar and applies it at the current instant.
func (l *Live) Do(cmd string) error {
	a, err := netsim.ParseAction(cmd, l.cfg.IDs)
	if err != nil {
		return err
	}
	var stopped error
	if err := l.run(func() {
		if l.w.Err() != nil {
			stopped = errStopped
			return
		}
		l.w.Do(a)
	}); err != nil {
		return err
	}
	return stopped
}

// Queue is Do without the wait: the action is parsed at once and applied by the
// loop, in order, at the world's instant when it gets to it. The dashboard acts
// through it, so that a key never waits on a world busy with a dense instant (the
// synchronized heartbeats of a 1,000-node mesh take seconds to compute); the effect
// shows in the first snapshot after.
func (l *Live) Queue(cmd string) error {
	a, err := netsim.ParseAction(cmd, l.cfg.IDs)
	if err != nil {
		return err
	}
	if l.Err() != nil {
		return errStopped
	}
	select {
	case l.cmds <- func() {
		if l.w.Err() == nil {
			l.w.Do(a)
		}
		l.publish()
	}:
		return nil
	case <-l.done:
		return errors.New("the session is closed")
	}
}

// run hands f to the loop and waits until it has run, so that the next snapshot
// shows its effect.
func (l *Live) run(f func()) error {
	ran := make(chan struct{})
	select {
	case l.cmds <- func() { f(); l.publish(); close(ran) }:
	case <-l.done:
		return errors.New("the session is closed")
	}
	select {
	case <-ran:
	case <-l.done:
	}
	return nil
}

// SetPaused pauses or resumes virtual time.
func (l *Live) SetPaused(p bool) {
	l.mu.Lock()
	l.paused = p
	l.mu.Unlock()
	if !p {
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
}

// Note is why the recording stopped, if a write failed (a full disk): the
// dashboard shows it once (tui.Noter).
func (l *Live) Note() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.recErr == nil {
		return ""
	}
	return l.recErr.Error()
}

// Rate is how many virtual seconds really passed per wall second over the last
// second of running (0 before a whole second has run since the start or a
// pause), and whether that falls short of the speed asked for: the world cannot
// keep up.
func (l *Live) Rate() (float64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.paused {
		return 0, false
	}
	return l.rate, l.behind
}

// lineBytes is what an event of a recording takes, about: a heartbeat's delivery
// is 95 bytes, a timer's 60, a status's 150 (measured on the presets' recordings).
const lineBytes = 90

// PastSize is how many events the session has had so far and, about, how many
// bytes R would write to record them (tui.Sizer): R asks before writing a long
// past.
func (l *Live) PastSize() (uint64, int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.events, int64(l.events) * lineBytes
}

// Paused reports whether virtual time is stopped.
func (l *Live) Paused() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.paused
}

// Step advances to the next instant at which anything happens and handles all of
// it, while paused. Stepping by whole instants keeps user actions between instants,
// where a replay puts them back exactly. Virtual time ticks in microseconds and
// delays are random, so an instant almost always holds a single event.
func (l *Live) Step() {
	l.run(func() {
		if t, ok := l.w.NextTime(); ok {
			l.w.RunWhole(t + time.Microsecond)
		}
	})
}

// SetSpeed sets virtual seconds per wall second (0: as fast as possible); it is
// kept within 0.01 and 1000.
func (l *Live) SetSpeed(x float64) {
	if x != 0 {
		x = min(max(x, 0.01), 1000)
	}
	l.mu.Lock()
	l.speed = x
	l.mu.Unlock()
}

// Speed is the current speed.
func (l *Live) Speed() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.speed
}

// Recording is the file being recorded to (or written), or "".
func (l *Live) Recording() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recAt
}

// Writing reports a recording whose past is still being written in the background,
// and how much of it is done (0 to 1).
func (l *Live) Writing() (string, float64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recAt, l.written, l.recAt != "" && l.written < 1
}

// ToggleRecording starts recording to a new file in the working directory, the
// whole session so far included, or ends the recording in progress. The past is
// written in the background (see backfill) while the session goes on; ending it
// before it has caught up cancels it, and no file is left.
func (l *Live) ToggleRecording() (string, error) {
	var name string
	var err error
	l.run(func() {
		switch {
		case l.bg != nil:
			name = l.bg.name
			l.cancelBackfill()
			err = errors.New("cancelled before the past was written; no file made")
		case l.rec != nil:
			name, err = l.file, l.endRecording(trace.EndQuit)
		default:
			name, err = l.startBackfill()
		}
	})
	return name, err
}

// endRecording closes the recording in progress with its end record at the world's
// current instant (reason: the dashboard was quit or the recording stopped, or a
// signal stopped the dashboard) and, for one started with R, gives the file its name.
func (l *Live) endRecording(reason string) error {
	// A recording ends between instants: a re-run stops there too.
	l.w.FinishInstant()
	// End and Close report the same first write error: said once
	err := l.rec.End(reason, node.Micros(l.w.Now()))
	if cerr := l.rec.Close(); err == nil {
		err = cerr
	}
	if l.out != nil {
		if err == nil {
			err = l.out.Commit()
		} else if kept := l.out.Keep(); kept != "" {
			// a full disk: what was written stays, for verify --partial
			err = fmt.Errorf("%w; %s keeps what was written before: `clusterlab verify --partial %s` reads it", err, kept, kept)
		}
	}
	l.rec, l.out, l.file = nil, nil, ""
	l.setRecording("", 0)
	return err
}

func (l *Live) setRecording(name string, written float64) {
	l.mu.Lock()
	l.recAt, l.written = name, written
	l.mu.Unlock()
}

// Flights lists every message in flight, in the order they were sent, from the
// world (tui.FlightLister): the dashboard selects one by its id however long
// ago it was sent, where its picture's recent events show only the latest.
func (l *Live) Flights() []trace.Flight {
	var out []trace.Flight
	l.run(func() { out = l.w.Flights() })
	return out
}

// UserActions lists the user actions so far.
func (l *Live) UserActions() []netsim.Timed {
	var out []netsim.Timed
	l.run(func() { out = append(out, l.w.UserActions()...) })
	return out
}

// Close stops the loop and the world and closes the recording, flushing it: the
// dashboard was quit.
func (l *Live) Close() error { return l.CloseFor(trace.EndQuit) }

// CloseFor is Close with the reason the recording's end record gives
// (trace.EndInterrupted when a signal stopped the dashboard).
func (l *Live) CloseFor(reason string) error {
	var err error
	l.closed.Do(func() {
		close(l.done)
		<-l.exited
		l.cancelBackfill()
		if l.rec != nil {
			err = l.endRecording(reason) // which may run the rest of an instant
		}
		if err == nil {
			err = l.recErr // a recording that failed earlier (Note)
		}
		l.w.Close()
	})
	return err
}
