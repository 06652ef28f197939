package lab

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/tui"
)

// opensPaused reports whether the dashboard opens preset paused at t=0, saying how
// to start, when no speed is asked for: the default demo and the course notes'
// presets, whose first election at ×1 is over before the eye finds it.
func opensPaused(preset string) bool {
	return preset == defaultPreset || strings.HasPrefix(preset, "notes-")
}

// forkable is a replay the dashboard can fork (f, issue 30): the live session the
// fork makes is kept here, for the command to close when the dashboard ends.
type forkable struct {
	*session.Replay
	file string
	live *session.Live
}

// Fork goes on live from the recording after virtual time at (µs).
func (f *forkable) Fork(at int64) (tui.Controller, error) {
	if f.live != nil {
		return nil, errors.New("this replay is forked already")
	}
	l, err := session.Fork(f.file, at, session.LiveOptions{Speed: f.Speed()})
	if err != nil {
		return nil, err
	}
	f.live = l
	return l, nil
}

// closeFork closes the live session a replay was forked into, if one was: its
// recording, unless saved or discarded in the dashboard, keeps the name it was
// made under, and a line says where.
func closeFork(l *session.Live, sig *interrupts, err error) error {
	if l == nil {
		if sig.interrupted() {
			return sig.err()
		}
		return err
	}
	kept, saved := l.ForkFile(), l.ForkSaved()
	reason := trace.EndQuit
	if sig.interrupted() {
		reason = trace.EndInterrupted
	}
	cerr := l.CloseFor(reason)
	if kept != "" && cerr == nil {
		fmt.Fprintln(os.Stderr, ui.F("fork.kept", kept))
	}
	if note := l.ForkNote(); note != "" {
		fmt.Fprintln(os.Stderr, ui.F("fork.asrecorded", saved, note))
	}
	if sig.interrupted() {
		return sig.interruptedErr("")
	}
	if err == nil {
		err = cerr
	}
	return err
}
