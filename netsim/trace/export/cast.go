package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// RenderFunc draws the dashboard of a snapshot in w×h cells: at most h lines
// separated by "\n", each at most w cells wide, with any SGR styling.
type RenderFunc func(s *trace.Snapshot, w, h int) string

// CastOptions shape an asciicast.
type CastOptions struct {
	Width, Height int
	// FPS is frames per second of virtual time; the cast plays at 1×.
	FPS int
	// Idle is the longest pause kept: a stretch without events plays in Idle
	// (0 keeps every pause).
	Idle time.Duration
	// Render draws each frame; nil uses TextDashboard.
	Render RenderFunc
}

// DefaultCast is 120×36 at 10 frames per second with pauses cut to 1 s.
func DefaultCast() CastOptions {
	return CastOptions{Width: 120, Height: 36, FPS: 10, Idle: time.Second}
}

// castMark is the chapter label of an event that gets one: a fault, an alert or a
// marker, led by its virtual time ("at 3.42s: partition n1 n2 | n3 n4 n5"), so a
// viewer of the cast, whose clock is the cast's and not the run's, can tell when
// it happened.
func castMark(e *trace.Event) (string, bool) {
	var text string
	switch {
	case isFault(e):
		text = faultText(e)
	case e.Ev == trace.Alert:
		text = "alert " + e.Kind + ": " + oneLine(e.Text)
	case e.Ev == trace.AlertCleared:
		text = "alert cleared: " + oneLine(e.Text)
	case e.Ev == trace.Marker:
		text = "marker: " + oneLine(e.Text)
	default:
		return "", false
	}
	return "at " + fmtT(e.T) + ": " + text, true
}

// Outline is what a replay's progress bar shows of a recording: how many events
// it has, the last one's time (µs), and the times a replay marks on the bar:
// faults, alerts, markers and leader changes.
type Outline struct {
	Events int
	End    int64
	Marks  []int64
}

// OutlineOf reads src once for its Outline.
func OutlineOf(src Source) (Outline, error) {
	var o Outline
	lead := newLeaders()
	tail, err := scan(src, func(e *trace.Event) {
		if !markKind(e.Ev) || malformed(e) {
			return
		}
		_, changed := lead.see(e)
		if _, ok := castMark(e); ok || changed {
			if n := len(o.Marks); n == 0 || o.Marks[n-1] != e.T {
				o.Marks = append(o.Marks, e.T)
			}
		}
	})
	o.Events, o.End = tail.Events, tail.Last
	return o, err
}

// markKind reports whether an event of kind ev may be a mark (see castMark) or a
// leader change.
func markKind(ev string) bool {
	switch ev {
	case trace.Send, trace.Deliver, trace.Drop, trace.TimerEv, trace.Log, trace.Request, trace.Action, trace.Expect, trace.Detect:
		return false
	}
	return true
}

// castHeader is the first line of an asciicast v2 file.
type castHeader struct {
	Version int               `json:"version"`
	Width   int               `json:"width"`
	Height  int               `json:"height"`
	Title   string            `json:"title,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// Cast writes an asciicast v2 recording of the dashboard re-rendered from the trace.
// Frames are drawn every 1/FPS s of virtual time from the window's start to its end
// (the last event when the window is open-ended), each by homing the cursor and
// overwriting every line (a line shorter than the width ends with erase-to-end-of-
// line; lines are joined with \r\n; the screen below the last line is erased). A frame after which nothing
// happened is skipped, and the time between two drawn frames is cut to Idle, so
// quiet stretches play fast. Faults, leader changes (one marker per leader and
// frame), alerts and the scenario's markers become "m" events at the frame that
// first shows them, each label led by the event's virtual time. The last frame shows the state after the window's last event.
// Events before the window are folded without drawing; --nodes does not apply (the
// dashboard shows every node).
func Cast(out io.Writer, src Source, w Window, o CastOptions) error {
	if o.Width <= 0 || o.Height <= 0 || o.FPS <= 0 {
		return fmt.Errorf("cast: size %dx%d at %d fps, expected positive numbers", o.Width, o.Height, o.FPS)
	}
	render := o.Render
	if render == nil {
		render = TextDashboard
	}
	h := src.Header()
	st, err := src.Open()
	if err != nil {
		return &ReadError{err}
	}
	defer st.Close()
	// The events one at a time, with the next one looked at before it is taken.
	var next trace.Event
	have, lastT, read1 := false, int64(0), 0
	read := func() error {
		for {
			err := st.Next(&next)
			if err == io.EOF {
				have = false
				return nil
			}
			if err != nil {
				return &ReadError{err}
			}
			if !malformed(&next) {
				have, lastT = true, next.T
				read1++
				return nil
			}
		}
	}
	if err := read(); err != nil {
		return err
	}

	bw := bufio.NewWriterSize(out, 64<<10) // not flushed if the window has no event
	info := &h.Info
	hdr := castHeader{Version: 2, Width: o.Width, Height: o.Height,
		Title: fmt.Sprintf("clusterlab: %s (%s, seed %d)", info.Name, info.Algorithm, h.Seed),
		Env:   map[string]string{"TERM": "xterm-256color"}}
	if err := writeJSONLine(bw, hdr); err != nil {
		return err
	}

	fold := trace.NewState(*h)
	lead := newLeaders()
	start := max(w.From, 0)
	for have && next.T < start {
		lead.see(&next)
		fold.Apply(&next)
		if err := read(); err != nil {
			return err
		}
	}
	// The end: the window's, or the last event's time, known once no event is left.
	end := func() int64 {
		if w.To != math.MaxInt64 {
			return w.To
		}
		return max(start, lastT)
	}
	step := int64(1e6) / int64(o.FPS)
	idle := o.Idle.Microseconds()
	var clock int64 // cast time, µs
	lastDrawn := start
	first := true
	kept := false
	var marks []string
	newLeader := map[node.ID][]node.ID{}
	leaderAt := map[node.ID]int64{} // the first of newLeader's changes
	for k := int64(0); ; k++ {
		ft := start + k*step
		final := !have && ft >= end() || w.To != math.MaxInt64 && ft >= w.To
		if final {
			ft = end()
		}
		changed := false
		clear(newLeader)
		for have && next.T <= ft {
			e := &next
			if _, ch := lead.see(e); ch {
				if len(newLeader[e.Status.Leader]) == 0 {
					leaderAt[e.Status.Leader] = e.T
				}
				newLeader[e.Status.Leader] = append(newLeader[e.Status.Leader], e.Node)
			}
			fold.Apply(e)
			if text, ok := castMark(e); ok {
				marks = append(marks, text)
			}
			changed = true
			kept = kept || w.Keep(e)
			if err := read(); err != nil {
				return err
			}
		}
		if !final && !have && ft >= end() {
			final, ft = true, end()
		}
		leaders := make([]node.ID, 0, len(newLeader))
		for l := range newLeader {
			leaders = append(leaders, l)
		}
		sort.Slice(leaders, func(a, b int) bool { return leaders[a] < leaders[b] })
		for _, l := range leaders {
			marks = append(marks, fmt.Sprintf("at %s: leader %v (%s)", fmtT(leaderAt[l]), l, joinIDs(newLeader[l], " ")))
		}
		if changed || first || final {
			gap := ft - lastDrawn
			if idle > 0 && gap > idle {
				gap = idle
			}
			if !first {
				clock += gap
			}
			lastDrawn = ft
			for _, m := range marks {
				if err := writeCastEvent(bw, clock, "m", m); err != nil {
					return err
				}
			}
			marks = marks[:0]
			s := fold.Snapshot()
			s.T = ft
			data := frame(render(s, o.Width, o.Height), o.Width, o.Height)
			if first {
				data = "\x1b[?25l\x1b[2J" + data
			}
			if final {
				data += "\x1b[?25h"
			}
			if err := writeCastEvent(bw, clock, "o", data); err != nil {
				return err
			}
			first = false
		}
		if final {
			break
		}
		// Skip the frames in which nothing happens: the next one to look at is the
		// first at or after the next event (or the end).
		nt := end()
		if have && next.T < nt {
			nt = next.T
		}
		if nk := (nt - start + step - 1) / step; nk > k+1 {
			k = nk - 1
		}
	}
	if !kept {
		return &RefusedError{"no events " + emptyText(Tail{Events: read1, Last: lastT}, w)}
	}
	return bw.Flush()
}

// frame turns a rendering into one screen update: home, each line cut to w cells
// and, if shorter, followed by erase-to-end-of-line, lines joined by \r\n, and the
// rest of the screen erased.
func frame(screen string, w, h int) string {
	lines := strings.Split(strings.ReplaceAll(screen, "\r\n", "\n"), "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	var b strings.Builder
	b.WriteString("\x1b[H")
	for j, l := range lines {
		if j > 0 {
			b.WriteString("\r\n")
		}
		l = strings.ReplaceAll(l, "\r", "")
		width := ansi.StringWidth(l)
		if width > w {
			l, width = ansi.Truncate(l, w, ""), w
		}
		b.WriteString(l)
		b.WriteString("\x1b[0m")
		if width < w {
			// Not after a full line: the cursor then waits on the last column,
			// and erasing from there would erase that column's character.
			b.WriteString("\x1b[K")
		}
	}
	if len(lines) < h {
		// Erase the rest from the next line: from the end of a full line,
		// erasing would take that line's last character.
		b.WriteString("\r\n\x1b[J")
	}
	return b.String()
}

func writeJSONLine(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeCastEvent writes [time, code, data] with time in seconds.
func writeCastEvent(w io.Writer, us int64, code, data string) error {
	var b bytes.Buffer
	b.WriteByte('[')
	b.WriteString(strconv.FormatFloat(float64(us)/1e6, 'f', 6, 64))
	b.WriteString(`, "` + code + `", `)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(data); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	b.WriteString("]\n")
	_, err := w.Write(b.Bytes())
	return err
}
