package lab

import (
	"errors"
	"fmt"
	"math"

	"github.com/clusterlab/clusterlab/algos/mutex"
	"github.com/clusterlab/clusterlab/netsim"
)

// calc: the textbook formulas, computed as the notes write them.

type calcCmd struct {
	Pv calcPvCmd `cmd:"" name:"pv" help:"${help_cmd_calc_pv}"`
}

type calcPvCmd struct {
	N int     `required:"" help:"${help_calc_n}"`
	M int     `required:"" help:"${help_calc_m}"`
	P float64 `required:"" help:"${help_calc_p}"`
}

// Run checks the limits (docs/calc.md) and prints P_v, in log space: it may lie far
// below the smallest float64.
func (c *calcPvCmd) Run() error {
	switch {
	case c.N < 1 || c.N > mutex.MaxPvN:
		return badInput(errors.New(ui.F("calc.err.n", c.N, netsim.Thousands(mutex.MaxPvN))))
	case 2*c.M <= c.N || c.M > c.N:
		return badInput(errors.New(ui.F("calc.err.m", c.M, c.N, c.N/2+1, c.N)))
	case !(c.P >= 0 && c.P <= 1):
		return badInput(errors.New(ui.F("calc.err.p", c.P)))
	}
	l := mutex.QuorumLog10Pv(c.N, c.M, c.P)
	fmt.Fprintf(stdout, "P_v = Σ_{k=2m−n}^{n} C(m,k) P^k (1−P)^{m−k}   %s\n", ui.T("calc.pv.source"))
	fmt.Fprintln(stdout, ui.F("calc.pv.given", c.N, c.M, c.P, max(2*c.M-c.N, 0)))
	if math.IsInf(l, -1) {
		fmt.Fprintln(stdout, "P_v = 0")
		return nil
	}
	e := math.Floor(l)
	mant := math.Pow(10, l-e)
	if mant >= 9.9999995 { // would print as 10.000000
		mant, e = mant/10, e+1
	}
	fmt.Fprintf(stdout, "P_v = %.6fe%+d   (log10 P_v = %.4f)\n", mant, int(e), l)
	return nil
}
