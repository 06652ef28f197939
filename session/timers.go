package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// Timers is every node's main timer (node.Deadline, the dashboard's timeout bar)
// all through a recording, so that a replay and a cast draw the bars a live session
// drew. A trace does not keep timers: raft re-arms its election timeout on every
// heartbeat, and tracing each would add a line per heartbeat and change every
// recording's bytes. Instead the recording's scenario is re-run with its user
// actions, as verify does, and every line the re-run makes is checked against the
// file's: the timers come from a run that is, line for line, the recording.
//
// A timer changes only when its process handles something (a message, a timer, a
// request, a crash or recovery), and each of those is a line naming the process.
// So after each instant of the re-run the timers of the processes that instant named
// are read from the world, and a change is kept with the Seq of the instant's last
// line: the timer a snapshot shows is the last change at or before its Seq. The
// changes are kept packed, up to timerBytes of them (see timerlog.go).
type Timers struct {
	index    map[node.ID]int // a node's place in the header's ids; looked up only
	runs     []timerLog      // per node: its timer's changes, in Seq order, packed
	forNames []string        // the timers' names, each once, by their number in runs
	names    map[string]int  // while the changes are packed: a name's number
	bytes    int             // what the packed changes take
}

// FileTimers is RerunTimers for a recording file of n events, read as a stream
// (twice: for the user actions, then beside the re-run), not held: export's cast.
func FileTimers(path string, hdr trace.Header, n int) (*Timers, error) {
	c := &lineCursor{path: path}
	defer c.close()
	return RerunTimers(path, hdr, n, c.line, nil)
}

// lineCursor gives a file's event lines in order, each as often as asked in a
// row, opening the file again when an earlier line is asked for.
type lineCursor struct {
	path string
	r    *trace.Reader
	c    io.Closer
	i    int // the line r read last; -1 before the first
	last []byte
	err  error
}

func (c *lineCursor) line(i int) []byte {
	if c.r == nil || i < c.i {
		c.close()
		if c.r, c.c, c.err = OpenTrace(c.path); c.err != nil {
			return nil
		}
		c.r.SkipHash()
		c.i, c.last = -1, nil
	}
	for c.i < i {
		l, err := c.r.NextLine()
		if err != nil {
			c.last = nil
			return nil
		}
		c.last = append(c.last[:0], l...)
		c.i++
	}
	return c.last
}

func (c *lineCursor) close() {
	if c.c != nil {
		c.c.Close()
		c.r, c.c = nil, nil
	}
}

// Fill sets each node's Status.Deadline in s to its timer after the line s.Seq.
func (t *Timers) Fill(s *trace.Snapshot) {
	if t == nil {
		return
	}
	for i := range s.Nodes {
		k, ok := t.index[s.Nodes[i].ID]
		if !ok {
			continue
		}
		s.Nodes[i].Status.Deadline = t.at(&t.runs[k], s.Seq)
	}
}

// errNoTimers says why a recording gets no timeout bars when that is by design, not
// a problem: too many nodes, as live.
var errNoTimers = errors.New("no timeout bars")

// RerunTimers finds the timers of a recording whose header is hdr (as read, with
// Seed and Info) and whose n event lines line gives (without their newlines), by
// re-running its scenario (see Timers); a line need stay valid only until the
// next call. path names the file in errors. It gives an
// error of one line when the re-run is not the recording ("x.trace:57: field t
// differs from the re-run …") and (nil, nil) for a cluster larger than a live
// session draws bars for. stop, when closed, ends the re-run early with an error.
func RerunTimers(path string, hdr trace.Header, n int, line func(i int) []byte, stop <-chan struct{}) (*Timers, error) {
	if len(hdr.Info.IDs) > deadlineNodes {
		return nil, nil
	}
	h := hdr
	_, cfg, err := resolveHeader(path, &h)
	if err != nil {
		return nil, err
	}
	var lastT int64
	for i := 0; i < n; i++ {
		l := line(i)
		if u, ok, err := userAction(l, hdr.Info.IDs); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+2, err)
		} else if ok {
			cfg.UserActions = append(cfg.UserActions, u)
		}
		if i == n-1 {
			var e trace.Event
			if json.Unmarshal(l, &e) == nil {
				lastT = e.T
			}
		}
	}
	if err := runLimits(path, nil, lastT); err != nil {
		return nil, err
	}
	if err := burstLimit(path, cfg); err != nil {
		return nil, err
	}
	c := &timerCheck{path: path, line: line, want: n, ids: cfg.IDs, touched: make([]bool, len(cfg.IDs)), all: true}
	w, err := netsim.New(cfg, c)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	c.w = w
	t := &Timers{index: make(map[node.ID]int, len(cfg.IDs)), runs: make([]timerLog, len(cfg.IDs))}
	for i, id := range cfg.IDs {
		t.index[id] = i
	}
	last := time.Duration(lastT) * time.Microsecond
	final, finished := false, false
run:
	for c.n < n && c.diff == nil {
		select {
		case <-stop:
			return nil, errors.New("stopped")
		default:
		}
		switch at, ok := w.NextTime(); {
		case ok && at < last:
			if !w.Step() {
				break run
			}
		case !final:
			// the last line's instant, as verify goes through it: what is
			// scheduled up to it, then an event at a time, with the end-of-run
			// expectations where the recording has them
			final = true
			w.RunUntil(last)
		case !finished && bytes.Contains(line(c.n), []byte(`"ev":"expect"`)):
			finished = true
			w.Finish()
		case ok && at <= last:
			if !w.Step() {
				break run
			}
		default:
			break run
		}
		if err := w.Err(); err != nil {
			return nil, fmt.Errorf("%s:%d: the re-run stopped: %v", path, c.n+2, err)
		}
		for i, id := range cfg.IDs {
			if !c.all && !c.touched[i] {
				continue
			}
			c.touched[i] = false
			if err := t.note(i, c.seq, w.Deadline(id)); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, c.n+2, err)
			}
		}
		c.all = false
	}
	switch {
	case c.diff != nil:
		return nil, c.diff
	case c.n < n:
		return nil, fmt.Errorf("%s:%d: the re-run has no such line: it ends before it", path, c.n+2)
	}
	if err := t.seal(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return t, nil
}

// timerCheck is the re-run's sink for RerunTimers: it checks each event against the
// next line of the recording and notes the processes it names.
type timerCheck struct {
	path    string
	w       *netsim.World // halted once the recording's lines are all seen or one differs
	line    func(i int) []byte
	want, n int // lines in the recording, lines matched
	seq     uint64
	ids     []node.ID
	touched []bool
	all     bool // an event named no process (or the start): read every timer
	buf     []byte
	diff    error
}

func (c *timerCheck) halt() {
	if c.w != nil {
		c.w.Halt()
	}
}

func (c *timerCheck) Record(e *trace.Event) {
	if c.diff != nil || c.n >= c.want {
		return
	}
	c.buf = trace.AppendLine(c.buf[:0], e)
	got, rec := c.buf[:len(c.buf)-1], c.line(c.n)
	if !bytes.Equal(got, rec) {
		c.diff = fmt.Errorf("%s:%d: field %s differs from the re-run", c.path, c.n+2, lineDiff(rec, got))
		c.halt()
		return
	}
	c.n, c.seq = c.n+1, e.Seq
	named := false
	for _, id := range [...]node.ID{e.Node, e.From, e.To} {
		if id != node.None {
			if k, ok := c.indexOf(id); ok {
				c.touched[k], named = true, true
			}
		}
	}
	if !named {
		c.all = true
	}
	if c.n == c.want {
		c.halt()
	}
}

// indexOf is id's place in the ids (which are sorted when they are 1…N, the
// common case, and searched otherwise).
func (c *timerCheck) indexOf(id node.ID) (int, bool) {
	if i := int(id) - 1; i >= 0 && i < len(c.ids) && c.ids[i] == id {
		return i, true
	}
	for i, x := range c.ids {
		if x == id {
			return i, true
		}
	}
	return 0, false
}
