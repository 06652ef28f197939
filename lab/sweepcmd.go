package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/sweep"
)

// The experiment commands: sweep (and sweep merge), sweeps.

type sweepRunCmd struct {
	File   string  `arg:"" optional:"" help:"${help_sweep_file}"`
	Preset string  `help:"${help_sweep_preset}"`
	Out    string  `help:"${help_sweep_out}" placeholder:"DIR"`
	Jobs   *int    `help:"${help_sweep_jobs}" placeholder:"J"`
	Shard  string  `help:"${help_sweep_shard}" placeholder:"i/k"`
	Seeds  int     `help:"${help_sweep_seeds}" placeholder:"K"`
	Force  bool    `help:"${help_sweep_force}"`
	DPI    int     `name:"dpi" help:"${help_sweep_dpi}" placeholder:"DPI"`
	RunN   *int    `name:"run" help:"${help_sweep_run}" placeholder:"N"`
	Cell   string  `help:"${help_sweep_cell}" placeholder:"AXIS=V,…"`
	Seed   *uint64 `help:"${help_sweep_seed}" placeholder:"S"`
	Record string  `help:"${help_sweep_record}" placeholder:"FILE"`
}

func (c *sweepRunCmd) options(stdout io.Writer) (sweep.Options, error) {
	o := sweep.Options{File: c.File, Preset: c.Preset, Out: c.Out, Shard: c.Shard, Seeds: c.Seeds, Force: c.Force, DPI: c.DPI,
		Program: "clusterlab " + session.Version, Lang: ui, Stdout: stdout, Terminal: term.IsTerminal(os.Stdout.Fd())}
	if c.Jobs != nil {
		if err := sweep.CheckJobs(*c.Jobs); err != nil {
			return o, err
		}
		o.Jobs = *c.Jobs
	}
	if term.IsTerminal(os.Stderr.Fd()) {
		o.Progress = os.Stderr
	}
	return o, nil
}

func (c *sweepRunCmd) Run() error {
	return c.run(stdout)
}

func (c *sweepRunCmd) run(stdout io.Writer) error {
	o, err := c.options(stdout)
	if err != nil {
		return badInput(err)
	}
	if c.RunN != nil || c.Cell != "" || c.Seed != nil || c.Record != "" {
		return c.recordOne(o)
	}
	sig := catchSignals()
	defer sig.stop()
	// The sweep stops at a signal, writes what it has, and says what stopped it.
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	stop := context.AfterFunc(sig.ctx, func() { cancel(errors.New(stoppedBy(sig))) })
	defer stop()
	o.Ctx = ctx
	out, err := sweep.Execute(o)
	if _, ok := errors.AsType[*sweep.Stopped](err); ok {
		// Stopped while its cells were checked: nothing ran, nothing was written.
		return sig.err()
	}
	if err == nil && out.Stopped != "" {
		fmt.Fprintf(stdout, "\n%s\n", ui.F("sweep.stopped", out.Runs, out.Total, out.Dir))
		return sig.interruptedErr(ui.F("sweep.stopped.kept", out.Dir))
	}
	return sweepOutcome(stdout, out, err)
}

// recordOne records one run of the sweep, the one results.csv numbers --run or the
// one --cell and --seed name: a recording whose hash is the row's trace_hash.
func (c *sweepRunCmd) recordOne(o sweep.Options) error {
	switch {
	case c.Record == "":
		return badInput(errors.New("--run, --cell, --seed: expected --record FILE as well (they record one run of the sweep)"))
	case c.RunN == nil && (c.Cell == "" || c.Seed == nil):
		return badInput(errors.New("--record: expected --run N (the run column of results.csv), or --cell and --seed"))
	case c.RunN != nil && (c.Cell != "" || c.Seed != nil):
		return badInput(errors.New("--run: expected either --run or --cell and --seed, not both"))
	}
	p, err := sweep.Prepare(o)
	if err != nil {
		return sweepOutcomeErr(err)
	}
	var run sweep.Run
	if c.RunN != nil {
		run, err = p.RunAt(*c.RunN)
	} else {
		run, err = p.FindRun(c.Cell, *c.Seed)
	}
	if err != nil {
		return badInput(err)
	}
	sc, cfg, err := p.Reproduce(run)
	if err != nil {
		return badInput(err)
	}
	sig := catchSignals()
	defer sig.stop()
	out, err := session.CreateRecording(c.Record, c.Force, c.File)
	if err != nil {
		return badInput(fmt.Errorf("--record: %w", err))
	}
	defer out.Abort()
	rec, err := session.Record(out, sc, cfg)
	if err != nil {
		return ioError(c.Record, err)
	}
	_, now, err := session.RunContext(sig.ctx, cfg, 0, rec, nil)
	if sig.interrupted() {
		rec.Close()
		return sig.err()
	}
	if err != nil {
		rec.Close()
		return badInput(err)
	}
	werr := rec.End(trace.EndUntil, node.Micros(now))
	if cerr := rec.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = out.Commit()
	}
	if werr != nil {
		return ioError(c.Record, werr)
	}
	if run.Index < 0 { // a seed the sweep does not run
		fmt.Fprintln(o.Stdout, ui.F("sweep.recorded.other", p.Describe(run), rec.Count(), c.Record, rec.Hash()))
	} else {
		fmt.Fprintln(o.Stdout, ui.F("sweep.recorded", p.Describe(run), run.Index, rec.Count(), c.Record, rec.Hash()))
	}
	return nil
}

type sweepMergeCmd struct {
	Dirs  []string `arg:"" help:"${help_sweep_dirs}"`
	Out   string   `required:"" help:"${help_sweep_mergeout}" placeholder:"DIR"`
	Force bool     `help:"${help_sweep_force}"`
	DPI   int      `name:"dpi" help:"${help_sweep_dpi}" placeholder:"DPI"`
}

func (c *sweepMergeCmd) Run() error {
	if c.DPI != 0 && (c.DPI < sweep.MinDPI || c.DPI > sweep.MaxDPI) {
		return badInput(fmt.Errorf("--dpi: found %d, expected %d to %d dots per inch", c.DPI, sweep.MinDPI, sweep.MaxDPI))
	}
	out, err := sweep.Merge(c.Dirs, c.Out, c.Force, c.DPI, ui, stdout)
	return sweepOutcome(stdout, out, err)
}

// sweepOutcomeErr turns a sweep's error into the exit code: 2 for bad input, 3 for
// a file that could not be written or read.
func sweepOutcomeErr(err error) error {
	var bad *sweep.BadInput
	if errors.As(err, &bad) {
		return badInput(bad.Err)
	}
	var io *sweep.IOError
	if errors.As(err, &io) {
		return resourceFailure(io)
	}
	return err
}

// sweepOutcome turns a sweep's result into the exit code: 2 for bad input, 3 for a
// file that could not be written, 1 when a run's expectations failed (listed).
func sweepOutcome(stdout io.Writer, out *sweep.Outcome, err error) error {
	if err != nil {
		return sweepOutcomeErr(err)
	}
	fmt.Fprintf(stdout, "\n%s\n", ui.F("sweep.done", runsText(out.Runs), out.Dir))
	if out.Missing > 0 {
		// The outputs hold what the shards have; a script must not take them for
		// the whole sweep.
		return checkFailed(errors.New(ui.F("sweep.err.missing", out.Runs, out.Runs+out.Missing)))
	}
	if out.Failed > 0 {
		for _, f := range out.FailedList {
			fmt.Fprintf(os.Stderr, "FAIL %s\n", f)
		}
		if more := out.Failed - len(out.FailedList); more > 0 {
			fmt.Fprintf(os.Stderr, "  %s\n", ui.F("sweep.err.more", more, out.Dir))
		}
		return checkFailed(errors.New(ui.F("sweep.err.failed", out.Failed, out.Runs)))
	}
	return nil
}

// runsText is "1 run", "2 runs" in the reader's language.
func runsText(n int) string { return ui.Count("sweep.run", n) }

// stoppedBy names the signal that stopped a command: SIGINT, SIGTERM, SIGHUP.
func stoppedBy(in *interrupts) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	switch in.sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return in.sig.String()
}

type sweepCmd struct {
	Run   sweepRunCmd   `cmd:"" default:"withargs" help:"${help_cmd_sweep_run}"`
	Merge sweepMergeCmd `cmd:"" help:"${help_cmd_sweep_merge}"`
}

type sweepsCmd struct{}

func (sweepsCmd) Run() error {
	return listSweeps(stdout)
}

func listSweeps(stdout io.Writer) error {
	for _, name := range sweep.Names() {
		s, err := sweep.Load(name)
		if err != nil {
			return err
		}
		desc := []rune(strings.Join(strings.Fields(ui.SweepText(name, "description", s.Description)), " "))
		if len(desc) > 100 {
			desc = append(desc[:97], []rune("...")...)
		}
		fmt.Fprintf(stdout, "%-18s %s\n", name, string(desc))
	}
	return nil
}
