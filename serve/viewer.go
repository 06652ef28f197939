package serve

import (
	"errors"
	"strconv"
	"sync/atomic"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/session"
)

// viewer is one SSH session's handle on the shared world: the dashboard's
// Controller. A teacher's actions go to the world through the action grammar,
// each recorded once, followed by a marker that names its author; a spectator's
// are refused, and nothing a spectator does reaches the world, whatever the
// dashboard calls.
//
// In --lab mode the world is the student's own (own): they act on it as in
// `clusterlab run`, without markers, within the lab's speed cap.
type viewer struct {
	live    *session.Live
	name    string // the teacher's name (the key's comment), for the markers
	teacher atomic.Bool
	own     bool    // a student's private world (--lab)
	speed   float64 // own: the fastest it may run
	l       lang.Lang
	// acted, if set, is called after a teacher's action: the server pushes the
	// world's picture to every screen
	acted func()
}

// acts reports whether this viewer's keys act on the world.
func (v *viewer) acts() bool { return v.own || v.teacher.Load() }

func (v *viewer) refused() error { return errors.New(v.l.T("serve.watching")) }

// Watching is the line a spectator's action keys show (tui.Watcher).
func (v *viewer) Watching() string {
	if v.acts() {
		return ""
	}
	return v.l.T("serve.watching")
}

func (v *viewer) Snapshot() *trace.Snapshot { return v.live.Snapshot() }

// Do applies a teacher's action, then the marker that says who acted.
func (v *viewer) Do(cmd string) error {
	if v.own {
		return v.live.Do(cmd)
	}
	if !v.teacher.Load() {
		return v.refused()
	}
	if err := v.live.Do(cmd); err != nil {
		return err
	}
	err := v.live.Do("marker " + strconv.Quote("teacher:"+v.name+" "+cmd))
	if v.acted != nil {
		v.acted()
	}
	return err
}

// Queue is Do: a class's world is small, and the marker must follow its action.
func (v *viewer) Queue(cmd string) error {
	if v.own {
		return v.live.Queue(cmd)
	}
	return v.Do(cmd)
}

func (v *viewer) SetPaused(p bool) {
	if v.acts() {
		v.live.SetPaused(p)
		v.pushed()
	}
}

// pushed tells the other screens that a teacher acted.
func (v *viewer) pushed() {
	if !v.own && v.acted != nil {
		v.acted()
	}
}

func (v *viewer) Paused() bool { return v.live.Paused() }

func (v *viewer) Step() {
	if v.acts() {
		v.live.Step()
		v.pushed()
	}
}

// SetSpeed sets the speed; a student's lab runs no faster than its cap, and
// never "as fast as possible" (0).
func (v *viewer) SetSpeed(x float64) {
	if v.own && (x <= 0 || x > v.speed) {
		x = v.speed
	}
	if v.acts() {
		v.live.SetSpeed(x)
		v.pushed()
	}
}

func (v *viewer) Speed() float64 { return v.live.Speed() }

func (v *viewer) Recording() string { return v.live.Recording() }

// Shared reports that the world goes on when this viewer quits (tui.Sharer):
// the class's, not a student's own lab, whose recording ends with it.
func (v *viewer) Shared() bool { return !v.own }

// ToggleRecording is refused to everyone: the server records what --record says,
// on its own disk, not what a key asks.
func (v *viewer) ToggleRecording() (string, error) {
	if v.own {
		return "", errors.New(v.l.T("serve.lab.recorded"))
	}
	return "", errors.New(v.l.T("serve.norecord"))
}

// Err is why the world stopped early, if it did (tui.Stopper).
func (v *viewer) Err() error { return v.live.Err() }

// Rate is how fast the world really runs (tui.Pacer).
func (v *viewer) Rate() (float64, bool) { return v.live.Rate() }
