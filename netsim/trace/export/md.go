package export

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// DiagramMessages is how many messages the report's diagram shows.
const DiagramMessages = 40

// AlertRows is how many alerts the report's table lists; it counts the others.
// The report keeps only those, and their clearing: a run of a million alerts
// costs no more than one of fifty.
const AlertRows = 50

// typeFate counts the messages of one type by fate.
type typeFate struct {
	sent, delivered, dups, inFlight int
	drops                           map[string]int
}

// timelineRow is one line of the faults-and-leaders table.
type timelineRow struct {
	t      int64
	kind   string
	text   string
	leader *leaderChange
	flurry *leaderFlurry // leader changes in a row, folded (reports at scale)
}

// report is everything the Markdown report shows, gathered in one pass.
type report struct {
	l    lang.Lang // the language of headings and fixed texts
	h    *trace.Header
	tail Tail // what the end of the recording says
	w    Window
	ids  []node.ID

	firstT      int64 // the recording's first event's time
	first, last int64 // times of the first and last events in the window
	events      int
	types       map[string]*typeFate
	reasons     []string
	locals      int
	timeline    []timelineRow
	alerts      []*trace.Event // the first AlertRows in the window
	alertCount  int            // every alert in the window
	alertKinds  map[string]int
	alertSpans  map[string][2]int64 // each kind's first and last alert's times
	detects     []*trace.Event
	crashes     []*trace.Event // crashes in the window, to say which went undetected
	expects     []*trace.Event

	elections   int
	recoveries  []int64 // leader crash → agreement, µs
	entries     int
	entrySetSum int // Σ |V_i| over the entries (Maekawa)
	waits       []int64

	final *trace.Snapshot

	list  idList   // how the report lists nodes: folded beyond FoldAbove nodes
	fold  bool     // beyond FoldAbove nodes: ids, rows and flurries folded
	split bool     // show the whole diagram, in parts
	parts []string // the parts, when split
	dia   *excerpt // the diagram, when not split

	cleared   map[uint64]*trace.Event // alert-cleared events of r.alerts, by the alert's Seq
	agreedAt  []agreed                // each election's end
	userActs  int                     // actions taken by a user (not the script)
	traceName string                  // the trace file, for the commands shown
}

// agreed is the end of an election: when every live node named leader, and the
// messages sent since the previous one, heartbeats apart.
type agreed struct {
	t        int64
	leader   node.ID
	messages int
}

// Markdown writes a homework report of the window: what ran (scenario, algorithm,
// seed, network), a table of faults, markers and leader changes over time, messages
// by type and fate, the textbook message count beside the measured one where the
// algorithm has one, alerts, detection latencies, expectations, the final state and
// a Mermaid diagram of the DiagramMessages messages around the first alert or fault
// (or the busiest such stretch if there is neither).
func Markdown(out io.Writer, src Source, w Window) error {
	return markdown(out, src, Options{Format: "md", Window: w})
}

// markdown writes the report of o.Window; with o.Split, its diagram is the
// window's whole diagram in consecutive blocks (MermaidSplit) instead of an
// excerpt. o.TraceName names the trace in the commands it shows.
func markdown(out io.Writer, src Source, o Options) error {
	r, err := gather(src, o)
	if err != nil {
		return err
	}
	if r.events == 0 {
		return &RefusedError{"no events " + emptyText(r.tail, o.Window)}
	}
	bw := bufio.NewWriter(out)
	r.write(bw)
	return bw.Flush()
}

// gather reads the recording once, to its end: the window's events for the
// report, and what the whole recording says (its size, its hash, when alerts
// cleared, the user's actions).
func gather(src Source, o Options) (*report, error) {
	h := src.Header()
	info := &h.Info
	w := o.Window
	r := &report{h: h, w: w, ids: w.IDs(info.IDs), types: map[string]*typeFate{}, alertKinds: map[string]int{}, alertSpans: map[string][2]int64{}, first: -1,
		cleared: map[uint64]*trace.Event{}, split: o.Split, traceName: o.TraceName, l: o.Lang, firstT: -1, list: plainIDs}
	if len(info.IDs) > FoldAbove {
		r.list, r.fold = foldedIDs(r.l), true
	}
	// Each message sent in the window is counted by its fate, as the CSV's
	// message table has it, once its last copy has landed (a first reading says
	// how many copies land): a row of the table per type and fate.
	fates := newFates()
	if _, err := scan(src, fates.see); err != nil {
		return nil, err
	}
	fates.done()
	type msgFate struct {
		typ        string
		landed     bool
		deliveries int
		drop       string
		left       int
	}
	var msgs midMap[*msgFate]
	reasons := map[string]bool{}
	count := func(m *msgFate) {
		f := r.fate(m.typ)
		switch {
		case m.landed:
			f.delivered++
		case m.drop != "":
			f.drops[m.drop]++
			reasons[m.drop] = true
		default:
			f.inFlight++
		}
		f.dups += max(m.deliveries-1, 0)
	}
	var sp *splitter
	var parts partList
	if o.Split {
		sp = newSplitter(h, w, 2000, &parts)
	} else {
		r.dia = newExcerpt(h, w, len(info.IDs) > FoldAbove, r.l)
	}
	spanMsgs := 0 // messages sent in the window since the last election ended, heartbeats apart
	st := trace.NewState(*h)
	lead := newLeaders()
	agree := newAgreement(info.IDs)
	cs := map[node.ID]node.CSState{}
	wanted := map[node.ID]int64{}
	leaderDown := int64(-1)
	var run *leaderChange // the leader change being grouped
	flush := func() {
		if run != nil {
			r.addLeaderChange(run)
			run = nil
		}
	}
	past := false // the window is over: only what the whole recording says is read on
	keepEvent := func(e *trace.Event) *trace.Event { x := *e; return &x }
	tail, err := each(src, func(e *trace.Event) (bool, error) {
		if r.firstT < 0 {
			r.firstT = e.T
		}
		switch {
		case e.Ev == trace.AlertCleared && e.Ref != 0 && r.shows(e.Ref):
			r.cleared[e.Ref] = keepEvent(e)
		case e.Ev == trace.Action && e.By == "user":
			r.userActs++
		}
		if m, _ := msgs.get(e.MID); m != nil && (e.Ev == trace.Deliver || e.Ev == trace.Drop) && !malformed(e) {
			if e.Ev == trace.Deliver {
				m.landed = true
				m.deliveries++
			} else if m.drop == "" {
				m.drop = e.Reason
			}
			if m.left--; m.left <= 0 {
				msgs.del(e.MID)
				count(m)
			}
		}
		if past {
			return false, nil
		}
		if sp != nil && sp.err == nil {
			if _, err := sp.see(e); err != nil {
				sp.err = err
			}
		}
		if r.dia != nil {
			r.dia.see(e)
		}
		if w.past(e.T, e.Seq) {
			past = true
			return false, nil
		}
		if malformed(e) {
			return false, nil
		}
		keep := w.Keep(e)
		oldLeader, changed := lead.see(e)
		wasAgreed := agree.agreed
		agree.see(e)
		oldCS := cs[e.Node]
		switch e.Ev {
		case trace.StatusEv:
			cs[e.Node] = e.Status.CS
		case trace.Crash, trace.Recover:
			cs[e.Node] = node.CSNone
		}
		st.Apply(e)
		if !keep {
			if e.Ev == trace.Crash && e.Node == wasAgreed {
				leaderDown = e.T
			}
			return false, nil
		}
		if r.first < 0 {
			r.first = e.T
		}
		r.last = e.T
		r.events++
		if e.Ev == trace.Send && !isHeartbeat(e.Msg.Type) {
			spanMsgs++
		}
		if agree.changed {
			r.agreedAt = append(r.agreedAt, agreed{t: e.T, leader: agree.agreed, messages: spanMsgs})
			spanMsgs = 0
			r.elections++
			if leaderDown >= 0 {
				r.recoveries = append(r.recoveries, e.T-leaderDown)
				leaderDown = -1
			}
		}
		switch e.Ev {
		case trace.Send:
			r.fate(e.Msg.Type).sent++
			m := &msgFate{typ: e.Msg.Type, left: fates.of(e.MID)}
			if m.left > 0 {
				msgs.put(e.MID, m)
			} else {
				count(m)
			}
		case trace.Deliver:
			if e.Local {
				r.locals++
			}
		case trace.Crash:
			r.crashes = append(r.crashes, keepEvent(e))
			if e.Node == wasAgreed {
				leaderDown = e.T
			}
			delete(wanted, e.Node)
		case trace.StatusEv:
			if e.Status.CS == node.CSWanted && oldCS != node.CSWanted {
				wanted[e.Node] = e.T
			}
			if e.Status.CS == node.CSHeld && oldCS != node.CSHeld {
				r.entries++
				// Maekawa reports the size of its voting set; the textbook
				// count needs it, and only the algorithm knows how it built it.
				if n, ok := e.Status.Counter("set_size"); ok {
					r.entrySetSum += int(n)
				}
				if since, ok := wanted[e.Node]; ok {
					r.waits = append(r.waits, e.T-since)
				}
			}
			if e.Status.CS != node.CSWanted {
				delete(wanted, e.Node)
			}
		case trace.Alert:
			if r.alertCount++; len(r.alerts) < AlertRows {
				r.alerts = append(r.alerts, keepEvent(e))
			}
			if r.alertKinds[e.Kind]++; r.alertKinds[e.Kind] == 1 {
				r.alertSpans[e.Kind] = [2]int64{e.T, e.T}
			} else {
				r.alertSpans[e.Kind] = [2]int64{r.alertSpans[e.Kind][0], e.T}
			}
		case trace.Detect:
			r.detects = append(r.detects, keepEvent(e))
		case trace.Expect:
			r.expects = append(r.expects, keepEvent(e))
		}
		switch {
		case changed:
			l := e.Status.Leader
			if run != nil && run.Leader != l {
				flush()
			}
			if run == nil {
				run = &leaderChange{T: e.T, Leader: l}
			}
			run.Last = e.T
			run.Nodes = append(run.Nodes, e.Node)
			run.From = append(run.From, oldLeader)
		case isFault(e):
			flush()
			r.timeline = append(r.timeline, timelineRow{t: e.T, kind: e.Ev, text: faultTextIn(r.l, e, r.list)})
		case e.Ev == trace.Marker:
			flush()
			r.timeline = append(r.timeline, timelineRow{t: e.T, kind: "marker", text: e.Text})
		case e.Ev == trace.Alert:
			flush() // an alert splits a run of leader changes
		}
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	r.tail = tail
	msgs.each(func(_ uint64, m *msgFate) { count(m) }) // still on their way at the end
	flush()
	for k := range reasons {
		r.reasons = append(r.reasons, k)
	}
	sort.Strings(r.reasons)
	r.final = st.Snapshot()
	if sp != nil && r.events > 0 {
		sp.tail = tail
		if _, err := splitFrom(src, w, &parts, sp); err != nil {
			return nil, err
		}
		r.parts = parts
	}
	return r, nil
}

// T is the report's text for key in its language.
func (r *report) T(key string) string { return r.l.T(key) }

// F formats key's text in the report's language.
func (r *report) F(key string, args ...any) string { return r.l.F(key, args...) }

// Or is key's text in the report's language when the catalogs have key, else fallback.
func (r *report) Or(key, fallback string) string { return r.l.Or(key, fallback) }

func (r *report) fate(typ string) *typeFate {
	f, ok := r.types[typ]
	if !ok {
		f = &typeFate{drops: map[string]int{}}
		r.types[typ] = f
	}
	return f
}

func (r *report) write(b *bufio.Writer) {
	info := &r.h.Info
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }

	p("# %s: %s\n\n", r.T("md.title"), mdText(info.Name))
	if d := strings.Join(strings.Fields(r.l.Preset(info.Name, info.Description)), " "); d != "" {
		p("%s\n\n", mdText(d))
	}
	p("| | |\n|---|---|\n")
	p("| %s | %s |\n", r.T("md.scenario"), mdText(info.Name))
	p("| %s | %s (%s) |\n", r.T("md.algorithm"), mdText(info.Algorithm), mdText(r.l.Family(info.Family)))
	p("| %s | %d |\n", r.T("md.seed"), r.h.Seed)
	p("| %s | %d: %s ("+r.T("md.topology")+") |\n", r.T("md.nodes"), len(info.IDs), r.list(info.IDs, " "), mdText(info.Topology))
	p("| %s | %s |\n", r.T("md.network"), mdText(networkText(r.l, info)))
	p("| %s | %d %s", r.T("md.recording"), r.tail.Events, r.T("md.events"))
	if r.tail.Events > 0 {
		p(r.T("md.span"), fmtT(r.firstT), fmtT(r.tail.Last))
	}
	p(r.T("md.by"), mdText(r.h.Program))
	if e := r.tail.End; e != nil {
		p(r.T("md.endsat"), fmtT(e.T), mdText(r.Or("md.end."+e.Reason, endReasons[e.Reason])))
	}
	p(" |\n")
	if r.tail.End == nil {
		p("| %s | %s |\n", r.T("md.note"), r.T("md.incomplete"))
	}
	if r.tail.Hash != "" {
		p("| %s | `%s` ("+r.T("md.checkwith")+" `clusterlab verify`) |\n", r.T("md.hash"), r.tail.Hash)
	}
	if r.tail.Truncated {
		p("| %s | %s |\n", r.T("md.note"), r.T("md.truncated"))
	}
	p("| %s | %s: %d %s", r.T("md.thisreport"), mdText(r.w.describeIn(r.l, r.list)), r.events, r.T("md.events"))
	if r.first >= 0 {
		p(r.T("md.span"), fmtT(r.first), fmtT(r.last))
	}
	p(" |\n\n")

	r.writeReproduce(p)
	r.writeSettings(p)

	p("## %s\n\n", r.T("md.h.faults"))
	if len(r.timeline) == 0 {
		p("%s\n\n", r.T("md.nofaults"))
	} else {
		if slices.ContainsFunc(r.timeline, func(row timelineRow) bool { return row.leader != nil }) {
			p("%s\n\n", r.T("md.leaderchange.what"))
		}
		p("| %s | %s |\n|---:|---|\n", r.T("md.col.time"), r.T("md.col.event"))
		for _, row := range r.timeline {
			text := row.text
			if row.kind == "marker" { // a story line, in the reader's language
				text = r.T("md.marker") + ": " + oneLine(r.l.Marker(row.text))
			}
			if c := row.leader; c != nil {
				text = r.T("md.leaderchange") + ": " + r.changeText(c)
			}
			if f := row.flurry; f != nil {
				text = f.textIn(r)
			}
			p("| %s | %s |\n", fmtT(row.t), mdText(text))
		}
		p("\n")
	}

	r.writeMessages(p)
	r.writeTextbook(p)
	r.writeFigures(p)

	r.writeAlerts(p)

	if len(r.detects) > 0 || info.Family == "detector" {
		p("## %s\n\n", r.T("md.h.detection"))
		p("%s\n\n", r.T("md.detection.what"))
		if len(r.detects) == 0 && len(r.crashes) == 0 {
			p("%s\n\n", r.T("md.nocrash"))
		} else {
			p("| %s | %s | %s | %s |\n|---|---:|---:|---:|\n", r.T("md.col.node"), r.T("md.col.crashedat"), r.T("md.col.detectedat"), r.T("md.col.latency"))
			detected := map[*trace.Event]bool{}
			for _, d := range r.detects {
				crashed := "?"
				if lat, err := time.ParseDuration(d.Value); err == nil {
					crashed = fmtT(d.T - lat.Microseconds())
					for _, c := range r.crashes {
						if c.Node == d.Node && c.T == d.T-lat.Microseconds() {
							detected[c] = true
						}
					}
				}
				p("| %v | %s | %s | %s |\n", d.Node, crashed, fmtT(d.T), mdText(d.Value))
			}
			for _, c := range r.crashes {
				if !detected[c] {
					p("| %v | %s | %s | |\n", c.Node, fmtT(c.T), r.T("md.notbyall"))
				}
			}
			p("\n")
		}
	}

	done := r.completion()
	if len(r.expects) > 0 || !done.Complete() {
		p("## %s\n\n", r.T("md.h.expectations"))
		r.writeIncomplete(p, done)
		p("| %s | %s | %s | %s |\n|---:|---|---|---|\n", r.T("md.col.time"), r.T("md.col.expectation"), r.T("md.col.result"), r.T("md.col.observed"))
		for _, e := range r.expects {
			res := r.T("sim.pass")
			if e.OK != nil && !*e.OK {
				res = "**" + r.T("sim.fail") + "**"
			}
			p("| %s | %s | %s | %s |\n", fmtT(e.T), mdText(e.Text), res, mdText(r.l.Text(e.Value)))
		}
		r.writeMissing(p, done)
		p("\n")
	}

	r.writeFinal(p)

	if r.split {
		diagrams := r.F("md.diagrams.many", len(r.parts))
		if len(r.parts) == 1 {
			diagrams = r.T("md.diagrams.one")
		}
		p("## %s\n\n%s\n", r.T("md.h.diagram"), r.F("md.split", mdText(r.w.describeIn(r.l, r.list)), diagrams, MermaidMaxText))
		for _, d := range r.parts {
			p("\n```mermaid\n%s```\n", d)
		}
	} else {
		d, what := r.diagram()
		p("## %s\n\n%s\n\n", r.T("md.h.diagram"), what)
		p("```mermaid\n%s```\n", d)
	}
	r.writeQuestions(p)
}

func (r *report) writeMessages(p func(string, ...any)) {
	p("## %s\n\n", r.T("md.h.messages"))
	if len(r.types) == 0 {
		p("%s\n\n", r.T("md.nomessages"))
		return
	}
	var types []string
	for k := range r.types {
		types = append(types, k)
	}
	sort.Strings(types)
	dups, inFlight := false, false
	for _, f := range r.types {
		dups = dups || f.dups > 0
		inFlight = inFlight || f.inFlight > 0
	}
	p("| %s | %s | %s | %s |", r.T("md.col.type"), r.T("sim.col.sent"), r.T("sim.col.delivered"), r.T("sim.col.dropped"))
	sep := "|---|---:|---:|---:|"
	for _, reason := range r.reasons {
		p(" %s |", r.l.Word(reason))
		sep += "---:|"
	}
	if inFlight {
		p(" %s |", r.T("md.col.inflight"))
		sep += "---:|"
	}
	if dups {
		p(" %s |", r.T("md.col.dups"))
		sep += "---:|"
	}
	p("\n%s\n", sep)
	var total typeFate
	total.drops = map[string]int{}
	row := func(name string, f *typeFate) {
		dropped := 0
		for _, n := range f.drops {
			dropped += n
		}
		p("| %s | %d | %d | %d |", name, f.sent, f.delivered, dropped)
		for _, reason := range r.reasons {
			p(" %d |", f.drops[reason])
		}
		if inFlight {
			p(" %d |", f.inFlight)
		}
		if dups {
			p(" %d |", f.dups)
		}
		p("\n")
	}
	for _, k := range types {
		f := r.types[k]
		row(mdText(k), f)
		total.sent += f.sent
		total.delivered += f.delivered
		total.dups += f.dups
		total.inFlight += f.inFlight
		for k, v := range f.drops {
			total.drops[k] += v
		}
	}
	if len(types) > 1 {
		row("**"+r.T("md.all")+"**", &total)
	}
	p("\n%s\n", r.T("md.permessage"))
	if len(r.reasons) > 0 || r.locals > 0 {
		p("\n")
	}
	if len(r.reasons) > 0 {
		var parts []string
		for _, reason := range r.reasons {
			if m, ok := reasonMeaning[reason]; ok {
				parts = append(parts, r.l.Word(reason)+": "+r.Or("md.reason."+reason, m))
			} else {
				parts = append(parts, r.l.Word(reason))
			}
		}
		p(r.T("md.droppedbecause")+"\n", strings.Join(parts, "; "))
	}
	if r.locals > 0 {
		p(r.T("md.locals")+"\n", r.locals)
	}
	p("\n")
}

// endReasons says why a recording ended, by its end record's reason.
var endReasons = map[string]string{
	trace.EndUntil:       "the run reached its end",
	trace.EndQuit:        "the dashboard was quit",
	trace.EndInterrupted: "interrupted by a signal (Ctrl-C or SIGTERM)",
}

var reasonMeaning = map[string]string{
	trace.ReasonLoss:      "random loss on the link",
	trace.ReasonPartition: "sender and receiver on different sides of a partition, or one isolated",
	trace.ReasonCut:       "the link was cut",
	trace.ReasonDown:      "the receiver was down when the message arrived",
	trace.ReasonTopology:  "no such link in the topology",
	trace.ReasonAction:    "dropped by an action (drop #SEQ)",
}

// textbook is the message count an algorithm's analysis gives per election or per
// critical-section entry, without failures or contention.
func (r *report) textbook() (per string, formula string, value float64, ok bool) {
	info := &r.h.Info
	n := float64(len(info.IDs))
	switch info.Algorithm {
	case "ring":
		return "election", r.l.Phrase("3N−1 (one initiator)"), 3*n - 1, true
	case "ricart":
		return "entry", "2(N−1)", 2 * (n - 1), true
	case "lamport":
		return "entry", "3(N−1)", 3 * (n - 1), true
	case "central":
		return "entry", r.l.Phrase("3: REQUEST, GRANT, RELEASE (none when the coordinator itself enters)"), 3, true
	case "maekawa":
		if r.entries == 0 {
			return "entry", "3(|V|−1)", 0, false
		}
		v := float64(r.entrySetSum) / float64(r.entries)
		return "entry", r.F("md.tb.maekawa", trimFloat(v)), 3 * (v - 1), true
	}
	return "", "", 0, false
}

func (r *report) writeTextbook(p func(string, ...any)) {
	info := &r.h.Info
	per, formula, want, ok := r.textbook()
	election := info.Family == "election" || per == "election" || r.elections > 0 && info.Family != "mutex"
	mutex := info.Family == "mutex" || per == "entry"
	if !election && !mutex {
		return
	}
	sent := 0
	sentBy := map[string]int{}
	for k, f := range r.types {
		sent += f.sent
		sentBy[k] = f.sent
	}
	var types []string
	for k := range sentBy {
		types = append(types, k)
	}
	sort.Strings(types)
	perType := func(count int) string {
		var parts []string
		for _, k := range types {
			parts = append(parts, fmt.Sprintf("%s %s", k, trimFloat(float64(sentBy[k])/float64(count))))
		}
		return strings.Join(parts, ", ")
	}
	p("## %s\n\n", r.T("md.h.textbook"))
	unit, count := r.T("md.unit.election"), r.elections
	if mutex {
		unit, count = r.T("md.unit.entry"), r.entries
	}
	if election {
		p(r.T("md.elections"), r.elections)
		if len(r.recoveries) > 0 {
			var parts []string
			for _, d := range r.recoveries {
				parts = append(parts, fmtT(d))
			}
			p(r.T("md.recoveries"), strings.Join(parts, ", "))
		}
		p("\n\n")
	}
	if mutex {
		p(r.T("md.entries"), r.entries)
		if len(r.waits) > 0 {
			var sum, mx int64
			for _, d := range r.waits {
				sum += d
				mx = max(mx, d)
			}
			p(r.T("md.waits"), fmtT(sum/int64(len(r.waits))), fmtT(mx))
		}
		p("\n\n")
	}
	if count == 0 {
		p(r.T("md.nocount")+"\n\n", unit, unit)
		return
	}
	p("| | "+r.T("md.perunit")+" |\n|---|---:|\n", unit)
	p("| "+r.T("md.measured")+" | %s |\n", sent, count, trimFloat(float64(sent)/float64(count)))
	hb := 0
	for k, n := range sentBy {
		if isHeartbeat(k) {
			hb += n
		}
	}
	if hb > 0 {
		p("| "+r.T("md.measurednohb")+" | %s |\n", hb, heartbeatNames(sentBy), sent-hb, count, trimFloat(float64(sent-hb)/float64(count)))
	}
	if ok {
		p("| "+r.T("md.textbookrow")+" | %s |\n", mdText(formula), len(info.IDs), trimFloat(want))
	} else {
		p("| %s | %s |\n", r.T("md.textbook"), r.noTextbookRow())
	}
	p("\n"+r.T("md.bytype"), mdText(perType(count)))
	if ok {
		p("%s", r.T("md.assumes"))
	}
	p("\n\n")
	if election && len(r.agreedAt) > 0 {
		p("%s\n\n", r.T("md.eachelection"))
		p("| %s | %s | %s | %s |", r.T("md.col.election"), r.T("md.col.agreedat"), r.T("md.col.leader"), r.T("md.col.withouthb"))
		if ok && per == "election" {
			p(" %s |\n|---:|---:|---|---:|---:|\n", r.T("md.textbook"))
		} else {
			p("\n|---:|---:|---|---:|\n")
		}
		for i, a := range r.agreedAt {
			p("| %d | %s | %v | %d |", i+1, fmtT(a.t), a.leader, a.messages)
			if ok && per == "election" {
				p(" %s |", trimFloat(want))
			}
			p("\n")
		}
		p("\n")
	}
}

// isHeartbeat reports whether messages of type typ only say "I am alive": the
// failure detector under an election, not the election itself.
func isHeartbeat(typ string) bool {
	switch typ {
	case "HEARTBEAT", "TEST_REQ", "TEST_REP":
		return true
	}
	return false
}

// heartbeatNames lists the heartbeat types among sentBy's keys.
func heartbeatNames(sentBy map[string]int) string {
	var out []string
	for k := range sentBy {
		if isHeartbeat(k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// mdText makes text safe in a Markdown table cell: one line, pipes and angle
// brackets escaped.
func mdText(s string) string {
	s = oneLine(s)
	if !strings.ContainsAny(s, "|<>") {
		return s
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "<", "&lt;")
	return strings.ReplaceAll(s, ">", "&gt;")
}

// trimFloat renders x with at most two decimals and no trailing zeros.
func trimFloat(x float64) string {
	s := fmt.Sprintf("%.2f", x)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// noTextbookRow says where the textbook stands when no figure is per election or
// per entry.
func (r *report) noTextbookRow() string {
	if len(r.h.Info.Theory) > 0 {
		return r.T("md.seefigures")
	}
	return r.F("md.nonefor", mdText(r.h.Info.Algorithm))
}

// writeFigures lists the registry's textbook figures for this run, the same that
// sweeps set beside their measurements, with their sources.
func (r *report) writeFigures(p func(string, ...any)) {
	figs := r.h.Info.Theory
	if len(figs) == 0 {
		return
	}
	p("## %s\n\n", r.T("md.h.figures"))
	p(r.T("md.figures.what")+"\n\n", len(r.h.Info.IDs))
	p("| %s | %s | %s | %s |\n|---|---:|---|---|\n", r.T("md.col.metric"), r.T("md.col.value"), r.T("md.col.formula"), r.T("md.col.source"))
	for _, f := range figs {
		p("| %s | %s | %s | %s |\n", mdText(f.Metric), mdText(f.Amount(r.l.Phrase)), mdText(f.Statement(r.l.Phrase)), mdText(r.l.Phrase(f.Source)))
	}
	p("\n")
}
