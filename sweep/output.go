package sweep

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
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
)

// writeAtomic writes a file whole or not at all: a temporary file renamed in place.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func csvBytes(rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows) // a bytes.Buffer does not fail
	return b.Bytes()
}

func (p *Plan) axisHeader() []string { return p.axisKeys() }

func (p *Plan) axisValues(cell int) []string {
	var out []string
	for _, v := range p.Cells[cell].Values {
		out = append(out, Format(v))
	}
	return out
}

func (p *Plan) resultsHeader() []string {
	head := append([]string{"run"}, p.axisHeader()...)
	head = append(head, "seed", "passed", "trace_hash")
	return append(head, p.Columns...)
}

// resultsCSV is one row per run, in run order.
func (p *Plan) resultsCSV(results []Result) []byte {
	rows := [][]string{p.resultsHeader()}
	for _, r := range results {
		row := append([]string{strconv.Itoa(r.Index)}, p.axisValues(r.Cell)...)
		row = append(row, strconv.FormatUint(r.Seed, 10), strconv.FormatBool(r.Passed), r.Hash)
		for _, c := range p.Columns {
			v, ok := r.Values[c]
			if !ok {
				v = nan
			}
			row = append(row, num(v))
		}
		rows = append(rows, row)
	}
	return csvBytes(rows)
}

func (p *Plan) timingsCSV(results []Result) []byte {
	rows := [][]string{{"run", "cell", "seed", "wall_s"}}
	for _, r := range results {
		rows = append(rows, []string{strconv.Itoa(r.Index), p.Label(p.Cells[r.Cell]), strconv.FormatUint(r.Seed, 10),
			strconv.FormatFloat(r.Wall.Seconds(), 'f', 4, 64)})
	}
	return csvBytes(rows)
}

// readResults reads a results.csv written for this plan.
func (p *Plan) readResults(path string) ([]Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	want := p.resultsHeader()
	if len(rows) == 0 || !slices.Equal(rows[0], want) {
		return nil, fmt.Errorf("%s:1:1: found other columns than this sweep's, expected %s", path, strings.Join(want, ","))
	}
	nAxes, seeds := len(p.Axes), len(p.SeedList)
	var out []Result
	for li, row := range rows[1:] {
		bad := func(col int, what string) error {
			return fmt.Errorf("%s:%d:%d: found %q, expected %s", path, li+2, col+1, row[col], what)
		}
		idx, err := strconv.Atoi(row[0])
		if err != nil || idx < 0 || idx >= len(p.Cells)*seeds {
			return nil, bad(0, fmt.Sprintf("a run number from 0 to %d", len(p.Cells)*seeds-1))
		}
		r := Result{Run: Run{Index: idx, Cell: idx / seeds, Seed: p.SeedList[idx%seeds]}, Values: map[string]float64{}}
		if s := strconv.FormatUint(r.Seed, 10); row[1+nAxes] != s {
			return nil, bad(1+nAxes, "seed "+s+" for run "+row[0])
		}
		r.Passed = row[2+nAxes] == "true"
		r.Hash = row[3+nAxes]
		for i, c := range p.Columns {
			v, err := parseNum(row[4+nAxes+i])
			if err != nil {
				return nil, bad(4+nAxes+i, "a number")
			}
			if !math.IsNaN(v) {
				r.Values[c] = v
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// Write writes every output of the results into dir, over jobs workers (every core
// for jobs < 1): the plots take as long to draw as a small sweep takes to run.
// Each file is the same bytes for any jobs.
func (p *Plan) Write(dir string, results []Result, command string, jobs int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	defer holdGC()()
	slices.SortFunc(results, func(a, b Result) int { return a.Index - b.Index })
	figs := p.figures(results)
	file := func(name string, data func() []byte) func() error {
		return func() error { return writeAtomic(filepath.Join(dir, name), data()) }
	}
	// The plots first, as they take longest: each PNG in bands, joined and written
	// by the task that draws its last band (while the other workers go on with
	// other files), and the SVG.
	var tasks []func() error
	for _, f := range figs {
		bands := make([]pngPart, pngBands)
		var left atomic.Int32
		left.Store(pngBands)
		for i := range pngBands {
			tasks = append(tasks, func() (err error) {
				if bands[i], err = f.pngBand(i); err == nil && left.Add(-1) == 0 {
					var b []byte
					if b, err = joinPNG(bands); err == nil {
						err = writeAtomic(filepath.Join(dir, f.file+".png"), b)
					}
				}
				if err != nil {
					return fmt.Errorf("plot %s: %v", f.file, err)
				}
				return nil
			})
		}
		tasks = append(tasks, func() error {
			b, err := f.svg()
			if err != nil {
				return fmt.Errorf("plot %s: %v", f.file, err)
			}
			return writeAtomic(filepath.Join(dir, f.file+".svg"), b)
		})
	}
	tasks = append(tasks,
		file(SweepFile, func() []byte { return p.Source }),
		file(ScenarioFile, func() []byte { return p.base }),
		file(SeedsFile, p.seedsText),
		file(ResultsFile, func() []byte { return p.resultsCSV(results) }),
		file(SummaryFile, func() []byte { return p.summaryCSV(results) }),
		file(ReportFile, func() []byte { return p.report(results, figs, command) }))
	if len(results) > 0 && results[0].Wall > 0 {
		tasks = append(tasks, file(TimingsFile, func() []byte { return p.timingsCSV(results) }))
	}
	errs := make([]error, len(tasks))
	each(jobs, len(tasks), func(i int) { errs[i] = tasks[i]() })
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// CheckOutput refuses to write over an earlier sweep's results unless force.
func CheckOutput(dir string, force bool) error {
	if _, err := os.Stat(filepath.Join(dir, ResultsFile)); err == nil && !force {
		return fmt.Errorf("--out: %s already holds a sweep's results; expected a new folder (or --force to overwrite)", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

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

// readTimings reads the wall times of a timings.csv, by run.
func readTimings(path string) map[int]float64 {
	out := map[int]float64{}
	data, err := os.ReadFile(path)
	if err != nil {
		return out
	}
	rows, _ := csv.NewReader(bytes.NewReader(data)).ReadAll()
	for _, row := range rows {
		if len(row) != 4 {
			continue
		}
		i, err1 := strconv.Atoi(row[0])
		w, err2 := strconv.ParseFloat(row[3], 64)
		if err1 == nil && err2 == nil {
			out[i] = w
		}
	}
	return out
}
