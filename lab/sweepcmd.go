package lab

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/clusterlab/clusterlab/algos/mutex"
	"github.com/clusterlab/clusterlab/sweep"
)

// The experiment commands: sweep (and sweep merge), sweeps, calc.

type sweepRunCmd struct {
	File   string `arg:"" optional:"" help:"${help_sweep_file}" type:"existingfile"`
	Preset string `help:"${help_sweep_preset}"`
	Out    string `help:"${help_sweep_out}" placeholder:"DIR"`
	Jobs   int    `help:"${help_sweep_jobs}"`
	Shard  string `help:"${help_sweep_shard}" placeholder:"i/k"`
	Seeds  int    `help:"${help_sweep_seeds}" placeholder:"K"`
	Force  bool   `help:"${help_sweep_force}"`
}

func (c *sweepRunCmd) Run() error {
	o := sweep.Options{File: c.File, Preset: c.Preset, Out: c.Out, Jobs: c.Jobs, Shard: c.Shard, Seeds: c.Seeds, Force: c.Force,
		Command: "clusterlab " + strings.Join(args, " "), Stdout: os.Stdout, Terminal: term.IsTerminal(os.Stdout.Fd())}
	if term.IsTerminal(os.Stderr.Fd()) {
		o.Progress = os.Stderr
	}
	return sweepOutcome(sweep.Execute(o))
}

type sweepMergeCmd struct {
	Dirs  []string `arg:"" help:"${help_sweep_dirs}" type:"existingdir"`
	Out   string   `required:"" help:"${help_sweep_mergeout}" placeholder:"DIR"`
	Force bool     `help:"${help_sweep_force}"`
}

func (c *sweepMergeCmd) Run() error {
	return sweepOutcome(sweep.Merge(c.Dirs, c.Out, c.Force, "clusterlab "+strings.Join(args, " "), os.Stdout))
}

// sweepOutcome turns a sweep's result into the exit code: 2 for bad input, 1 when a
// run's expectations failed (listed).
func sweepOutcome(out *sweep.Outcome, err error) error {
	var bad *sweep.BadInput
	if errors.As(err, &bad) {
		return badInput(bad.Err)
	}
	if err != nil {
		return err
	}
	runs := "runs"
	if out.Runs == 1 {
		runs = "run"
	}
	fmt.Printf("\n%d %s; outputs in %s/\n", out.Runs, runs, out.Dir)
	if out.Missing > 0 {
		// The outputs hold what the shards have; a script must not take them for
		// the whole sweep.
		return &exitError{1, fmt.Errorf("the shards hold %d of the sweep's %d runs: a shard is missing", out.Runs, out.Runs+out.Missing)}
	}
	if len(out.Failed) > 0 {
		for i, f := range out.Failed {
			if i == 20 {
				fmt.Fprintf(os.Stderr, "  … %d more (see %s/report.md)\n", len(out.Failed)-i, out.Dir)
				break
			}
			fmt.Fprintf(os.Stderr, "FAIL %s\n", f)
		}
		return &exitError{1, fmt.Errorf("%d of %d runs failed their expectations", len(out.Failed), out.Runs)}
	}
	return nil
}

type sweepCmd struct {
	Run   sweepRunCmd   `cmd:"" default:"withargs" help:"${help_cmd_sweep_run}"`
	Merge sweepMergeCmd `cmd:"" help:"${help_cmd_sweep_merge}"`
}

type sweepsCmd struct{}

func (sweepsCmd) Run() error {
	for _, name := range sweep.Names() {
		s, err := sweep.Load(name)
		if err != nil {
			return err
		}
		desc := []rune(strings.Join(strings.Fields(s.Description), " "))
		if len(desc) > 100 {
			desc = append(desc[:97], []rune("...")...)
		}
		fmt.Printf("%-18s %s\n", name, string(desc))
	}
	return nil
}

type calcPvCmd struct {
	N int     `required:"" help:"${help_calc_n}"`
	M int     `required:"" help:"${help_calc_m}"`
	P float64 `required:"" help:"${help_calc_p}"`
}

func (c *calcPvCmd) Run() error {
	switch {
	case c.N < 1:
		return badInput(fmt.Errorf("--n: found %d, expected at least 1 coordinator", c.N))
	case 2*c.M <= c.N || c.M > c.N:
		return badInput(fmt.Errorf("--m: found %d, expected a majority of %d: %d to %d", c.M, c.N, c.N/2+1, c.N))
	case !(c.P >= 0 && c.P <= 1):
		return badInput(fmt.Errorf("--p: found %v, expected a probability from 0 to 1", c.P))
	}
	l := mutex.QuorumLog10Pv(c.N, c.M, c.P)
	fmt.Printf("P_v = Σ_{k=2m−n}^{n} C(m,k) P^k (1−P)^{m−k}   (course notes 003, Quórum)\n")
	fmt.Printf("n = %d, m = %d, P = %g, k from %d\n", c.N, c.M, c.P, max(2*c.M-c.N, 0))
	if math.IsInf(l, -1) {
		fmt.Println("P_v = 0")
		return nil
	}
	e := math.Floor(l)
	fmt.Printf("P_v = %.6fe%+d   (log10 P_v = %.4f)\n", math.Pow(10, l-e), int(e), l)
	return nil
}

type calcCmd struct {
	Pv calcPvCmd `cmd:"" name:"pv" help:"${help_cmd_calc_pv}"`
}
