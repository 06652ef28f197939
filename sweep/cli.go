package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/linechart"

	"github.com/clusterlab/clusterlab/lang"
)

// MaxJobs bounds --jobs: each job holds a world, and more jobs than cores only
// share them.
const MaxJobs = 256

// Options are the sweep command's flags.
type Options struct {
	File, Preset string
	Out          string // default sweep-NAME
	Jobs         int    // 0: every core; else 1 to MaxJobs
	Shard        string // "i/k" or ""
	Seeds        int    // > 0 replaces the seeds by 1..Seeds
	Force        bool
	DPI          int       // the PNG plots' resolution; 0 for DefaultDPI
	Program      string    // "clusterlab VERSION", as recordings' headers name it
	Lang         lang.Lang // of the table, the messages and report.md
	Stdout       io.Writer // the table (and, on a terminal, the chart)
	Progress     io.Writer // the progress bar; nil for none
	Terminal     bool      // draw the chart
	// Ctx stops the runs when cancelled; its cause (context.Cause) names what
	// stopped them ("SIGINT"). nil for never.
	Ctx context.Context
}

// Outcome is what a sweep did: the runs whose expectations failed.
type Outcome struct {
	Dir        string
	Runs       int
	Failed     int      // runs that failed
	FailedList []string // the first of them, with their reasons
	Missing    int      // runs of the sweep that no merged shard holds
	Cut        []string // the hints for runs an until cut off
	Stopped    string   // what stopped the runs early ("SIGINT"), "" if nothing did
	Total      int      // runs of the sweep, or of the shard
}

// Stopped is a sweep stopped by its context before any run: Cause names what
// stopped it ("SIGINT").
type Stopped struct{ Cause error }

func (e *Stopped) Error() string { return "stopped by " + e.Cause.Error() }

// Open reads the sweep a command names; its cells' check stops when ctx is
// cancelled (with a *Stopped error).
func Open(ctx context.Context, file, preset string) (*Sweep, error) {
	switch {
	case file != "" && preset != "":
		return nil, errors.New("FILE and --preset: expected one of them, not both")
	case file != "" || preset != "":
		return loadContext(ctx, file, preset, checkShown{})
	}
	return nil, errors.New("expected a sweep FILE or --preset NAME (see `clusterlab sweeps`)")
}

// openShowing is Open whose check of the cells shows its progress on shown.w.
func openShowing(ctx context.Context, file, preset string, shown checkShown) (*Sweep, error) {
	if file != "" && preset != "" || file == "" && preset == "" {
		return Open(ctx, file, preset)
	}
	return loadContext(ctx, file, preset, shown)
}

// CheckJobs refuses a --jobs out of range (the command line leaves Options.Jobs 0,
// every core, only when --jobs is left out).
func CheckJobs(jobs int) error {
	if jobs < 1 || jobs > MaxJobs {
		return fmt.Errorf("--jobs: found %d, expected 1 to %d runs at once (leave it out for one per core)", jobs, MaxJobs)
	}
	return nil
}

// Prepare reads the sweep the options name and makes the plan of its shard.
func Prepare(o Options) (*Plan, error) {
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := openShowing(ctx, o.File, o.Preset, checkShown{o.Progress, o.Lang})
	var stopped *Stopped
	if errors.As(err, &stopped) {
		return nil, err
	}
	if err != nil {
		return nil, &BadInput{err}
	}
	if o.Seeds < 0 || o.Seeds > MaxSeeds {
		return nil, &BadInput{fmt.Errorf("--seeds: found %d, expected 1 to %d", o.Seeds, MaxSeeds)}
	}
	if o.Seeds > 0 {
		s.WithSeeds(o.Seeds)
	}
	if o.DPI != 0 && (o.DPI < MinDPI || o.DPI > MaxDPI) {
		return nil, &BadInput{fmt.Errorf("--dpi: found %d, expected %d to %d dots per inch", o.DPI, MinDPI, MaxDPI)}
	}
	var shard Shard
	if o.Shard != "" {
		if shard, err = ParseShard(o.Shard); err != nil {
			return nil, &BadInput{err}
		}
	}
	p, err := NewPlan(s, shard)
	if err != nil {
		return nil, &BadInput{err}
	}
	p.Program, p.ui, p.DPI = o.Program, o.Lang, o.DPI
	p.command = canonical(o)
	return p, nil
}

// canonical is the command that makes the whole sweep again: what it runs, not
// where its outputs go or how many jobs ran it.
func canonical(o Options) string {
	cmd := "clusterlab sweep --preset " + o.Preset
	if o.Preset == "" {
		cmd = "clusterlab sweep " + shellWord(filepath.ToSlash(o.File))
	}
	if o.Seeds > 0 {
		cmd += fmt.Sprintf(" --seeds %d", o.Seeds)
	}
	return cmd
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Execute runs a sweep command: every run of the shard, then the outputs, the table
// and the chart.
func Execute(o Options) (*Outcome, error) {
	// One garbage-collection policy from the plan to the last file: released
	// between the runs and the writing, it would bring back the default percent
	// over the runs' heap, and a collection, at the start of the write phase.
	defer holdGC()()
	if o.Jobs != 0 {
		if err := CheckJobs(o.Jobs); err != nil {
			return nil, &BadInput{err}
		}
	}
	p, err := Prepare(o)
	if err != nil {
		return nil, err
	}
	if o.Out == "" {
		o.Out = "sweep-" + p.Name
		if p.Shard.K > 0 {
			o.Out += fmt.Sprintf("-shard%dof%d", p.Shard.I, p.Shard.K)
		}
	}
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return p.RunTo(ctx, o.Out, o.Force, o.Jobs, o.Progress, o.Stdout, o.Terminal)
}

// RunTo runs the plan's runs over jobs workers and writes the outputs into dir:
// the progress bar on progress, the table (and with terminal the chart) on stdout
// (nil for neither).
func (p *Plan) RunTo(ctx context.Context, dir string, force bool, jobs int, progress, stdout io.Writer, terminal bool) (*Outcome, error) {
	f, err := openFolder(dir, force)
	if err != nil {
		return nil, err
	}
	defer f.abort()
	outs := p.newOutputs(f, true)
	bar := newProgress(progress, p.Runs(), p.ui)
	done := 0
	p.Execute(ctx, jobs, func(r Result) {
		outs.add(r)
		done++
		bar.update(done)
	})
	bar.done()
	info := reportInfo{command: p.command}
	if p.Shard.K > 0 {
		info.command += fmt.Sprintf(" --shard %d/%d", p.Shard.I, p.Shard.K)
	}
	if ctx.Err() != nil {
		info.stopped = context.Cause(ctx).Error()
	}
	out, err := p.finish(f, outs, info, jobs, stdout, terminal)
	if out != nil {
		out.Total = p.Runs()
	}
	return out, err
}

// finish writes the outputs beside the CSV files, moves them into place, prints
// the table (and the chart) and says what the sweep did.
func (p *Plan) finish(f *folder, outs *outputs, info reportInfo, jobs int, stdout io.Writer, terminal bool) (*Outcome, error) {
	if err := outs.finish(); err != nil {
		return nil, err
	}
	figs := p.figures(outs.cells)
	if err := p.write(f, outs, figs, info, jobs); err != nil {
		return nil, err
	}
	if err := f.commit(); err != nil {
		return nil, err
	}
	if stdout != nil {
		p.printTable(stdout, outs)
		if terminal {
			p.printChart(stdout, figs)
		}
	}
	out := &Outcome{Dir: f.dir, Runs: outs.runs, Failed: outs.runs - outs.passed, Stopped: info.stopped}
	for _, r := range outs.failed {
		out.FailedList = append(out.FailedList, p.Describe(r.Run)+": "+p.reasons(r))
	}
	for _, c := range outs.cut {
		out.Cut = append(out.Cut, p.cutHint(c))
	}
	return out, nil
}

// Merge joins the outputs of shards of one sweep into out.
func Merge(dirs []string, out string, force bool, dpi int, ui lang.Lang, stdout io.Writer) (*Outcome, error) {
	if len(dirs) == 0 {
		return nil, &BadInput{errors.New("expected the shards' folders")}
	}
	// Every shard carries the sweep file, its base scenario and the seeds it ran.
	var first [3]string
	for i, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return nil, &BadInput{fmt.Errorf("%s: found no folder, expected a shard's output folder", d)}
		}
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
	command, err := os.ReadFile(filepath.Join(dirs[0], CommandFile))
	if err != nil {
		return nil, &BadInput{fmt.Errorf("%s: found no %s, expected a sweep's output folder", dirs[0], CommandFile)}
	}
	s, err := parseWithBase(filepath.Join(dirs[0], SweepFile), []byte(first[0]), []byte(first[1]))
	if err != nil {
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
	p.ui, p.DPI, p.command = ui, dpi, strings.TrimSpace(string(command))
	var readers []*resultsReader
	defer func() {
		for _, r := range readers {
			r.close()
		}
	}()
	for _, d := range dirs {
		rr, err := p.openResults(d)
		if err != nil {
			return nil, err
		}
		readers = append(readers, rr)
	}
	f, err := openFolder(out, force)
	if err != nil {
		return nil, err
	}
	defer f.abort()
	timed := true
	for _, rr := range readers {
		timed = timed && rr.t != nil
	}
	outs := p.newOutputs(f, timed)
	// The shards' rows, each file in run order, merged into run order.
	heads := make([]*Result, len(readers))
	advance := func(i int) error {
		r, err := readers[i].next()
		if err == io.EOF {
			heads[i] = nil
			return nil
		}
		heads[i] = &r
		return err
	}
	for i := range readers {
		if err := advance(i); err != nil {
			return nil, err
		}
	}
	last := -1
	for {
		best := -1
		for i, h := range heads {
			if h != nil && (best < 0 || h.Index < heads[best].Index) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		r := *heads[best]
		if r.Index <= last {
			return nil, &BadInput{fmt.Errorf("%s: run %d is also in another shard, or out of order; expected each run in one shard", dirs[best], r.Index)}
		}
		last = r.Index
		outs.add(r)
		if err := advance(best); err != nil {
			return nil, err
		}
	}
	o, err := p.finish(f, outs, reportInfo{command: p.command}, 0, stdout, false)
	if o != nil {
		o.Total = p.Total()
		o.Missing = p.Total() - o.Runs
	}
	return o, err
}

// progress draws runs done / total, runs/s and the ETA on one line (or, for the
// check of the cells, cells checked).
type progress struct {
	w     io.Writer
	ui    lang.Lang
	key   string // the catalog text of the line: n, total, rate, ETA
	width int    // of the bar, in cells
	total int
	// quiet: nothing is drawn before the work has taken this long, so that the
	// check of a small grid, done in milliseconds, leaves no line behind.
	quiet time.Duration
	drawn bool
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, total int, ui lang.Lang) *progress {
	return &progress{w: w, ui: ui, key: "sweep.progress", width: 30, total: total, start: time.Now()}
}

// checkShown is where the check of a sweep's cells shows its progress (w nil:
// nowhere), and in which language.
type checkShown struct {
	w  io.Writer
	ui lang.Lang
}

// checkQuiet is how long the check of the cells runs before its progress shows
// (a variable for the tests).
var checkQuiet = 500 * time.Millisecond

func newCheckProgress(shown checkShown, total int) *progress {
	return &progress{w: shown.w, ui: shown.ui, key: "sweep.progress.check", width: 16, total: total, quiet: checkQuiet, start: time.Now()}
}

func (b *progress) update(n int) {
	if b.w == nil || time.Since(b.start) < b.quiet || (time.Since(b.last) < 100*time.Millisecond && n < b.total) {
		return
	}
	b.last, b.drawn = time.Now(), true
	el := time.Since(b.start).Seconds()
	rate := float64(n) / max(el, 1e-9)
	eta := time.Duration(float64(b.total-n) / max(rate, 1e-9) * float64(time.Second)).Round(time.Second)
	fill := b.width * n / max(b.total, 1)
	fmt.Fprintf(b.w, "\r[%s%s] %s ", strings.Repeat("█", fill), strings.Repeat("░", b.width-fill), b.ui.F(b.key, n, b.total, rate, eta))
}

func (b *progress) done() {
	if b.w != nil {
		fmt.Fprintln(b.w)
	}
}

// erase clears the line drawn, if any: the check's line gives way to the runs'.
func (b *progress) erase() {
	if b.drawn {
		fmt.Fprint(b.w, "\r\x1b[2K")
	}
}

// printTable prints one row per cell: the axes, the runs that passed and those
// that finished, and every plotted metric's mean with the theory beside it. A
// cell with runs cut off is marked ⚠, a mean that is not its exact theory ≠; the
// marks are explained under the table.
func (p *Plan) printTable(w io.Writer, o *outputs) {
	ui := p.ui
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := append(p.axisKeys(), ui.T("sweep.table.passed"), ui.T("sweep.table.completed"))
	for _, y := range o.shown {
		head = append(head, y, ui.T("sweep.table.theory"))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	cut, differs := false, false
	for ci, c := range o.cells {
		if c == nil {
			continue
		}
		done := fmt.Sprintf("%d/%d", c.completed, c.runs)
		if c.completed < c.runs {
			done += " ⚠"
			cut = true
		}
		row := append(p.axisValues(ci), fmt.Sprintf("%d/%d", c.passed, c.runs), done)
		for _, y := range o.shown {
			st, ok := c.stats[y]
			if !ok {
				row = append(row, "-", "")
				continue
			}
			mean := short(st.mean)
			if st.differs() {
				mean += " ≠"
				differs = true
			}
			row = append(row, mean, short(st.theory))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
	if cut {
		for _, c := range o.cut {
			fmt.Fprintf(w, "⚠ %s\n", p.cutHint(c))
		}
	}
	if differs {
		fmt.Fprintf(w, "≠ %s\n", ui.T("sweep.table.differs"))
	}
}

// printChart draws the first plot as a terminal line chart, one colour per series.
func (p *Plan) printChart(w io.Writer, figs []figure) {
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
	fmt.Fprintf(w, "\n%s\n%s\n%s\n", f.title(p.ui), ch.View(), strings.Join(legend, "   "))
}
