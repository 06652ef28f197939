package sweep

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// A plot as a report needs it: the x axis as the grid has it (the sizes as ticks,
// on a log₂ scale when they double; durations as numbers in their unit), units in
// the axis labels, a colour and a marker of its own for each series, the legend
// beside the plot, and panels side by side (facets) when there are more series
// than colours. SVG for print; PNG at DefaultDPI (or --dpi).

// The PNG plots' resolution: by default 1,700 pixels across an 18 cm plot, and
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

// maxSeries is how many series a panel shows: as many as there are colours and
// markers that are told apart at a glance.
const maxSeries = 8

// palette is the series' colours: the Okabe–Ito colours that read on white
// (yellow left out), for readers who do not tell red from green, and brown.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0x00, 0x00, 0x00, 0xff}, // black
	{0x8C, 0x56, 0x4B, 0xff}, // brown
}

// glyphs is the series' markers, in the same order: filled, then hollow.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

// xScale is how the x axis places the grid's values.
type xScale int

const (
	xNominal xScale = iota // names, evenly spaced
	xLinear                // numbers
	xLog2                  // numbers that at least double from one to the next
)

// xAxis is the figure's x axis: where each of the axis's values goes, its tick
// label, and the axis's label with its unit.
type xAxis struct {
	scale  xScale
	pos    []float64 // by index among the axis's values
	ticks  []string
	label  string
	factor float64 // a duration's seconds to the axis's unit
}

// durationUnit is the unit a set of durations reads best in.
func durationUnit(ds []time.Duration) (string, float64) {
	top := slices.Max(ds)
	switch {
	case top < time.Millisecond:
		return "µs", 1e6
	case top < time.Second:
		return "ms", 1e3
	}
	return "s", 1
}

// axis makes the x axis of the figure.
func (f figure) axis() xAxis {
	a := xAxis{scale: xLinear, label: f.X}
	var durs []time.Duration
	for _, x := range f.xs {
		switch v := x.(type) {
		case int64:
			a.pos = append(a.pos, float64(v))
		case float64:
			a.pos = append(a.pos, v)
		case string:
			if d, err := time.ParseDuration(v); err == nil && d >= 0 {
				durs = append(durs, d)
				continue
			}
			a.scale = xNominal
		default:
			a.scale = xNominal
		}
	}
	if a.scale == xLinear && len(durs) > 0 && len(a.pos) > 0 {
		a.scale = xNominal // numbers and durations mixed
	}
	if a.scale == xNominal {
		a.pos, a.ticks = nil, nil
		for i, x := range f.xs {
			a.pos = append(a.pos, float64(i))
			a.ticks = append(a.ticks, Format(x))
		}
		return a
	}
	if len(durs) > 0 {
		unit, factor := durationUnit(durs)
		a.label = f.X + " (" + unit + ")"
		a.factor = factor
		for _, d := range durs {
			a.pos = append(a.pos, d.Seconds()*factor)
		}
	}
	for _, p := range a.pos {
		a.ticks = append(a.ticks, strconv.FormatFloat(p, 'g', -1, 64))
	}
	if doubles(a.pos) {
		a.scale = xLog2
		a.label += " (" + f.ui.T("sweep.plot.log2") + ")"
	}
	return a
}

// doubles reports values above 0 that at least double from each to the next:
// sizes 4, 8, 16, …, or 10, 50, 200 ms. Three values at least.
func doubles(xs []float64) bool {
	if len(xs) < 3 {
		return false
	}
	for i, x := range xs {
		if x <= 0 || (i > 0 && x < 1.9*xs[i-1]) {
			return false
		}
	}
	return true
}

// at is where axis value x goes.
func (a xAxis) at(f figure, x any) float64 {
	i := slices.IndexFunc(f.xs, func(e any) bool { return Format(e) == Format(x) })
	if i < 0 {
		return math.NaN()
	}
	return a.pos[i]
}

// xValue is where the terminal chart puts axis value x: its place on a linear
// scale (the log₂ of it on a log₂ axis).
func (f figure) xValue(x any) float64 {
	a := f.axis()
	v := a.at(f, x)
	if a.scale == xLog2 {
		return math.Log2(v)
	}
	return v
}

// yLabel is the y axis's label: the metric and its unit.
func (f figure) yLabel() string {
	label := f.Y
	if u := unitOf(f.Y); u != "" {
		label += " (" + f.ui.Or("sweep.unit."+strings.ReplaceAll(u, " ", "_"), u) + ")"
	}
	if f.LogY {
		label += " (" + f.ui.T("sweep.plot.log") + ")"
	}
	return label
}

// panel is one facet: the series of the lines whose facet part is value.
type panel struct {
	title string
	lines []line
}

// panels splits the figure's series into panels of at most maxSeries: by the
// values of one series axis (the one that needs the fewest panels), or else in
// groups as they come.
func (f figure) panels() []panel {
	if len(f.lines) <= maxSeries {
		return []panel{{lines: f.lines}}
	}
	best := -1
	var bestPanels []panel
	for k := range f.series {
		var ps []panel
		for _, l := range f.lines {
			if k >= len(l.parts) {
				break
			}
			i := slices.IndexFunc(ps, func(p panel) bool { return p.title == l.parts[k] })
			if i < 0 {
				ps = append(ps, panel{title: l.parts[k]})
				i = len(ps) - 1
			}
			rest := slices.Concat(l.parts[:k], l.parts[k+1:])
			l.name = strings.Join(rest, " ")
			ps[i].lines = append(ps[i].lines, l)
		}
		fits := len(ps) > 1
		for _, p := range ps {
			fits = fits && len(p.lines) <= maxSeries
		}
		if fits && (best < 0 || len(ps) < len(bestPanels)) {
			best, bestPanels = k, ps
		}
	}
	if best >= 0 {
		return bestPanels
	}
	var ps []panel
	for i := 0; i < len(f.lines); i += maxSeries {
		ps = append(ps, panel{title: fmt.Sprintf("%d–%d", i+1, min(i+maxSeries, len(f.lines))), lines: f.lines[i:min(i+maxSeries, len(f.lines))]})
	}
	return ps
}

// The sizes of a plot: each panel's, and the figure's for its panels and legend.
const (
	panelW = 14 * vg.Centimeter
	panelH = 12 * vg.Centimeter
	titleH = 1 * vg.Centimeter
)

// size is the figure's size: its panels side by side, the legend beside them.
func (f figure) size() (w, h vg.Length) {
	ps := f.panels()
	leg := f.legend(ps[0])
	return vg.Length(len(ps))*panelW + f.legendWidth(leg) + vg.Centimeter/2, panelH + titleH
}

// legend is the legend of a panel's series, and of the theory's dashes.
func (f figure) legend(p panel) plot.Legend {
	leg := plot.NewLegend()
	leg.TextStyle.Font = font.From(plot.DefaultFont, 10)
	leg.Top, leg.Left = true, true
	leg.ThumbnailWidth = vg.Points(24)
	for i, l := range p.lines {
		ln, sc := seriesStyle(i)
		leg.Add(l.name, ln, sc)
	}
	if f.Theory {
		th := &plotter.Line{LineStyle: draw.LineStyle{Color: color.Gray{0x66}, Width: vg.Points(1), Dashes: theoryDashes}}
		leg.Add(f.ui.T("sweep.plot.theory"), th)
	}
	return leg
}

func (f figure) legendWidth(leg plot.Legend) vg.Length {
	r := leg.Rectangle(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 100 * vg.Centimeter, Y: 100 * vg.Centimeter}}})
	return r.Max.X - r.Min.X + vg.Centimeter/2
}

var theoryDashes = []vg.Length{vg.Points(6), vg.Points(3)}

// seriesStyle is series i's line and marker.
func seriesStyle(i int) (*plotter.Line, *plotter.Scatter) {
	col := palette[i%len(palette)]
	ln := &plotter.Line{LineStyle: draw.LineStyle{Color: col, Width: vg.Points(1.2)}}
	sc := &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: glyphs[i%len(glyphs)]}}
	return ln, sc
}

// render draws the figure on c: the title, the panels, the legend at the right.
func (f figure) render(c draw.Canvas) error {
	c.FillPolygon(color.White, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
	ps := f.panels()
	leg := f.legend(ps[0])
	lw := f.legendWidth(leg)
	title := f.Title
	if title == "" {
		title = f.title(f.ui)
	}
	ts := text.Style{Font: font.From(plot.DefaultFont, 13), Handler: plot.DefaultTextHandler, XAlign: draw.XCenter}
	c.FillText(ts, vg.Point{X: (c.Min.X + c.Max.X - lw) / 2, Y: c.Max.Y - titleH/2 - ts.Font.Size/2}, title)
	a := f.axis()
	// One y range for every panel, so that they compare.
	var plots []*plot.Plot
	for _, p := range ps {
		pl, err := f.panelPlot(p, a)
		if err != nil {
			return err
		}
		plots = append(plots, pl)
	}
	lo, hi := plots[0].Y.Min, plots[0].Y.Max
	for _, pl := range plots {
		lo, hi = min(lo, pl.Y.Min), max(hi, pl.Y.Max)
	}
	area := c
	area.Max.X -= lw
	area.Max.Y -= titleH
	for i, pl := range plots {
		pl.Y.Min, pl.Y.Max = lo, hi
		pc := area
		pc.Min.X = area.Min.X + vg.Length(i)*panelW
		pc.Max.X = pc.Min.X + panelW
		pl.Draw(pc)
	}
	lc := c
	lc.Min.X = c.Max.X - lw + vg.Centimeter/4
	lc.Max.Y = c.Max.Y - titleH - vg.Centimeter/2
	leg.Draw(lc)
	return nil
}

// panelPlot is one panel: per series a solid line through the measured means
// with min–max bars, and the theory as a dashed line of the same colour.
func (f figure) panelPlot(p panel, a xAxis) (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = p.title
	pl.X.Label.Text, pl.Y.Label.Text = a.label, f.yLabel()
	ticks := make([]plot.Tick, len(a.pos))
	for i := range a.pos {
		ticks[i] = plot.Tick{Value: a.pos[i], Label: a.ticks[i]}
	}
	pl.X.Tick.Marker = plot.ConstantTicks(ticks)
	if a.scale == xLog2 {
		pl.X.Scale = plot.LogScale{}
	}
	if f.LogY {
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for i, l := range p.lines {
		ln, sc := seriesStyle(i)
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
		xy := errXY{pts: pts, x: func(x any) float64 { return a.at(f, x) }}
		ln.XYs, _ = plotter.CopyXYs(xy)
		sc.XYs = ln.XYs
		bars, err := plotter.NewYErrorBars(xy)
		if err != nil {
			return nil, err
		}
		bars.Color = ln.Color
		pl.Add(ln, sc, bars)
		if !f.Theory {
			continue
		}
		var th plotter.XYs
		for _, pt := range pts {
			if !math.IsNaN(pt.theory) && (!f.LogY || pt.theory > 0) {
				th = append(th, plotter.XY{X: a.at(f, pt.x), Y: pt.theory})
			}
		}
		if len(th) == 0 {
			continue
		}
		tl := &plotter.Line{XYs: th, LineStyle: draw.LineStyle{Color: ln.Color, Width: vg.Points(1), Dashes: theoryDashes}}
		pl.Add(tl)
	}
	// Room at the ends of the x axis, so that the first and last points are not
	// on the frame.
	if n := len(a.pos); n > 0 {
		first, last := slices.Min(a.pos), slices.Max(a.pos)
		switch a.scale {
		case xLog2:
			pl.X.Min, pl.X.Max = first/1.25, last*1.25
		default:
			pad := max((last-first)*0.05, 0.5)
			pl.X.Min, pl.X.Max = first-pad, last+pad
		}
	}
	return pl, nil
}

type errXY struct {
	pts []point
	x   func(any) float64
}

func (e errXY) Len() int                    { return len(e.pts) }
func (e errXY) XY(i int) (float64, float64) { return e.x(e.pts[i].x), e.pts[i].mean }
func (e errXY) YError(i int) (float64, float64) {
	return e.pts[i].mean - e.pts[i].lo, e.pts[i].hi - e.pts[i].mean
}

// svg draws the figure as SVG.
func (f figure) svg() ([]byte, error) {
	w, h := f.size()
	c := vgsvg.New(w, h)
	if err := f.render(draw.New(c)); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	_, err := c.WriteTo(&b)
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
	wl, hl := f.size()
	return int(wl.Dots(f.dpi) + 0.5), int(hl.Dots(f.dpi) + 0.5)
}

// pngRows draws the rows y0 to y1 of the figure's PNG and compresses them, as the
// last of the picture's if y1 is its bottom.
func (f figure) pngRows(y0, y1 int) (pngPart, error) {
	wpx, hpx := f.pngSize()
	w, h := f.size()
	m0, m1 := max(0, y0-bandMargin), min(hpx, y1+bandMargin)
	c := vgimg.NewWith(vgimg.UseImage(image.NewRGBA(image.Rect(0, 0, wpx, m1-m0))), vgimg.UseDPI(int(f.dpi)))
	// The canvas is the rows m0 to m1 of the picture: the plot is laid out on the
	// whole page, shifted so that those rows fall on the canvas, and the rest is
	// clipped.
	off := -vg.Length(hpx-m1) * vg.Inch / vg.Length(f.dpi)
	if err := f.render(draw.Canvas{Canvas: c, Rectangle: vg.Rectangle{Min: vg.Point{Y: off}, Max: vg.Point{X: w, Y: off + h}}}); err != nil {
		return pngPart{}, err
	}
	img := c.Image().(*image.RGBA).SubImage(image.Rect(0, y0-m0, wpx, y1-m0)).(*image.RGBA)
	if !img.Opaque() {
		return pngPart{img: img}, nil // joinPNG gives it to image/png
	}
	return compressRows(img, y1 == hpx)
}
