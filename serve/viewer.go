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
type viewer struct {
	live    *session.Live
	name    string // the teacher's name (the key's comment), for the markers
	teacher atomic.Bool
	l       lang.Lang
}

func (v *viewer) refused() error { return errors.New(v.l.T("serve.watching")) }

// Watching is the line a spectator's action keys show (tui.Watcher).
func (v *viewer) Watching() string {
	if v.teacher.Load() {
		return ""
	}
	return v.l.T("serve.watching")
}

func (v *viewer) Snapshot() *trace.Snapshot { return v.live.Snapshot() }

// Do applies a teacher's action, then the marker that says who acted.
func (v *viewer) Do(cmd string) error {
	if !v.teacher.Load() {
		return v.refused()
	}
	if err := v.live.Do(cmd); err != nil {
		return err
	}
	return v.live.Do("marker " + strconv.Quote("teacher:"+v.name+" "+cmd))
}

// Queue is Do: a class's world is small, and the marker must follow its action.
func (v *viewer) Queue(cmd string) error { return v.Do(cmd) }

func (v *viewer) SetPaused(p bool) {
	if v.teacher.Load() {
		v.live.SetPaused(p)
	}
}

func (v *viewer) Paused() bool { return v.live.Paused() }

func (v *viewer) Step() {
	if v.teacher.Load() {
		v.live.Step()
	}
}

func (v *viewer) SetSpeed(x float64) {
	if v.teacher.Load() {
		v.live.SetSpeed(x)
	}
}

func (v *viewer) Speed() float64 { return v.live.Speed() }

func (v *viewer) Recording() string { return v.live.Recording() }

// ToggleRecording is refused to everyone: the server records what --record says,
// on its own disk, not what a key asks.
func (v *viewer) ToggleRecording() (string, error) {
	return "", errors.New(v.l.T("serve.norecord"))
}

// Err is why the world stopped early, if it did (tui.Stopper).
func (v *viewer) Err() error { return v.live.Err() }

// Rate is how fast the world really runs (tui.Pacer).
func (v *viewer) Rate() (float64, bool) { return v.live.Rate() }
