// Package export turns a recorded trace into things a student hands in and a teacher
// reads: a Markdown report, a Mermaid sequence diagram, a ShiViz log, a CSV table and
// an asciicast of the dashboard. Every export is computed from the trace alone (its
// header and events); nothing is re-run.
//
// All formats honour a Window: a span of virtual time and a set of nodes. A message
// (send, deliver, drop) is kept when its time is in the span and both its ends are
// selected, so a diagram shows the conversation among the chosen nodes; an event of
// one node (crash, recover, status, log, timer, request, isolate, slow, detect) when
// that node is selected; a link cut when either end is; and a cluster-wide event
// (partition, heal, GST, alert, marker, action, expectation, other knobs) whenever
// its time is in the span. State that depends on history (leaders, partitions, the
// dashboard) is always folded from the start of the trace, so a window shows the
// right picture at its first instant.
package export

import (
	"fmt"
	"github.com/clusterlab/clusterlab/lang"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// Formats lists the export formats, as --format names them.
var Formats = []string{"md", "mermaid", "shiviz", "csv", "cast", "perfetto"}

// Window selects part of a trace: events at From <= T <= To (µs) of the selected
// nodes. The zero Window selects nothing; use All.
type Window struct {
	From, To int64
	// Nodes is the selection; nil selects every node.
	Nodes []node.ID
	// FirstSeq and LastSeq, when not zero, narrow the window to those event numbers
	// (the Markdown report uses them for its diagram of the busiest messages).
	FirstSeq, LastSeq uint64
}

// All is the window of the whole trace.
func All() Window { return Window{From: 0, To: math.MaxInt64} }

// Whole reports whether w selects every event.
func (w Window) Whole() bool {
	return w.From <= 0 && w.To == math.MaxInt64 && w.Nodes == nil && w.FirstSeq == 0 && w.LastSeq == 0
}

// InTime reports whether an event at t with number seq is inside the time span.
func (w Window) InTime(t int64, seq uint64) bool {
	if t < w.From || t > w.To {
		return false
	}
	if w.FirstSeq != 0 && seq < w.FirstSeq {
		return false
	}
	if w.LastSeq != 0 && seq > w.LastSeq {
		return false
	}
	return true
}

// Has reports whether node id is selected.
func (w Window) Has(id node.ID) bool {
	return w.Nodes == nil || slices.Contains(w.Nodes, id)
}

// Keep reports whether event e is in the window (see the package comment).
func (w Window) Keep(e *trace.Event) bool { return w.keep(e.T, e.Seq, e.Ev, e.Node, e.From, e.To) }

func (w Window) keep(t int64, seq uint64, ev string, id, from, to node.ID) bool {
	if !w.InTime(t, seq) {
		return false
	}
	if w.Nodes == nil {
		return true
	}
	switch {
	case isMessageKind(ev):
		return w.Has(from) && w.Has(to)
	case ev == trace.Cut:
		return w.Has(from) || w.Has(to)
	case id != node.None:
		return w.Has(id)
	}
	return true
}

// past reports whether an event at t numbered seq comes after the window: no
// later event is in it.
func (w Window) past(t int64, seq uint64) bool { return t > w.To || w.LastSeq != 0 && seq > w.LastSeq }

// IDs lists the selected nodes among ids, sorted by id.
func (w Window) IDs(ids []node.ID) []node.ID {
	var out []node.ID
	for _, id := range ids {
		if w.Has(id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Describe says what the window selects, for people.
func (w Window) Describe() string { return w.describeIn(lang.En, plainIDs) }

// Flags are the export command's options as typed, before checking.
type Flags struct {
	Format   string
	From, To string // durations such as "2s"; empty: the start, the end
	Nodes    string // "n1,n2"; empty: all
	Size     string // cast: "120x36"
	FPS      int    // cast: frames per virtual second
	Idle     string // cast: longest pause kept, such as "1s"; "0" keeps every pause
	Split    bool   // mermaid, md: cut a diagram too big for Mermaid into parts
	Table    string // csv: "messages" (the default) or "events"
	Force    bool   // shiviz, perfetto: write a file too big for the tool that opens it
}

// Options are checked export options.
type Options struct {
	Format string
	Window Window
	Cast   CastOptions
	// Split: mermaid is written as numbered parts (see MermaidParts), and md
	// shows the window's whole diagram as consecutive blocks.
	Split bool
	// Table is the CSV table: "messages" or "events".
	Table string
	// TraceName is the trace's file name, for the commands the report shows.
	TraceName string
	// Lang is the md report's language for headings and fixed texts (English by
	// default); the data, message types and commands are the same in every one.
	Lang lang.Lang
	// Force writes a ShiViz log or a Perfetto trace too big for a browser to open.
	Force bool
}

// ParseOptions checks f against a trace whose header is h. Errors are one line
// naming the flag and what was expected.
func ParseOptions(h *trace.Header, f Flags) (Options, error) {
	o := Options{Format: f.Format, Window: All(), Split: f.Split, Force: f.Force}
	if !slices.Contains(Formats, f.Format) {
		return o, fmt.Errorf("--format %q: expected one of %s", f.Format, strings.Join(Formats, ", "))
	}
	if f.From != "" {
		d, err := parseDur(f.From)
		if err != nil {
			return o, fmt.Errorf("--from %q: expected a virtual time such as 2s or 1500ms", f.From)
		}
		o.Window.From = d
	}
	if f.To != "" {
		d, err := parseDur(f.To)
		if err != nil {
			return o, fmt.Errorf("--to %q: expected a virtual time such as 5s or 7500ms", f.To)
		}
		o.Window.To = d
	}
	if o.Window.To < o.Window.From {
		return o, fmt.Errorf("--to %s is before --from %s: expected --to at or after --from", f.To, f.From)
	}
	if f.Nodes != "" {
		ids := h.Info.IDs
		for _, name := range strings.Split(f.Nodes, ",") {
			name = strings.TrimSpace(name)
			id, ok := node.ParseID(name)
			if !ok || !slices.Contains(ids, id) {
				return o, fmt.Errorf("--nodes: found %q, expected a comma-separated list of the trace's nodes (%s)", name, joinIDs(ids, ","))
			}
			if !slices.Contains(o.Window.Nodes, id) {
				o.Window.Nodes = append(o.Window.Nodes, id)
			}
		}
		slices.Sort(o.Window.Nodes)
	}
	if f.Table != "" && f.Format != "csv" {
		return o, fmt.Errorf("--table: not supported with --format %s, expected --format csv", f.Format)
	}
	if f.Format == "csv" {
		o.Table = CSVTables[0]
		if f.Table != "" {
			if !slices.Contains(CSVTables, f.Table) {
				return o, fmt.Errorf("--table %q: expected one of %s", f.Table, strings.Join(CSVTables, ", "))
			}
			o.Table = f.Table
		}
	}
	if f.Split && f.Format != "mermaid" && f.Format != "md" {
		return o, fmt.Errorf("--split: not supported with --format %s, expected --format mermaid or md", f.Format)
	}
	if f.Format != "cast" {
		return o, nil
	}
	if o.Window.Nodes != nil {
		return o, fmt.Errorf("--nodes: not supported with --format cast, expected no --nodes (the dashboard shows every node)")
	}
	c := DefaultCast()
	if f.Size != "" {
		w, h, err := ParseSize(f.Size)
		if err != nil {
			return o, err
		}
		c.Width, c.Height = w, h
	}
	if f.FPS != 0 {
		if f.FPS < 1 || f.FPS > 60 {
			return o, fmt.Errorf("--fps %d: expected frames per second from 1 to 60", f.FPS)
		}
		c.FPS = f.FPS
	}
	if f.Idle != "" {
		d, err := parseDur(f.Idle)
		if err != nil {
			return o, fmt.Errorf("--idle %q: expected the longest pause to keep, such as 1s or 0 to keep every pause", f.Idle)
		}
		c.Idle = time.Duration(d) * time.Microsecond
	}
	o.Cast = c
	return o, nil
}

// ParseSize reads a terminal size such as "120x36".
func ParseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		w, err = strconv.Atoi(a)
		if err == nil {
			h, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || w < 20 || h < 5 || w > 1000 || h > 500 {
		return 0, 0, fmt.Errorf("--size %q: expected WIDTHxHEIGHT in cells such as 120x36 (at least 20x5)", s)
	}
	return w, h, nil
}

// Write writes the trace src in format o.Format. render draws the dashboard for
// casts; nil uses TextDashboard.
//
// A window without events is refused (a RefusedError): no format has anything
// useful to say about it, and some tools reject an empty file. So is a diagram
// too big for Mermaid, before the work of writing it.
func Write(out io.Writer, src Source, o Options) error {
	switch o.Format {
	case "md":
		return markdown(out, src, o)
	case "mermaid":
		return Mermaid(out, src, o.Window)
	case "shiviz":
		return shiviz(out, src, o.Window, o.Force)
	case "csv":
		return CSV(out, src, o.Window, o.Table)
	case "perfetto":
		return perfetto(out, src, o.Window, o.Force)
	case "cast":
		c := o.Cast
		if c.Width == 0 {
			c = DefaultCast()
			c.Render = o.Cast.Render
		}
		return Cast(out, src, o.Window, c)
	}
	return fmt.Errorf("--format %q: expected one of %s", o.Format, strings.Join(Formats, ", "))
}

// RefusedError is an export that cannot be written as asked: an empty window, or a
// diagram too big for its tool. The command exits 2 on it, as on bad flags.
type RefusedError struct{ msg string }

func (e *RefusedError) Error() string { return e.msg }

// emptyText says where there are no events: "between 100s and 110s", "of n1,n2
// between 0s and the end (12.5s)", "in the trace"; tail is the recording's.
func emptyText(tail Tail, w Window) string {
	var parts []string
	if w.Nodes != nil {
		parts = append(parts, "of "+joinIDs(w.Nodes, ","))
	}
	if w.From > 0 || w.To != math.MaxInt64 {
		to := "the end"
		if tail.Events > 0 {
			to += " (" + seconds(tail.Last) + "s)"
		}
		if w.To != math.MaxInt64 {
			to = seconds(w.To) + "s"
		}
		parts = append(parts, "between "+seconds(max(w.From, 0))+"s and "+to)
	}
	if w.FirstSeq != 0 || w.LastSeq != 0 {
		parts = append(parts, fmt.Sprintf("among events %d to %d", w.FirstSeq, w.LastSeq))
	}
	if len(parts) == 0 {
		return "in the trace"
	}
	return strings.Join(parts, " ")
}

// PartName names the file of part i (from 0) written for path: out.mmd gives
// out-1.mmd, out-2.mmd, ….
func PartName(path string, i int) string {
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), i+1, ext)
}

// parseDur reads a virtual time: a Go duration ("2s", "1500ms") or a bare 0; it
// returns microseconds.
func parseDur(s string) (int64, error) {
	if s == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	if d < 0 {
		return 0, fmt.Errorf("negative")
	}
	return d.Microseconds(), nil
}

// seconds renders virtual time in µs as exact decimal seconds, without trailing
// zeros: "3.155817", "100".
func seconds(us int64) string { return string(appendSeconds(nil, us)) }

// appendSeconds appends seconds(us).
func appendSeconds(b []byte, us int64) []byte {
	if us < 0 {
		b = append(b, '-')
		us = -us
	}
	b = strconv.AppendInt(b, us/1e6, 10)
	if f := us % 1e6; f != 0 {
		var d [7]byte
		d[0] = '.'
		for i := 6; i >= 1; i-- {
			d[i] = byte('0' + f%10)
			f /= 10
		}
		n := 7
		for d[n-1] == '0' {
			n--
		}
		b = append(b, d[:n]...)
	}
	return b
}

// sizeText renders a size in bytes for people: "340 MB", "1.2 GB".
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GB"
	case n >= 1<<20:
		return strconv.FormatInt(n>>20, 10) + " MB"
	}
	return strconv.FormatInt(n>>10, 10) + " kB"
}

// fmtT renders virtual time in µs as a Go duration ("3.155817s").
func fmtT(us int64) string { return (time.Duration(us) * time.Microsecond).String() }

func joinIDs(ids []node.ID, sep string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, sep)
}
