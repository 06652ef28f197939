package sweep

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/lang"
)

var nan = math.NaN()

// num writes a figure: "" for none, an integer without a point, else 12 significant
// digits, so that the same run writes the same bytes on every machine.
func num(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 12, 64)
}

func parseNum(s string) (float64, error) {
	if s == "" {
		return nan, nil
	}
	return strconv.ParseFloat(s, 64)
}

func roundTrip(v map[string]float64) map[string]float64 {
	for k, x := range v {
		v[k], _ = parseNum(num(x))
	}
	return v
}

// Files in an output folder.
const (
	ResultsFile  = "results.csv"
	TimingsFile  = "timings.csv"
	SummaryFile  = "summary.csv"
	ReportFile   = "report.md"
	SweepFile    = "sweep.toml"    // the sweep file as given, for merge
	ScenarioFile = "scenario.toml" // its base scenario as it was, for merge
	SeedsFile    = "seeds.txt"     // the seeds run (--seeds may differ from the file's)
	CommandFile  = "command.txt"   // the command that makes the whole sweep again
)

// csvOut writes one CSV file row by row. Its lines end with CRLF, as RFC 4180 and
// clusterlab's exported CSVs have them.
type csvOut struct {
	path string // where it is written
	name string // where it ends up, for messages
	f    *os.File
	b    *bufio.Writer
	w    *csv.Writer
	err  error
}

func createCSV(path, name string, head []string) *csvOut {
	c := &csvOut{path: path, name: name}
	if path == "" { // kept nowhere
		c.b = bufio.NewWriter(io.Discard)
	} else if c.f, c.err = os.Create(path); c.err != nil {
		return c
	} else {
		c.b = bufio.NewWriterSize(c.f, 64<<10)
	}
	c.w = csv.NewWriter(c.b)
	c.w.UseCRLF = true
	c.row(head)
	return c
}

func (c *csvOut) row(r []string) {
	if c.err == nil {
		c.err = c.w.Write(r)
	}
}

func (c *csvOut) close() error {
	if c.f == nil {
		return ioErr(c.name, c.err)
	}
	if c.err == nil {
		c.w.Flush()
		c.err = c.w.Error()
	}
	if c.err == nil {
		c.err = c.b.Flush()
	}
	if err := c.f.Close(); c.err == nil {
		c.err = err
	}
	return ioErr(c.name, c.err)
}

// csvBytes is rows as a CSV file's bytes, lines ending with CRLF.
func csvBytes(rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	w.WriteAll(rows) // a bytes.Buffer does not fail
	return b.Bytes()
}

func (p *Plan) axisValues(cell int) []string {
	var out []string
	for _, v := range p.values(cell) {
		out = append(out, Format(v))
	}
	return out
}

func (p *Plan) resultsHeader() []string {
	head := append([]string{"run"}, p.axisKeys()...)
	head = append(head, "seed", "passed", "completed", "trace_hash")
	return append(append(head, p.Columns...), "failures")
}

func (p *Plan) resultsRow(r Result) []string {
	row := append([]string{strconv.Itoa(r.Index)}, p.axisValues(r.Cell)...)
	row = append(row, strconv.FormatUint(r.Seed, 10), strconv.FormatBool(r.Passed), strconv.FormatBool(r.Completed), r.Hash)
	for _, c := range p.Columns {
		v, ok := r.Values[c]
		if !ok {
			v = nan
		}
		row = append(row, num(v))
	}
	return append(row, strings.Join(r.Failures, "; "))
}

var timingsHeader = []string{"run", "cell", "seed", "wall_s"}

// wallText writes a run's wall time in seconds to the microsecond: no real run
// takes less.
func wallText(d time.Duration) string {
	return strconv.FormatFloat(max(d, time.Microsecond).Seconds(), 'f', 6, 64)
}

// maxListed is how many failed runs report.md lists.
const maxListed = 30

// outputs take the results in run order and write results.csv, timings.csv and
// summary.csv as they come, keeping of each cell only what the table, report and
// plots show: a sweep's memory does not grow with its runs.
type outputs struct {
	p                *Plan
	results, timings *csvOut
	summary          *csvOut
	shown            []string   // the metrics shown per cell
	cells            []*cellSum // by cell; nil for a cell without runs here
	cur              *cellAcc
	failed           []Result // the first maxListed
	runs, passed     int
	completed        int
	sources          []string
	cut              []cutoff // runs that ended before they finished, by until
}

// cutoff counts the runs an until ended before their algorithm finished.
type cutoff struct {
	until     time.Duration
	algorithm string // what it did not reach depends on its family
	runs      int
}

// newOutputs writes into f (nowhere for nil: only what is kept of the cells).
func (p *Plan) newOutputs(f *folder, timed bool) *outputs {
	o := &outputs{p: p, cells: make([]*cellSum, p.CellCount()), shown: p.shownMetrics()}
	create := func(name string, head []string) *csvOut {
		if f == nil {
			return createCSV("", name, head)
		}
		return createCSV(f.path(name), f.final(name), head)
	}
	o.results = create(ResultsFile, p.resultsHeader())
	if timed {
		o.timings = create(TimingsFile, timingsHeader)
	}
	o.summary = create(SummaryFile, append(p.axisKeys(), "metric", "n", "mean", "sd", "min", "max", "theory"))
	return o
}

// shownMetrics are the metrics of the plots, in order, or sent.total without one.
func (p *Plan) shownMetrics() []string {
	var ys []string
	for _, pl := range p.Plot {
		if !slices.Contains(ys, pl.Y) {
			ys = append(ys, pl.Y)
		}
	}
	if len(ys) == 0 {
		ys = []string{"sent.total"}
	}
	return ys
}

// add takes the next result in run order.
func (o *outputs) add(r Result) {
	p := o.p
	o.results.row(p.resultsRow(r))
	if o.timings != nil {
		o.timings.row([]string{strconv.Itoa(r.Index), p.label(p.values(r.Cell), " "), strconv.FormatUint(r.Seed, 10), wallText(r.Wall)})
	}
	if o.cur != nil && o.cur.cell != r.Cell {
		o.endCell()
	}
	if o.cur == nil {
		o.cur = newCellAcc(r.Cell, len(p.Columns))
		o.cur.sum.until = p.until(r.Cell)
	}
	if r.Values != nil && r.theory == nil {
		// Read back from results.csv: the figures come from the run's
		// configuration, as the run had them.
		_, r.theory, _ = p.resolve(r.Run)
	}
	o.cur.add(p.Columns, r)
	o.runs++
	if r.Passed {
		o.passed++
	} else if len(o.failed) < maxListed {
		o.failed = append(o.failed, Result{Run: r.Run, Failures: r.Failures})
	}
	if r.Completed {
		o.completed++
	} else if r.Values != nil {
		until, alg := p.until(r.Cell), p.Cell(r.Cell).Scenario.Algorithm
		what := p.finishWhat(lang.En, alg)
		i := slices.IndexFunc(o.cut, func(c cutoff) bool { return c.until == until && p.finishWhat(lang.En, c.algorithm) == what })
		if i < 0 {
			o.cut = append(o.cut, cutoff{until: until, algorithm: alg})
			i = len(o.cut) - 1
		}
		o.cut[i].runs++
	}
}

// until is cell ci's run length.
func (p *Plan) until(ci int) time.Duration {
	d, _ := time.ParseDuration(p.Cell(ci).Scenario.Until)
	return d
}

// endCell writes the cell's rows of summary.csv and keeps what is shown of it.
func (o *outputs) endCell() {
	c := o.cur
	axes := o.p.axisValues(c.cell)
	for _, row := range c.summaryRows(axes, o.p.Columns) {
		o.summary.row(row)
	}
	o.cells[c.cell] = c.keep(o.p.Columns, o.shown)
	for i, col := range o.p.Columns {
		for _, t := range c.accs[i].stat().figures {
			if line := o.p.source(col, t); !slices.Contains(o.sources, line) {
				o.sources = append(o.sources, line)
			}
		}
	}
	o.cur = nil
}

// finish ends the last cell and closes the CSV files.
func (o *outputs) finish() error {
	if o.cur != nil {
		o.endCell()
	}
	var first error
	for _, c := range []*csvOut{o.results, o.timings, o.summary} {
		if c == nil {
			continue
		}
		if err := c.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// readResults reads a results.csv written for this plan, row by row.
type resultsReader struct {
	p    *Plan
	path string
	r    *csv.Reader
	f    *os.File
	line int
	// timings beside it, read in step: the same runs in the same order.
	t *csv.Reader
}

func (p *Plan) openResults(dir string) (*resultsReader, error) {
	path := dir + string(os.PathSeparator) + ResultsFile
	f, err := os.Open(path)
	if err != nil {
		return nil, &BadInput{fmt.Errorf("%s: found no %s, expected a sweep's output folder", dir, ResultsFile)}
	}
	rr := &resultsReader{p: p, path: path, f: f, r: csv.NewReader(bufio.NewReader(f)), line: 1}
	rr.r.ReuseRecord = true
	head, err := rr.r.Read()
	if want := p.resultsHeader(); err != nil || !slices.Equal(head, want) {
		f.Close()
		return nil, &BadInput{fmt.Errorf("%s:1:1: found other columns than this sweep's, expected %s", path, strings.Join(want, ","))}
	}
	if tf, err := os.Open(dir + string(os.PathSeparator) + TimingsFile); err == nil {
		rr.t = csv.NewReader(bufio.NewReader(tf))
		if h, err := rr.t.Read(); err != nil || !slices.Equal(h, timingsHeader) {
			rr.t = nil
		}
	}
	return rr, nil
}

// next reads the next run, io.EOF after the last.
func (rr *resultsReader) next() (Result, error) {
	p := rr.p
	row, err := rr.r.Read()
	if err == io.EOF {
		return Result{}, err
	}
	rr.line++
	if err != nil {
		return Result{}, &BadInput{fmt.Errorf("%s: %v", rr.path, err)}
	}
	bad := func(col int, what string) error {
		return &BadInput{fmt.Errorf("%s:%d:%d: found %q, expected %s", rr.path, rr.line, col+1, row[col], what)}
	}
	nAxes, seeds, total := len(p.Axes), len(p.SeedList), p.Total()
	idx, err := strconv.Atoi(row[0])
	if err != nil || idx < 0 || idx >= total {
		return Result{}, bad(0, fmt.Sprintf("a run number from 0 to %d", total-1))
	}
	r := Result{Run: Run{Index: idx, Cell: idx / seeds, Seed: p.SeedList[idx%seeds]}, Values: map[string]float64{}}
	if s := strconv.FormatUint(r.Seed, 10); row[1+nAxes] != s {
		return Result{}, bad(1+nAxes, "seed "+s+" for run "+row[0])
	}
	r.Passed = row[2+nAxes] == "true"
	r.Completed = row[3+nAxes] == "true"
	r.Hash = row[4+nAxes]
	for i, c := range p.Columns {
		v, err := parseNum(row[5+nAxes+i])
		if err != nil {
			return Result{}, bad(5+nAxes+i, "a number")
		}
		if !math.IsNaN(v) {
			r.Values[c] = v
		}
	}
	if f := row[5+nAxes+len(p.Columns)]; f != "" {
		r.Failures = strings.Split(f, "; ")
	}
	if r.Hash == "" { // the run did not start: it measured nothing
		r.Values = nil
	}
	if rr.t != nil {
		if t, err := rr.t.Read(); err == nil && len(t) == 4 && t[0] == row[0] {
			w, _ := strconv.ParseFloat(t[3], 64)
			r.Wall = time.Duration(w * float64(time.Second))
		} else {
			rr.t = nil // timings that do not follow the results: left out
		}
	}
	return r, nil
}

func (rr *resultsReader) close() { rr.f.Close() }

func (p *Plan) seedsText() []byte {
	var b bytes.Buffer
	for _, s := range p.SeedList {
		fmt.Fprintln(&b, s)
	}
	return b.Bytes()
}

func readSeeds(path string) ([]uint64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []uint64
	for i, f := range strings.Fields(string(data)) {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d:1: found %q, expected a seed", path, i+1, f)
		}
		out = append(out, n)
	}
	return out, nil
}
