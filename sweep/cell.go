package sweep

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

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
func (s *Sweep) Label(c Cell) string { return s.label(c.Values, " ") }

func (s *Sweep) label(values []any, sep string) string {
	var parts []string
	for i, a := range s.Axes {
		parts = append(parts, a.Key+"="+Format(values[i]))
	}
	return strings.Join(parts, sep)
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

// MaxCells bounds a grid: its cells are checked before anything runs.
const MaxCells = 100000

// grid is what building a cell needs, made once: the base scenario without its
// expectations, and the [set] keys in the order written.
type grid struct {
	base    map[string]any
	setKeys []string
	n       int // cells
}

func (s *Sweep) makeGrid() error {
	var base map[string]any
	if err := toml.Unmarshal(s.base, &base); err != nil {
		return s.fail("base", "the base scenario %s does not read: %v", s.baseName, err)
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
	n := 1.0 // a float: a product of many axes would overflow an int
	for _, a := range s.Axes {
		n *= float64(len(a.Values))
	}
	if n > MaxCells {
		return s.fail("axes", "found a grid of %.0f cells, expected at most %d", n, MaxCells)
	}
	s.grid = grid{base: base, setKeys: setKeys, n: int(n)}
	return nil
}

// CellCount is the number of cells of the grid.
func (s *Sweep) CellCount() int { return s.grid.n }

// indices are the value indices of cell ci on each axis, the first axis outermost
// (the last axis turns fastest).
func (s *Sweep) indices(ci int) []int {
	idx := make([]int, len(s.Axes))
	for ai := len(s.Axes) - 1; ai >= 0; ai-- {
		k := len(s.Axes[ai].Values)
		idx[ai] = ci % k
		ci /= k
	}
	return idx
}

// values are cell ci's axis values.
func (s *Sweep) values(ci int) []any {
	vals := make([]any, len(s.Axes))
	for ai, i := range s.indices(ci) {
		vals[ai] = s.Axes[ai].Values[i]
	}
	return vals
}

// buildCell makes cell ci's scenario. One whose scenario is not valid is an error
// at the sweep file's place that set it.
func (s *Sweep) buildCell(ci int) (Cell, error) {
	m := deepCopy(s.grid.base).(map[string]any)
	for _, k := range s.grid.setKeys {
		setPath(m, k, s.Set[k])
	}
	vals := s.values(ci)
	for ai, a := range s.Axes {
		setPath(m, a.Key, vals[ai])
	}
	m = expand(m, nodeCount(m)).(map[string]any)
	c := Cell{Index: ci, Values: vals}
	text, err := toml.Marshal(m)
	if err != nil {
		return c, s.fail("axes", "cell %s: %v", s.Label(c), err)
	}
	if c.Scenario, err = presets.Parse(s.baseName, text); err != nil {
		return c, s.cellError(c, s.indices(ci), err)
	}
	return c, nil
}

// keptCells is the largest grid whose checked cells are kept for the runs: beyond
// it each run builds its cell again (a few tens of µs), so that a grid's memory
// does not grow with its size.
const keptCells = 4096

// cellBuilt, when set (by a test), is called under a lock after each cell the
// check builds.
var cellBuilt func()

// checkCells builds every cell, on every core, and keeps what planning needs: the
// algorithms the grid runs (in cell order) and each cell's node count. The error
// is the first bad cell's, whatever the order the cells were built in; or, when ctx
// is cancelled first, its cause.
func (s *Sweep) checkCells(ctx context.Context) error {
	n := s.grid.n
	nodes := make([]int32, n)
	algs := make([]string, n)
	var kept []Cell
	if n <= keptCells {
		kept = make([]Cell, n)
	}
	var mu sync.Mutex
	bad, badAt := error(nil), n
	// A grid of 100,000 cells takes seconds: the progress shows after a while
	// (on a terminal), once; Shrink's check of a smaller grid shows none.
	bar, built := newCheckProgress(s.shown, n), 0
	s.shown = checkShown{}
	defer bar.erase()
	var stop atomic.Int64
	stop.Store(int64(n))
	each(runtime.GOMAXPROCS(0), n, func(ci int) {
		if int64(ci) >= stop.Load() {
			return
		}
		if ctx.Err() != nil {
			stop.Store(0)
			return
		}
		c, err := s.buildCell(ci)
		mu.Lock()
		built++
		bar.update(built)
		if cellBuilt != nil {
			cellBuilt()
		}
		mu.Unlock()
		if err != nil {
			mu.Lock()
			if ci < badAt {
				bad, badAt = err, ci
				stop.Store(int64(ci))
			}
			mu.Unlock()
			return
		}
		nodes[ci] = int32(len(c.Scenario.NodeIDs()))
		algs[ci] = c.Scenario.Algorithm
		if kept != nil {
			kept[ci] = c
		}
	})
	if bad != nil {
		return bad
	}
	if ctx.Err() != nil {
		return &Stopped{context.Cause(ctx)}
	}
	s.nodes, s.kept = nodes, kept
	s.algorithms = nil
	for _, a := range algs {
		if !slices.Contains(s.algorithms, a) {
			s.algorithms = append(s.algorithms, a)
		}
	}
	return nil
}

// Cell is cell ci, built (or kept from the check).
func (s *Sweep) Cell(ci int) Cell {
	if s.kept != nil {
		return s.kept[ci]
	}
	c, err := s.cells.get(ci, s.buildCell)
	if err != nil {
		// Every cell was built once when the sweep was read: building it again
		// gives the same scenario.
		panic(fmt.Sprintf("sweep: cell %d no longer builds: %v", ci, err))
	}
	return c
}

// cellCache keeps the cells built last: the runs of one cell (its seeds) follow
// each other, so a few suffice.
type cellCache struct {
	mu    sync.Mutex
	cells []Cell
}

const cachedCells = 16

func (cc *cellCache) get(ci int, build func(int) (Cell, error)) (Cell, error) {
	cc.mu.Lock()
	for _, c := range cc.cells {
		if c.Index == ci {
			cc.mu.Unlock()
			return c, nil
		}
	}
	cc.mu.Unlock()
	c, err := build(ci)
	if err != nil {
		return c, err
	}
	cc.mu.Lock()
	if len(cc.cells) == cachedCells {
		cc.cells = cc.cells[1:]
	}
	cc.cells = append(cc.cells, c)
	cc.mu.Unlock()
	return c, nil
}

var (
	filePrefix = regexp.MustCompile(`^[^\n]*?:\d+:\d+: `)
	innerPos   = regexp.MustCompile(` \((first )?at \d+:\d+\)`)
)

// cellError points at the axis value (or [set] key) the scenario's complaint names,
// else at [axes].
func (s *Sweep) cellError(c Cell, idx []int, err error) error {
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
		for _, k := range s.grid.setKeys {
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
