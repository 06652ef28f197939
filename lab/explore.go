package lab

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/clusterlab/clusterlab/explore"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/sweep"
)

// The search commands: explore (and explore merge). See docs/finding-bugs.md.

type exploreRunCmd struct {
	Scenario   string        `arg:"" optional:"" help:"${help_explore_scenario}" type:"existingfile"`
	Preset     string        `help:"${help_explore_preset}"`
	Mode       string        `help:"${help_explore_mode}" default:"random"`
	Runs       int           `help:"${help_explore_runs}"`
	Time       time.Duration `help:"${help_explore_time}"`
	Seed       uint64        `help:"${help_explore_seed}" default:"1"`
	Jobs       int           `help:"${help_explore_jobs}"`
	Shard      string        `help:"${help_explore_shard}" placeholder:"i/k"`
	Out        string        `help:"${help_explore_out}" placeholder:"DIR"`
	Property   []string      `help:"${help_explore_property}" placeholder:"KIND"`
	Liveness   bool          `help:"${help_explore_liveness}"`
	Faults     []string      `help:"${help_explore_faults}" placeholder:"CLASS"`
	Findings   int           `help:"${help_explore_findings}" default:"1"`
	ShrinkTime time.Duration `name:"shrink-time" help:"${help_explore_shrinktime}" default:"60s"`
	Delays     int           `help:"${help_explore_delays}" default:"3"`
	Crashes    int           `help:"${help_explore_crashes}" default:"1"`
	Force      bool          `help:"${help_explore_force}"`
}

func (c *exploreRunCmd) Run() error {
	sig := catchSignals()
	defer sig.stop()
	if c.Scenario != "" && c.Preset != "" {
		return badInput(errors.New("found a scenario file and --preset, expected one of them"))
	}
	if c.Scenario == "" && c.Preset == "" {
		return badInput(errors.New("expected a scenario file or --preset NAME"))
	}
	if c.Findings < 1 {
		return badInput(fmt.Errorf("--findings: found %d, expected at least 1", c.Findings))
	}
	if c.ShrinkTime <= 0 {
		return badInput(fmt.Errorf("--shrink-time: found %v, expected a positive duration such as 60s", c.ShrinkTime))
	}
	s, cfg, err := session.Open(session.Source{Preset: c.Preset, File: c.Scenario})
	if err != nil {
		return badInput(err)
	}
	o := explore.Options{Mode: c.Mode, Runs: c.Runs, Time: c.Time, Seed: c.Seed, Jobs: c.Jobs, Faults: c.Faults, Properties: c.Property,
		Liveness: c.Liveness, Findings: c.Findings, ShrinkTime: c.ShrinkTime, Delays: c.Delays, Crashes: c.Crashes}
	if c.Shard != "" {
		if o.Shard, err = sweep.ParseShard(c.Shard); err != nil {
			return badInput(err)
		}
	}
	out := c.Out
	if out == "" {
		out = "explore-" + pathSafe(s.Name)
		if o.Shard.K > 1 {
			out += fmt.Sprintf("-shard%dof%d", o.Shard.I, o.Shard.K)
		}
	}
	// The scenario as it is named from here (explore.json's command): the same
	// for shards run from the same layout of folders on other machines.
	source := relative(c.Scenario)
	if c.Preset != "" {
		source = "--preset " + c.Preset
	}
	// Refuse bad options, then an output folder that holds a search's outputs,
	// before searching.
	if err := explore.Check(s, cfg, o); err != nil {
		return exploreError(err)
	}
	if err := explore.CheckDir(out, c.Force, explore.ReportFile); err != nil {
		return exploreError(err)
	}
	var line *progressLine
	if isTerminal(os.Stderr) {
		line = &progressLine{}
		o.Progress = line.report
	}
	res, err := explore.Run(sig.ctx, s, cfg, o)
	if line != nil {
		line.clear()
	}
	if err != nil {
		return exploreError(err)
	}
	// A search stopped by a signal (Ctrl-C, a batch system's time limit) writes
	// what it did so far: its runs and the findings it shrank ("stopped":
	// "interrupted"), which explore merge joins as it joins a shard whose --time
	// ran out.
	rep, err := explore.Write(res, o, explore.WriteOptions{Dir: out, Force: c.Force, Lang: ui, Source: source, Command: "clusterlab " + strings.Join(args, " ")})
	if sig.interrupted() {
		return sig.err()
	}
	if err != nil {
		return exploreError(err)
	}
	return exploreOutcome(rep, res.Elapsed, out)
}

// exploreOutcome prints what a search found and turns it into the exit code: 1
// when something was found.
func exploreOutcome(rep *explore.Report, took time.Duration, out string) error {
	for _, f := range rep.Findings {
		outln(findingLine(f.File, f))
		if f.Profile != nil {
			outln("  " + ui.F("explore.profile", f.Run, f.Profile.Text(ui)))
		}
		outln("  " + f.Story)
		if !f.Shrink.Fixpoint {
			outln(ui.T("explore.notmin"))
		}
	}
	if rep.Storms > 0 {
		outln(ui.F("explore.storms", rep.Storms))
	}
	runs := netsim.Thousands(rep.Runs)
	secs := seconds(took)
	if len(rep.Findings) == 0 {
		switch {
		case rep.Mode == explore.ModeSystematic && rep.Stopped == "exhausted":
			outln(ui.F("explore.none.sys", runs, secs, ui.Count("explore.delays", rep.Budget.Delays), ui.Count("explore.crashes", rep.Budget.Crashes)))
		case rep.Mode == explore.ModeSystematic:
			// explore.json's bound is "2 departures", in English: said here in
			// the reader's language.
			var n int
			fmt.Sscanf(rep.Bound, "%d", &n)
			outln(ui.F("explore.none.bound", runs, secs, ui.Count("explore.departures", n)))
		default:
			outln(ui.F("explore.none", runs, secs))
		}
		outln(ui.F("explore.nothing", out))
		return nil
	}
	found := "explore.found"
	if rep.Mode == explore.ModeSystematic {
		found = "explore.found.sys"
	}
	outln(ui.F(found, len(rep.Findings), runs, secs, out))
	return checkFailed(errors.New(ui.F("explore.err.found", len(rep.Findings), out, rep.Findings[0].File)))
}

// findingLine is a finding's first line: its files, what it breaks and when,
// and how far it shrank.
func findingLine(file string, f explore.FindingJSON) string {
	key := "explore.finding"
	if f.Actions == 1 {
		key += ".one"
	}
	return ui.F(key, file, ui.AlertKindIn(f.Kind), clockUS(f.AtUS), f.ActionsFound, f.Actions)
}

// seconds writes a wall time for people: 1.2 s, 0.05 s.
func seconds(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// exploreError is bad input (exit 2) for the search's own refusals, else 1.
func exploreError(err error) error {
	var bad *explore.BadInput
	if errors.As(err, &bad) {
		return badInput(bad.Err)
	}
	return err
}

// progressLine shows a search's progress on a terminal: runs, runs per second,
// findings and the time left, rewritten in place.
type progressLine struct {
	mu    sync.Mutex
	shown bool
}

func (l *progressLine) report(p explore.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rate := 0.0
	if p.Elapsed > 0 {
		rate = float64(p.Runs) / p.Elapsed.Seconds()
	}
	left := ui.F("explore.progress.elapsed", p.Elapsed.Round(time.Second))
	switch {
	case p.Left >= 0:
		left = ui.F("explore.progress.left", p.Left.Round(time.Second))
	case p.Of > 0 && rate > 0:
		left = ui.F("explore.progress.left", time.Duration(float64(p.Of-p.Runs)/rate*float64(time.Second)).Round(time.Second))
	}
	fmt.Fprintf(os.Stderr, "\r\x1b[K%s", ui.F("explore.progress", netsim.Thousands(p.Runs), netsim.Thousands(int(rate)), p.Findings, left))
	l.shown = true
}

func (l *progressLine) clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		fmt.Fprint(os.Stderr, "\r\x1b[K")
	}
}

type exploreMergeCmd struct {
	Dirs  []string `arg:"" help:"${help_explore_dirs}" type:"existingdir"`
	Out   string   `required:"" help:"${help_explore_mergeout}" placeholder:"DIR"`
	Force bool     `help:"${help_explore_force}"`
}

func (c *exploreMergeCmd) Run() error {
	rep, err := explore.Merge(c.Dirs, c.Out, c.Force)
	if err != nil {
		return exploreError(err)
	}
	outln(ui.F("explore.merged", len(rep.Findings), netsim.Thousands(rep.Runs), c.Out))
	if len(rep.Findings) > 0 {
		return checkFailed(errors.New(ui.F("explore.err.found", len(rep.Findings), c.Out, rep.Findings[0].File)))
	}
	return nil
}

type exploreCmd struct {
	Run   exploreRunCmd   `cmd:"" default:"withargs" help:"${help_cmd_explore_run}"`
	Merge exploreMergeCmd `cmd:"" help:"${help_cmd_explore_merge}"`
}

type shrinkCmd struct {
	File  string        `arg:"" help:"${help_shrink_file}" type:"existingfile"`
	Out   string        `help:"${help_shrink_out}" placeholder:"FILE"`
	Time  time.Duration `help:"${help_shrink_time}" default:"60s"`
	Force bool          `help:"${help_shrink_force}"`
}

func (c *shrinkCmd) Run() error {
	sig := catchSignals()
	defer sig.stop()
	if c.Time <= 0 {
		return badInput(fmt.Errorf("--time: found %v, expected a positive duration such as 60s", c.Time))
	}
	out := c.Out
	if out == "" {
		out = explore.ShrunkName(c.File)
	}
	if err := session.CheckOutput(out, c.Force, c.File); err != nil {
		return badInput(fmt.Errorf("--out: %w", err))
	}
	start := time.Now()
	r, err := explore.ShrinkFile(sig.ctx, c.File, c.Time)
	if err != nil {
		return exploreError(err)
	}
	if sig.interrupted() {
		return sig.err()
	}
	story, err := explore.WriteShrunk(r, c.File, out, c.Force, ui)
	if err != nil {
		return exploreError(err)
	}
	outln(ui.F("shrink.done", c.File, ui.AlertKindIn(r.Violation.Kind), clockUS(r.Violation.At.Microseconds()), r.Stats.Before, r.Stats.After,
		seconds(time.Since(start)), out))
	outln("  " + story)
	if !r.Stats.Fixpoint {
		outln(ui.T("shrink.notmin"))
	}
	return nil
}

// clockUS writes a virtual time in µs as the stories do: 5.020s.
func clockUS(us int64) string { return fmt.Sprintf("%.3fs", float64(us)/1e6) }

// openAtAlert seeks a replay to its first alert when asked (--at-alert), or by
// default when it is a finding of explore or shrink, which opens where it breaks.
func openAtAlert(r *session.Replay, asked *bool) {
	at := strings.HasPrefix(r.Header.Info.Description, explore.FoundBy)
	if asked != nil {
		at = *asked
	}
	if t, ok := r.FirstAlert(); at && ok {
		r.SeekTime(t)
	}
}

// pathSafe is a scenario's name made one plain folder name: every character but
// letters, digits, '-', '_' and '.' becomes '-', so that a name such as
// "../../x" names a folder inside the working one, never a path out of it.
func pathSafe(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, name)
}
