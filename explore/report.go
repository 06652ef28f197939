package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/lang"
)

// Schema names the shape of explore.json. docs/explore-json.md describes it field
// by field; a change that removes or retypes a field bumps it.
const Schema = "clusterlab.explore/1"

// Report is explore.json: what a search did and found. It holds nothing that
// depends on the machine or on --jobs: the timings go to explore-timings.json.
type Report struct {
	Schema     string         `json:"schema"`
	Command    string         `json:"command"`
	Scenario   string         `json:"scenario"`
	Algorithm  string         `json:"algorithm"`
	Nodes      int            `json:"nodes"`
	Mode       string         `json:"mode"`
	MasterSeed uint64         `json:"master_seed"`
	Budget     BudgetJSON     `json:"budget"`
	Shard      string         `json:"shard"`
	Faults     string         `json:"faults"`
	Properties []string       `json:"properties"`
	Liveness   bool           `json:"liveness"`
	UntilUS    int64          `json:"until_us"`
	FaultsToUS int64          `json:"faults_until_us"`
	Runs       int            `json:"runs"`
	Stopped    string         `json:"stopped"`
	Bound      string         `json:"bound"`
	Storms     int            `json:"storms"`
	ByKind     map[string]int `json:"findings_by_kind"`
	Findings   []FindingJSON  `json:"findings"`
}

// BudgetJSON is what the search was allowed.
type BudgetJSON struct {
	Runs     int     `json:"runs"`
	TimeS    float64 `json:"time_s"`
	Findings int     `json:"findings"`
	Delays   int     `json:"delays"`
	Crashes  int     `json:"crashes"`
}

// FindingJSON is one finding in explore.json.
type FindingJSON struct {
	File         string       `json:"file"`
	Run          int          `json:"run"`
	Seed         uint64       `json:"seed"`
	Kind         string       `json:"kind"`
	AtUS         int64        `json:"at_us"`
	Alert        string       `json:"alert"`
	Profile      *Profile     `json:"profile,omitempty"`
	Schedule     []string     `json:"schedule,omitempty"`
	ActionsFound int          `json:"actions_found"`
	Actions      int          `json:"actions"`
	Script       []ActionJSON `json:"script"`
	Shrink       ShrinkJSON   `json:"shrink"`
	Story        string       `json:"story"`
}

// ActionJSON is an action of a finding's script.
type ActionJSON struct {
	At string `json:"at"`
	Do string `json:"do"`
}

// ShrinkJSON is how a finding's shrinking went.
type ShrinkJSON struct {
	Candidates int  `json:"candidates"`
	Cached     int  `json:"cached"`
	Rounds     int  `json:"rounds"`
	Fixpoint   bool `json:"fixpoint"`
}

// Timings is explore-timings.json: what depends on the machine.
type Timings struct {
	Command    string    `json:"command"`
	Jobs       int       `json:"jobs"`
	ElapsedS   float64   `json:"elapsed_s"`
	RunsPerS   float64   `json:"runs_per_s"`
	ShrinkS    []float64 `json:"shrink_s"`
	ShrinkRuns []int     `json:"shrink_runs"`
}

// Report and timings file names.
const (
	ReportFile  = "explore.json"
	TimingsFile = "explore-timings.json"
)

// Canonical is the command that makes the search again: the scenario and every
// option that changes what it finds (not --jobs, --out or the shard).
func Canonical(source string, o Options, res *Result) string {
	parts := []string{"clusterlab", "explore", source, "--mode", res.Mode, "--seed", strconv.FormatUint(o.Seed, 10)}
	if res.Mode == ModeRandom {
		if o.Runs > 0 {
			parts = append(parts, "--runs", strconv.Itoa(o.Runs))
		}
	} else {
		parts = append(parts, "--delays", strconv.Itoa(res.delays), "--crashes", strconv.Itoa(res.crashes))
	}
	if o.Time > 0 {
		parts = append(parts, "--time", o.Time.String())
	}
	parts = append(parts, "--faults", res.faults)
	if len(o.Properties) > 0 {
		parts = append(parts, "--property", strings.Join(o.Properties, ","))
	}
	if o.Liveness {
		parts = append(parts, "--liveness")
	}
	if res.findings != 1 {
		parts = append(parts, "--findings", strconv.Itoa(res.findings))
	}
	return strings.Join(parts, " ")
}

// WriteOptions say where a search's outputs go.
type WriteOptions struct {
	Dir     string
	Force   bool
	Lang    lang.Lang
	Source  string // the scenario as the command names it: a file or --preset NAME
	Command string // the command line as typed, for the timings
}

// Write writes the findings (finding-N.toml, .trace, .md), explore.json and
// explore-timings.json into o.Dir, made if needed. Nothing is overwritten without
// o.Force, and a name already taken is refused before anything is written.
func Write(res *Result, opts Options, o WriteOptions) (*Report, error) {
	names := []string{ReportFile, TimingsFile}
	for i := range res.Findings {
		a, b, c := Files(i + 1)
		names = append(names, a, b, c)
	}
	if err := MakeDir(o.Dir, o.Force, names...); err != nil {
		return nil, err
	}
	w := &writer{dir: o.Dir, force: o.Force, l: o.Lang, res: res}
	rep := res.report(o.Source, opts)
	t := Timings{Command: o.Command, Jobs: res.jobs, ElapsedS: res.Elapsed.Seconds()}
	if s := res.searchTime.Seconds(); s > 0 {
		t.RunsPerS = float64(res.Runs) / s
	}
	for i, f := range res.Findings {
		j, err := w.finding(i+1, f)
		if err != nil {
			return nil, err
		}
		rep.Findings = append(rep.Findings, j)
		rep.ByKind[j.Kind]++
		t.ShrinkS = append(t.ShrinkS, f.Shrink.Elapsed.Seconds())
		t.ShrinkRuns = append(t.ShrinkRuns, f.Shrink.Candidates)
	}
	if err := w.writeJSON(ReportFile, rep); err != nil {
		return nil, err
	}
	return rep, w.writeJSON(TimingsFile, t)
}

func (w *writer) writeJSON(name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return w.writeFile(name, append(data, '\n'))
}

// report is explore.json without its findings.
func (res *Result) report(source string, o Options) *Report {
	r := &Report{Schema: Schema, Command: Canonical(source, o, res), Scenario: res.scenario, Algorithm: res.algorithm, Nodes: res.nodes,
		Mode: res.Mode, MasterSeed: res.Seed, Faults: res.faults, Properties: res.props, Liveness: o.Liveness,
		UntilUS: res.until.Microseconds(), FaultsToUS: res.horizon.Microseconds(), Runs: res.Runs, Stopped: res.Stopped, Bound: res.Bound,
		Storms: res.Storms, ByKind: map[string]int{}, Findings: []FindingJSON{},
		Budget: BudgetJSON{Runs: res.budgetRuns, TimeS: o.Time.Seconds(), Findings: res.findings, Delays: res.delays, Crashes: res.crashes}}
	if o.Shard.K > 1 {
		r.Shard = fmt.Sprintf("%d/%d", o.Shard.I, o.Shard.K)
	}
	return r
}

// Merge joins the outputs of the shards of one search (their --out directories)
// into out, as one machine running every run would have written them: the first
// findings by run index, renumbered, and the runs that count.
func Merge(dirs []string, out string, force bool) (*Report, error) {
	if len(dirs) == 0 {
		return nil, bad("expected the shards' directories")
	}
	var reps []*Report
	var shards []string
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, ReportFile))
		if err != nil {
			return nil, bad("%s: found no %s, expected the --out directory of a shard of clusterlab explore", d, ReportFile)
		}
		var r Report
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil || r.Schema != Schema {
			return nil, bad("%s: found a %s that is not of schema %s (%v), expected one written by this program", filepath.Join(d, ReportFile), ReportFile, Schema, err)
		}
		if r.Mode != ModeRandom {
			return nil, bad("%s: found a %s search, expected shards of a random search", d, r.Mode)
		}
		if len(reps) > 0 && r.Command != reps[0].Command {
			return nil, bad("%s: a shard of another search (%s) than %s (%s); expected shards of one search", d, r.Command, dirs[0], reps[0].Command)
		}
		if slices.Contains(shards, r.Shard) {
			return nil, bad("%s: shard %s is given twice; expected each shard once", d, r.Shard)
		}
		shards = append(shards, r.Shard)
		reps = append(reps, &r)
	}
	first := reps[0]
	m := *first
	m.Shard, m.Storms, m.ByKind, m.Findings = "", 0, map[string]int{}, []FindingJSON{}
	type found struct {
		dir string
		f   FindingJSON
	}
	var all []found
	k, runs, timeUp, stopped := 0, 0, false, "time"
	for i, r := range reps {
		var sh [2]int
		if _, err := fmt.Sscanf(r.Shard, "%d/%d", &sh[0], &sh[1]); err != nil {
			return nil, bad("%s: found shard %q, expected a shard i/k (a search run with --shard)", dirs[i], r.Shard)
		}
		if k != 0 && sh[1] != k {
			return nil, bad("%s: shard %s of %d, expected shards of %d", dirs[i], r.Shard, sh[1], k)
		}
		k = sh[1]
		m.Storms += r.Storms
		runs += r.Runs
		timeUp = timeUp || r.Stopped == "time" || r.Stopped == "interrupted"
		if r.Stopped == "interrupted" {
			stopped = r.Stopped
		}
		for _, f := range r.Findings {
			all = append(all, found{dirs[i], f})
		}
	}
	if len(reps) != k {
		return nil, bad("found %d of the %d shards, expected all of them", len(reps), k)
	}
	slices.SortFunc(all, func(a, b found) int { return a.f.Run - b.f.Run })
	want := first.Budget.Findings
	switch {
	case len(all) >= want:
		all = all[:want]
		m.Runs, m.Stopped = all[want-1].f.Run+1, "findings"
	case timeUp:
		m.Runs, m.Stopped = runs, stopped
	default:
		m.Runs, m.Stopped = first.Budget.Runs, "runs"
	}
	names := []string{ReportFile}
	for i := range all {
		a, b, c := Files(i + 1)
		names = append(names, a, b, c)
	}
	if err := MakeDir(out, force, names...); err != nil {
		return nil, err
	}
	w := &writer{dir: out, force: force}
	for i, x := range all {
		oldStem := x.f.File
		for j, name := range func() []string { a, b, c := Files(i + 1); return []string{a, b, c} }() {
			ext := []string{".toml", ".trace", ".md"}[j]
			if ext == ".md" {
				data, err := os.ReadFile(filepath.Join(x.dir, oldStem+ext))
				if err != nil {
					return nil, err
				}
				stem := strings.TrimSuffix(name, ext)
				text := strings.ReplaceAll(string(data), oldStem+".", stem+".")
				text = strings.Replace(text, "# "+oldStem+":", "# "+stem+":", 1)
				if err := w.writeFile(name, []byte(text)); err != nil {
					return nil, err
				}
				continue
			}
			if err := copyFile(filepath.Join(x.dir, oldStem+ext), filepath.Join(out, name), force); err != nil {
				return nil, err
			}
		}
		x.f.File = fmt.Sprintf("finding-%d", i+1)
		m.Findings = append(m.Findings, x.f)
		m.ByKind[x.f.Kind]++
	}
	if err := w.writeJSON(ReportFile, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// CheckDir refuses, as bad input, an output folder before anything is written to
// it (or searched for it): a file where the folder should be, and, without force,
// any of the outputs names that an earlier search left there.
func CheckDir(dir string, force bool, names ...string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return bad("--out: found %s, a file, expected a folder for the outputs", dir)
	}
	if force {
		return nil
	}
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return bad("%s already exists; expected a new folder for the outputs (or --force to overwrite)", filepath.Join(dir, n))
		}
	}
	return nil
}

// MakeDir checks an output folder (CheckDir) and makes it.
func MakeDir(dir string, force bool, names ...string) error {
	if err := CheckDir(dir, force, names...); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return bad("--out: %v; expected a folder that can be made", err)
	}
	return nil
}
