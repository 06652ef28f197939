package session

import (
	"errors"
	"fmt"
	"os"
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
	done   chan struct{}
	exited chan struct{}
	closed sync.Once

	// Owned by the loop goroutine.
	w     *netsim.World
	state *trace.State
	rec   *trace.Recorder
	file  string

	mu     sync.Mutex // guards the fields the dashboard reads
	paused bool
	speed  float64
	recAt  string
	err    error
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
	l := &Live{scn: s, cfg: cfg, cmds: make(chan func(), 64), done: make(chan struct{}), exited: make(chan struct{}), speed: opts.Speed, paused: opts.Paused}
	if opts.Record != "" {
		f, err := Create(opts.Record, opts.Force)
		if err != nil {
			return nil, err
		}
		if err := l.startWorld(f, opts.Record); err != nil {
			return nil, err
		}
	} else if err := l.startWorld(nil, ""); err != nil {
		return nil, err
	}
	l.publish()
	go l.loop()
	return l, nil
}

// startWorld (re)builds the world from the scenario and the user actions so far,
// recording into f if given, and runs it up to the current instant. By determinism
// the new world is the old one, now with its whole past in the recording.
func (l *Live) startWorld(f *os.File, name string) error {
	var now time.Duration
	cfg := l.cfg
	if l.w != nil {
		now = l.w.Now()
		cfg.UserActions = append([]netsim.Timed(nil), l.w.UserActions()...)
	}
	hdr := Header(l.scn, cfg)
	state := trace.NewState(hdr)
	var sink trace.Sink = state
	var rec *trace.Recorder
	if f != nil {
		var err error
		if rec, err = trace.NewRecorder(compressFile(name, f), hdr); err != nil {
			f.Close()
			return err
		}
		sink = trace.Multi(state, rec)
	}
	w, err := netsim.New(cfg, sink)
	if err != nil {
		if rec != nil {
			rec.Close()
		}
		return err
	}
	w.RunUntil(now)
	if l.w != nil {
		l.w.Close()
	}
	l.w, l.state, l.rec, l.file = w, state, rec, name
	l.mu.Lock()
	l.recAt = name
	l.mu.Unlock()
	return nil
}

const (
	frame     = 33 * time.Millisecond // the snapshot rate: ~30 a second
	maxSlice  = 50 * time.Millisecond // virtual time per slice at full speed
	wallSlice = 20 * time.Millisecond // wall time spent computing per frame at full speed
)

func (l *Live) loop() {
	defer close(l.exited)
	tick := time.NewTicker(frame)
	defer tick.Stop()
	last := time.Now()
	for {
		select {
		case <-l.done:
			return
		case f := <-l.cmds:
			f()
			continue
		case now := <-tick.C:
			el := now.Sub(last)
			last = now
			l.mu.Lock()
			paused, speed := l.paused, l.speed
			l.mu.Unlock()
			if !paused {
				l.advance(el, speed)
			}
			l.publish()
		}
	}
}

func (l *Live) advance(el time.Duration, speed float64) {
	if speed > 0 {
		l.w.RunUntil(l.w.Now() + time.Duration(float64(el)*speed))
		return
	}
	start := time.Now()
	for time.Since(start) < wallSlice {
		l.w.RunUntil(l.w.Now() + maxSlice)
	}
}

func (l *Live) publish() { l.snap.Store(l.state.Snapshot()) }

// Snapshot is the latest picture.
func (l *Live) Snapshot() *trace.Snapshot { return l.snap.Load() }

// Do parses cmd in the action grammar and applies it at the current instant.
func (l *Live) Do(cmd string) error {
	a, err := netsim.ParseAction(cmd, l.cfg.IDs)
	if err != nil {
		return err
	}
	return l.run(func() { l.w.Do(a) })
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
			l.w.RunUntil(t + time.Microsecond)
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

// Recording is the file being recorded to, or "".
func (l *Live) Recording() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recAt
}

// ToggleRecording starts recording to a new file in the working directory (the whole
// session so far included) or stops the recording in progress.
func (l *Live) ToggleRecording() (string, error) {
	var name string
	var err error
	l.run(func() {
		if l.rec != nil {
			name, err = l.file, l.endRecording()
			l.rec, l.file = nil, ""
			l.mu.Lock()
			l.recAt = ""
			l.mu.Unlock()
			return
		}
		var f *os.File
		for i := 1; i < 1000; i++ {
			name = fmt.Sprintf("clusterlab-%s-%d-%d.jsonl", l.scn.Name, l.cfg.Seed, i)
			if f, err = Create(name, false); err == nil {
				break
			}
		}
		if err != nil {
			return
		}
		err = l.startWorld(f, name)
	})
	return name, err
}

// UserActions lists the user actions so far.
func (l *Live) UserActions() []netsim.Timed {
	var out []netsim.Timed
	l.run(func() { out = append(out, l.w.UserActions()...) })
	return out
}

// Close stops the loop and the world and closes the recording, flushing it.
func (l *Live) Close() error {
	var err error
	l.closed.Do(func() {
		close(l.done)
		<-l.exited
		l.w.Close()
		if l.rec != nil {
			err = l.endRecording()
		}
	})
	return err
}

// endRecording closes the recording with its end record: the dashboard was quit
// (or the recording stopped) at the world's current instant.
func (l *Live) endRecording() error {
	return errors.Join(l.rec.End(trace.EndQuit, node.Micros(l.w.Now())), l.rec.Close())
}
