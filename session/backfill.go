package session

import (
	"fmt"
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// backfill writes a live session's past into a recording without stopping the
// dashboard. A second world re-runs the scenario with the same seed and applies the
// same user actions at the same instants, so by determinism it is the live world;
// it feeds only a recorder until it reaches the live instant. Then the loop gives it
// the few actions and the little time it still lacks, points its events at the live
// State, and it becomes the live world, recording on from there.
//
// The backfill never waits for the loop, so cancelling it (R again, q, Close) is
// immediate; the unfinished file is removed.
type backfill struct {
	name    string
	out     *Output
	w       *netsim.World
	rec     *trace.Recorder
	fold    *switchSink
	applied int // user actions applied so far
	stop    chan struct{}
	exited  chan struct{}
}

// switchSink passes events on once it is given somewhere to pass them.
type switchSink struct{ to trace.Sink }

func (s *switchSink) Record(e *trace.Event) {
	if s.to != nil {
		s.to.Record(e)
	}
}

// handOver is how close to the live instant the backfill must come before the loop
// takes over the rest (or four frames of the live speed, if that is more: the live
// world moves on while the backfill chases it).
const handOver = 100 * time.Millisecond

// startBackfill opens a new recording in the working directory and starts writing
// the past into it. It runs in the loop.
func (l *Live) startBackfill() (string, error) {
	var out *Output
	var err error
	for i := 1; i < 1000; i++ {
		if out, err = CreateRecording(fmt.Sprintf("clusterlab-%s-%d-%d.jsonl", l.scn.Name, l.cfg.Seed, i), false); err == nil {
			break
		}
	}
	if err != nil {
		return "", err
	}
	cfg := l.cfg
	cfg.UserActions = nil // applied one by one, as they were live
	rec, err := Record(out, l.scn, cfg)
	if err != nil {
		out.Abort()
		return "", err
	}
	fold := &switchSink{}
	w, err := netsim.New(cfg, trace.Multi(fold, rec))
	if err != nil {
		rec.Close()
		out.Abort()
		return "", err
	}
	b := &backfill{name: out.Path(), out: out, w: w, rec: rec, fold: fold, stop: make(chan struct{}), exited: make(chan struct{})}
	l.bg = b
	l.setRecording(b.name, 0)
	go b.run(l)
	return b.name, nil
}

// run chases the live instant, then asks the loop to finish.
func (b *backfill) run(l *Live) {
	defer close(b.exited)
	for {
		l.mu.Lock()
		target, acts := l.now, slices.Clone(l.actions[b.applied:])
		l.mu.Unlock()
		for _, a := range acts {
			if !b.runTo(l, a.At, target) {
				return
			}
			b.w.RunTo(a.At, a.Before)
			b.w.Do(a.Action)
			b.applied++
		}
		if !b.runTo(l, target, target) {
			return
		}
		l.mu.Lock()
		gap, near := l.now-target, max(handOver, time.Duration(l.speed*float64(4*frame)))
		l.mu.Unlock()
		if gap <= near {
			select {
			case l.cmds <- func() { l.finishBackfill(b) }:
			case <-b.stop:
			}
			return
		}
	}
}

// runTo runs the backfill's world to t in small steps, reporting progress towards
// of and giving up when stopped.
func (b *backfill) runTo(l *Live, t, of time.Duration) bool {
	step := max(of/500, time.Millisecond)
	for b.w.Now() < t {
		select {
		case <-b.stop:
			return false
		default:
		}
		b.w.RunUntil(min(b.w.Now()+step, t))
		l.mu.Lock()
		l.written = min(float64(b.w.Now())/float64(max(of, 1)), 0.99)
		l.mu.Unlock()
	}
	return true
}

// finishBackfill makes the backfill's world the live one. It runs in the loop, so
// the live world stands still meanwhile; what is left is a few frames of virtual
// time and the actions since.
func (l *Live) finishBackfill(b *backfill) {
	if l.bg != b {
		return // cancelled meanwhile
	}
	<-b.exited
	for _, a := range l.w.UserActions()[b.applied:] {
		b.w.RunTo(a.At, a.Before)
		b.w.Do(a.Action)
	}
	b.w.RunTo(l.w.Position())
	b.w.SetInterrupt(l.waiting)
	b.fold.to = l.fold
	l.w.Close()
	l.w, l.rec, l.out, l.file, l.bg = b.w, b.rec, b.out, b.name, nil
	l.setRecording(b.name, 1)
}

// cancelBackfill stops a backfill in progress and removes its file.
func (l *Live) cancelBackfill() {
	b := l.bg
	if b == nil {
		return
	}
	l.bg = nil
	close(b.stop)
	<-b.exited
	b.w.Close()
	b.rec.Close()
	b.out.Abort()
	l.setRecording("", 0)
}
