// Package presets holds clusterlab's scenario format (TOML), its parser and validator,
// and the scenario files embedded in the binary. A scenario names the algorithm, the
// nodes, the topology, the seed, the network, the algorithm's parameters, a timed
// script and expectations; Resolve turns it into a netsim.Config.
//
// Every error is one line: file:line:col, what was found, what was expected.
package presets

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// Scenario is a scenario file as written. Field names are a user-facing contract.
type Scenario struct {
	Name        string         `toml:"name" json:"name"`
	Description string         `toml:"description" json:"description,omitempty"`
	Algorithm   string         `toml:"algorithm" json:"algorithm"`
	Nodes       int            `toml:"nodes" json:"nodes,omitempty"`
	IDs         []int          `toml:"ids" json:"ids,omitempty"`
	Seed        uint64         `toml:"seed" json:"seed"`
	Until       string         `toml:"until" json:"until"`
	Topology    string         `toml:"topology" json:"topology"`
	Edges       [][]string     `toml:"edges" json:"edges,omitempty"`
	Degree      int            `toml:"degree" json:"degree,omitempty"`
	Order       string         `toml:"order" json:"order,omitempty"`
	Faults      *Faults        `toml:"faults" json:"faults,omitempty"`
	Params      map[string]any `toml:"params" json:"params,omitempty"`
	Network     Network        `toml:"network" json:"network"`
	Monitors    Monitors       `toml:"monitors" json:"monitors"`
	Links       []Link         `toml:"links" json:"links,omitempty"`
	Script      []Step         `toml:"script" json:"script,omitempty"`
	Expect      []Expect       `toml:"expect" json:"expect,omitempty"`
	// Questions are for the student: the Markdown report ends with them, each
	// with room for an answer. They travel in the trace header with the rest.
	Questions []string `toml:"questions" json:"questions,omitempty"`
	// Source names the worked example of the course notes the scenario reproduces
	// (seed file and section), for `clusterlab presets --notes`.
	Source string `toml:"source" json:"source,omitempty"`

	warnings []Warning // found by check; see Warnings
}

// Latency is a delay distribution as written: durations as strings.
type Latency struct {
	Dist string `toml:"dist" json:"dist"`
	Min  string `toml:"min" json:"min,omitempty"`
	Mean string `toml:"mean" json:"mean,omitempty"`
	Max  string `toml:"max" json:"max,omitempty"`
}

// Network is the [network] table.
type Network struct {
	Latency Latency `toml:"latency" json:"latency"`
	Loss    float64 `toml:"loss" json:"loss"`
	Dup     float64 `toml:"dup" json:"dup"`
	GST     string  `toml:"gst" json:"gst"`
	Delta   string  `toml:"delta" json:"delta"`
	PreGST  PreGST  `toml:"pre_gst" json:"pre_gst"`
}

// PreGST is the [network.pre_gst] table: the asynchronous period.
type PreGST struct {
	Latency Latency  `toml:"latency" json:"latency"`
	Loss    *float64 `toml:"loss" json:"loss,omitempty"`
}

// Monitors is the [monitors] table.
type Monitors struct {
	Settle     string `toml:"settle" json:"settle"` // "auto" (the default) or a duration
	Starvation string `toml:"starvation" json:"starvation"`
	SplitGrace string `toml:"split_grace" json:"split_grace"`
}

// Link is one [[links]] entry: a one-way override.
type Link struct {
	From    string   `toml:"from" json:"from"`
	To      string   `toml:"to" json:"to"`
	Loss    *float64 `toml:"loss" json:"loss,omitempty"`
	Dup     *float64 `toml:"dup" json:"dup,omitempty"`
	Latency *Latency `toml:"latency" json:"latency,omitempty"`
}

// Step is one [[script]] entry.
type Step struct {
	At string `toml:"at" json:"at"`
	Do string `toml:"do" json:"do"`
}

// Expect is one [[expect]] entry; At may be empty for "at the end".
type Expect struct {
	At   string `toml:"at" json:"at,omitempty"`
	That string `toml:"that" json:"that"`
}

// Defaults fill what a scenario leaves out.
var (
	DefaultLatency    = Latency{Dist: "uniform", Min: "5ms", Max: "20ms"}
	DefaultPreLatency = Latency{Dist: "pareto", Min: "5ms", Mean: "150ms", Max: "4s"}
)

//go:embed scenarios/*.toml
var embedded embed.FS

// Names lists the embedded presets.
func Names() []string {
	entries, _ := fs.ReadDir(embedded, "scenarios")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
	}
	sort.Strings(out)
	return out
}

// Load reads an embedded preset.
func Load(name string) (*Scenario, error) {
	data, err := embedded.ReadFile("scenarios/" + name + ".toml")
	if err != nil {
		return nil, fmt.Errorf("no preset %q; expected one of: %s", name, strings.Join(Names(), ", "))
	}
	return Parse(name+".toml", data)
}

// LoadFile reads a scenario file, with ReadFile's guards.
func LoadFile(file string) (*Scenario, error) {
	data, err := ReadFile(file, "a scenario file")
	if err != nil {
		return nil, err
	}
	return Parse(file, data)
}

// fileError is an error at a place in a scenario file.
type fileError struct {
	file      string
	line, col int
	msg       string
}

func (e *fileError) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.file, e.line, e.col, e.msg) }

// Parse reads and validates a scenario. It fills defaults, so the result is fully
// resolved: what it says is exactly what runs.
func Parse(file string, data []byte) (*Scenario, error) {
	var s Scenario
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, tomlError(file, data, err)
	}
	pos := index(data)
	if err := s.check(file, pos); err != nil {
		return nil, err
	}
	return &s, nil
}

func tomlError(file string, data []byte, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		row, col := e.Position()
		key := e.Key()
		if k := keyPathAt(data, row, col); k != nil {
			key = k // the decoder loses the inline table a key sits in
		}
		return &fileError{file, row, col, unknownKey(key)}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		return decodeError(file, data, de)
	}
	return fmt.Errorf("%s: %v", file, err)
}

// check validates every field, filling defaults, and reports the first problem.
func (s *Scenario) check(file string, pos positions) error {
	fail := func(path, format string, args ...any) error {
		l, c := pos.at(path)
		return &fileError{file, l, c, fmt.Sprintf(format, args...)}
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(path.Base(file), ".toml")
	}
	spec, ok := algos.Lookup(s.Algorithm)
	if !ok {
		return fail("algorithm", "found algorithm %q, expected one of: %s", s.Algorithm, strings.Join(algos.Names(), ", "))
	}
	switch s.Topology {
	case "":
		s.Topology = "mesh"
	case "mesh", "ring", "graph":
	default:
		return fail("topology", "found topology = %q, expected mesh, ring or graph", s.Topology)
	}
	if err := s.checkIDs(pos, fail); err != nil {
		return err
	}
	if err := s.checkOrderAndFaults(fail); err != nil {
		return err
	}
	ids := s.NodeIDs()
	if s.Until == "" {
		s.Until = "20s"
	}
	until, err := durationIn("until", s.Until, time.Microsecond, MaxUntil)
	if err != nil {
		return fail("until", "%v", err)
	}
	if err := s.checkGraph(spec, ids, fail); err != nil {
		return err
	}
	if _, _, err := algos.Build(spec.Name, ids, s.Params); err != nil {
		var pe *algos.ParamError
		if errors.As(err, &pe) {
			return s.paramError(spec, pe, ids, fail)
		}
		return fail("params", "%v", err)
	}
	if err := s.checkNetwork(fail); err != nil {
		return err
	}
	for i, l := range s.Links {
		at := fmt.Sprintf("links[%d]", i)
		if l.From == "" {
			return fail(at, "found [[links]] without from, expected from = \"n1\"")
		}
		if l.To == "" {
			return fail(at, "found [[links]] without to, expected to = \"n2\"")
		}
		if !hasID(ids, l.From) {
			return fail(at+".from", "found from = %q, expected one of the scenario's nodes (%s)", l.From, nodeRange(ids))
		}
		if !hasID(ids, l.To) || l.To == l.From {
			return fail(at+".to", "found to = %q, expected another of the scenario's nodes (%s)", l.To, nodeRange(ids))
		}
		if l.Loss != nil && !probability(*l.Loss) {
			return fail(at+".loss", "found loss = %v, expected a probability from 0 to 1", *l.Loss)
		}
		if l.Dup != nil && !probability(*l.Dup) {
			return fail(at+".dup", "found dup = %v, expected a probability from 0 to 1", *l.Dup)
		}
		if l.Latency != nil {
			if err := l.Latency.check(at+".latency", fail); err != nil {
				return err
			}
		}
	}
	for i, st := range s.Script {
		at := fmt.Sprintf("script[%d]", i)
		if st.At == "" {
			return fail(at, "found [[script]] without at, expected at = \"3s\" (a time up to until = %q)", s.Until)
		}
		if st.Do == "" {
			return fail(at, "found [[script]] without do, expected do = \"crash n1\" (an action)")
		}
		if err := checkTime(at+".at", st.At, s.Until, until, fail); err != nil {
			return err
		}
		if _, err := netsim.ParseAction(st.Do, ids); err != nil {
			return failInString(file, pos, at+".do", err)
		}
	}
	if s.Faults != nil && s.Faults.End != "" {
		if err := checkTime("faults.end", s.Faults.End, s.Until, until, fail); err != nil {
			return err
		}
	}
	if err := s.checkSynchronous(spec, fail); err != nil {
		return err
	}
	for i, e := range s.Expect {
		at := fmt.Sprintf("expect[%d]", i)
		if e.That == "" {
			return fail(at, "found [[expect]] without that, expected that = \"agree n5\" (an expectation)")
		}
		if e.At != "" {
			if err := checkTime(at+".at", e.At, s.Until, until, fail); err != nil {
				return err
			}
		}
		if _, err := netsim.ParseExpect(e.That, ids); err != nil {
			return failInString(file, pos, at+".that", err)
		}
	}
	s.warnings = s.clampWarnings(file, pos)
	return nil
}

// Warning is something a scenario asks for that the lab does differently, said
// when it loads: At is file:line:col, Key the catalog entry that words it (with At
// and Args).
type Warning struct {
	At   string
	Key  string
	Args []any
}

// Warnings are the scenario's warnings, found when it was read.
func (s *Scenario) Warnings() []Warning { return s.warnings }

// clampWarnings names every latency that can draw above Δ in a run that reaches
// GST: after GST the world cuts such a delay to Δ (a 120 ms link delivers in 50 ms).
func (s *Scenario) clampWarnings(file string, pos positions) []Warning {
	g, _ := gst(s.Network.GST)
	delta, _ := dur(s.Network.Delta)
	if g == netsim.Never {
		return nil
	}
	var out []Warning
	check := func(path string, l Latency) {
		lat, err := l.resolve()
		if c := lat.Ceiling(); err == nil && c > delta {
			line, col := pos.at(path)
			out = append(out, Warning{fmt.Sprintf("%s:%d:%d", file, line, col), "scenario.clamp", []any{path, c, delta, delta}})
		}
	}
	check("network.latency", s.Network.Latency)
	for i, l := range s.Links {
		if l.Latency != nil {
			check(fmt.Sprintf("links[%d].latency", i), *l.Latency)
		}
	}
	return out
}

// checkTime checks a script or expectation time: never after until, when the run
// ends and it would silently not happen.
func checkTime(path, at, untilText string, until time.Duration, fail func(path, format string, args ...any) error) error {
	key := path[strings.LastIndex(path, ".")+1:] // at, or faults' end
	d, err := time.ParseDuration(at)
	switch {
	case err != nil || d < 0:
		return fail(path, "found %s = %q, expected a time such as \"3s\"", key, at)
	case d > until:
		return fail(path, "found %s = %q, expected a time up to until = %q (the run ends there)", key, at, untilText)
	}
	return nil
}

// checkIDs checks nodes or ids against the topology's node limit, each id at its
// place in the list.
func (s *Scenario) checkIDs(pos positions, fail func(path, format string, args ...any) error) error {
	limit := MaxNodes(s.Topology)
	_, hasIDs := pos["ids"]
	switch {
	case len(s.IDs) == 0 && hasIDs:
		return fail("ids", "found ids = [], expected at least one id such as ids = [1, 2, 3]")
	case len(s.IDs) > 0 && s.Nodes != 0 && s.Nodes != len(s.IDs):
		return fail("nodes", "found nodes = %d with %d ids, expected one or the other", s.Nodes, len(s.IDs))
	case len(s.IDs) > limit:
		return fail("ids", "found %s ids, expected 1 to %s for topology %s", netsim.Thousands(len(s.IDs)), netsim.Thousands(limit), s.Topology)
	case len(s.IDs) > 0:
		seen := make(map[int]int, len(s.IDs))
		for i, id := range s.IDs {
			at := fmt.Sprintf("ids[%d]", i)
			if id < 1 || id > MaxID {
				return fail(at, "found id %d, expected an id from 1 to %s", id, netsim.Thousands(MaxID))
			}
			if j, dup := seen[id]; dup {
				l, c := pos.at(fmt.Sprintf("ids[%d]", j))
				return fail(at, "found id %d a second time (first at %d:%d), expected distinct ids", id, l, c)
			}
			seen[id] = i
		}
		s.Nodes = len(s.IDs)
	case s.Nodes < 1 || s.Nodes > limit:
		return fail("nodes", "found nodes = %d, expected 1 to %s for topology %s (or ids = [...])", s.Nodes, netsim.Thousands(limit), s.Topology)
	}
	return nil
}

// checkGraph checks a graph's edges or degree, and that every node can reach every
// other: no algorithm here can elect, exclude or detect across a missing link.
func (s *Scenario) checkGraph(spec algos.Spec, ids []node.ID, fail func(path, format string, args ...any) error) error {
	if s.Topology != "graph" {
		if len(s.Edges) > 0 {
			return fail("edges", "found edges with topology = %q, expected topology = \"graph\"", s.Topology)
		}
		if s.Degree != 0 {
			return fail("degree", "found degree = %d with topology = %q, expected topology = \"graph\"", s.Degree, s.Topology)
		}
		return nil
	}
	n := len(ids)
	switch {
	case len(s.Edges) > 0 && s.Degree != 0:
		return fail("degree", "found degree = %d beside edges, expected one or the other", s.Degree)
	case len(s.Edges) == 0 && s.Degree == 0:
		return fail("topology", "found topology = \"graph\" without edges or degree, expected edges = [[\"n1\",\"n2\"], …] or degree = 3")
	case len(s.Edges) == 0 && (s.Degree < 1 || s.Degree > max(1, n-1)):
		return fail("degree", "found degree = %d, expected 1 to %d (nodes − 1)", s.Degree, max(1, n-1))
	case len(s.Edges) == 0 && s.Degree > 2*MaxLinks/n:
		return fail("degree", "found degree = %d, expected 1 to %d for %s nodes (at most %s links in all, as many as the largest mesh)",
			s.Degree, 2*MaxLinks/n, netsim.Thousands(n), netsim.Thousands(MaxLinks))
	case len(s.Edges) == 0:
		return nil // a random graph of that degree is connected by construction
	}
	index := make(map[node.ID]int, n)
	for i, id := range ids {
		index[id] = i
	}
	adj := make([][]int, n)
	for i, e := range s.Edges {
		at := fmt.Sprintf("edges[%d]", i)
		if len(e) != 2 {
			return fail(at, "found an edge with %d ends, expected two such as [\"n1\", \"n2\"]", len(e))
		}
		for j, end := range e {
			if !hasID(ids, end) {
				return fail(fmt.Sprintf("%s[%d]", at, j), "found %q, expected one of the scenario's nodes (%s)", end, nodeRange(ids))
			}
		}
		a, _ := node.ParseID(e[0])
		b, _ := node.ParseID(e[1])
		if a == b {
			return fail(at+"[1]", "found the edge %s–%s, expected two different nodes", e[0], e[1])
		}
		adj[index[a]] = append(adj[index[a]], index[b])
		adj[index[b]] = append(adj[index[b]], index[a])
	}
	seen := make([]bool, n)
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range adj[i] {
			if !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			return fail("edges", "found %v unreachable from %v over the edges, expected a connected graph: %s needs every node to reach every other", ids[i], ids[0], spec.Name)
		}
	}
	return nil
}

// paramError places an algorithm's complaint about a parameter: at the list
// element that names an unknown node when there is one, else at the value.
func (s *Scenario) paramError(spec algos.Spec, pe *algos.ParamError, ids []node.ID, fail func(path, format string, args ...any) error) error {
	at := "params." + pe.Name
	if _, known := spec.Param(pe.Name); !known {
		var names []string
		for _, p := range spec.Params {
			names = append(names, p.Name)
		}
		msg := fmt.Sprintf("found unknown parameter %q", pe.Name)
		if near := nearest(pe.Name, names); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return fail(at, "%s, expected one of the parameters of %s: %s (clusterlab algos lists them)", msg, spec.Name, strings.Join(names, ", "))
	}
	if list, ok := s.Params[pe.Name].([]any); ok {
		for i, v := range list {
			name, isStr := v.(string)
			if !isStr || !hasID(ids, name) {
				return fail(fmt.Sprintf("%s[%d]", at, i), "params.%s: found %s, expected one of the scenario's nodes (%s)", pe.Name, quoteValue(v), nodeRange(ids))
			}
		}
	}
	return fail(at, "%s", pe.Error())
}

func quoteValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// probability reports whether x is from 0 to 1 (not-a-number is not).
func probability(x float64) bool { return x >= 0 && x <= 1 }

// nodeRange names the scenario's nodes briefly: "n1 … n5".
func nodeRange(ids []node.ID) string {
	switch len(ids) {
	case 0:
		return "none"
	case 1:
		return ids[0].String()
	}
	return fmt.Sprintf("%v … %v", ids[0], ids[len(ids)-1])
}

// checkSynchronous refuses a run that is not synchronous for an algorithm built on
// the perfect failure detector P: only with delays bounded from the start and no
// message lost can a timeout tell a crashed process from a slow one, so P exists
// nowhere else.
func (s *Scenario) checkSynchronous(spec algos.Spec, fail func(path, format string, args ...any) error) error {
	if spec.CrashNotice == nil {
		return nil
	}
	const why = "the perfect failure detector P needs a synchronous run (gst = \"0s\", no loss): only then can a timeout tell a crashed process from a slow one"
	if g, _ := gst(s.Network.GST); g != 0 {
		return fail("network.gst", "found gst = %q, expected \"0s\": %s", s.Network.GST, why)
	}
	if s.Network.Loss != 0 {
		return fail("network.loss", "found loss = %v, expected 0: %s", s.Network.Loss, why)
	}
	for i, l := range s.Links {
		if l.Loss != nil && *l.Loss != 0 {
			return fail(fmt.Sprintf("links[%d].loss", i), "found loss = %v, expected 0: %s", *l.Loss, why)
		}
	}
	for i, st := range s.Script {
		a, _ := netsim.ParseAction(st.Do, s.NodeIDs())
		if a.Verb == "set" && a.Knob == "loss" && a.Value != 0 {
			return fail(fmt.Sprintf("script[%d].do", i), "found %q, expected no loss: %s", st.Do, why)
		}
	}
	return nil
}

// failInString points inside a quoted string value at the column the grammar found.
func failInString(file string, pos positions, path string, err error) error {
	l, c := pos.at(path)
	var se *netsim.SyntaxError
	if errors.As(err, &se) {
		return &fileError{file, l, c + se.Col, se.Msg}
	}
	return &fileError{file, l, c, err.Error()}
}

func (s *Scenario) checkNetwork(fail func(path, format string, args ...any) error) error {
	n := &s.Network
	if n.Latency.Dist == "" {
		n.Latency = DefaultLatency
	}
	if err := n.Latency.check("network.latency", fail); err != nil {
		return err
	}
	if !probability(n.Loss) {
		return fail("network.loss", "found loss = %v, expected a probability from 0 to 1", n.Loss)
	}
	if !probability(n.Dup) {
		return fail("network.dup", "found dup = %v, expected a probability from 0 to 1", n.Dup)
	}
	if n.GST == "" {
		n.GST = "0s"
	}
	if n.GST != "never" {
		if _, err := durationIn("gst", n.GST, 0, MaxUntil); err != nil {
			return fail("network.gst", "found gst = %q, expected \"0s\", \"never\" or a time up to %s such as \"10s\"", n.GST, fmtDur(MaxUntil))
		}
	}
	if n.Delta == "" {
		n.Delta = "50ms"
	}
	if _, err := durationIn("delta", n.Delta, time.Microsecond, MaxDelay); err != nil {
		return fail("network.delta", "%v", err)
	}
	if n.PreGST.Latency.Dist == "" {
		n.PreGST.Latency = DefaultPreLatency
	}
	if err := n.PreGST.Latency.check("network.pre_gst.latency", fail); err != nil {
		return err
	}
	if n.PreGST.Loss == nil {
		l := n.Loss
		n.PreGST.Loss = &l
	}
	if !probability(*n.PreGST.Loss) {
		return fail("network.pre_gst.loss", "found loss = %v, expected a probability from 0 to 1", *n.PreGST.Loss)
	}
	m := &s.Monitors
	if m.Settle == "" {
		m.Settle = settleAuto
	}
	for _, f := range []struct {
		p   *string
		def time.Duration
		key string
	}{{&m.Settle, netsim.DefaultMonitors.Settle, "settle"}, {&m.Starvation, netsim.DefaultMonitors.Starvation, "starvation"}, {&m.SplitGrace, netsim.DefaultMonitors.SplitGrace, "split_grace"}} {
		if *f.p == "" {
			*f.p = f.def.String()
		}
		if f.p == &m.Settle && *f.p == settleAuto {
			continue
		}
		if _, err := durationIn(f.key, *f.p, 0, MaxDelay); err != nil {
			if f.p == &m.Settle {
				return fail("monitors.settle", "%v, or \"auto\"", err)
			}
			return fail("monitors."+f.key, "%v", err)
		}
	}
	return nil
}

// check validates a latency as written, each bound at its place.
func (l Latency) check(at string, fail func(path, format string, args ...any) error) error {
	if !slices.Contains(netsim.Dists, l.Dist) {
		return fail(at+".dist", "found dist = %q, expected one of %s", l.Dist, strings.Join(netsim.Dists, ", "))
	}
	bound := map[string]time.Duration{}
	for _, f := range []struct{ key, s string }{{"min", l.Min}, {"mean", l.Mean}, {"max", l.Max}} {
		if f.s == "" {
			continue
		}
		d, err := durationIn(f.key, f.s, 0, MaxDelay)
		if err != nil {
			return fail(at+"."+f.key, "%v", err)
		}
		bound[f.key] = d
	}
	if l.Dist != "constant" && l.Min != "" && l.Max != "" && bound["min"] > bound["max"] {
		return fail(at+".min", "found min = %q above max = %q, expected min <= max", l.Min, l.Max)
	}
	mean, hasMean := bound["mean"]
	switch {
	case l.Dist == "constant" && !hasMean && l.Min == "":
		return fail(at, "found latency %s, expected mean = \"10ms\"", l.written())
	case l.Dist != "uniform" && l.Dist != "constant" && (!hasMean || mean < bound["min"] || (l.Max != "" && mean > bound["max"])):
		return fail(at+".mean", "found latency %s, expected min <= mean <= max", l.written())
	case l.Dist == "pareto" && bound["min"] == 0:
		return fail(at+".min", "found min = %q, expected min > 0 for a pareto latency", l.Min)
	}
	if _, err := l.resolve(); err != nil {
		return fail(at, "found latency %s, expected %v", l.written(), err)
	}
	return nil
}

// written renders the latency table as a scenario writes it.
func (l Latency) written() string {
	parts := []string{fmt.Sprintf("dist = %q", l.Dist)}
	for _, f := range []struct{ key, s string }{{"min", l.Min}, {"mean", l.Mean}, {"max", l.Max}} {
		if f.s != "" {
			parts = append(parts, fmt.Sprintf("%s = %q", f.key, f.s))
		}
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func (l Latency) resolve() (netsim.Latency, error) {
	out := netsim.Latency{Dist: l.Dist}
	for _, f := range []struct {
		s string
		d *time.Duration
	}{{l.Min, &out.Min}, {l.Mean, &out.Mean}, {l.Max, &out.Max}} {
		if f.s == "" {
			continue
		}
		d, err := dur(f.s)
		if err != nil {
			return out, fmt.Errorf("found %q, expected a duration such as \"5ms\"", f.s)
		}
		*f.d = d
	}
	switch l.Dist {
	case "constant":
		if out.Mean == 0 {
			out.Mean = out.Min
		}
		out.Min, out.Max = out.Mean, out.Mean
	case "uniform":
		if out.Mean == 0 {
			out.Mean = (out.Min + out.Max) / 2
		}
	}
	return out, out.Validate()
}

// String renders the latency as the action grammar writes it.
func (l Latency) String() string {
	r, err := l.resolve()
	if err != nil {
		return l.Dist
	}
	return r.String()
}

// settleAuto is the settle time that scales with the election (netsim.SettleAuto).
const settleAuto = "auto"

func dur(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("bad duration %q", s)
	}
	return d, nil
}

func gst(s string) (time.Duration, error) {
	if s == "never" {
		return netsim.Never, nil
	}
	return dur(s)
}

func hasID(ids []node.ID, name string) bool {
	id, ok := node.ParseID(name)
	if !ok || !strings.HasPrefix(name, "n") {
		return false
	}
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// NodeIDs lists the scenario's processes in ring order.
func (s *Scenario) NodeIDs() []node.ID {
	if len(s.IDs) > 0 {
		out := make([]node.ID, len(s.IDs))
		for i, id := range s.IDs {
			out[i] = node.ID(id)
		}
		return s.ordered(out)
	}
	out := make([]node.ID, s.Nodes)
	for i := range out {
		out[i] = node.ID(i + 1)
	}
	return s.ordered(out)
}

// Resolve turns a checked scenario into a runnable configuration.
func (s *Scenario) Resolve() (netsim.Config, error) {
	ids := s.NodeIDs()
	spec, factory, err := algos.Build(s.Algorithm, ids, s.Params)
	if err != nil {
		return netsim.Config{}, err
	}
	lat, _ := s.Network.Latency.resolve()
	pre, _ := s.Network.PreGST.Latency.resolve()
	g, _ := gst(s.Network.GST)
	delta, _ := dur(s.Network.Delta)
	until, _ := dur(s.Until)
	settle, _ := dur(s.Monitors.Settle)
	if s.Monitors.Settle == settleAuto {
		settle = netsim.SettleAuto
	}
	starve, _ := dur(s.Monitors.Starvation)
	grace, _ := dur(s.Monitors.SplitGrace)
	js, err := json.Marshal(s)
	if err != nil {
		return netsim.Config{}, err
	}
	notice, err := algos.Notice(spec, s.Params)
	if err != nil {
		return netsim.Config{}, err
	}
	cfg := netsim.Config{
		Name: s.Name, Description: s.Description, Spec: spec, Factory: factory, IDs: ids, Seed: s.Seed, Until: until,
		Topology: s.Topology, Degree: s.Degree,
		Net:      netsim.Net{Latency: lat, Loss: s.Network.Loss, Dup: s.Network.Dup, GST: g, Delta: delta, PreLatency: pre, PreLoss: *s.Network.PreGST.Loss},
		Monitors: netsim.Monitors{Settle: settle, Starvation: starve, SplitGrace: grace},
		Scenario: js, CrashNotice: notice,
	}
	for _, e := range s.Edges {
		a, _ := node.ParseID(e[0])
		b, _ := node.ParseID(e[1])
		cfg.Edges = append(cfg.Edges, [2]node.ID{a, b})
	}
	for _, l := range s.Links {
		from, _ := node.ParseID(l.From)
		to, _ := node.ParseID(l.To)
		link := netsim.Link{From: from, To: to, Loss: l.Loss, Dup: l.Dup}
		if l.Latency != nil {
			ll, _ := l.Latency.resolve()
			link.Latency = &ll
		}
		cfg.Links = append(cfg.Links, link)
	}
	for _, st := range s.Script {
		at, _ := dur(st.At)
		a, err := netsim.ParseAction(st.Do, ids)
		if err != nil {
			return cfg, err
		}
		cfg.Script = append(cfg.Script, netsim.Timed{At: at, Action: a})
	}
	cfg.Generated = s.faults(ids, until)
	if end, ok := s.FaultsEnd(); ok {
		cfg.FaultsEnd = &end
		cfg.Generated = s.faults(ids, min(until, end))
	}
	for _, e := range s.Expect {
		x, err := netsim.ParseExpect(e.That, ids)
		if err != nil {
			return cfg, err
		}
		if e.At == "" {
			x.AtEnd()
		} else {
			x.At, _ = dur(e.At)
		}
		cfg.Expect = append(cfg.Expect, x)
	}
	return cfg, nil
}

// Info is the typed summary of the scenario that trace headers carry.
func (s *Scenario) Info(cfg netsim.Config) trace.Info {
	gstUS := int64(-1)
	if cfg.Net.GST != netsim.Never {
		gstUS = node.Micros(cfg.Net.GST)
	}
	return trace.Info{Name: s.Name, Description: s.Description, Algorithm: s.Algorithm, Family: string(cfg.Spec.Family),
		IDs: cfg.IDs, Topology: s.Topology, Latency: cfg.Net.Latency.String(), Loss: cfg.Net.Loss, Dup: cfg.Net.Dup,
		Delta: node.Micros(cfg.Net.Delta), GST: gstUS, Until: node.Micros(cfg.Until),
		PreLatency: cfg.Net.PreLatency.String(), PreLoss: cfg.Net.PreLoss, Edges: netsim.Edges(cfg), Theory: s.figures(cfg)}
}

// figures is the registry's textbook figures for the run, as the trace carries them.
func (s *Scenario) figures(cfg netsim.Config) []trace.Figure {
	th, err := s.Theory(cfg)
	if err != nil {
		return nil // a scenario that resolved has parameters its theory reads
	}
	return th
}

// FromJSON reads a scenario back from a trace header and checks it again.
func FromJSON(name string, raw []byte) (*Scenario, error) {
	var s Scenario
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s:1: %s", name, headerError(err))
	}
	s.Params = fromJSONParams(s.Params)
	if err := s.check(name, positions{}); err != nil {
		return nil, err
	}
	return &s, nil
}

// headerError says, in the format's words, why the scenario in a trace header does
// not read back.
func headerError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		path := strings.Split(te.Field, ".")
		key := path[len(path)-1]
		want := "another value"
		if t := fieldAt(path); t != nil {
			want = describe(t, key)
		}
		return fmt.Sprintf("found a JSON %s for the scenario's %s in the header, expected %s", te.Value, te.Field, want)
	}
	if _, field, ok := strings.Cut(err.Error(), "unknown field "); ok {
		return fmt.Sprintf("found the unknown key %s in the header's scenario, expected a key of the scenario format", field)
	}
	return fmt.Sprintf("found a scenario in the header that is not valid JSON (%s), expected the scenario as the recording wrote it", strings.TrimPrefix(err.Error(), "json: "))
}

// fromJSONParams gives JSON numbers the types TOML would have given them.
func fromJSONParams(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = TOMLValue(v)
	}
	return out
}

// TOMLValue gives the JSON numbers in v (decoded with UseNumber) the types TOML
// would have given them: int64 for a whole number, float64 otherwise. Lists are
// copied; tables are changed in place.
func TOMLValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = TOMLValue(e)
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = TOMLValue(e)
		}
		return out
	}
	return v
}
