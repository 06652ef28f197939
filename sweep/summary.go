package sweep

import (
	"math"
	"strconv"

	"github.com/clusterlab/clusterlab/algos"
)

// stat is one metric of one cell over its runs.
type stat struct {
	n                  int
	mean, sd, min, max float64
	theory             float64 // the primary figure, NaN without one
	figures            []algos.Theory
}

// cellStats gathers, for every cell, every metric's statistics over the runs
// present (in run order, so that the sums are the same for any shard layout), and
// the textbook's figures for it.
func (p *Plan) cellStats(results []Result) []map[string]stat {
	out := make([]map[string]stat, len(p.Cells))
	byCell := make([][]Result, len(p.Cells))
	for _, r := range results {
		byCell[r.Cell] = append(byCell[r.Cell], r)
	}
	for ci, rs := range byCell {
		out[ci] = map[string]stat{}
		if len(rs) == 0 {
			continue
		}
		theories := make([]map[string][]algos.Theory, len(rs))
		for i, r := range rs {
			if theories[i] = r.theory; theories[i] == nil {
				_, theories[i], _ = p.resolve(r.Run)
			}
		}
		for _, col := range p.Columns {
			st := stat{min: math.Inf(1), max: math.Inf(-1), theory: nan}
			var xs []float64
			for _, r := range rs {
				if v, ok := r.Values[col]; ok {
					xs = append(xs, v)
				}
			}
			if len(xs) == 0 {
				continue
			}
			st.n = len(xs)
			for _, x := range xs {
				st.mean += x
				st.min, st.max = min(st.min, x), max(st.max, x)
			}
			st.mean /= float64(st.n)
			if st.n > 1 {
				for _, x := range xs {
					st.sd += (x - st.mean) * (x - st.mean)
				}
				st.sd = math.Sqrt(st.sd / float64(st.n-1))
			}
			st.theory, st.figures = meanTheory(theories, col)
			out[ci][col] = st
		}
	}
	return out
}

// meanTheory averages the primary figure over the runs (they differ only where the
// layout is drawn from the seed); NaN when a run has none.
func meanTheory(ts []map[string][]algos.Theory, col string) (float64, []algos.Theory) {
	sum := 0.0
	for _, t := range ts {
		if len(t[col]) == 0 {
			return nan, nil
		}
		sum += t[col][0].Value
	}
	return sum / float64(len(ts)), ts[0][col]
}

// summaryCSV is one row per cell and metric: n, mean, sd, min, max, theory.
func (p *Plan) summaryCSV(results []Result) []byte {
	head := append(p.axisHeader(), "metric", "n", "mean", "sd", "min", "max", "theory")
	rows := [][]string{head}
	stats := p.cellStats(results)
	for ci := range p.Cells {
		for _, col := range p.Columns {
			st, ok := stats[ci][col]
			if !ok {
				continue
			}
			row := append(p.axisValues(ci), col, strconv.Itoa(st.n), num(st.mean), num(st.sd), num(st.min), num(st.max), num(st.theory))
			rows = append(rows, row)
		}
	}
	return csvBytes(rows)
}
