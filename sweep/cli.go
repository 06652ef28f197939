package sweep

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/linechart"
)

// Options are the sweep command's flags.
type Options struct {
	File, Preset string
	Out          string // default sweep-NAME
	Jobs         int    // < 1: every core
	Shard        string // "i/k" or ""
	Seeds        int    // > 0 replaces the seeds by 1..Seeds
	Force        bool
	Command      string    // the command line, for report.md
	Stdout       io.Writer // the table (and, on a terminal, the chart)
	Progress     io.Writer // the progress bar; nil for none
	Terminal     bool      // draw the chart
}

// BadInput marks errors in what the user gave (exit code 2).
type BadInput struct{ Err error }

func (e *BadInput) Error() string { return e.Err.Error() }

// Outcome is what a sweep did: the runs whose expectations failed.
type Outcome struct {
	Dir     string
	Runs    int
	Failed  []string
	Missing int // runs of the sweep that no merged shard holds
}

// Open reads the sweep a command names.
func Open(file, preset string) (*Sweep, error) {
	switch {
	case file != "" && preset != "":
		return nil, errors.New("FILE and --preset: expected one of them, not both")
	case file != "":
		return LoadFile(file)
	case preset != "":
		return Load(preset)
	}
	return nil, errors.New("expected a sweep FILE or --preset NAME (see `clusterlab sweeps`)")
}

// Execute runs a sweep command: every run of the shard, then the outputs, the table
// and the chart.
func Execute(o Options) (*Outcome, error) {
	// One garbage-collection policy from the plan to the last file: released
	// between the runs and the writing, it would bring back the default percent
	// over the runs' heap, and a collection, at the start of the write phase.
	defer holdGC()()
	s, err := Open(o.File, o.Preset)
	if err != nil {
		return nil, &BadInput{err}
	}
	if o.Seeds < 0 || o.Seeds > 100000 {
		return nil, &BadInput{fmt.Errorf("--seeds: found %d, expected 1 to 100000", o.Seeds)}
	}
	if o.Seeds > 0 {
		s.WithSeeds(o.Seeds)
	}
	var shard Shard
	if o.Shard != "" {
		if shard, err = ParseShard(o.Shard); err != nil {
			return nil, &BadInput{err}
		}
	}
	if o.Out == "" {
		o.Out = "sweep-" + s.Name
		if shard.K > 0 {
			o.Out += fmt.Sprintf("-shard%dof%d", shard.I, shard.K)
		}
	}
	if err := CheckOutput(o.Out, o.Force); err != nil {
		return nil, &BadInput{err}
	}
	p, err := NewPlan(s, shard)
	if err != nil {
		return nil, &BadInput{err}
	}
	bar := newProgress(o.Progress, len(p.Runs))
	results := p.Execute(o.Jobs, func(n int, _ Result) { bar.update(n) })
	bar.done()
	if err := p.Write(o.Out, results, o.Command, o.Jobs); err != nil {
		return nil, err
	}
	p.printTable(o.Stdout, results)
	if o.Terminal {
		p.printChart(o.Stdout, results)
	}
	out := &Outcome{Dir: o.Out, Runs: len(results)}
	for _, r := range results {
		if !r.Passed {
			out.Failed = append(out.Failed, p.Describe(r.Run)+": "+strings.Join(r.Failures, "; "))
		}
	}
	return out, nil
}

// Merge joins the outputs of shards of one sweep into out.
func Merge(dirs []string, out string, force bool, command string, stdout io.Writer) (*Outcome, error) {
	if len(dirs) == 0 {
		return nil, &BadInput{errors.New("expected the shards' folders")}
	}
	// Every shard carries the sweep file, its base scenario and the seeds it ran.
	var first [3]string
	for i, d := range dirs {
		var cur [3]string
		for j, name := range []string{SweepFile, ScenarioFile, SeedsFile} {
			b, err := os.ReadFile(filepath.Join(d, name))
			if err != nil {
				return nil, &BadInput{fmt.Errorf("%s: found no %s, expected a sweep's output folder", d, name)}
			}
			cur[j] = string(b)
		}
		if i == 0 {
			first = cur
		} else if cur != first {
			return nil, &BadInput{fmt.Errorf("%s: a shard of another sweep (or other seeds) than %s; expected shards of one sweep", d, dirs[0])}
		}
	}
	s, err := parseWithBase(filepath.Join(dirs[0], SweepFile), []byte(first[0]), []byte(first[1]))
	if err != nil {
		return nil, &BadInput{err}
	}
	if err := CheckOutput(out, force); err != nil {
		return nil, &BadInput{err}
	}
	// --seeds may have replaced the file's seeds.
	if s.SeedList, err = readSeeds(filepath.Join(dirs[0], SeedsFile)); err != nil {
		return nil, &BadInput{err}
	}
	p, err := NewPlan(s, Shard{})
	if err != nil {
		return nil, &BadInput{err}
	}
	var all []Result
	seen := map[int]string{}
	for _, d := range dirs {
		rs, err := p.readResults(filepath.Join(d, ResultsFile))
		if err != nil {
			return nil, &BadInput{err}
		}
		walls := readTimings(filepath.Join(d, TimingsFile))
		for i := range rs {
			rs[i].Wall = time.Duration(walls[rs[i].Index] * float64(time.Second))
		}
		for _, r := range rs {
			if prev, dup := seen[r.Index]; dup {
				return nil, &BadInput{fmt.Errorf("%s: run %d is also in %s; expected each run in one shard", d, r.Index, prev)}
			}
			seen[r.Index] = d
		}
		all = append(all, rs...)
	}
	if err := p.Write(out, all, command, 0); err != nil {
		return nil, err
	}
	p.printTable(stdout, all)
	o := &Outcome{Dir: out, Runs: len(all), Missing: len(p.Cells)*len(p.SeedList) - len(all)}
	for _, r := range all {
		if !r.Passed {
			o.Failed = append(o.Failed, p.Describe(r.Run))
		}
	}
	return o, nil
}

// progress draws runs done / total, runs/s and the ETA on one line.
type progress struct {
	w     io.Writer
	total int
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, total: total, start: time.Now()}
}

func (b *progress) update(n int) {
	if b.w == nil || (time.Since(b.last) < 100*time.Millisecond && n < b.total) {
		return
	}
	b.last = time.Now()
	el := time.Since(b.start).Seconds()
	rate := float64(n) / max(el, 1e-9)
	eta := time.Duration(float64(b.total-n) / max(rate, 1e-9) * float64(time.Second)).Round(time.Second)
	const width = 30
	fill := width * n / max(b.total, 1)
	fmt.Fprintf(b.w, "\r[%s%s] %d/%d runs · %.1f runs/s · ETA %v ", strings.Repeat("█", fill), strings.Repeat("░", width-fill), n, b.total, rate, eta)
}

func (b *progress) done() {
	if b.w != nil {
		fmt.Fprintln(b.w)
	}
}

// printTable prints one row per cell: the axes, the runs that passed, and every
// plotted metric's mean with the theory beside it.
func (p *Plan) printTable(w io.Writer, results []Result) {
	var ys []string
	for _, pl := range p.Plot {
		if !slices.Contains(ys, pl.Y) {
			ys = append(ys, pl.Y)
		}
	}
	if len(ys) == 0 {
		ys = []string{"sent.total"}
	}
	stats := p.cellStats(results)
	passed := make([]int, len(p.Cells))
	runs := make([]int, len(p.Cells))
	for _, r := range results {
		runs[r.Cell]++
		if r.Passed {
			passed[r.Cell]++
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := append(p.axisKeys(), "passed")
	for _, y := range ys {
		head = append(head, y, "theory")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for ci := range p.Cells {
		if runs[ci] == 0 {
			continue
		}
		row := append(p.axisValues(ci), fmt.Sprintf("%d/%d", passed[ci], runs[ci]))
		for _, y := range ys {
			st, ok := stats[ci][y]
			if !ok {
				row = append(row, "-", "")
				continue
			}
			row = append(row, short(st.mean), short(st.theory))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

// printChart draws the first plot as a terminal line chart, one colour per series.
func (p *Plan) printChart(w io.Writer, results []Result) {
	figs := p.figures(results)
	if len(figs) == 0 || len(figs[0].lines) == 0 {
		return
	}
	f := figs[0]
	lo, hi := math.Inf(1), math.Inf(-1)
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, l := range f.lines {
		for _, pt := range l.points {
			lo, hi = min(lo, pt.mean), max(hi, pt.mean)
			x := f.xValue(pt.x)
			xlo, xhi = min(xlo, x), max(xhi, x)
		}
	}
	if hi <= lo {
		hi = lo + 1
	}
	if xhi <= xlo {
		xhi = xlo + 1
	}
	colors := []string{"1", "2", "3", "4", "5", "6", "9", "10", "11", "12", "13", "14"}
	ch := linechart.New(72, 16, xlo, xhi, min(lo, 0), hi, linechart.WithXYSteps(6, 4))
	ch.DrawXYAxisAndLabel()
	var legend []string
	for i, l := range f.lines {
		st := lipgloss.NewStyle().Foreground(lipgloss.Color(colors[i%len(colors)]))
		for j, pt := range l.points {
			at := canvas.Float64Point{X: f.xValue(pt.x), Y: pt.mean}
			if j > 0 {
				prev := l.points[j-1]
				ch.DrawBrailleLineWithStyle(canvas.Float64Point{X: f.xValue(prev.x), Y: prev.mean}, at, st)
			}
		}
		legend = append(legend, st.Render("━━ "+l.name))
	}
	fmt.Fprintf(w, "\n%s vs %s\n%s\n%s\n", f.Y, f.X, ch.View(), strings.Join(legend, "   "))
}
