package sweep

import (
	"bytes"
	"image"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

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
		f := figure{Plot: pl, series: p.Series[pi], file: safeName(pl.Y + "-vs-" + pl.X), dpi: p.dpi()}
		xi := slices.Index(keys, pl.X)
		f.xs = p.Axes[xi].Values
		type key struct{ series, x string }
		acc := map[key]*point{}
		var order []string
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
			l := line{name: name}
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

// xValue places an axis value on the x axis: numbers as themselves, anything else
// by its position among the axis's values.
func (f figure) xValue(x any) float64 {
	switch v := x.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return float64(slices.IndexFunc(f.xs, func(e any) bool { return Format(e) == Format(x) }))
}

func (f figure) numericX() bool {
	for _, x := range f.xs {
		switch x.(type) {
		case int64, float64:
		default:
			return false
		}
	}
	return true
}

type errXY struct {
	pts []point
	f   figure
}

func (e errXY) Len() int                    { return len(e.pts) }
func (e errXY) XY(i int) (float64, float64) { return e.f.xValue(e.pts[i].x), e.pts[i].mean }
func (e errXY) YError(i int) (float64, float64) {
	return e.pts[i].mean - e.pts[i].lo, e.pts[i].hi - e.pts[i].mean
}

// draw makes the figure: per series a solid line through the measured means with
// min–max bars, and the theory as a dashed line of the same colour.
func (f figure) draw() (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = f.Title
	if pl.Title.Text == "" {
		pl.Title.Text = f.Y + " vs " + f.X
	}
	pl.X.Label.Text, pl.Y.Label.Text = f.X, f.Y
	pl.Legend.Top, pl.Legend.Left = true, true
	if !f.numericX() {
		var names []string
		for _, x := range f.xs {
			names = append(names, Format(x))
		}
		pl.NominalX(names...)
	}
	entries := 0
	if f.LogY {
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for i, l := range f.lines {
		col := plotutil.Color(i)
		pts := l.points
		if f.LogY { // a log scale shows only what is above 0
			pts = nil
			for _, pt := range l.points {
				if pt.mean > 0 {
					pt.lo = max(pt.lo, pt.mean/2)
					pts = append(pts, pt)
				}
			}
			if len(pts) == 0 {
				continue
			}
		}
		l.points = pts
		xy := errXY{l.points, f}
		ln, sc, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		ln.Color, sc.Color, sc.Shape = col, col, plotutil.Shape(i)
		bars, err := plotter.NewYErrorBars(xy)
		if err != nil {
			return nil, err
		}
		bars.Color = col
		pl.Add(ln, sc, bars)
		pl.Legend.Add(l.name, ln, sc)
		entries++
		if !f.Theory {
			continue
		}
		var th plotter.XYs
		for _, pt := range l.points {
			if !math.IsNaN(pt.theory) && (!f.LogY || pt.theory > 0) {
				th = append(th, plotter.XY{X: f.xValue(pt.x), Y: pt.theory})
			}
		}
		if len(th) == 0 {
			continue
		}
		tl, err := plotter.NewLine(th)
		if err != nil {
			return nil, err
		}
		tl.Color, tl.Dashes = col, []vg.Length{vg.Points(6), vg.Points(3)}
		pl.Add(tl)
		pl.Legend.Add(l.name+" (theory)", tl)
		entries++
	}
	// Leave room above the data for the legend, one line per entry.
	if span := pl.Y.Max - pl.Y.Min; span > 0 && !f.LogY {
		pl.Y.Max += span * 0.075 * float64(entries)
	} else if f.LogY && pl.Y.Min > 0 {
		pl.Y.Max *= math.Pow(pl.Y.Max/pl.Y.Min, 0.075*float64(entries))
	}
	return pl, nil
}

// The plots' size, 18 × 14 cm.
const plotW, plotH = 18 * vg.Centimeter, 14 * vg.Centimeter

// The PNG plots' resolution: by default 1,700 pixels across the plot's width, and
// what --dpi may ask.
const (
	DefaultDPI = 240
	MinDPI     = 72
	MaxDPI     = 600
)

// dpi is the PNG plots' resolution.
func (p *Plan) dpi() float64 {
	if p.DPI == 0 {
		return DefaultDPI
	}
	return float64(p.DPI)
}

// svg draws the figure as SVG.
func (f figure) svg() ([]byte, error) {
	pl, err := f.draw()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	wt, err := pl.WriterTo(plotW, plotH, "svg")
	if err == nil {
		_, err = wt.WriteTo(&b)
	}
	return b.Bytes(), err
}

// pngBand draws band i (of pngBands, top to bottom) of the figure's PNG and
// compresses its rows; joinPNG makes the file of them.
func (f figure) pngBand(i int) (pngPart, error) {
	_, hpx := f.pngSize()
	return f.pngRows(hpx*i/pngBands, hpx*(i+1)/pngBands)
}

// pngSize is the PNG's size in pixels at the figure's resolution, as vgimg.New
// rounds it.
func (f figure) pngSize() (w, h int) {
	return int(plotW.Dots(f.dpi) + 0.5), int(plotH.Dots(f.dpi) + 0.5)
}

// pngRows draws the rows y0 to y1 of the figure's PNG and compresses them, as the
// last of the picture's if y1 is its bottom.
func (f figure) pngRows(y0, y1 int) (pngPart, error) {
	pl, err := f.draw()
	if err != nil {
		return pngPart{}, err
	}
	wpx, hpx := f.pngSize()
	m0, m1 := max(0, y0-bandMargin), min(hpx, y1+bandMargin)
	c := vgimg.NewWith(vgimg.UseImage(image.NewRGBA(image.Rect(0, 0, wpx, m1-m0))), vgimg.UseDPI(int(f.dpi)))
	// The canvas is the rows m0 to m1 of the picture: the plot is laid out on the
	// whole page, shifted so that those rows fall on the canvas, and the rest is
	// clipped.
	off := -vg.Length(hpx-m1) * vg.Inch / vg.Length(f.dpi)
	pl.Draw(draw.Canvas{Canvas: c, Rectangle: vg.Rectangle{Min: vg.Point{Y: off}, Max: vg.Point{X: plotW, Y: off + plotH}}})
	img := c.Image().(*image.RGBA).SubImage(image.Rect(0, y0-m0, wpx, y1-m0)).(*image.RGBA)
	if !img.Opaque() {
		return pngPart{img: img}, nil // joinPNG gives it to image/png
	}
	return compressRows(img, y1 == hpx)
}
