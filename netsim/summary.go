package netsim

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// Schema names the shape of Summary as JSON (`sim --json`). docs/sim-json.md
// describes it field by field; a change that removes or retypes a field bumps it.
const Schema = "clusterlab.sim/1"

// Summary is what `sim` prints: final statuses, message counts, alerts, monitor
// figures and expectation results. Its JSON has one shape for every family: every
// section is always there, with zeros and empty lists where it does not apply, so
// that a grading script never meets a missing key.
type Summary struct {
	Schema    string `json:"schema"`
	Scenario  string `json:"scenario"`
	Algorithm string `json:"algorithm"`
	Family    string `json:"family"`
	Seed      uint64 `json:"seed"`
	UntilUS   int64  `json:"until_us"`
	EndUS     int64  `json:"end_us"`
	Events    uint64 `json:"events"`

	Nodes    []NodeSummary             `json:"nodes"`
	Messages map[string]*MessageCounts `json:"messages"`
	Drops    map[string]int            `json:"drops"`
	Alerts   []AlertRecord             `json:"alerts"`

	Detector DetectorFigures `json:"detector"`
	Election ElectionFigures `json:"election"`
	Mutex    MutexFigures    `json:"mutex"`

	Expectations []Result `json:"expectations"`
	// Passed is true only when every expectation was evaluated and held. A
	// scenario without expectations passes.
	Passed bool `json:"passed"`

	// Trace is the recording made of the run; empty when there is none. The
	// command that records fills it.
	Trace TraceRef `json:"trace"`

	// Clamped counts the messages drawn slower than Δ after GST, which arrived in
	// Δ; AboveDelta names the latencies that can draw above it (Config.AboveDelta)
	// and DeltaUS is Δ. The text summary says so; JSON keeps its shape.
	Clamped    int     `json:"-"`
	AboveDelta []Clamp `json:"-"`
	DeltaUS    int64   `json:"-"`
}

// NodeSummary is one process at the end of a run.
type NodeSummary struct {
	ID       node.ID          `json:"id"`
	Up       bool             `json:"up"`
	Inc      uint32           `json:"incarnation"`
	Role     string           `json:"role"`
	Leader   string           `json:"leader"` // "" when it knows none
	Term     int64            `json:"term"`
	CS       string           `json:"cs"` // "" outside mutual exclusion
	Suspects []node.ID        `json:"suspects"`
	Counters map[string]int64 `json:"counters"`
}

// MessageCounts is one message type's fates.
type MessageCounts struct {
	Sent      int            `json:"sent"`
	Delivered int            `json:"delivered"`
	Dropped   int            `json:"dropped"`
	DroppedBy map[string]int `json:"dropped_by"`
	// IDs is how many ids the messages sent carried in their bodies' lists, and
	// MaxIDs the largest of them: message size as a measured quantity (0 for
	// types without a list).
	IDs    int `json:"ids"`
	MaxIDs int `json:"max_ids"`
}

// DetectorFigures are the failure-detector monitors' figures.
type DetectorFigures struct {
	FalseSuspicionsBefore int                `json:"false_suspicions_before_gst"`
	FalseSuspicionsAfter  int                `json:"false_suspicions_after_gst"`
	Detections            []DetectionSummary `json:"detections"`
}

// DetectionSummary is how long the live processes took to all suspect a crashed one.
type DetectionSummary struct {
	Node      node.ID `json:"node"`
	CrashedUS int64   `json:"crashed_us"`
	Detected  bool    `json:"detected"`
	LatencyMS float64 `json:"latency_ms"`
}

// ElectionFigures are the election monitors' figures.
type ElectionFigures struct {
	// Started adds up the processes' own "elections" counters: every election a
	// process began, including those that a higher one took over.
	Started int64 `json:"elections_started"`
	// Completed counts the times all live processes came to agree on a new live
	// leader.
	Completed int `json:"elections_completed"`
	// PerElection is messages of each type sent per completed election.
	PerElection map[string]float64 `json:"messages_per_election"`
	// RecoveryMS is, for each crash of an agreed leader, the time until all live
	// processes agreed on a live leader again.
	RecoveryMS []float64 `json:"recovery_ms"`
}

// MutexFigures are the mutual-exclusion monitors' figures.
type MutexFigures struct {
	Entries     int                `json:"entries"`
	PerEntry    map[string]float64 `json:"messages_per_entry"`
	MeanWaitMS  float64            `json:"mean_wait_ms"`
	MaxWaitMS   float64            `json:"max_wait_ms"`
	MeanSyncMS  float64            `json:"mean_sync_delay_ms"`
	SyncSamples int                `json:"sync_delay_samples"`
}

// TraceRef names a recording of the run.
type TraceRef struct {
	Path   string `json:"path"`
	Events uint64 `json:"events"`
	Hash   string `json:"hash"`
}

// NotEvaluated counts the expectations whose time lies after the run's end.
func (s *Summary) NotEvaluated() int {
	n := 0
	for _, r := range s.Expectations {
		if r.Status == StatusNotEvaluated {
			n++
		}
	}
	return n
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Summary gathers the run's figures. Call Finish first to check end expectations:
// an expectation whose time lies after the current instant is listed as not
// evaluated, and the run does not pass.
func (w *World) Summary() *Summary {
	m := w.mon
	s := &Summary{Schema: Schema, Scenario: w.cfg.Name, Algorithm: w.cfg.Spec.Name, Family: string(w.cfg.Spec.Family),
		Seed: w.cfg.Seed, UntilUS: node.Micros(w.cfg.Until), EndUS: node.Micros(w.now), Events: w.lineSeq,
		Nodes: []NodeSummary{}, Messages: map[string]*MessageCounts{}, Drops: map[string]int{},
		Alerts:       append([]AlertRecord{}, w.alerts.list...),
		Detector:     DetectorFigures{FalseSuspicionsBefore: m.falseBefore, FalseSuspicionsAfter: m.falseAfter, Detections: []DetectionSummary{}},
		Election:     ElectionFigures{Completed: m.elections, RecoveryMS: []float64{}},
		Mutex:        MutexFigures{Entries: m.entries, SyncSamples: len(m.syncDelays)},
		Expectations: append([]Result{}, w.results...), Passed: true,
		Clamped: w.clamped, AboveDelta: w.cfg.AboveDelta(), DeltaUS: node.Micros(w.net.Delta)}
	for _, p := range w.procs {
		st := p.status
		n := NodeSummary{ID: p.id, Up: p.up, Inc: p.inc, Role: st.Role, Term: st.Term,
			Suspects: append([]node.ID{}, st.Suspects...), Counters: map[string]int64{}}
		if st.Leader != node.None {
			n.Leader = st.Leader.String()
		}
		if st.CS != 0 {
			n.CS = st.CS.String()
		}
		for _, c := range st.Counters {
			n.Counters[c.Name] = c.Value
		}
		if v, ok := st.Counter("elections"); ok {
			s.Election.Started += v
		}
		s.Nodes = append(s.Nodes, n)
	}
	for _, t := range w.counts.types() {
		c := w.counts.byType[t]
		mc := &MessageCounts{Sent: c.Sent, Delivered: c.Delivered, DroppedBy: map[string]int{}, IDs: c.IDs, MaxIDs: c.MaxIDs}
		for r, k := range c.Dropped {
			mc.Dropped += k
			mc.DroppedBy[r] = k
		}
		s.Messages[t] = mc
	}
	for k, v := range w.counts.reasons {
		s.Drops[k] = v
	}
	if m.suspectsSeen {
		for _, d := range m.detections {
			if d.CrashedUS >= 0 {
				s.Detector.Detections = append(s.Detector.Detections, DetectionSummary{Node: d.Node, CrashedUS: d.CrashedUS, Detected: d.Detected, LatencyMS: d.LatencyMS})
			}
		}
	}
	perType := func(n int) map[string]float64 {
		out := map[string]float64{}
		if n == 0 {
			return out
		}
		for _, t := range w.counts.types() {
			out[t] = float64(w.counts.byType[t].Sent) / float64(n)
		}
		return out
	}
	s.Election.PerElection = perType(m.elections)
	for _, r := range m.recoveries {
		s.Election.RecoveryMS = append(s.Election.RecoveryMS, ms(r))
	}
	s.Mutex.PerEntry = perType(m.entries)
	var sum, mx time.Duration
	for _, d := range m.waits {
		sum += d
		mx = max(mx, d)
	}
	if len(m.waits) > 0 {
		s.Mutex.MeanWaitMS, s.Mutex.MaxWaitMS = ms(sum/time.Duration(len(m.waits))), ms(mx)
	}
	var ss time.Duration
	for _, d := range m.syncDelays {
		ss += d
	}
	if len(m.syncDelays) > 0 {
		s.Mutex.MeanSyncMS = ms(ss / time.Duration(len(m.syncDelays)))
	}
	// The scheduled expectations still ahead of the clock were never checked. An
	// end-of-run expectation is meant for the scenario's end: a run stopped before
	// it (sim --until) did not check it either, whatever the early look said.
	var atEnd []Result
	evaluated := s.Expectations[:0]
	for _, r := range s.Expectations {
		if r.AtEnd && w.now < w.cfg.Until {
			atEnd = append(atEnd, Result{At: w.cfg.Until, AtUS: node.Micros(w.cfg.Until), AtEnd: true, Text: r.Text, Status: StatusNotEvaluated})
			continue
		}
		evaluated = append(evaluated, r)
	}
	s.Expectations = evaluated
	for _, e := range w.cfg.Expect {
		if !e.atEnd && e.At > w.now {
			s.Expectations = append(s.Expectations, Result{At: e.At, AtUS: node.Micros(e.At), Text: e.Text, Status: StatusNotEvaluated})
		}
	}
	s.Expectations = append(s.Expectations, atEnd...)
	for _, r := range s.Expectations {
		s.Passed = s.Passed && r.Status == StatusPass
	}
	return s
}

// Print writes the summary for people, in English.
func (s *Summary) Print(out io.Writer) { s.PrintIn(out, lang.En) }

// PrintIn writes the summary for people in language l. Message types, alert kinds
// and numbers are the same in every language.
func (s *Summary) PrintIn(out io.Writer, l lang.Lang) {
	fmt.Fprintf(out, l.T("sim.head")+"\n\n", s.Scenario, s.Algorithm, s.Seed,
		usDur(s.EndUS), s.Events)
	s.printNodes(out, l)
	mw := max(12, len([]rune(l.T("sim.col.messages"))))
	cols := []string{l.T("sim.col.sent"), l.T("sim.col.delivered"), l.T("sim.col.dropped")}
	sw, dw, xw := max(5, runes(cols[0])), max(9, runes(cols[1])), max(7, runes(cols[2]))
	fmt.Fprintf(out, "\n%-*s %*s  %*s  %*s\n", mw, l.T("sim.col.messages"), sw, cols[0], dw, cols[1], xw, cols[2])
	for _, t := range sortedKeys(s.Messages) {
		c := s.Messages[t]
		var why []string
		for _, r := range sortedKeys(c.DroppedBy) {
			why = append(why, fmt.Sprintf("%s %d", l.Word(r), c.DroppedBy[r]))
		}
		fmt.Fprintf(out, "%-*s %*d  %*d  %*d  %s\n", mw, t, sw, c.Sent, dw, c.Delivered, xw, c.Dropped, strings.Join(why, ", "))
	}
	if len(s.AboveDelta) > 0 {
		// A latency above Δ is clamped after GST: the run is not the one written.
		var which []string
		for _, c := range s.AboveDelta {
			what := l.T("sim.clamp.network")
			if c.Link != nil {
				what = fmt.Sprintf("%v→%v", c.Link.From, c.Link.To)
			}
			which = append(which, l.F("sim.clamp.item", what, c.Ceiling))
		}
		fmt.Fprintf(out, l.T("sim.clamped")+"\n", usDur(s.DeltaUS), strings.Join(which, ", "), s.Clamped)
	}
	for _, t := range sortedKeys(s.Messages) {
		if c := s.Messages[t]; c.IDs > 0 {
			fmt.Fprintf(out, l.T("sim.msgsize")+"\n", t, c.IDs, float64(c.IDs)/float64(c.Sent), c.MaxIDs)
		}
	}
	if d := s.Detector; len(d.Detections) > 0 || s.Family == string(algos.Detector) {
		fmt.Fprintf(out, "\n"+l.T("sim.falsesusp")+"\n", d.FalseSuspicionsBefore, d.FalseSuspicionsAfter)
		for _, x := range d.Detections {
			if x.Detected {
				fmt.Fprintf(out, l.T("sim.detected")+"\n", x.Node, usDur(x.CrashedUS), x.LatencyMS)
			} else {
				fmt.Fprintf(out, l.T("sim.notdetected")+"\n", x.Node, usDur(x.CrashedUS))
			}
		}
	}
	if e := s.Election; s.Family == string(algos.Election) || e.Completed > 0 || e.Started > 0 {
		fmt.Fprintf(out, "\n"+l.T("sim.elections"), e.Started, e.Completed)
		if len(e.RecoveryMS) > 0 {
			fmt.Fprintf(out, l.T("sim.recovery"), fmtFloats(e.RecoveryMS))
		}
		fmt.Fprintln(out)
		fmt.Fprintf(out, l.T("sim.perelection")+"\n", fmtPer(e.PerElection))
	}
	if m := s.Mutex; s.Family == string(algos.Mutex) {
		fmt.Fprintf(out, "\n"+l.T("sim.cs")+"\n",
			m.Entries, m.MeanWaitMS, m.MaxWaitMS, m.MeanSyncMS, l.Count("sim.samples", m.SyncSamples))
		fmt.Fprintf(out, l.T("sim.perentry")+"\n", fmtPer(m.PerEntry))
	}
	fmt.Fprintf(out, "\n"+l.T("sim.alerts")+"\n", len(s.Alerts))
	for i, a := range s.Alerts {
		if i == 20 {
			fmt.Fprintf(out, "  "+l.T("sim.more")+"\n", len(s.Alerts)-i)
			break
		}
		fmt.Fprintf(out, "  %10v  %-15s %s\n", usDur(a.AtUS), a.Kind, l.Text(a.Text))
		if a.ClearedUS >= 0 {
			fmt.Fprintf(out, "  %10s  %-15s "+l.T("sim.cleared")+"\n", "", "", usDur(a.ClearedUS), l.Text(a.Cleared))
		}
	}
	if len(s.Expectations) > 0 {
		fmt.Fprintf(out, "\n%s\n", l.T("sim.expectations"))
		status := map[string]string{StatusNotEvaluated: l.T("sim.notevaluated"), StatusPass: l.T("sim.pass"), StatusFail: l.T("sim.fail")}
		sw := 0
		for _, v := range status {
			sw = max(sw, runes(v))
		}
		for _, r := range s.Expectations {
			st, ok := status[r.Status]
			if !ok {
				st = status[StatusFail]
			}
			got := "(" + l.Text(r.Got) + ")"
			if r.Status == StatusNotEvaluated {
				got = fmt.Sprintf(l.T("sim.afterend"), usDur(s.EndUS))
			}
			fmt.Fprintf(out, "  %-*s %s %-8v %-28s %s\n", sw, st, l.T("sim.at"), usDur(r.AtUS), r.Text, got)
		}
	}
}

// groupAbove is the node count beyond which the node table folds runs of identical
// rows into one.
const groupAbove = 50

// printNodes writes the node table. Beyond groupAbove nodes, consecutive nodes whose
// rows are identical share one row, "n5…n4000 … (3,996 nodes)", so that a large run
// stays readable.
func (s *Summary) printNodes(out io.Writer, l lang.Lang) {
	type row struct {
		first, last node.ID
		n           int
		cells       string
	}
	// Each column is as wide as its English default, its translated header or its
	// widest translated word, whichever is widest.
	head := []string{l.T("sim.col.state"), l.T("sim.col.inc"), l.T("sim.col.role"), l.T("sim.col.leader"), l.T("sim.col.term"), l.T("sim.col.cs")}
	w := []int{5, 4, 12, 7, 6, 9}
	for i, h := range head {
		w[i] = max(w[i], runes(h))
	}
	w[0] = max(w[0], runes(l.T("sim.up")), runes(l.T("sim.down")))
	for _, n := range s.Nodes {
		w[2] = max(w[2], runes(l.Word(n.Role)))
		w[5] = max(w[5], runes(l.Word(n.CS)))
	}
	var rows []row
	for _, n := range s.Nodes {
		state := l.T("sim.up")
		if !n.Up {
			state = l.T("sim.down")
		}
		term, leader := "", n.Leader
		if n.Term != 0 {
			term = fmt.Sprint(n.Term)
		}
		if leader == "" {
			leader = "-"
		}
		cells := fmt.Sprintf("%s %-*d %s %s %s %s %v", pad(state, w[0]), w[1], n.Inc, pad(l.Word(n.Role), w[2]), pad(leader, w[3]), pad(term, w[4]), pad(l.Word(n.CS), w[5]), n.Suspects)
		if k := len(rows) - 1; len(s.Nodes) > groupAbove && k >= 0 && rows[k].cells == cells {
			rows[k].last, rows[k].n = n.ID, rows[k].n+1
			continue
		}
		rows = append(rows, row{first: n.ID, last: n.ID, n: 1, cells: cells})
	}
	width := max(6, runes(l.T("sim.col.node"))+1)
	label := func(r row) string {
		if r.n == 1 {
			return r.first.String()
		}
		return r.first.String() + "…" + r.last.String()
	}
	for _, r := range rows {
		width = max(width, len([]rune(label(r)))+1)
	}
	line := pad(l.T("sim.col.node"), width)
	for i, h := range head {
		line += " " + pad(h, w[i])
	}
	fmt.Fprintln(out, line+" "+l.T("sim.col.suspects"))
	for _, r := range rows {
		line := pad(label(r), width) + " " + r.cells
		if r.n > 1 {
			line += " " + fmt.Sprintf(l.T("sim.nodes"), thousands(r.n))
		}
		fmt.Fprintln(out, strings.TrimRight(line, " "))
	}
}

// runes counts s's characters, which is its width in a terminal for the texts
// the catalogs hold.
func runes(s string) int { return len([]rune(s)) }

// pad fills s with spaces to width characters (fmt pads by bytes, which would
// misalign "líder" or "caído").
func pad(s string, width int) string {
	if n := runes(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// Thousands writes n with commas between groups of three digits: 3,996.
func Thousands(n int) string { return thousands(n) }

func thousands(n int) string { return trace.Thousands(n) }

func usDur(us int64) time.Duration { return time.Duration(us) * time.Microsecond }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func fmtFloats(xs []float64) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, fmt.Sprintf("%.1f", x))
	}
	return strings.Join(parts, ", ")
}

func fmtPer(m map[string]float64) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s %.2f", k, m[k]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
