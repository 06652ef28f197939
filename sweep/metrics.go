package sweep

import (
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// metricDef is one metric of a run, as results.csv names it, and its unit. A
// pattern's TYPE stands for a message type the grid's algorithms declare, KIND
// for an alert kind. docs/sweeps.md defines each (a test checks the two agree).
type metricDef struct {
	name string
	unit string // for axis labels: what one of it counts, "s" for seconds
}

var metricDefs = []metricDef{
	{"events", "events"}, {"sent.total", "messages"}, {"sent.TYPE", "messages"},
	{"delivered.total", "messages"}, {"dropped.total", "messages"},
	{"size.total", "ids"}, {"size.mean", "ids per message"}, {"size.max", "ids"},
	{"elections", "elections"}, {"rounds", "rounds"}, {"source_rounds", "iterations"}, {"time_to_leader_s", "s"},
	{"entries", "entries"}, {"per_entry.total", "messages per entry"}, {"per_entry.TYPE", "messages per entry"},
	{"client_delay_s", "s"}, {"sync_delay_s", "s"},
	{"detection_latency_s", "s"}, {"false_suspicions_before_gst", "suspicions"}, {"false_suspicions_after_gst", "suspicions"},
	{"final_timeout_s", "s"},
	{"alerts.KIND", "alerts"}, {"violations", "alerts"}, {"violations_per_entry", "alerts per entry"},
}

// metricPatterns are the metrics' names, patterns included.
var metricPatterns = func() []string {
	var out []string
	for _, d := range metricDefs {
		out = append(out, d.name)
	}
	return out
}()

// unitOf is metric m's unit ("" for an unknown one).
func unitOf(m string) string {
	for _, d := range metricDefs {
		if d.name == m {
			return d.unit
		}
	}
	for _, d := range metricDefs {
		if p, ok := strings.CutSuffix(d.name, "TYPE"); ok && strings.HasPrefix(m, p) {
			return d.unit
		}
		if p, ok := strings.CutSuffix(d.name, "KIND"); ok && strings.HasPrefix(m, p) {
			return d.unit
		}
	}
	return ""
}

// violationKinds are the alerts that break a family's safety property.
var violationKinds = []string{"split-brain", "mutex", "order"}

// typeName is what a message type or an alert kind may be in a metric's name.
var typeName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func validMetric(m string) bool {
	if slices.Contains(metricPatterns, m) {
		return true
	}
	for _, p := range []string{"sent.", "per_entry.", "alerts."} {
		if t, ok := strings.CutPrefix(m, p); ok && typeName.MatchString(t) {
			return true
		}
	}
	return false
}

// columns lists the metric columns for a grid whose cells run these algorithms.
func columns(specs []algos.Spec) []string {
	var types []string
	for _, s := range specs {
		for _, t := range s.Messages {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	out := []string{"events", "sent.total"}
	for _, t := range types {
		out = append(out, "sent."+t)
	}
	out = append(out, "delivered.total", "dropped.total", "size.total", "size.mean", "size.max", "elections", "rounds", "source_rounds", "time_to_leader_s",
		"entries", "per_entry.total")
	for _, t := range types {
		out = append(out, "per_entry."+t)
	}
	out = append(out, "client_delay_s", "sync_delay_s", "detection_latency_s",
		"false_suspicions_before_gst", "false_suspicions_after_gst", "final_timeout_s")
	for _, k := range netsim.AlertKinds {
		out = append(out, "alerts."+k)
	}
	return append(out, "violations", "violations_per_entry")
}

// collector is the sink a run records into: it hashes the trace exactly as a
// recording would, counts messages and alerts, and finds the first instant every
// live process agreed on a live leader, which the summary does not give.
type collector struct {
	hash      *trace.Hasher
	sent      map[string]int
	delivered int
	dropped   int
	alerts    map[string]int
	index     map[node.ID]int
	up        []bool
	leader    []node.ID
	leaderAt  int64 // µs; -1 until agreement
	sources   sourceCount
}

// sourceCount measures source_rounds: Yo-Yo's processes report the role "source"
// in each iteration they are one (Status.Term = the epoch, counter iteration), so
// the iterations with two sources or more are known, and the first after the last
// of them is the one by which a single source was left: the quantity Santoro's
// ⌈log₂N⌉+1 bounds, apart from the iterations pruning adds after it.
type sourceCount struct {
	last  map[node.ID][2]int64 // the (epoch, iteration) each process was last counted a source in
	count map[[2]int64]int     // sources per (epoch, iteration)
}

func (s *sourceCount) observe(id node.ID, st *node.Status) {
	if st.Role != "source" {
		return
	}
	it, ok := st.Counter("iteration")
	if !ok {
		return
	}
	k := [2]int64{st.Term, it}
	if s.count == nil {
		s.last, s.count = map[node.ID][2]int64{}, map[[2]int64]int{}
	}
	if l, seen := s.last[id]; seen && l == k {
		return
	}
	s.last[id] = k
	s.count[k]++
}

// rounds is 1 + the last iteration with two sources or more (1 if there was never
// more than one), and false when no process was ever a source.
func (s *sourceCount) rounds() (int64, bool) {
	if len(s.count) == 0 {
		return 0, false
	}
	r := int64(1)
	for k, n := range s.count { // a maximum: the order does not matter
		if n >= 2 && k[1]+1 > r {
			r = k[1] + 1
		}
	}
	return r, true
}

func newCollector(ids []node.ID, inline bool) *collector {
	h := trace.NewHasher()
	if inline {
		h.Inline()
	}
	c := &collector{hash: h, sent: map[string]int{}, alerts: map[string]int{},
		index: map[node.ID]int{}, up: make([]bool, len(ids)), leader: make([]node.ID, len(ids)), leaderAt: -1}
	for i, id := range ids {
		c.index[id] = i
		c.up[i] = true
	}
	return c
}

func (c *collector) Record(e *trace.Event) {
	c.hash.Record(e)
	switch e.Ev {
	case trace.Send:
		if !e.Local && e.Msg != nil {
			c.sent[e.Msg.Type]++
		}
	case trace.Deliver:
		if !e.Local {
			c.delivered++
		}
	case trace.Drop:
		c.dropped++
	case trace.Alert:
		c.alerts[e.Kind]++
	case trace.Crash, trace.Recover:
		if i, ok := c.index[e.Node]; ok {
			c.up[i] = e.Ev == trace.Recover
			c.agreed(e.T)
		}
	case trace.StatusEv:
		if i, ok := c.index[e.Node]; ok && e.Status != nil {
			c.leader[i] = e.Status.Leader
			c.agreed(e.T)
			c.sources.observe(e.Node, e.Status)
		}
	}
}

func (c *collector) agreed(t int64) {
	if c.leaderAt >= 0 {
		return
	}
	l := node.None
	for i, up := range c.up {
		if !up {
			continue
		}
		if c.leader[i] == node.None || (l != node.None && c.leader[i] != l) {
			return
		}
		l = c.leader[i]
	}
	if j, ok := c.index[l]; ok && c.up[j] {
		c.leaderAt = t
	}
}

// measure fills a run's metrics from its collector and its summary.
func measure(cols []string, c *collector, s *netsim.Summary) map[string]float64 {
	v := map[string]float64{}
	v["events"] = float64(c.hash.Count())
	total := 0
	for t, n := range c.sent {
		v["sent."+t] = float64(n)
		total += n
	}
	v["sent.total"] = float64(total)
	v["delivered.total"] = float64(c.delivered)
	v["dropped.total"] = float64(c.dropped)
	violations := 0
	for _, k := range netsim.AlertKinds {
		v["alerts."+k] = float64(c.alerts[k])
	}
	for _, k := range violationKinds {
		violations += c.alerts[k]
	}
	v["violations"] = float64(violations)
	if c.leaderAt >= 0 {
		v["time_to_leader_s"] = float64(c.leaderAt) / 1e6
	}
	if r, ok := c.sources.rounds(); ok {
		v["source_rounds"] = float64(r)
	}
	fromSummary(s, v)
	if e, ok := v["entries"]; ok && e > 0 {
		for _, col := range cols {
			if t, ok := strings.CutPrefix(col, "per_entry."); ok {
				v[col] = v["sent."+t] / e
			}
		}
		v["violations_per_entry"] = float64(violations) / e
	}
	for _, col := range cols {
		if _, ok := v[col]; !ok && strings.HasPrefix(col, "sent.") {
			v[col] = 0
		}
	}
	return v
}

// fromSummary reads the monitors' figures out of netsim.Summary. It is the one place
// that knows the summary's shape, so a renamed field costs one edit here.
func fromSummary(s *netsim.Summary, v map[string]float64) {
	// Message size in ids (node.Message.Size), over the network messages sent, as
	// sim's summary counts it.
	ids, most, sent := 0, 0, 0
	for _, m := range s.Messages {
		ids, most, sent = ids+m.IDs, max(most, m.MaxIDs), sent+m.Sent
	}
	v["size.total"], v["size.max"] = float64(ids), float64(most)
	if sent > 0 {
		v["size.mean"] = float64(ids) / float64(sent)
	}
	switch algos.Family(s.Family) {
	case algos.Election:
		v["elections"] = float64(s.Election.Completed)
		rounds := math.NaN()
		for _, n := range s.Nodes {
			for _, name := range []string{"round", "iteration"} {
				if r, ok := n.Counters[name]; ok && (math.IsNaN(rounds) || float64(r) > rounds) {
					rounds = float64(r)
				}
			}
		}
		if !math.IsNaN(rounds) {
			v["rounds"] = rounds
		}
	case algos.Mutex:
		v["entries"] = float64(s.Mutex.Entries)
		if s.Mutex.Entries > 0 {
			v["client_delay_s"] = s.Mutex.MeanWaitMS / 1000
		}
		if s.Mutex.SyncSamples > 0 {
			v["sync_delay_s"] = s.Mutex.MeanSyncMS / 1000
		}
	case algos.Detector:
		v["false_suspicions_before_gst"] = float64(s.Detector.FalseSuspicionsBefore)
		v["false_suspicions_after_gst"] = float64(s.Detector.FalseSuspicionsAfter)
		sum, n := 0.0, 0
		for _, nd := range s.Nodes {
			if t, ok := nd.Counters["timeout_ms"]; ok && nd.Up {
				sum += float64(t) / 1000
				n++
			}
		}
		if n > 0 {
			v["final_timeout_s"] = sum / float64(n)
		}
	}
	sum, n := 0.0, 0
	for _, d := range s.Detector.Detections {
		if d.Detected {
			sum += d.LatencyMS / 1000
			n++
		}
	}
	if n > 0 {
		v["detection_latency_s"] = sum / float64(n)
	}
}

// failures lists the scenario's own expectations that did not hold.
func failures(s *netsim.Summary) []string {
	var out []string
	for _, r := range s.Expectations {
		if !r.OK {
			out = append(out, r.Text+" (got "+r.Got+")")
		}
	}
	return out
}

// finished says whether the run's algorithm finished before the run ended: the
// sweep's own completed check, else the family's: an election, every live process
// agreeing on one live leader at the end; mutual exclusion, an entry (and,
// without a request generator, no process still waiting); a detector, every crash
// detected. finishWhat says it in words.
func (p *Plan) finished(params map[string]any, s *netsim.Summary, values map[string]float64, th map[string][]algos.Theory) bool {
	if p.done != nil {
		return p.done.eval(metric(values, p.done.metric), theoryValue(th, p.done.metric)) == ""
	}
	switch algos.Family(s.Family) {
	case algos.Election:
		return agreedAtEnd(s)
	case algos.Mutex:
		if s.Mutex.Entries == 0 {
			return false
		}
		if rate, ok := params["cs_rate"]; ok && rate != 0.0 && rate != int64(0) {
			return true // requests keep coming: some always wait at the end
		}
		for _, n := range s.Nodes {
			if n.Up && n.CS == "wanted" {
				return false
			}
		}
	case algos.Detector:
		for _, d := range s.Detector.Detections {
			if !d.Detected {
				return false
			}
		}
	}
	return true
}

// finishWhat is what a run of algorithm must reach to finish, in words of l.
func (p *Plan) finishWhat(l lang.Lang, algorithm string) string {
	if p.done != nil {
		return l.F("sweep.what.check", p.done.text)
	}
	spec, _ := algos.Lookup(algorithm)
	switch spec.Family {
	case algos.Election:
		return l.T("sweep.what.election")
	case algos.Mutex:
		return l.T("sweep.what.mutex")
	case algos.Detector:
		return l.T("sweep.what.detector")
	}
	return l.T("sweep.what.other")
}

// agreedAtEnd: every live process believes the same live process leads.
func agreedAtEnd(s *netsim.Summary) bool {
	leader, up := "", map[string]bool{}
	for _, n := range s.Nodes {
		if !n.Up {
			continue
		}
		up[n.ID.String()] = true
		if n.Leader == "" || (leader != "" && n.Leader != leader) {
			return false
		}
		leader = n.Leader
	}
	return leader != "" && up[leader]
}
