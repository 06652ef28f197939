// Package lab is clusterlab's command line as a library: the dashboard, sim, sweep,
// verify, export and the other subcommands, with every algorithm registered in
// package algos. The clusterlab binary is Main and nothing else; a student's own
// module registers its algorithms (algos.Register, in an init function) and calls
// Main the same way, so that its algorithms run beside the built-ins:
//
//	func main() { os.Exit(lab.Main(os.Args[1:])) }
//
// This file holds the command line only: subcommands and wiring, no logic.
package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/internal/termtext"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/tui"
)

type scenarioFlags struct {
	Preset string  `help:"${help_preset}" xor:"src"`
	File   string  `help:"${help_file}" type:"existingfile" xor:"src"`
	Seed   *uint64 `help:"${help_seed}"`
}

func (f scenarioFlags) source() session.Source {
	return session.Source{Preset: f.Preset, File: f.File, Seed: f.Seed}
}

// stormFlags bound the events a run may hold, for the commands that run a world.
type stormFlags struct {
	MaxPending int `name:"max-pending" help:"${help_maxpending}" default:"2000000"`
}

func (f stormFlags) apply(cfg *netsim.Config) error {
	if f.MaxPending < 1 {
		return fmt.Errorf("--max-pending: found %d, expected a positive number of events", f.MaxPending)
	}
	cfg.MaxPending = f.MaxPending
	return nil
}

type simCmd struct {
	scenarioFlags
	stormFlags
	Until  time.Duration `help:"${help_sim_until}"`
	Record string        `help:"${help_sim_record}" placeholder:"FILE"`
	Force  bool          `help:"${help_force}"`
	JSON   bool          `name:"json" help:"${help_sim_json}"`
}

func (c *simCmd) Run() error {
	sig := catchSignals()
	defer sig.stop()
	if c.Until < 0 || c.Until > presets.MaxUntil {
		return badInput(fmt.Errorf("--until: found %v, expected 1µs to 24h (leave it out for the scenario's until)", c.Until))
	}
	s, cfg, err := session.Open(c.source())
	if err != nil {
		return badInput(err)
	}
	warnScenario(os.Stderr, s)
	if err := c.stormFlags.apply(&cfg); err != nil {
		return badInput(err)
	}
	var sink trace.Sink
	var rec *trace.Recorder
	var out *session.Output
	if c.Record != "" {
		if out, err = session.CreateRecording(c.Record, c.Force, c.File); err != nil {
			return badInput(fmt.Errorf("--record: %w", err))
		}
		defer out.Abort() // a run that fails leaves no file; does nothing once committed
		if rec, err = session.RecordUntil(out, s, cfg, c.Until); err != nil {
			return ioError(c.Record, err)
		}
		sink = rec
	}
	setDoing("while the run of %s went on", termtext.Line(cfg.Name))
	// A long run shows its progress on a terminal, and prints nothing extra when
	// stderr is piped.
	var report func(session.Progress)
	if isTerminal(os.Stderr) {
		line := &session.ProgressLine{Out: os.Stderr}
		defer line.Clear()
		report = line.Report
	}
	sum, now, err := session.RunContext(sig.ctx, cfg, c.Until, sink, report)
	var werr error // the recording's
	if rec != nil {
		// A run stopped by a signal keeps its recording, with reason interrupted;
		// a run that failed keeps none.
		keep := err == nil || sig.interrupted()
		reason := trace.EndUntil
		if sig.interrupted() {
			reason = trace.EndInterrupted
		}
		if keep {
			werr = rec.End(reason, node.Micros(now))
		}
		if cerr := rec.Close(); werr == nil {
			werr = cerr
		}
		if keep && werr == nil {
			werr = out.Commit()
		}
	}
	switch {
	case werr != nil && (err == nil || sig.interrupted()):
		// a full disk: what was written stays, for verify --partial
		if kept := out.Keep(); kept != "" {
			return resourceFailure(fmt.Errorf("%w; %s keeps what was written before: `clusterlab verify --partial %s` reads it", ioError(c.Record, werr), kept, kept))
		}
		return ioError(c.Record, werr)
	case sig.interrupted():
		kept := ""
		if rec != nil {
			kept = fmt.Sprintf("%s keeps %d events and ends with reason %q", c.Record, rec.Count(), trace.EndInterrupted)
		}
		return sig.interruptedErr(kept)
	case err != nil:
		return runFailure(err)
	}
	if rec != nil {
		sum.Trace = netsim.TraceRef{Path: c.Record, Events: rec.Count(), Hash: rec.Hash()}
	}
	if c.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return ioError("stdout", err)
		}
	} else {
		// The summary quotes the scenario (its name, its expectations): through the
		// sanitiser, as everything from a file that reaches a terminal.
		tw := termtext.NewWriter(stdout)
		sum.PrintIn(tw, ui)
		if rec != nil {
			fmt.Fprintf(tw, "\n%s\n", ui.F("sim.recorded", rec.Count(), c.Record, rec.Hash()))
		}
		tw.Flush()
	}
	if n := sum.NotEvaluated(); n > 0 {
		return checkFailed(errors.New(ui.F("sim.err.notevaluated", n, len(sum.Expectations), time.Duration(sum.EndUS)*time.Microsecond)))
	}
	if !sum.Passed {
		return checkFailed(errors.New(ui.T("sim.err.failed")))
	}
	return nil
}

// isTerminal reports whether f is a character device, as a terminal is.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// ui is the language people read, chosen in main before any command runs.
var ui lang.Lang

// defaultPreset is what `clusterlab` with no arguments opens.
const defaultPreset = "bully"

type runCmd struct {
	scenarioFlags
	stormFlags
	Record string   `help:"${help_run_record}" placeholder:"FILE"`
	Force  bool     `help:"${help_force}"`
	Speed  *float64 `help:"${help_run_speed}" placeholder:"X"`
	Paused bool     `help:"${help_run_paused}"`
}

func (c *runCmd) Run() error {
	src := c.source()
	if src.Preset == "" && src.File == "" {
		src.Preset = defaultPreset
		if _, err := presets.Load(defaultPreset); err != nil {
			src.Preset = "omega-crash"
		}
	}
	s, cfg, speed, err := liveWorld(src, c.stormFlags, c.Record, c.Force, c.Speed)
	if err != nil {
		return err
	}
	paused := c.Paused || c.Speed == nil && opensPaused(src.Preset)
	live, err := session.NewLive(s, cfg, session.LiveOptions{Record: c.Record, Force: c.Force, Speed: speed, Paused: paused})
	if err != nil {
		return runFailure(err)
	}
	seed := cfg.Seed
	// The dashboard quits on SIGTERM and SIGHUP (and on SIGINT when not on a
	// terminal), restoring the terminal; a recording then ends with reason
	// interrupted instead of quit.
	sig := catchSignals()
	defer sig.stop()
	err = tui.Run(live, tui.Options{Title: s.Name, Seed: &seed, Lang: ui, Context: sig.ctx})
	// Closing flushes a recording in progress, however the dashboard ended.
	if sig.interrupted() {
		cerr := live.CloseFor(trace.EndInterrupted)
		kept := ""
		if c.Record != "" && cerr == nil {
			kept = fmt.Sprintf("%s ends with reason %q", c.Record, trace.EndInterrupted)
		}
		return sig.interruptedErr(kept)
	}
	if cerr := live.Close(); err == nil {
		err = cerr
	}
	return err
}

type replayCmd struct {
	File    string  `arg:"" help:"${help_replay_file}" type:"existingfile"`
	Speed   float64 `help:"${help_replay_speed}" default:"1"`
	AtAlert *bool   `name:"at-alert" negatable:"" help:"${help_replay_atalert}"`
}

func (c *replayCmd) Run() error {
	setDoing("while replay read %s", c.File)
	r, err := session.OpenReplay(c.File)
	if err != nil {
		return runFailure(err)
	}
	defer r.Close()
	r.SetSpeed(c.Speed)
	openAtAlert(r, c.AtAlert)
	seed := r.Header.Seed
	fk := &forkable{Replay: r, file: c.File}
	sig := catchSignals()
	defer sig.stop()
	err = tui.Run(fk, tui.Options{Title: r.Header.Info.Name, Seed: &seed, File: c.File, Lang: ui, Context: sig.ctx})
	return closeFork(fk.live, sig, err)
}

type verifyCmd struct {
	stormFlags
	File    string `arg:"" help:"${help_verify_file}" type:"existingfile"`
	Partial bool   `help:"${help_verify_partial}"`
	// For grading: a recording that verifies but was stopped before its
	// scenario's end, or whose expectations were not all evaluated, fails.
	RequireComplete bool `name:"require-complete" help:"${help_verify_requirecomplete}"`
}

func (c *verifyCmd) Run() error {
	sig := catchSignals()
	defer sig.stop()
	var storm netsim.Config
	if err := c.apply(&storm); err != nil {
		return badInput(err)
	}
	setDoing("while verify re-ran %s", c.File)
	v, err := session.Verify(sig.ctx, c.File, session.VerifyOptions{Partial: c.Partial, MaxPending: storm.MaxPending})
	if sig.interrupted() {
		return sig.err()
	}
	if err != nil {
		return runFailure(err)
	}
	v.Print(stdout)
	switch {
	case v.OK && c.RequireComplete && !v.Completion.Complete():
		return checkFailed(fmt.Errorf("--require-complete: %s %s", c.File, v.Completion))
	case v.OK:
		return nil
	case v.Problem == session.Malformed:
		return badInput(errors.New("the file is not a well-formed recording"))
	case v.Problem == session.Limit:
		return resourceFailure(errors.New("the re-run reached a limit before it could decide"))
	}
	return checkFailed(errors.New("the recording does not match its re-run"))
}

// cmdLine is the command line: global flags and one field per subcommand.
type cmdLine struct {
	Lang      string `name:"lang" help:"${help_lang}" placeholder:"LANG"`
	MaxMemory string `name:"max-memory" help:"${help_maxmemory}" placeholder:"SIZE"`

	Run     runCmd     `cmd:"" default:"withargs" help:"${help_cmd_run}"`
	Replay  replayCmd  `cmd:"" help:"${help_cmd_replay}"`
	Sim     simCmd     `cmd:"" help:"${help_cmd_sim}"`
	Presets presetsCmd `cmd:"" help:"${help_cmd_presets}"`
	Algos   algosCmd   `cmd:"" help:"${help_cmd_algos}"`
	Verify  verifyCmd  `cmd:"" help:"${help_cmd_verify}"`
	Export  exportCmd  `cmd:"" help:"${help_cmd_export}"`
	Sweep   sweepCmd   `cmd:"" help:"${help_cmd_sweep}"`
	Sweeps  sweepsCmd  `cmd:"" help:"${help_cmd_sweeps}"`
	Calc    calcCmd    `cmd:"" help:"${help_cmd_calc}"`
	New     newCmd     `cmd:"" help:"${help_cmd_new}"`
	Check   checkCmd   `cmd:"" help:"${help_cmd_check}"`
	Grade   gradeCmd   `cmd:"" help:"${help_cmd_grade}"`
	Explore exploreCmd `cmd:"" help:"${help_cmd_explore}"`
	Shrink  shrinkCmd  `cmd:"" help:"${help_cmd_shrink}"`
	Diff    diffCmd    `cmd:"" help:"${help_cmd_diff}"`
	Help    helpCmd    `cmd:"" help:"${help_cmd_help}"`
	Serve   serveCmd   `cmd:"" help:"${help_cmd_serve}"`
}

// args is the command line Main was given, for the outputs that name the command
// that made them.
var args []string

// Main runs the command line argv (without the program's name) and returns the
// process's exit code (see exit.go): 0 when all went well, 1 when a check or
// verification failed, 2 for bad input, 3 when a resource ran out or an output
// failed, 128 + the signal's number when a signal stopped it.
func Main(argv []string) int {
	args = argv
	var cli cmdLine
	// The help speaks the language asked for; a bad --lang is reported below.
	helpLang, _ := lang.Select(argLang(argv), os.Getenv)
	parser, err := newParser(&cli, helpLang)
	if err != nil {
		panic(err) // a help tag without its catalog entry: a bug in this package
	}
	ctx, err := parser.Parse(argv)
	if err != nil {
		return fail(badInput(errors.New(helpLang.ParseError(err.Error()))))
	}
	if ui, err = lang.Select(cli.Lang, os.Getenv); err != nil {
		return fail(badInput(err))
	}
	stop, err := watchMemory(cli.MaxMemory)
	if err != nil {
		return fail(badInput(err))
	}
	err = ctx.Run()
	stop()
	if werr := stdout.failed(); werr != nil && exitCode(err) <= exitFailed {
		err = ioError("stdout", werr)
	}
	return fail(err)
}

// fail prints err, if any, as the one line a command ends with, and returns its
// exit code. The line may quote a file: it goes through the sanitiser.
func fail(err error) int {
	code := exitCode(err)
	if err != nil {
		msg := err.Error()
		if code == exitBadInput {
			// Bad input is refused in English where it is found; say it in the
			// reader's language.
			msg = ui.Error(msg)
		}
		fmt.Fprintf(os.Stderr, "clusterlab: %s\n", termtext.Line(msg))
	}
	return code
}
