package sweep

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/clusterlab/clusterlab/algos"
)

// stat is one metric of one cell over its runs.
type stat struct {
	n                  int
	mean, sd, min, max float64
	theory             float64 // the primary figure, NaN without one
	figures            []algos.Theory
}

// exact reports whether the cell's primary figure is one its source claims
// exactly, so that a mean that differs from it is worth a mark.
func (st stat) exact() bool {
	return !math.IsNaN(st.theory) && len(st.figures) > 0 && st.figures[0].Bound == ""
}

// differs reports a mean that is not the exact figure.
func (st stat) differs() bool {
	return st.exact() && math.Abs(st.mean-st.theory) > 1e-9*max(1, math.Abs(st.theory))
}

// acc gathers one metric of one cell, run by run in run order, so that the sums
// are the same for any shard layout: the count, the sum (the mean is sum/n, exact
// for counts), the sum of squared deviations (Welford) and the extremes, and the
// theory's primary figure.
type acc struct {
	n             int
	sum, mean, m2 float64
	min, max      float64
	thSum         float64
	thRuns, runs  int // runs with a primary figure, runs in all
	figures       []algos.Theory
}

func (a *acc) add(x float64, present bool, th []algos.Theory) {
	a.runs++
	if len(th) > 0 {
		a.thSum += th[0].Value
		a.thRuns++
		if a.runs == 1 {
			a.figures = th
		}
	}
	if !present {
		return
	}
	if a.n == 0 {
		a.min, a.max = x, x
	}
	a.n++
	a.sum += x
	d := x - a.mean
	a.mean += d / float64(a.n)
	a.m2 += d * (x - a.mean)
	a.min, a.max = min(a.min, x), max(a.max, x)
}

func (a *acc) stat() stat {
	st := stat{n: a.n, mean: a.sum / float64(a.n), min: a.min, max: a.max, theory: nan}
	if a.n > 1 {
		st.sd = math.Sqrt(max(a.m2, 0) / float64(a.n-1))
	}
	// The figures differ between runs only where the layout is drawn from the
	// seed: their mean, and none unless every run has one.
	if a.thRuns == a.runs && a.runs > 0 {
		st.theory, st.figures = a.thSum/float64(a.runs), a.figures
	}
	return st
}

// cellSum is what the outputs keep of a cell once its runs are in: the counts,
// the statistics of the metrics the table, report and plots show, and its until.
type cellSum struct {
	runs, passed, completed int
	until                   time.Duration
	stats                   map[string]stat
}

// cellAcc gathers a cell's runs as they come.
type cellAcc struct {
	cell int
	sum  cellSum
	accs []acc // by column
}

func newCellAcc(cell, columns int) *cellAcc {
	return &cellAcc{cell: cell, accs: make([]acc, columns)}
}

func (c *cellAcc) add(cols []string, r Result) {
	c.sum.runs++
	if r.Passed {
		c.sum.passed++
	}
	if r.Completed {
		c.sum.completed++
	}
	if r.Values == nil { // a run that did not start measures nothing
		return
	}
	for i, col := range cols {
		v, ok := r.Values[col]
		c.accs[i].add(v, ok, r.theory[col])
	}
}

// summaryRows are the cell's rows of summary.csv: per metric with a value, n,
// mean, sd, min, max, theory.
func (c *cellAcc) summaryRows(axes []string, cols []string) [][]string {
	var rows [][]string
	for i, col := range cols {
		if c.accs[i].n == 0 {
			continue
		}
		st := c.accs[i].stat()
		row := append(append([]string{}, axes...), col, strconv.Itoa(st.n), num(st.mean), num(st.sd), num(st.min), num(st.max), num(st.theory))
		rows = append(rows, row)
	}
	return rows
}

// keep is the cell's summary with the statistics of the metrics shown.
func (c *cellAcc) keep(cols []string, shown []string) *cellSum {
	s := c.sum
	s.stats = map[string]stat{}
	for i, col := range cols {
		if c.accs[i].n > 0 && slices.Contains(shown, col) {
			s.stats[col] = c.accs[i].stat()
		}
	}
	return &s
}
