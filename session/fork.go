package session

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// ForkedFrom is where a live session forked from a recording came from: the
// recording and the virtual time (µs) it went on from.
type ForkedFrom struct {
	File string
	At   int64
}

// Fork opens a live session that goes on from recording path after virtual time
// at (µs): "what if?". The recording's scenario runs again with the recording's
// user actions up to at, and stops, paused, once every event at or before at is
// handled; from there it is a live session like any other, whose actions are the
// fork's. By determinism the re-run is the recording up to at: the fork's own
// recording, which starts with it, keeps that prefix byte for byte (the header
// too, when the same program made both), and its own actions come after it, so it
// verifies as any recording does.
//
// The fork pauses again at the scenario's end (until), where the recording's
// own run stopped. It records from the start into a file of the working directory,
// NAME-fork-N.jsonl, that DiscardFork removes and SaveFork replaces with the
// run of the scenario that has the fork's actions in its script (see
// forksave.go); a fork closed without either keeps that name. The recording is read as a stream, to
// at only: its size does not matter.
func Fork(path string, at int64, opts LiveOptions) (*Live, error) {
	if at < 0 {
		return nil, fmt.Errorf("fork at %s: expected a time at or after 0", fmtUS(at))
	}
	tf, err := openTrace(path)
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	h := tf.Header
	s, cfg, err := resolveHeader(path, &h)
	if err != nil {
		return nil, err
	}
	if err := checkCode(path, &h, cfg.Spec); err != nil {
		return nil, err
	}
	var acts []netsim.Timed
	for {
		line, err := tf.NextLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		a, ok, err := userAction(line, cfg.IDs)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, tf.Line(), err)
		}
		if ok && a.At.Microseconds() > at {
			break
		}
		if ok {
			acts = append(acts, a)
		} else if t, ok := lineTime(line); ok && t > at {
			break // the events are in time order: nothing of the prefix is left
		}
	}
	cfg.UserActions = acts
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".jsonl"), ".json")
	var out *Output
	for i := 1; i < 1000; i++ {
		if out, err = CreateOutput(fmt.Sprintf("%s-fork-%d.jsonl", base, i), false, path); err == nil {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	opts.Record, opts.Paused = "", true
	l, err := newLive(s, cfg, opts, func(l *Live) error {
		if err := l.startWorld(out); err != nil {
			return err
		}
		// every event at or before at, as the replay showed them
		l.w.RunWhole(time.Duration(at+1) * time.Microsecond)
		if err := l.w.Err(); err != nil {
			return err
		}
		l.forked = &ForkedFrom{File: path, At: at}
		// it pauses where the recording's run ended, to be compared with it;
		// space goes on from there
		if cfg.Until > l.w.Now() {
			l.pauseAt = cfg.Until
		}
		return nil
	})
	if err != nil {
		out.Abort()
		return nil, err
	}
	return l, nil
}

// ForkedFrom is the recording the session was forked from and the time (µs) it
// went on from; false for a session that was not forked.
func (l *Live) ForkedFrom() (string, int64, bool) {
	if l.forked == nil {
		return "", 0, false
	}
	return l.forked.File, l.forked.At, true
}

// ForkFile is the name of the fork's recording as it stands (before SaveFork
// names it), or "" once it is closed.
func (l *Live) ForkFile() string {
	var name string
	l.run(func() {
		if l.out != nil && l.forked != nil {
			name = l.out.Path()
		}
	})
	return name
}

// SaveFork ends a fork's recording at the world's current instant (between
// instants) and saves, under name (a new file, not the recording it was forked
// from), the canonical run of what the fork did (see forksave.go): the file that
// sim records for the recording's scenario with the fork's actions appended to
// its script, run to that instant. When a script cannot say what the fork did,
// or that run cannot be made, the fork's own recording is saved instead, and
// ForkNote says why: a fork is never lost to its saving. The session
// goes on, recording nothing.
func (l *Live) SaveFork(name string) error {
	if l.forked == nil {
		return errors.New("this session is not a fork")
	}
	if !strings.HasSuffix(name, ".jsonl") {
		return fmt.Errorf("found %q, expected a file name ending in .jsonl", name)
	}
	if err := CheckOutput(name, false, l.forked.File); err != nil {
		return err
	}
	var (
		live *Output
		acts []netsim.Timed
		end  time.Duration
		err  error
	)
	l.run(func() {
		if l.out == nil {
			err = errors.New("the fork's recording is already closed")
			return
		}
		// A recording ends between instants: a re-run stops there too.
		l.w.FinishInstant()
		end = l.w.Now()
		acts = append(acts, l.w.UserActions()[len(l.cfg.UserActions):]...)
		// End and Close report the same first write error: said once
		err = l.rec.End(trace.EndQuit, node.Micros(end))
		if cerr := l.rec.Close(); err == nil {
			err = cerr
		}
		live = l.out
		l.rec, l.out, l.file = nil, nil, ""
		l.setRecording("", 0)
	})
	if err != nil {
		if live != nil {
			live.Abort()
		}
		return err
	}
	// Whatever stops the scenario's run (a run that parts from the fork, a
	// storm, a full disk), the fork is not lost: it is saved as recorded.
	why := l.saveCanonical(name, live.tmp, acts, end)
	note := ""
	if why == nil {
		live.Abort()
	} else {
		note = why.Error()
		live.path = name
		if err := live.Commit(); err != nil {
			return err
		}
	}
	l.mu.Lock()
	l.forkNote, l.forkSaved = note, name
	l.mu.Unlock()
	return nil
}

// ForkSaved is the name the fork was saved under last, or "".
func (l *Live) ForkSaved() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.forkSaved
}

// ForkNote is why the fork saved last was saved as the fork recorded it, not as
// the run of a scenario with its actions in the script; "" when it was.
func (l *Live) ForkNote() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.forkNote
}

// DiscardFork ends a fork's recording and removes it.
func (l *Live) DiscardFork() {
	l.run(func() {
		if l.out == nil || l.rec == nil {
			return
		}
		l.rec.Close()
		l.out.Abort()
		l.rec, l.out, l.file = nil, nil, ""
		l.setRecording("", 0)
	})
}
