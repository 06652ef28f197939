package export

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// scenarioOf decodes the scenario stored in the trace header, or nil.
func scenarioOf(h *trace.Header) *presets.Scenario {
	if len(h.Scenario) == 0 {
		return nil
	}
	var s presets.Scenario
	if err := json.Unmarshal(h.Scenario, &s); err != nil {
		return nil
	}
	return &s
}

// presetName is the embedded preset the trace's scenario is, seed apart, or "".
func presetName(h *trace.Header) string {
	s := scenarioOf(h)
	if s == nil {
		return ""
	}
	p, err := presets.Load(s.Name)
	if err != nil {
		return ""
	}
	a, b := *s, *p
	a.Seed, b.Seed = 0, 0
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil || !bytes.Equal(ja, jb) {
		return ""
	}
	return s.Name
}

// writeReproduce gives the commands that re-run the recording and check it.
func (r *report) writeReproduce(p func(string, ...any)) {
	// The file's own name: a report is handed in beside its trace, and a path
	// would name the student's directories.
	file := filepath.Base(r.traceName)
	if r.traceName == "" {
		file = "TRACE.jsonl"
	}
	p("## %s\n\n", r.T("md.h.reproduce"))
	name := presetName(r.h)
	end := r.tail.End
	until := r.h.Info.Until
	if end != nil {
		until = end.T
	}
	switch {
	case end == nil:
		p("%s\n\n", r.T("md.repro.partial"))
		p("```sh\nclusterlab verify --partial %s\n```\n\n", shellQuote(file))
	case r.userActs > 0 || end.Reason != trace.EndUntil:
		why := r.F("md.repro.acts.many", r.userActs)
		switch r.userActs {
		case 0:
			why = r.F("md.repro.ownend", r.Or("md.end."+end.Reason, endReasons[end.Reason]))
		case 1:
			why = r.T("md.repro.acts.one")
		}
		p(r.T("md.repro.verify")+"\n\n", why)
		p("```sh\nclusterlab verify %s\n```\n\n", shellQuote(file))
	case name != "":
		p(r.T("md.repro.preset")+"\n\n", mdText(name))
		p("```sh\nclusterlab sim --preset %s --seed %d --until %s --record %s\nclusterlab verify %s\n```\n\n",
			shellQuote(name), r.h.Seed, fmtT(until), shellQuote("rerun.jsonl"), shellQuote(file))
	default:
		p("%s\n\n", r.T("md.repro.header"))
		p("```sh\nclusterlab verify %s\n```\n\n", shellQuote(file))
	}
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// writeSettings lists the algorithm's parameters, with its defaults for those the
// scenario left out, and the network and monitor settings, from the trace header.
func (r *report) writeSettings(p func(string, ...any)) {
	info := &r.h.Info
	s := scenarioOf(r.h)
	p("## %s\n\n", r.T("md.h.settings"))
	given := map[string]any{}
	if s != nil {
		given = s.Params
	}
	type row struct{ name, value string }
	var rows []row
	spec, known := algos.Lookup(info.Algorithm)
	if known {
		for _, prm := range spec.Params {
			if v, ok := given[prm.Name]; ok {
				rows = append(rows, row{prm.Name, valueText(v)})
			} else {
				rows = append(rows, row{prm.Name, r.F("md.default", prm.Default)})
			}
		}
	}
	var extra []string
	for k := range given {
		if !known || !slices.ContainsFunc(spec.Params, func(x algos.Param) bool { return x.Name == k }) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		rows = append(rows, row{k, valueText(given[k])})
	}
	if len(rows) == 0 {
		p(r.T("md.noparams")+"\n\n", mdText(info.Algorithm))
	} else {
		p("| "+r.T("md.col.paramof")+" | %s |\n|---|---|\n", mdText(info.Algorithm), r.T("md.col.value"))
		for _, x := range rows {
			p("| %s | %s |\n", mdText(x.name), mdText(x.value))
		}
		p("\n%s\n\n", r.T("md.algoshint"))
	}
	p("| %s | |\n|---|---|\n", r.T("md.col.network"))
	topo := info.Topology
	if s != nil && s.Degree != 0 {
		topo += r.F("md.degree", s.Degree)
	}
	if s != nil && len(s.Edges) > 0 {
		topo += r.F("md.edges", len(s.Edges))
	}
	p("| %s | %s |\n", r.T("md.col.topology"), mdText(topo))
	p("| %s | %s |\n", r.T("md.col.latency"), mdText(r.l.Latency(info.Latency)))
	p("| %s | %g |\n| %s | %g |\n| %s | %s |\n", r.T("md.col.loss"), info.Loss, r.T("md.col.dup"), info.Dup, r.T("md.col.delta"), fmtT(info.Delta))
	switch {
	case info.GST == 0:
		p("| GST | %s |\n", r.T("md.gst.zero"))
	case info.GST < 0:
		p("| GST | %s |\n", r.T("md.gst.never"))
	default:
		p("| GST | %s |\n", fmtT(info.GST))
		if info.PreLatency != "" {
			p("| %s | %s |\n", r.T("md.beforegst"), mdText(r.F("md.prenet", r.l.Latency(info.PreLatency), info.PreLoss)))
		}
	}
	if s != nil {
		for _, l := range s.Links {
			p("| %s | %s |\n", r.T("md.link"), mdText(linkText(r.l, l)))
		}
		m := s.Monitors
		b, _ := json.Marshal(m)
		p("| %s | %s |\n", r.T("md.monitors"), mdText(jsonText(b)))
	}
	p("| %s | %s |\n\n", r.T("md.col.until"), fmtT(info.Until))
}

// valueText renders a parameter value as TOML would show it, without quotes; a
// table is "key value, key value" in key order, leaving out empty values.
func valueText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = valueText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if x[k] != nil && x[k] != "" {
				parts = append(parts, k+" "+valueText(x[k]))
			}
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

// jsonText renders a small JSON value as valueText does.
func jsonText(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	return valueText(v)
}

// shows says whether the alert of sequence number seq is one the table lists
// (r.alerts is in sequence order).
func (r *report) shows(seq uint64) bool {
	_, ok := slices.BinarySearchFunc(r.alerts, seq, func(a *trace.Event, seq uint64) int { return cmp.Compare(a.Seq, seq) })
	return ok
}

// writeAlerts lists the window's first AlertRows alerts as intervals, from the
// alert to the alert-cleared event that closes it (one never cleared lasts to the
// end of the trace and says so), and counts the others.
func (r *report) writeAlerts(p func(string, ...any)) {
	p("## %s\n\n", r.T("md.h.alerts"))
	if len(r.alerts) == 0 {
		p("%s\n\n", r.T("md.noalerts"))
		return
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(r.alertKinds)) {
		parts = append(parts, fmt.Sprintf("%s %d", r.alertName(k), r.alertKinds[k]))
	}
	count := r.F("md.alerts.many", r.alertCount)
	if r.alertCount == 1 {
		count = r.F("md.alerts.one", 1)
	}
	p(r.T("md.alerts.head")+"\n\n", count, mdText(strings.Join(parts, ", ")))
	if len(r.alerts) < r.alertCount {
		// More than the table lists (a storm): each kind's count and span first,
		// since the table's rows may all fall in its first instants.
		p("%s\n\n| %s | %s | %s | %s |\n|---|---:|---:|---:|\n", r.T("md.alerts.bykind"), r.T("md.col.alert"), r.T("md.col.alerts"), r.T("md.col.first"), r.T("md.col.last"))
		for _, k := range slices.Sorted(maps.Keys(r.alertKinds)) {
			span := r.alertSpans[k]
			p("| %s | %d | %s | %s |\n", mdText(r.alertName(k)), r.alertKinds[k], fmtT(span[0]), fmtT(span[1]))
		}
		p("\n%s\n\n", r.F("md.alerts.first", len(r.alerts)))
	}
	end := r.tail.Last
	p("| %s | %s | %s | %s | %s |\n|---|---:|---:|---:|---|\n", r.T("md.col.alert"), r.T("md.col.start"), r.T("md.col.end"), r.T("md.col.duration"), r.T("md.col.details"))
	for _, a := range r.alerts {
		details := r.l.Text(a.Text)
		if c, ok := r.cleared[a.Seq]; ok {
			if c.Text != "" {
				details += "; " + r.T("md.cleared") + " " + r.l.Text(c.Text)
			}
			p("| %s | %s | %s | %s | %s |\n", mdText(r.alertName(a.Kind)), fmtT(a.T), fmtT(c.T), fmtT(c.T-a.T), mdText(details))
		} else {
			p("| %s | %s | "+r.T("md.notcleared")+" | "+r.T("md.atleast")+" | %s |\n", mdText(r.alertName(a.Kind)), fmtT(a.T), fmtT(end), fmtT(end-a.T), mdText(details))
		}
	}
	if more := r.alertCount - len(r.alerts); more > 0 {
		p("| … | | | | %s |\n", r.F("sim.more", more))
	}
	p("\n")
}

// writeFinal is the state of every selected node at the end, with the columns that
// fit the family: a leader and term where an algorithm names them, a critical-
// section state for mutual exclusion, suspects for failure detectors; any column
// that some node fills is shown whatever the family.
func (r *report) writeFinal(p func(string, ...any)) {
	family := r.h.Info.Family
	nodes := slices.DeleteFunc(slices.Clone(r.final.Nodes), func(n trace.NodeView) bool { return !r.w.Has(n.ID) })
	any := func(f func(s *node.Status) bool) bool {
		return slices.ContainsFunc(nodes, func(n trace.NodeView) bool { return f(&n.Status) })
	}
	type col struct {
		name, align string
		cell        func(s *node.Status) string
	}
	var cols []col
	if any(func(s *node.Status) bool { return s.Role != "" }) {
		cols = append(cols, col{r.T("md.col.role"), "---", func(s *node.Status) string { return mdText(r.l.Word(s.Role)) }})
	}
	if family == "election" || any(func(s *node.Status) bool { return s.Leader != node.None }) {
		cols = append(cols, col{r.T("md.col.leader"), "---", func(s *node.Status) string { return idText(s.Leader) }})
	}
	if any(func(s *node.Status) bool { return s.Term != 0 }) {
		cols = append(cols, col{r.T("md.col.term"), "---:", func(s *node.Status) string { return numText(s.Term) }})
	}
	if family == "mutex" || any(func(s *node.Status) bool { return s.CS != node.CSNone }) {
		cols = append(cols, col{r.T("md.col.cs"), "---", func(s *node.Status) string {
			if s.CS == node.CSNone {
				return ""
			}
			return r.l.Word(s.CS.String())
		}})
	}
	if family == "detector" || any(func(s *node.Status) bool { return len(s.Suspects) > 0 }) {
		cols = append(cols, col{r.T("md.col.suspects"), "---", func(s *node.Status) string { return r.list(s.Suspects, " ") }})
	}
	p("## "+r.T("md.h.state")+"\n\n| %s | %s | %s |", fmtT(r.final.T), r.T("md.col.node"), r.T("md.col.state"), r.T("md.col.incarnation"))
	sep := "|---|---|---:|"
	for _, c := range cols {
		p(" %s |", c.name)
		sep += c.align + "|"
	}
	p("\n%s\n", sep)
	// Beyond FoldAbove nodes, nodes in a row whose rows are the same share one:
	// "n5…n300 (296 nodes)".
	ids := make([]node.ID, len(nodes))
	cells := make([]string, len(nodes))
	for i, n := range nodes {
		state := r.T("sim.up")
		if !n.Up {
			state = r.T("sim.down")
		}
		c := fmt.Sprintf(" %s | %d |", state, n.Inc)
		for _, col := range cols {
			c += " " + col.cell(&n.Status) + " |"
		}
		ids[i], cells[i] = n.ID, c
	}
	for _, run := range foldRows(ids, cells, len(r.h.Info.IDs) > FoldAbove) {
		p("| %s |%s\n", run.label(r.l), run.cells)
	}
	p("\n")
}

// writeQuestions ends the report with the scenario's questions, each with room
// for the answer.
func (r *report) writeQuestions(p func(string, ...any)) {
	s := scenarioOf(r.h)
	if s == nil || len(s.Questions) == 0 {
		return
	}
	p("\n## %s\n\n%s\n", r.T("md.h.questions"), r.T("md.answerunder"))
	for i, q := range s.Questions {
		p("\n### "+r.T("md.question")+"\n\n%s\n\n**"+r.T("md.answer")+"**\n\n&nbsp;\n\n&nbsp;\n\n&nbsp;\n", i+1, mdText(q))
	}
}

// alertName is an alert kind's name in the report's language ("divisão de
// cérebro"); English shows the kind as scenarios write it ("split-brain").
func (r *report) alertName(kind string) string {
	if r.l == lang.En || r.l == "" {
		return kind
	}
	return r.Or("alert."+kind, kind)
}
