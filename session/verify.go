package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// Verdict is the result of verifying a recording.
type Verdict struct {
	OK     bool
	Events int
	Hash   string
	// On failure: Line is the first differing line of the file (0 if none),
	// Recorded and Rerun the two versions (either may be empty), Reason one line.
	Line     int
	Recorded string
	Rerun    string
	Reason   string
}

// Verify re-runs the scenario in the trace header with its seed and the recorded
// user actions, and compares the result with the file line by line. It proves the
// recording was neither edited nor cut, and came from the stated scenario.
func Verify(path string) (*Verdict, error) {
	var lines [][]byte
	var last trace.Event
	var users []netsim.Timed
	var ids []node.ID
	sc, err := scanTrace(path, func(line []byte, e *trace.Event) error {
		if e.Ev == trace.Action && e.By == "user" {
			a, err := netsim.ParseAction(e.Text, ids)
			if err != nil {
				return fmt.Errorf("bad user action %q: %v", e.Text, err)
			}
			users = append(users, netsim.Timed{At: time.Duration(e.T) * time.Microsecond, Action: a})
		}
		lines = append(lines, append([]byte(nil), line...))
		last = *e
		return nil
	}, func(h trace.Header) { ids = h.Info.IDs })
	if err != nil {
		return nil, err
	}
	v := &Verdict{}
	if sc.cut != nil {
		// The tail of a killed recorder: everything before it may be genuine, but
		// the recording is not whole.
		v.Line, v.Recorded = len(lines)+2, string(sc.cut)
		v.Reason = fmt.Sprintf("the file is truncated: line %d is cut short", len(lines)+2)
		return v, nil
	}
	scn, err := presets.FromJSON(path, sc.header.Scenario)
	if err != nil {
		return nil, err
	}
	cfg, err := scn.Resolve()
	if err != nil {
		return nil, err
	}
	cfg.UserActions = users
	cmp := &comparer{want: lines, diff: -1}
	w, err := netsim.New(cfg, cmp)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	// Run up to the last recorded instant, then through it one event at a time;
	// what the re-run makes after the last recorded line is not compared. A
	// headless run ends with its end-of-run expectations, so check those last.
	end := time.Duration(last.T) * time.Microsecond
	// In slices, so that a difference stops the re-run early: an edited time far in
	// the future must not make verify simulate up to it.
	for t := time.Second; cmp.more() && w.Now() < end; t += time.Second {
		w.RunUntil(min(t, end))
	}
	finished := false
	for cmp.more() {
		if strings.Contains(string(lines[cmp.n]), `"ev":"expect"`) && !finished {
			// A headless run stops at its end, before the events of that instant,
			// and checks its end-of-run expectations.
			finished = true
			w.Finish()
			continue
		}
		if t, ok := w.NextTime(); !ok || t > end || !w.Step() {
			break
		}
	}
	v.Events = len(lines)
	switch {
	case cmp.diff >= 0:
		v.Line, v.Recorded, v.Rerun = cmp.diff+2, string(lines[cmp.diff]), cmp.got
		v.Reason = fmt.Sprintf("line %d differs from the re-run", cmp.diff+2)
		if cmp.next != "" && sameEvent(cmp.next, lines[cmp.diff]) {
			v.Reason = fmt.Sprintf("line %d differs from the re-run (lines were renumbered: one is missing)", cmp.diff+2)
		} else if sameEvent(cmp.got, lines[cmp.diff]) {
			v.Reason = fmt.Sprintf("line %d differs from the re-run in its number only (a line was inserted)", cmp.diff+2)
		}
	case cmp.n < len(lines):
		v.Line, v.Recorded = cmp.n+2, string(lines[cmp.n])
		v.Reason = fmt.Sprintf("the re-run ends before line %d", cmp.n+2)
	default:
		v.OK = true
		h := trace.NewHasher()
		for _, l := range lines {
			h.AddLine(l)
		}
		v.Hash = h.Sum()
	}
	if !v.OK && v.Reason == "" {
		v.Reason = "the re-run differs"
	}
	return v, nil
}

// sameEvent reports whether two lines differ only in their sequence number.
func sameEvent(a string, b []byte) bool {
	var x, y trace.Event
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	x.Seq, y.Seq = 0, 0
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// comparer is a sink that checks each event against the recorded lines.
type comparer struct {
	want [][]byte
	n    int
	diff int
	got  string // the re-run's version of the first differing line
	next string // and the re-run's line after it
}

func (c *comparer) more() bool {
	return (c.diff < 0 && c.n < len(c.want)) || (c.diff >= 0 && c.next == "")
}

func (c *comparer) Record(e *trace.Event) {
	if c.diff >= 0 && c.next == "" {
		b, _ := json.Marshal(e)
		c.next = string(b)
		return
	}
	if c.diff >= 0 || c.n >= len(c.want) {
		return
	}
	b, _ := json.Marshal(e)
	if !bytes.Equal(b, c.want[c.n]) {
		c.diff, c.got = c.n, string(b)
		return
	}
	c.n++
}

// Print writes the verdict for people.
func (v *Verdict) Print(out io.Writer) {
	if v.OK {
		fmt.Fprintf(out, "verified: %d events, hash %s\n", v.Events, v.Hash)
		return
	}
	fmt.Fprintf(out, "not verified: %s\n", v.Reason)
	if v.Recorded != "" {
		fmt.Fprintf(out, "  recorded: %s\n", v.Recorded)
	}
	if v.Rerun != "" {
		fmt.Fprintf(out, "  re-run:   %s\n", v.Rerun)
	}
}
