package lab

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/internal/termtext"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/rundiff"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/tui"
)

// diff: two recordings of one scenario, to the first event where they part.

type diffCmd struct {
	A    string `arg:"" help:"${help_diff_a}"`
	B    string `arg:"" help:"${help_diff_b}"`
	JSON bool   `name:"json" help:"${help_diff_json}"`
	View bool   `help:"${help_diff_view}"`
}

func (c *diffCmd) Run() error {
	// A missing file is named as the user gave it, as the other commands name
	// theirs, not as Go's stat error (kong's existingfile would make it absolute,
	// and diff prints the names it is given).
	for _, p := range []string{c.A, c.B} {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return badInput(errors.New(ui.F("kong.nofilearg", p)))
		}
	}
	res, err := rundiff.Compare(c.A, c.B)
	if err != nil {
		return badInput(err)
	}
	if c.View {
		if err := c.view(res); err != nil {
			return err
		}
	} else if c.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return ioError("stdout", err)
		}
	} else {
		// It quotes the recordings (names, markers, lines): through the sanitiser.
		tw := termtext.NewWriter(stdout)
		printDiff(tw, res)
		if err := tw.Flush(); err != nil {
			return ioError("stdout", err)
		}
	}
	if !res.Identical {
		return checkFailed(errors.New(ui.T("diff.err.differ")))
	}
	return nil
}

// view opens both recordings side by side, at the first difference.
func (c *diffCmd) view(res *rundiff.Result) error {
	a, err := session.OpenReplay(c.A)
	if err != nil {
		return badInput(err)
	}
	defer a.Close()
	b, err := session.OpenReplay(c.B)
	if err != nil {
		return badInput(err)
	}
	defer b.Close()
	a.SetPaused(true)
	b.SetPaused(true)
	opts := tui.DiffOptions{A: c.A, B: c.B, First: -1, Lang: ui}
	if d := res.First; d != nil {
		opts.First, opts.Event, opts.Why = d.TUS, d.Event, why(res)
		for _, e := range []*trace.Event{d.A, d.B} {
			if e != nil {
				opts.At = max(opts.At, e.T)
			}
		}
	}
	return tui.RunDiff(a, b, opts)
}

// printDiff writes a diff for a reader: the two recordings, their headers where
// they differ, the first event where they part and why, the end states and the
// alerts that differ.
func printDiff(w io.Writer, r *rundiff.Result) {
	for _, s := range []struct {
		label string
		side  rundiff.Side
	}{{"A", r.A}, {"B", r.B}} {
		end := ui.F("diff.side.cut", clockUS(s.side.EndUS))
		if s.side.Complete {
			end = ui.F("diff.side.end", clockUS(s.side.EndUS), ui.T("diff.end."+s.side.EndReason))
		}
		if s.side.Edited {
			end += ", " + ui.T("diff.side.edited")
		}
		fmt.Fprintf(w, "%s  %s  %s\n", s.label, s.side.File, ui.F("diff.side", s.side.Scenario, s.side.Seed, s.side.Events, end))
	}
	if r.Identical {
		fmt.Fprintln(w, ui.T("diff.same"))
		return
	}
	if len(r.Header) > 0 {
		fmt.Fprintln(w, ui.T("diff.header"))
		for _, h := range r.Header {
			fmt.Fprintf(w, "  %-32s A %s\n  %-32s B %s\n", h.Path, cmp.Or(h.A, "-"), "", cmp.Or(h.B, "-"))
		}
	}
	if d := r.First; d == nil {
		fmt.Fprintln(w, ui.T("diff.events.same"))
	} else {
		fmt.Fprintln(w, ui.F("diff.first", d.Event, clockUS(d.TUS)))
		for _, l := range []struct {
			label string
			e     *trace.Event
		}{{"A", d.A}, {"B", d.B}} {
			if l.e != nil {
				line, _ := json.Marshal(l.e)
				fmt.Fprintf(w, "  %s  %s\n", l.label, clip(string(line)))
			} else if d.A != nil || d.B != nil {
				fmt.Fprintf(w, "  %s  %s\n", l.label, ui.T("diff.ended"))
			}
		}
		fmt.Fprintf(w, "  %s\n", why(r))
	}
	if len(r.Nodes) > 0 {
		fmt.Fprintln(w, ui.T("diff.nodes"))
		width := 0
		for _, n := range r.Nodes {
			width = max(width, len(fieldName(n.Field)), len(endValue(n.Field, n.A)))
		}
		fmt.Fprintf(w, "  %-5s %-*s  %-*s  %s\n", "", width, "", width, "A", "B")
		for _, n := range r.Nodes {
			fmt.Fprintf(w, "  %-5s %-*s  %-*s  %s\n", n.Node, width, fieldName(n.Field), width, endValue(n.Field, n.A), endValue(n.Field, n.B))
		}
	}
	for _, only := range []struct {
		key    string
		alerts []rundiff.Alert
	}{{"diff.only.a", r.OnlyA}, {"diff.only.b", r.OnlyB}} {
		if len(only.alerts) == 0 {
			continue
		}
		fmt.Fprintln(w, ui.T(only.key))
		for _, a := range only.alerts {
			times := ""
			if a.Count > 1 {
				times = fmt.Sprintf(" (×%d)", a.Count)
			}
			fmt.Fprintf(w, "  %s  %s: %s%s\n", clockUS(a.AtUS), ui.AlertKind(a.Kind), ui.Text(a.Text), times)
		}
	}
}

// why says in words what made the runs part.
func why(r *rundiff.Result) string {
	d := r.First
	c := d.Cause
	run, other := strings.ToUpper(c.Run), "B"
	if c.Run == "b" {
		other = "A"
	}
	switch c.Kind {
	case rundiff.CauseAction:
		if c.Run == "both" {
			return ui.F("diff.why.actions", d.A.Text, d.B.Text)
		}
		return ui.F("diff.why.action", run, c.Action, ui.Or("diff.by."+c.By, c.By), other)
	case rundiff.CauseEnd:
		end := r.A
		if c.Run == "b" {
			end = r.B
		}
		reason := ui.T("diff.end.cut")
		if end.Complete {
			reason = ui.T("diff.end." + end.EndReason)
		}
		if d.A == nil && d.B == nil {
			return ui.F("diff.why.endsame", run, clockUS(end.EndUS), reason, other)
		}
		return ui.F("diff.why.end", run, clockUS(end.EndUS), reason, other)
	case rundiff.CauseExpect:
		return ui.F("diff.why.expect", run, other)
	case rundiff.CauseOrder:
		return ui.F("diff.why.order", clockUS(d.TUS))
	case rundiff.CauseOther:
		if len(r.Header) > 0 {
			return ui.T("diff.why.header")
		}
		return ui.T("diff.why.other")
	}
	m := c.Message
	msg := ui.F("diff.msg", m.MID, m.From, m.To, m.Type, clockUS(m.SentUS))
	fates := ui.F("diff.fates", fate(m, m.A), fate(m, m.B))
	switch c.Kind {
	case rundiff.CauseLoss:
		return ui.F("diff.why.loss", msg, run) + "; " + fates
	case rundiff.CauseDup:
		return ui.F("diff.why.dup", msg, run, other)
	}
	return ui.F("diff.why.latency", msg, run) + "; " + fates
}

// fate says what became of a message in one run.
func fate(m *rundiff.Message, f rundiff.Fate) string {
	lat := time.Duration(f.AtUS-m.SentUS) * time.Microsecond
	switch f.What {
	case "delivered":
		return ui.F("diff.fate.delivered", clockUS(f.AtUS), lat)
	case "dropped":
		return ui.F("diff.fate.dropped", ui.Word(f.Reason), clockUS(f.AtUS))
	}
	return ui.T("diff.fate.pending")
}

// fieldName names an end-state field: sent.TYPE and counter.NAME keep their
// type or name.
func fieldName(f string) string {
	if t, ok := strings.CutPrefix(f, "sent."); ok {
		return ui.F("diff.field.sent", t)
	}
	if n, ok := strings.CutPrefix(f, "counter."); ok {
		return n
	}
	return ui.T("diff.field." + f)
}

// endValue shows an end-state value: a role or a state in words, "-" for none.
func endValue(field, v string) string {
	switch {
	case v == "":
		return "-"
	case field == "role" || field == "cs" || field == "up":
		return ui.Word(v)
	}
	return v
}
