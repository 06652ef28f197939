package sweep

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/clusterlab/clusterlab/presets"
)

// Cell is one point of the grid: one value per axis, and the scenario it makes
// (checked; each run sets its seed).
type Cell struct {
	Index    int
	Values   []any
	Scenario *presets.Scenario
}

// Label names the cell: "nodes=8 order=decreasing".
func (s *Sweep) Label(c Cell) string {
	var parts []string
	for i, a := range s.Axes {
		parts = append(parts, a.Key+"="+Format(c.Values[i]))
	}
	return strings.Join(parts, " ")
}

// Format writes an axis value as results.csv does.
func Format(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Cells builds every cell of the grid, the first axis outermost. A cell whose
// scenario is not valid is an error at the sweep file's place that set it.
func (s *Sweep) Cells() ([]Cell, error) {
	var base map[string]any
	if err := toml.Unmarshal(s.base, &base); err != nil {
		return nil, s.fail("base", "the base scenario %s does not read: %v", s.baseName, err)
	}
	delete(base, "expect") // the base's expectations are about its own size; the sweep's replace them
	var setKeys []string
	for k := range s.Set {
		setKeys = append(setKeys, k)
	}
	slices.SortFunc(setKeys, func(a, b string) int {
		la, ca := s.pos.At("set." + a)
		lb, cb := s.pos.At("set." + b)
		return cmp.Or(cmp.Compare(la, lb), cmp.Compare(ca, cb), strings.Compare(a, b))
	})
	n := 1
	for _, a := range s.Axes {
		n *= len(a.Values)
	}
	if n > 100000 {
		return nil, s.fail("axes", "found a grid of %d cells, expected at most 100000", n)
	}
	cells := make([]Cell, 0, n)
	idx := make([]int, len(s.Axes))
	for ci := 0; ci < n; ci++ {
		m := deepCopy(base).(map[string]any)
		for _, k := range setKeys {
			setPath(m, k, s.Set[k])
		}
		vals := make([]any, len(s.Axes))
		for ai, a := range s.Axes {
			vals[ai] = a.Values[idx[ai]]
			setPath(m, a.Key, vals[ai])
		}
		m = expand(m, nodeCount(m)).(map[string]any)
		text, err := toml.Marshal(m)
		if err != nil {
			return nil, s.fail("axes", "cell %s: %v", s.Label(Cell{Values: vals}), err)
		}
		sc, err := presets.Parse(s.baseName, text)
		if err != nil {
			return nil, s.cellError(Cell{Values: vals}, idx, setKeys, err)
		}
		cells = append(cells, Cell{Index: ci, Values: vals, Scenario: sc})
		for ai := len(idx) - 1; ai >= 0; ai-- { // odometer: the last axis turns fastest
			idx[ai]++
			if idx[ai] < len(s.Axes[ai].Values) {
				break
			}
			idx[ai] = 0
		}
	}
	return cells, nil
}

var (
	filePrefix = regexp.MustCompile(`^[^\n]*?:\d+:\d+: `)
	innerPos   = regexp.MustCompile(` \((first )?at \d+:\d+\)`)
)

// cellError points at the axis value (or [set] key) the scenario's complaint names,
// else at [axes].
func (s *Sweep) cellError(c Cell, idx []int, setKeys []string, err error) error {
	// Positions inside the generated scenario mean nothing to the user: drop them.
	msg := innerPos.ReplaceAllString(filePrefix.ReplaceAllString(err.Error(), ""), "")
	names := func(key string) bool { // the complaint is about key
		last := key[strings.LastIndex(key, ".")+1:]
		return strings.HasPrefix(msg, key+":") || strings.HasPrefix(msg, key+" ") ||
			strings.Contains(msg, "found "+key+" =") || strings.Contains(msg, "found "+last+" =") ||
			(last == "ids" && strings.HasPrefix(msg, "found id "))
	}
	path := "base"
	if s.Base == "" {
		path = "file"
	}
	for ai, a := range s.Axes {
		if names(a.Key) {
			path = fmt.Sprintf("axes.%s[%d]", a.Key, idx[ai])
			break
		}
	}
	if strings.HasPrefix(path, "base") || path == "file" {
		for _, k := range setKeys {
			if names(k) {
				path = "set." + k
			}
		}
	}
	return s.fail(path, "in the cell %s: %s", s.Label(c), msg)
}

// setPath sets a dotted scenario key. nodes and ids replace each other, and a
// topology other than graph drops the graph's degree and edges.
func setPath(m map[string]any, path string, v any) {
	switch path {
	case "nodes":
		delete(m, "ids")
	case "ids":
		delete(m, "nodes")
	case "topology":
		if v != "graph" {
			delete(m, "degree")
			delete(m, "edges")
		}
	}
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		sub, ok := m[p].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[p] = sub
		}
		m = sub
	}
	m[parts[len(parts)-1]] = deepCopy(v)
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

func nodeCount(m map[string]any) int {
	if ids, ok := m["ids"].([]any); ok {
		return len(ids)
	}
	n, _ := m["nodes"].(int64)
	return int(n)
}

var template = regexp.MustCompile(`\{N([+-]\d+)?\}`)

// expand replaces {N}, {N-1}, {N+2} in strings by the cell's node count, so that a
// sweep can name "the highest node" (n{N}) whatever its size.
func expand(v any, n int) any {
	switch x := v.(type) {
	case string:
		return template.ReplaceAllStringFunc(x, func(t string) string {
			d, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(t, "{N"), "}"))
			return strconv.Itoa(n + d)
		})
	case map[string]any:
		for k, e := range x {
			x[k] = expand(e, n)
		}
	case []any:
		for i, e := range x {
			x[i] = expand(e, n)
		}
	}
	return v
}
