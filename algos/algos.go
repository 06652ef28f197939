// Package algos is the registry of clusterlab's algorithms: each family package
// (algos/detector, algos/election, algos/mutex) registers its algorithms here with a
// name, a one-line description, its source, its message types and its parameters.
//
// Adding an algorithm is one file with the state machine and one Register call.
//
// # Public API
//
// Register, Spec (with Family, Param, Config, Params and Theory, which its fields
// use) are public API: a student's own module registers its algorithms with them,
// from an init function, and runs the whole lab with lab.Main (`clusterlab new`
// writes such a module). Within a major version, a minor release only adds to
// them: no field, method or constant a student may use is removed, renamed or
// given another meaning, and an algorithm that registered with one minor version
// registers, builds and runs the same with the next. Everything else in this
// package (Lookup, All, Build, Notice, the built-in families' helpers) serves the
// lab itself and may change.
package algos

import (
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// Family groups algorithms that share monitors.
type Family string

// The families.
const (
	Detector Family = "detector"
	Election Family = "election"
	Mutex    Family = "mutex"
)

// Param documents one algorithm parameter. Default is written as it would be in a
// scenario file ("100ms", "heartbeat", "all", "3").
type Param struct {
	Name    string
	Default string
	Doc     string
	// Min and Max bound a number or a duration, written as in a scenario ("0",
	// "10000", "1ms"). Empty means 0 below, and above nothing for a number and
	// MaxDuration for a duration. Unit follows the range in errors ("per second").
	Min, Max, Unit string
}

// MaxDuration bounds every duration parameter that sets no Max of its own.
const MaxDuration = time.Hour

// Range describes a number's or a duration's range for people, such as "0 to
// 10000 per second" or "0s to 1h"; "" for a parameter of another kind (its
// Default tells which).
func (p Param) Range() string {
	lo, hi, ok := p.Bounds()
	if !ok {
		return ""
	}
	return p.rangeText(lo, hi)
}

func (p Param) rangeText(lo, hi string) string {
	r := lo + " to " + hi
	if hi == "" {
		r = "at least " + lo
	}
	if p.Unit != "" {
		r += " " + p.Unit
	}
	return r
}

// Bounds are the range Range describes, for a caller that words it in another
// language: the lowest value, the highest ("" when there is none), and false for a
// parameter that is neither a number nor a duration (its Default tells which).
func (p Param) Bounds() (lo, hi string, ok bool) {
	if _, err := strconv.ParseFloat(p.Default, 64); err == nil {
		lo, hi = p.bounds(false)
		return lo, hi, true
	}
	if _, err := time.ParseDuration(p.Default); err == nil {
		lo, hi = p.bounds(true)
		return lo, hi, true
	}
	return "", "", false
}

func (p Param) bounds(duration bool) (lo, hi string) {
	lo, hi = p.Min, p.Max
	switch {
	case lo == "" && duration:
		lo = "0s"
	case lo == "":
		lo = "0"
	}
	if hi == "" && duration {
		hi = "1h"
	}
	return lo, hi
}

// Spec describes one algorithm: what the registry, the scenario reader, the
// dashboard, sweeps and `check` know of it. Name, Family, Description, Source and
// Build are required; the rest is optional. Spec is public API (see the package
// comment): new optional fields may come in a minor release, none goes away.
type Spec struct {
	Name        string
	Family      Family
	Description string   // one line
	Source      string   // the paper or course notes it follows
	Messages    []string // message types it sends
	// Short gives message types labels of at most four letters where the common
	// ones (see Short) would not do: collide with another type it sends, say.
	Short  map[string]string
	Params []Param
	// Terms is set for algorithms whose leaders have terms (raft): for them split
	// brain means two leaders in the same term.
	Terms bool
	// Ring is set for algorithms that pass their messages along the logical ring
	// (ids order) whatever the topology, so an election takes O(N) message delays
	// one after another; the no-leader monitor waits for that long.
	Ring bool
	// CrashNotice is set for algorithms built on the perfect failure detector P:
	// it reads from the parameters how long after a crash (or a revival) the world
	// tells every live process about it, as a Request event named by CrashedRequest
	// (RecoveredRequest). A scenario that is not synchronous is refused for them.
	CrashNotice func(Params) (time.Duration, error)
	// Build validates the parameters and returns the factory of instances.
	Build func(c Config) (node.Factory, error)
	// Theory, when set, gives the textbook's figures for a configuration: what a
	// sweep or a report sets beside the measurement. Nil for algorithms the notes
	// give no figure for.
	Theory func(c TheoryConfig) []Theory
	// Code is the algorithm's source as it was built, for an algorithm that is not
	// one of the lab's own: its package's files, embedded with
	//
	//	//go:embed *.go
	//	var code embed.FS
	//
	// A recording names the code that made it by a hash of these files (test files
	// left out), with its module and version, and verify refuses a recording made
	// by other code. Without Code the files are read from the package's directory
	// when a recording starts, if they are there.
	Code fs.FS

	// pkg and file are the package and the source file that registered the
	// algorithm, found by Register.
	pkg, file string
}

// Config is what Build gets: the processes, in ring order, and the parameters.
type Config struct {
	IDs    []node.ID
	Params Params
}

var registry []Spec

// Register adds an algorithm. Call it from an init function of the algorithm's
// package: the package that calls it is the algorithm's, whose source check reads
// and whose module a recording names. It panics on a duplicate name, a built-in's
// included: that is a programming error caught by any test.
func Register(s Spec) {
	if _, ok := Lookup(s.Name); ok {
		panic("algos: duplicate algorithm " + s.Name)
	}
	s.pkg, s.file = caller()
	registry = append(registry, s)
}

// Lookup finds an algorithm by name.
func Lookup(name string) (Spec, bool) {
	for _, s := range registry {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// All lists the algorithms by family, then name.
func All() []Spec {
	out := append([]Spec(nil), registry...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Family != out[j].Family {
			return out[i].Family < out[j].Family
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Names lists the registered names, sorted.
func Names() []string {
	var out []string
	for _, s := range All() {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return out
}

// Param finds a parameter of the spec.
func (s Spec) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// ParamError is a bad parameter value. Scenario readers turn it into file:line.
type ParamError struct {
	Name string
	Msg  string
}

func (e *ParamError) Error() string { return fmt.Sprintf("params.%s: %s", e.Name, e.Msg) }

// Params holds the parameters a scenario gave, as decoded from TOML (string, int64,
// float64, bool, []any), with the spec's defaults behind them.
type Params struct {
	spec   Spec
	values map[string]any
}

// NewParams checks that every given name is a parameter of spec.
func NewParams(spec Spec, values map[string]any) (Params, error) {
	names := make([]string, 0, len(values))
	for k := range values {
		names = append(names, k)
	}
	sort.Strings(names) // report the first unknown name deterministically
	for _, k := range names {
		if _, ok := spec.Param(k); !ok {
			var known []string
			for _, p := range spec.Params {
				known = append(known, p.Name)
			}
			exp := "no parameters"
			if len(known) > 0 {
				exp = "one of " + strings.Join(known, ", ")
			}
			return Params{}, &ParamError{k, fmt.Sprintf("%s has no parameter %q; expected %s", spec.Name, k, exp)}
		}
	}
	return Params{spec: spec, values: values}, nil
}

// raw returns the given value, or the default parsed as text.
func (p Params) raw(name string) (any, bool) {
	if v, ok := p.values[name]; ok {
		return v, true
	}
	if d, ok := p.spec.Param(name); ok {
		return d.Default, false
	}
	panic("algos: " + p.spec.Name + " reads undeclared parameter " + name)
}

// Duration reads a duration such as "100ms".
func (p Params) Duration(name string) (time.Duration, error) {
	v, _ := p.raw(name)
	s, ok := v.(string)
	if !ok {
		return 0, &ParamError{name, fmt.Sprintf("found %v, expected a duration such as \"100ms\"", v)}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, &ParamError{name, fmt.Sprintf("found %q, expected a duration such as \"100ms\"", s)}
	}
	decl, _ := p.spec.Param(name)
	lo, _ := time.ParseDuration(decl.Min)
	hi := MaxDuration
	if decl.Max != "" {
		hi, _ = time.ParseDuration(decl.Max)
	}
	if d < lo || d > hi {
		return 0, p.outside(name, s, true)
	}
	return d, nil
}

// outside is the error for a value beyond the parameter's range.
func (p Params) outside(name string, v any, duration bool) error {
	decl, _ := p.spec.Param(name)
	found := quote(v)
	if f, ok := v.(float64); ok {
		found = strings.Replace(strconv.FormatFloat(f, 'g', -1, 64), "e+", "e", 1) // 1e12, as written
	}
	return &ParamError{name, fmt.Sprintf("found %s = %s, expected %s", name, found, decl.rangeText(decl.bounds(duration)))}
}

// inRange checks a number against the parameter's Min (0 if unset) and Max.
// Not-a-number and the infinities are never in range.
func (p Params) inRange(name string, f float64) error {
	decl, _ := p.spec.Param(name)
	lo, hi := 0.0, math.Inf(1)
	if decl.Min != "" {
		lo, _ = strconv.ParseFloat(decl.Min, 64)
	}
	if decl.Max != "" {
		hi, _ = strconv.ParseFloat(decl.Max, 64)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return &ParamError{name, fmt.Sprintf("found %s = %v, expected a finite number", name, f)}
	}
	if !(f >= lo && f <= hi) {
		return p.outside(name, f, false)
	}
	return nil
}

// Int reads an integer.
func (p Params) Int(name string) (int, error) {
	v, _ := p.raw(name)
	n, ok := 0, false
	switch x := v.(type) {
	case int64:
		n, ok = int(x), true
	case int:
		n, ok = x, true
	case string:
		if _, err := fmt.Sscanf(x, "%d", &n); err == nil && fmt.Sprint(n) == x {
			ok = true
		}
	}
	if !ok {
		return 0, &ParamError{name, fmt.Sprintf("found %v, expected an integer", v)}
	}
	return n, p.inRange(name, float64(n))
}

// Float reads a number.
func (p Params) Float(name string) (float64, error) {
	v, _ := p.raw(name)
	f, ok := 0.0, false
	switch x := v.(type) {
	case float64:
		f, ok = x, true
	case int64:
		f, ok = float64(x), true
	case string:
		if _, err := fmt.Sscanf(x, "%g", &f); err == nil {
			ok = true
		}
	}
	if !ok {
		return 0, &ParamError{name, fmt.Sprintf("found %v, expected a number", v)}
	}
	return f, p.inRange(name, f)
}

// Bool reads true or false.
func (p Params) Bool(name string) (bool, error) {
	v, _ := p.raw(name)
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		switch x {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, &ParamError{name, fmt.Sprintf("found %v, expected true or false", v)}
}

// String reads one of the allowed words (any string if allowed is empty).
func (p Params) String(name string, allowed ...string) (string, error) {
	v, _ := p.raw(name)
	s, ok := v.(string)
	if ok && (len(allowed) == 0 || contains(allowed, s)) {
		return s, nil
	}
	exp := "a string"
	if len(allowed) > 0 {
		exp = "one of \"" + strings.Join(allowed, "\", \"") + "\""
	}
	return "", &ParamError{name, fmt.Sprintf("found %v, expected %s", quote(v), exp)}
}

// Node reads one process name such as "n3", which must be one of ids; "" gives None
// when allowEmpty.
func (p Params) Node(name string, ids []node.ID) (node.ID, error) {
	v, _ := p.raw(name)
	s, ok := v.(string)
	if ok && s == "" {
		return node.None, nil
	}
	if ok {
		if id, ok := node.ParseID(s); ok && containsID(ids, id) {
			return id, nil
		}
	}
	return node.None, &ParamError{name, fmt.Sprintf("found %v, expected one of the scenario's nodes, such as \"%v\"", quote(v), ids[0])}
}

// Nodes reads "all", "none" or a list of process names, each one of ids.
func (p Params) Nodes(name string, ids []node.ID) ([]node.ID, error) {
	v, _ := p.raw(name)
	bad := &ParamError{name, fmt.Sprintf("found %v, expected \"all\", \"none\" or a list such as [\"%v\"]", quote(v), ids[0])}
	switch x := v.(type) {
	case string:
		switch x {
		case "all":
			return append([]node.ID(nil), ids...), nil
		case "none", "":
			return nil, nil
		}
		var out []node.ID
		for _, f := range strings.Split(x, ",") {
			id, ok := node.ParseID(strings.TrimSpace(f))
			if !ok || !containsID(ids, id) {
				return nil, bad
			}
			out = append(out, id)
		}
		return out, nil
	case []any:
		var out []node.ID
		for _, e := range x {
			s, ok := e.(string)
			id, ok2 := node.ParseID(s)
			if !ok || !ok2 || !containsID(ids, id) {
				return nil, bad
			}
			out = append(out, id)
		}
		return out, nil
	}
	return nil, bad
}

// NodeInts reads a per-process table of whole numbers written as "n1=3 n2=1 …" (or
// commas between pairs): each name one of ids, at most once, each value ≥ min.
// Processes left out are not in the map; "" gives an empty map. Look values up;
// never range over the map for a decision.
func (p Params) NodeInts(name string, ids []node.ID, min int64) (map[node.ID]int64, error) {
	v, _ := p.raw(name)
	s, ok := v.(string)
	bad := func(what string) error {
		return &ParamError{name, fmt.Sprintf("found %s, expected pairs such as \"%v=3 %v=1\" (each a scenario node, once, with a whole number ≥ %d)", what, ids[0], ids[len(ids)-1], min)}
	}
	if !ok {
		return nil, bad(quote(v))
	}
	out := map[node.ID]int64{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		k, val, found := strings.Cut(f, "=")
		id, okID := node.ParseID(k)
		var n int64
		_, err := fmt.Sscanf(val, "%d", &n)
		if !found || !okID || !containsID(ids, id) || err != nil || fmt.Sprint(n) != val || n < min {
			return nil, bad(fmt.Sprintf("%q", f))
		}
		if _, dup := out[id]; dup {
			return nil, bad(fmt.Sprintf("%v twice", id))
		}
		out[id] = n
	}
	return out, nil
}

func quote(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func containsID(xs []node.ID, id node.ID) bool {
	for _, x := range xs {
		if x == id {
			return true
		}
	}
	return false
}

// CrashedRequest names the request by which the world, acting as the perfect
// failure detector P, tells a process that p crashed.
func CrashedRequest(p node.ID) string { return "crashed " + p.String() }

// RecoveredRequest names the request that tells a process that p came back.
func RecoveredRequest(p node.ID) string { return "recovered " + p.String() }

// Notice reads the crash-notice delay of spec from the given parameters: 0 and no
// error for an algorithm without one.
func Notice(spec Spec, values map[string]any) (time.Duration, error) {
	if spec.CrashNotice == nil {
		return 0, nil
	}
	p, err := NewParams(spec, values)
	if err != nil {
		return 0, err
	}
	return spec.CrashNotice(p)
}

// Build looks up an algorithm, checks the given parameters against it and builds its
// factory for the processes ids.
func Build(name string, ids []node.ID, values map[string]any) (Spec, node.Factory, error) {
	spec, ok := Lookup(name)
	if !ok {
		return Spec{}, nil, fmt.Errorf("no algorithm %q; expected one of: %s", name, strings.Join(Names(), ", "))
	}
	params, err := NewParams(spec, values)
	if err != nil {
		return spec, nil, err
	}
	f, err := spec.Build(Config{IDs: ids, Params: params})
	return spec, f, err
}
