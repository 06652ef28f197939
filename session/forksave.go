package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// A saved fork is the canonical run of what the fork did: the recording that the
// headless scenario records, the recording's scenario with the fork's actions
// appended to its script (at = the instant each was taken, do = the action, in
// the order they were taken), run with sim to where the fork stopped. Its
// header holds that scenario, its actions are the script's ("by":"script"), and
// `clusterlab sim` of that scenario file makes it byte for byte, the same hash.
// The recording's own user actions, before the fork, stay the user's.
//
// The file is made by running the scenario again, headless, not by rewriting
// the fork's own lines: a run to the scenario's end checks its end expectations
// as sim does, which the live run never did. The re-run is compared, line by
// line, with what the fork recorded live; the two may part only where a script
// cannot say what the user did (an action taken inside an instant, or at the
// very microsecond of an expectation or a drawn fault, which a script runs before
// and the user ran after; an action after the scenario's until). Then the fork
// is saved as it was recorded, with the recording's header and its actions the
// user's: it still verifies, and ForkNote says why it is not a scenario.

// forkScenario is the scenario of the canonical run: the fork's own scenario
// (its header's) with acts appended to its script, checked as a scenario file
// is, and resolved; or why acts cannot be written as a script.
func (l *Live) forkScenario(acts []netsim.Timed) (*presets.Scenario, netsim.Config, error) {
	s, err := presets.FromJSON("fork", l.cfg.Scenario)
	if err != nil {
		return nil, netsim.Config{}, err
	}
	for _, a := range acts {
		if a.Before != 0 {
			return nil, netsim.Config{}, fmt.Errorf("%q was taken inside the instant %s, where a script cannot act", a.Action, ScriptTime(a.At))
		}
		s.Script = append(s.Script, presets.Step{At: ScriptTime(a.At), Do: a.Action.String()})
	}
	js, err := json.Marshal(s)
	if err != nil {
		return nil, netsim.Config{}, err
	}
	// checked as sim --file would check it: a time after until is refused
	if s, err = presets.FromJSON("fork", js); err != nil {
		return nil, netsim.Config{}, err
	}
	cfg, err := s.Resolve()
	if err != nil {
		return nil, netsim.Config{}, err
	}
	// the recording's own user actions, and what the session was opened with
	cfg.UserActions, cfg.MaxPending = l.cfg.UserActions, l.cfg.MaxPending
	return s, cfg, nil
}

// ScriptTime is how a fork writes an instant in a scenario's script: in
// seconds, to the microsecond, without trailing zeros (3.365905s, 4s, 0.25s),
// the recording's t (µs) over a million. A script's at is kept in the header as
// written, so a hand-written file gives the saved fork's hash only when it
// writes the time so too; docs/what-if.md says how.
func ScriptTime(t time.Duration) string {
	us := t.Microseconds()
	s := strconv.FormatInt(us/1e6, 10)
	if f := us % 1e6; f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%06d", f), "0")
	}
	return s + "s"
}

// saveCanonical writes the canonical run of the fork to name: the scenario with
// acts, run to end as sim --until end runs it (sim's own file when end is the
// scenario's until), compared as it goes with the fork's live recording, live.
// It returns why it wrote none (the output is removed): the canonical run is
// not the fork's, or it could not be made.
func (l *Live) saveCanonical(name, live string, acts []netsim.Timed, end time.Duration) error {
	s, cfg, err := l.forkScenario(acts)
	if err != nil {
		return err
	}
	f, err := os.Open(live)
	if err != nil {
		return err
	}
	defer f.Close()
	out, err := CreateOutput(name, false, l.forked.File)
	if err != nil {
		return err
	}
	defer out.Abort() // nothing once committed
	cmp := &sameRun{out: out, live: bufio.NewReaderSize(f, 1<<16), after: l.forked.At}
	h := Header(s, cfg)
	if end != cfg.Until {
		h.Until = node.Micros(end)
	}
	rec, err := trace.NewRecorder(cmp, h)
	if err != nil {
		return err
	}
	_, now, err := RunContext(context.Background(), cfg, end, rec, nil)
	if err == nil {
		err = rec.End(trace.EndUntil, node.Micros(now))
	}
	if cerr := rec.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return err
	case cmp.diff != nil:
		return cmp.diff
	case !cmp.ended:
		return fmt.Errorf("the run of the scenario ends before the fork's line %d", cmp.n+1)
	}
	return out.Commit()
}

// sameRun passes a recording's bytes on to out and compares its lines with those
// of the fork's live recording: the same but for the header, the fork's actions'
// "by" (script here, user there) and the end (here the end expectations sim
// checks, and the end record).
type sameRun struct {
	out   *Output
	live  *bufio.Reader
	after int64 // the fork's instant: its actions come after it
	part  []byte
	n     int  // lines compared
	ended bool // the live recording's end record is reached
	diff  error
}

func (c *sameRun) Write(p []byte) (int, error) {
	n, err := c.out.Write(p)
	if err != nil {
		return n, err
	}
	for c.diff == nil && len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			c.part = append(c.part, p...)
			break
		}
		line := p[:i]
		if len(c.part) > 0 {
			line = append(c.part, line...)
			c.part = c.part[:0]
		}
		c.line(line)
		p = p[i+1:]
	}
	return n, nil
}

var (
	byScript = []byte(`,"by":"script"`)
	byUser   = []byte(`,"by":"user"`)
)

func (c *sameRun) line(line []byte) {
	c.n++
	live := []byte(nil)
	if !c.ended {
		var err error
		if live, err = c.readLive(); err != nil {
			c.diff = fmt.Errorf("the fork's recording ends at its line %d without its end record", c.n)
			return
		}
		c.ended = bytes.HasPrefix(live, []byte(`{"ev":"end"`))
	}
	switch {
	case c.n == 1: // the headers: the scenario with its script, the recording's
	case c.ended:
		// the fork stopped here: what follows in the run is its end
		if !mayBeKind(line, `"ev":"expect"`) && !bytes.HasPrefix(line, []byte(`{"ev":"end"`)) {
			c.diff = fmt.Errorf("the run of the scenario goes on after the fork's end: %s", line)
		}
	case bytes.Equal(line, live):
	case mayBeKind(line, `"ev":"action"`) && bytes.Equal(bytes.Replace(line, byScript, byUser, 1), live) && afterFork(line, c.after):
	default:
		c.diff = fmt.Errorf("the run of the scenario parts from the fork at line %d: the scenario has %s where the fork has %s", c.n, line, live)
	}
}

// afterFork reports whether an event line's time is after t (µs).
func afterFork(line []byte, t int64) bool {
	lt, ok := lineTime(line)
	return ok && lt > t
}

// readLive reads the live recording's next line, without its newline: the
// reader's own buffer, or a copy for a line longer than it.
func (c *sameRun) readLive() ([]byte, error) {
	line, err := c.live.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		long := append([]byte(nil), line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = c.live.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	if err != nil {
		return nil, err
	}
	return line[:len(line)-1], nil
}
