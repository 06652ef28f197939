package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/presets"
)

// RunAt is the run results.csv numbers n.
func (p *Plan) RunAt(n int) (Run, error) {
	if n < 0 || n >= p.Total() {
		return Run{}, fmt.Errorf("--run: found %d, expected a run of results.csv: 0 to %d", n, p.Total()-1)
	}
	seeds := len(p.SeedList)
	return Run{Index: n, Cell: n / seeds, Seed: p.SeedList[n%seeds]}, nil
}

// FindRun is the run of the cell that cell names ("nodes=32,order=decreasing":
// every axis by its results.csv column, or the cell's number) with seed.
func (p *Plan) FindRun(cell string, seed uint64) (Run, error) {
	ci, err := p.findCell(cell)
	if err != nil {
		return Run{}, err
	}
	r := Run{Index: -1, Cell: ci, Seed: seed}
	for si, s := range p.SeedList {
		if s == seed {
			r.Index = ci*len(p.SeedList) + si
		}
	}
	return r, nil
}

func (p *Plan) findCell(cell string) (int, error) {
	if n, err := strconv.Atoi(cell); err == nil {
		if n < 0 || n >= p.CellCount() {
			return 0, fmt.Errorf("--cell: found %d, expected a cell number from 0 to %d, or its axes: `%s`", n, p.CellCount()-1, p.label(p.values(0), ","))
		}
		return n, nil
	}
	given := map[string]string{}
	for _, part := range splitTop(cell) {
		k, v, ok := strings.Cut(part, "=")
		if !ok || !p.isAxis(strings.TrimSpace(k)) {
			return 0, fmt.Errorf("--cell: found %q, expected AXIS=VALUE for each axis: `%s`", part, p.label(p.values(0), ","))
		}
		given[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	idx := make([]int, len(p.Axes))
	ci := 0
	for ai, a := range p.Axes {
		v, ok := given[a.Key]
		if !ok {
			return 0, fmt.Errorf("--cell: found no value for `%s`, expected a value for each axis: `%s`", a.Key, p.label(p.values(0), ","))
		}
		idx[ai] = -1
		var vals []string
		for vi, x := range a.Values {
			vals = append(vals, Format(x))
			if Format(x) == v {
				idx[ai] = vi
			}
		}
		if idx[ai] < 0 {
			return 0, fmt.Errorf("--cell: found %s = %s, expected one of the axis's values: %s", a.Key, v, strings.Join(vals, ", "))
		}
		ci = ci*len(a.Values) + idx[ai]
	}
	return ci, nil
}

// splitTop splits s at the commas outside brackets and quotes: an axis value may
// be a list ("ids=[3,1,2]").
func splitTop(s string) []string {
	var out []string
	depth, quote, start := 0, false, 0
	for i, r := range s {
		switch {
		case r == '"':
			quote = !quote
		case quote:
		case r == '[' || r == '{':
			depth++
		case r == ']' || r == '}':
			depth--
		case r == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// Reproduce is run r's scenario and configuration, as the sweep ran it: recorded,
// it makes the trace whose hash results.csv gives.
func (p *Plan) Reproduce(r Run) (*presets.Scenario, netsim.Config, error) {
	sc := *p.Cell(r.Cell).Scenario
	sc.Seed = r.Seed
	cfg, err := sc.Resolve()
	return &sc, cfg, err
}
