package sweep

import (
	"math"
	"slices"
	"strings"

	"github.com/clusterlab/clusterlab/lang"
)

// point is one measured point of a plot: the cells with one x value and one series
// combined (the mean of their means, the extremes of their runs), and the theory.
type point struct {
	x            any
	mean, lo, hi float64
	theory       float64
	n            int
	label        string // the primary figure's formula
	differs      bool   // a cell's mean is not its exact figure
}

// line is one series of a plot.
type line struct {
	name   string
	parts  []string // the name's parts, one per series axis
	points []point
}

// figure is one [[plot]] with its data.
type figure struct {
	Plot
	series []string
	xs     []any // the x axis values, in the axis's order
	lines  []line
	file   string // base name without extension
	dpi    float64
	ui     lang.Lang
}

// title is the plot's title, or "Y vs X".
func (f figure) title(ui lang.Lang) string {
	if f.Title != "" {
		return f.Title
	}
	return ui.F("sweep.plot.vs", f.Y, f.X)
}

// differs reports a point whose mean is not its exact figure.
func (f figure) differs() bool {
	for _, l := range f.lines {
		for _, pt := range l.points {
			if pt.differs {
				return true
			}
		}
	}
	return false
}

func (p *Plan) figures(cells []*cellSum) []figure {
	var out []figure
	keys := p.axisKeys()
	for pi, pl := range p.Plot {
		f := figure{Plot: pl, series: p.Series[pi], file: safeName(pl.Y + "-vs-" + pl.X), dpi: p.dpi(), ui: p.ui}
		xi := slices.Index(keys, pl.X)
		f.xs = p.Axes[xi].Values
		type key struct{ series, x string }
		acc := map[key]*point{}
		var order []string
		partsOf := map[string][]string{}
		for ci, c := range cells {
			if c == nil {
				continue
			}
			st, ok := c.stats[pl.Y]
			if !ok {
				continue
			}
			vals := p.values(ci)
			var parts []string
			for _, s := range f.series {
				v := Format(vals[slices.Index(keys, s)])
				if s == "algorithm" {
					parts = append(parts, v)
				} else {
					parts = append(parts, s[strings.LastIndex(s, ".")+1:]+"="+v)
				}
			}
			name := strings.Join(parts, " ")
			if name == "" {
				name = pl.Y
			}
			if !slices.Contains(order, name) {
				order = append(order, name)
				partsOf[name] = parts
			}
			k := key{name, Format(vals[xi])}
			pt := acc[k]
			if pt == nil {
				pt = &point{x: vals[xi], lo: math.Inf(1), hi: math.Inf(-1)}
				acc[k] = pt
			}
			pt.mean += st.mean
			pt.theory += st.theory // NaN stays NaN: a point has theory only if every cell has
			pt.lo, pt.hi = min(pt.lo, st.min), max(pt.hi, st.max)
			pt.n++
			pt.differs = pt.differs || st.differs()
			if len(st.figures) > 0 {
				pt.label = st.figures[0].Statement(p.ui.Phrase)
			}
		}
		for _, name := range order {
			l := line{name: name, parts: partsOf[name]}
			for _, x := range f.xs {
				if pt := acc[key{name, Format(x)}]; pt != nil {
					pt.mean /= float64(pt.n)
					pt.theory /= float64(pt.n)
					l.points = append(l.points, *pt)
				}
			}
			f.lines = append(f.lines, l)
		}
		out = append(out, f)
	}
	return out
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}
