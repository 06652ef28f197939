package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/sweep"
)

// load reads a scenario: a file of testdata, or a preset.
func load(t testing.TB, name string) (*presets.Scenario, netsim.Config) {
	t.Helper()
	var s *presets.Scenario
	var err error
	if strings.HasSuffix(name, ".toml") {
		s, err = presets.LoadFile(filepath.Join("testdata", name))
	} else {
		s, err = presets.Load(name)
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return s, cfg
}

// explored runs a search of a scenario and writes its outputs into a new folder.
func explored(t testing.TB, name string, o Options) (*Result, *Report, string) {
	t.Helper()
	s, cfg := load(t, name)
	res, err := Run(context.Background(), s, cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	rep, err := Write(res, o, WriteOptions{Dir: dir, Lang: lang.En, Source: name, Command: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return res, rep, dir
}

// checkFinding checks a written finding as a user would meet it: its recording
// verifies and shows the alert where explore.json says; its scenario, run as sim
// runs it, fails its expectation with that alert; and without any one of its
// actions the alert is gone (the finding is 1-minimal).
func checkFinding(t *testing.T, dir string, f FindingJSON) {
	t.Helper()
	tomlName, traceName, mdName := f.File+".toml", f.File+".trace", f.File+".md"
	v, err := session.Verify(context.Background(), filepath.Join(dir, traceName), session.VerifyOptions{})
	if err != nil || !v.OK {
		t.Fatalf("%s does not verify: %v %+v", traceName, err, v)
	}
	tr, err := session.ReadTrace(filepath.Join(dir, traceName))
	if err != nil {
		t.Fatal(err)
	}
	first := slices.IndexFunc(tr.Events, func(e trace.Event) bool {
		return e.Ev == trace.Alert && (e.Kind == f.Kind || f.Kind == KindExpect) || e.Ev == trace.Expect && f.Kind == KindExpect && e.OK != nil && !*e.OK
	})
	if first < 0 || tr.Events[first].T != f.AtUS {
		t.Fatalf("%s: the first %s is not at %d µs as explore.json says (line %d)", traceName, f.Kind, f.AtUS, first)
	}
	md, err := os.ReadFile(filepath.Join(dir, mdName))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(md), "\n"); n > 8 || !strings.Contains(string(md), f.Story) {
		t.Errorf("%s: %d lines, expected at most 8 with the story:\n%s", mdName, n, md)
	}
	s, err := presets.LoadFile(filepath.Join(dir, tomlName))
	if err != nil {
		t.Fatal(err)
	}
	// The script holds the finding's actions and nothing else: a liveness
	// finding's end of faults is its faults.end, not closing actions.
	if len(s.Script) != len(f.Script) {
		t.Errorf("%s has %d actions, explore.json %d", tomlName, len(s.Script), len(f.Script))
	}
	if _, ok := s.FaultsEnd(); ok != liveKind(f.Kind) {
		t.Errorf("%s: faults.end set %v, expected it set for a liveness finding only", tomlName, ok)
	}
	fails := func(s *presets.Scenario) (bool, string) {
		for _, r := range simExpectations(t, s) {
			if r.Status == netsim.StatusFail {
				return true, r.Got
			}
		}
		return false, ""
	}
	if ok, _ := fails(s); !ok {
		t.Fatalf("%s: sim passes its expectation, expected it to fail", tomlName)
	}
	// 1-minimal: without any one of its [[script]] entries, the scenario passes.
	for i := range s.Script {
		c := *s
		c.Script = slices.Delete(slices.Clone(s.Script), i, i+1)
		if ok, got := fails(&c); ok {
			t.Errorf("%s without %q (at %s) still fails (%s): the finding is not 1-minimal", tomlName, s.Script[i].Do, s.Script[i].At, got)
		}
	}
}

// TestRunSeed: run i's seed comes from the master seed and i alone.
func TestRunSeed(t *testing.T) {
	if RunSeed(1, 0) != splitmix64(1+golden)&^(1<<63) || RunSeed(1, 5) == RunSeed(1, 6) || RunSeed(1, 5) == RunSeed(2, 5) {
		t.Fatal("run seeds are not SplitMix64's outputs from the master seed")
	}
	// Every run's seed fits a scenario file's seed (TOML's signed integers).
	for i := range 1000 {
		if s := RunSeed(17, i); s > math.MaxInt64 {
			t.Fatalf("RunSeed(17, %d) = %d, above what a scenario file holds", i, s)
		}
	}
	// Pinned: a run's seed never changes from one version to the next.
	if got := RunSeed(1, 0); got != 0x110a2dec89025cc1 {
		t.Fatalf("RunSeed(1, 0) = %#x", got)
	}
}

// TestMaekawaDeadlockRandom: the Maekawa triangle without deadlock avoidance, under
// a random request workload with no simultaneous request scripted (it never
// deadlocks in 200 plain seeds), deadlocks under random network faults and request
// bursts: a liveness search finds the starvation, shrunk to at most 3 actions.
func TestMaekawaDeadlockRandom(t *testing.T) {
	s, _ := load(t, "maekawa-workload.toml")
	for seed := uint64(1); seed <= 200; seed++ {
		s.Seed = seed
		cfg, _ := s.Resolve()
		sum, err := session.Run(cfg, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range sum.Alerts {
			if a.Kind == "starvation" {
				t.Fatalf("seed %d starves without faults: the workload alone finds the deadlock", seed)
			}
		}
	}
	res, rep, dir := explored(t, "maekawa-workload.toml", Options{Seed: 1, Runs: 500, Liveness: true, Faults: []string{FaultNetwork}})
	if len(rep.Findings) != 1 || rep.Findings[0].Kind != KindStarvation {
		t.Fatalf("%d runs, findings %+v: expected a starvation", res.Runs, rep.Findings)
	}
	f := rep.Findings[0]
	if f.Actions > 3 || !f.Shrink.Fixpoint {
		t.Errorf("shrunk to %d actions (fixpoint %v), expected at most 3: %v", f.Actions, f.Shrink.Fixpoint, f.Script)
	}
	checkFinding(t, dir, f)
}

// TestMaekawaDeadlockSystematic: systematic mode finds the same deadlock by
// delaying messages, and says how many schedules it explored.
func TestMaekawaDeadlockSystematic(t *testing.T) {
	res, rep, dir := explored(t, "maekawa-workload.toml", Options{Mode: ModeSystematic, Liveness: true, Crashes: 0, Delays: 2, Time: time.Minute})
	if len(rep.Findings) != 1 || rep.Findings[0].Kind != KindStarvation || res.Runs < 1 {
		t.Fatalf("%d schedules (%s), findings %+v: expected a starvation", res.Runs, res.Stopped, rep.Findings)
	}
	f := rep.Findings[0]
	if f.Actions > 3 {
		t.Errorf("shrunk to %d actions, expected at most 3: %v", f.Actions, f.Script)
	}
	if len(f.Schedule) == 0 || !slices.ContainsFunc(f.Schedule, func(s string) bool { return strings.Contains(s, "delay #") || strings.Contains(s, "deliver #") }) {
		t.Errorf("the schedule %v departs from the default order by no message action", f.Schedule)
	}
	checkFinding(t, dir, f)
}

// TestRicartPriority: Ricart-Agrawala by priority lets two processes in; the
// finding is shrunk and its recording replays the alert.
func TestRicartPriority(t *testing.T) {
	_, rep, dir := explored(t, "ricart-priority-workload.toml", Options{Seed: 3, Runs: 500})
	if len(rep.Findings) != 1 || rep.Findings[0].Kind != KindMutex {
		t.Fatalf("findings %+v: expected a mutual exclusion violation", rep.Findings)
	}
	checkFinding(t, dir, rep.Findings[0])
}

// TestQuorumAmnesia: majority quorums whose coordinators forget their grants in a
// crash, from an empty script: found and shrunk to at most 5 actions.
func TestQuorumAmnesia(t *testing.T) {
	_, rep, dir := explored(t, "quorum-empty.toml", Options{Seed: 1, Runs: 5000})
	if len(rep.Findings) != 1 || rep.Findings[0].Kind != KindMutex {
		t.Fatalf("findings %+v: expected a mutual exclusion violation", rep.Findings)
	}
	f := rep.Findings[0]
	if f.Actions > 5 {
		t.Errorf("shrunk to %d actions, expected at most 5: %v", f.Actions, f.Script)
	}
	checkFinding(t, dir, f)
}

// TestPlantedMutants: the mutants' bugs are found: two in the critical section,
// and two leaders in one term.
func TestPlantedMutants(t *testing.T) {
	for _, c := range []struct {
		file, kind string
	}{{"ricart-mutant.toml", KindMutex}, {"raft-mutant.toml", KindSplit}} {
		t.Run(c.file, func(t *testing.T) {
			_, rep, dir := explored(t, c.file, Options{Seed: 1, Runs: 2000})
			if len(rep.Findings) != 1 || rep.Findings[0].Kind != c.kind {
				t.Fatalf("findings %+v: expected %s", rep.Findings, c.kind)
			}
			checkFinding(t, dir, rep.Findings[0])
		})
	}
	// The same scenarios with the real algorithms break nothing.
	for _, c := range []struct{ file, algo string }{{"ricart-mutant.toml", "ricart"}, {"raft-mutant.toml", "raft"}} {
		s, _ := load(t, c.file)
		s.Algorithm = c.algo
		cfg, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), s, cfg, Options{Seed: 1, Runs: 300})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) > 0 {
			t.Errorf("%s with %s: %+v", c.file, c.algo, res.Findings[0].FoundWhat)
		}
	}
}

// controls are the negative controls: correct algorithms under the faults they
// tolerate, which a search must not break.
var controls = []struct {
	name string
	o    Options
}{
	{"central", Options{Faults: []string{FaultNetwork}}},
	{"ricart", Options{Faults: []string{FaultNetwork}}},
	{"raft.toml", Options{}},
	{"maekawa-free", Options{Faults: []string{FaultNetwork}, Liveness: true}},
}

// control runs a negative control for runs runs.
func control(t *testing.T, runs int) {
	for _, c := range controls {
		t.Run(c.name, func(t *testing.T) {
			name := c.name
			if name == "maekawa-free" {
				name = "maekawa-workload.toml"
			}
			s, _ := load(t, name)
			if c.name == "maekawa-free" {
				s.Params["deadlock_free"] = true
			}
			cfg, err := s.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			o := c.o
			o.Seed, o.Runs = 1, runs
			res, err := Run(context.Background(), s, cfg, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Runs != runs || len(res.Findings) > 0 {
				t.Fatalf("%d runs, findings: %+v", res.Runs, res.Findings)
			}
		})
	}
}

// TestNegativeControlsBrief runs the controls for 100 runs each; the 2,000 of
// TestNegativeControls run in the plain pass.
func TestNegativeControlsBrief(t *testing.T) { control(t, 100) }

// TestSameOutputWhateverTheJobs: --jobs 1 and --jobs 2 write the same bytes, but
// for the timings.
func TestSameOutputWhateverTheJobs(t *testing.T) {
	var dirs []string
	for _, jobs := range []int{1, 2} {
		_, _, dir := explored(t, "quorum-empty.toml", Options{Seed: 2, Runs: 3000, Findings: 2, Jobs: jobs})
		dirs = append(dirs, dir)
	}
	sameOutputs(t, dirs[0], dirs[1])
}

// sameOutputs checks that two output folders hold the same files, byte for byte,
// the timings apart.
func sameOutputs(t *testing.T, a, b string) {
	t.Helper()
	names := func(dir string) []string {
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			if e.Name() != TimingsFile {
				out = append(out, e.Name())
			}
		}
		return out
	}
	na, nb := names(a), names(b)
	if !slices.Equal(na, nb) || !slices.Contains(na, "finding-1.trace") {
		t.Fatalf("files %v and %v", na, nb)
	}
	for _, n := range na {
		x, _ := os.ReadFile(filepath.Join(a, n))
		y, _ := os.ReadFile(filepath.Join(b, n))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs:\n%s\n---\n%s", n, x, y)
		}
	}
}

// TestShardsMerge: three shards, merged, write what one machine writes.
func TestShardsMerge(t *testing.T) {
	o := Options{Seed: 4, Runs: 3000, Findings: 2}
	_, _, whole := explored(t, "quorum-empty.toml", o)
	var dirs []string
	for i := 1; i <= 3; i++ {
		so := o
		so.Shard.I, so.Shard.K = i, 3
		_, _, d := explored(t, "quorum-empty.toml", so)
		dirs = append(dirs, d)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if _, err := Merge(dirs, merged, false); err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, whole, merged)
	if _, err := Merge(dirs[:2], filepath.Join(t.TempDir(), "m2"), false); err == nil || !strings.Contains(err.Error(), "found 2 of the 3 shards") {
		t.Errorf("merging 2 of 3 shards: %v", err)
	}
	// Shards that find nothing within the default budget (no --runs, no --time)
	// merge into the runs one machine would have made: 2,000.
	s, _ := load(t, "ricart-workload.toml")
	s.Until = "100ms"
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	dirs = nil
	for i := 1; i <= 2; i++ {
		o := Options{Seed: 1, Faults: []string{FaultNetwork}, Shard: sweep.Shard{I: i, K: 2}}
		res, err := Run(context.Background(), s, cfg, o)
		if err != nil || len(res.Findings) > 0 {
			t.Fatalf("shard %d: %v %+v", i, err, res)
		}
		d := filepath.Join(t.TempDir(), "shard")
		if _, err := Write(res, o, WriteOptions{Dir: d, Lang: lang.En, Source: "ricart-workload.toml"}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	rep, err := Merge(dirs, filepath.Join(t.TempDir(), "none"), false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs != DefaultRuns || rep.Budget.Runs != DefaultRuns || rep.Stopped != "runs" {
		t.Errorf("merged shards that found nothing in the default budget: %d runs of %d (%s)", rep.Runs, rep.Budget.Runs, rep.Stopped)
	}
}

// TestBadInput: every refusal is one line naming the flag and what was expected.
func TestBadInput(t *testing.T) {
	s, cfg := load(t, "maekawa-workload.toml")
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Mode: "bfs"}, `--mode: found "bfs", expected random or systematic`},
		{Options{Faults: []string{"disk"}}, `--faults: found "disk", expected network, crash, slow or all`},
		{Options{Properties: []string{"split-brain"}}, `--property: found "split-brain", which maekawa (mutex) has no monitor for`},
		{Options{Properties: []string{"starvation"}}, `--property: found "starvation", a liveness property, expected --liveness with it`},
		{Options{Properties: []string{"deadlock"}}, `--property: found "deadlock", expected one of mutex, split-brain, expect, starvation, no-leader`},
		{Options{Runs: -1}, "--runs: found -1"},
	} {
		_, err := Run(context.Background(), s, cfg, c.o)
		var bad *BadInput
		if !errors.As(err, &bad) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: got %v, expected %s", c.o, err, c.want)
		}
	}
	q, qcfg := load(t, "quorum-empty.toml")
	q.Nodes = 6
	qcfg, _ = q.Resolve()
	if _, err := Run(context.Background(), q, qcfg, Options{Mode: ModeSystematic}); err == nil || !strings.Contains(err.Error(), "found 6 nodes, expected at most 5") {
		t.Errorf("systematic on 6 nodes: %v", err)
	}
}

// TestShrinkRecording: shrink makes a recording that raises an alert into the
// smallest scenario that still raises it, 1-minimal.
func TestShrinkRecording(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "q.jsonl")
	s, cfg := load(t, "quorum-amnesia")
	out, err := session.CreateOutput(path, false)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := session.Record(out, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A user action that plays no part in the violation: the shrink drops it.
	cfg.UserActions = []netsim.Timed{{At: 300 * time.Millisecond, Action: netsim.Action{Verb: "slow", Node: 5, Factor: 3}}}
	_, now, err := session.RunContext(context.Background(), cfg, 0, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec.End(trace.EndUntil, now.Microseconds())
	rec.Close()
	out.Commit()
	r, err := ShrinkFile(context.Background(), path, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r.Violation.Kind != KindMutex || !r.Stats.Fixpoint || r.Stats.After >= r.Stats.Before {
		t.Fatalf("shrunk %+v to %v", r.Stats, r.Violation)
	}
	for _, a := range r.Variant.Actions {
		if a.Action.Verb == "slow" || a.Action.Verb == "marker" {
			t.Errorf("the shrunk scenario keeps %v", a.Action)
		}
	}
	to := filepath.Join(dir, ShrunkName("q.jsonl"))
	if _, err := WriteShrunk(r, path, to, false, lang.En); err != nil {
		t.Fatal(err)
	}
	got, err := presets.LoadFile(to)
	if err != nil {
		t.Fatal(err)
	}
	gcfg, _ := got.Resolve()
	sum, _ := session.Run(gcfg, 0, nil)
	if sum.Passed || !slices.ContainsFunc(sum.Alerts, func(a netsim.AlertRecord) bool { return a.Kind == KindMutex }) {
		t.Fatalf("the shrunk scenario does not fail with a mutex alert: %+v", sum.Expectations)
	}
	if _, err := WriteShrunk(r, path, to, false, lang.En); err == nil {
		t.Error("shrink overwrote its output without --force")
	}
	// A run that fails nothing is refused.
	if _, err := ShrinkFile(context.Background(), filepath.Join("testdata", "raft.toml"), time.Second); err == nil || !strings.Contains(err.Error(), "fails nothing") {
		t.Errorf("shrinking a passing scenario: %v", err)
	}
}

// TestShrinkExpectationSameWay: a scenario whose expectation fails is shrunk to
// one where it fails the same way, with what the run had instead: agree n4
// fails while n3 leads (n4 and n5 crashed), not with no action at all, where it
// fails because n5 still leads.
func TestShrinkExpectationSameWay(t *testing.T) {
	r, err := ShrinkFile(context.Background(), filepath.Join("testdata", "bully-agree.toml"), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	const got = "n1→n3 n2→n3 n3→n3"
	if r.Violation.Kind != KindExpect || r.Violation.Text != "agree n4" || r.Violation.Got != got || !r.Stats.Fixpoint {
		t.Fatalf("shrunk %+v to %+v", r.Stats, r.Violation)
	}
	var verbs []string
	for _, a := range r.Variant.Actions {
		verbs = append(verbs, a.Action.String())
	}
	if !slices.Equal(verbs, []string{"crash n4", "crash n5"}) {
		t.Errorf("shrunk to %v, expected the crashes of n4 and n5", verbs)
	}
	to := filepath.Join(t.TempDir(), "agree.toml")
	if _, err := WriteShrunk(r, "bully-agree.toml", to, false, lang.En); err != nil {
		t.Fatal(err)
	}
	s, err := presets.LoadFile(to)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := s.Resolve()
	sum, _ := session.Run(cfg, 0, nil)
	if len(sum.Expectations) != 1 || sum.Expectations[0].Status != netsim.StatusFail || sum.Expectations[0].Got != got {
		t.Errorf("the shrunk scenario's expectation: %+v, expected agree n4 to fail with %s", sum.Expectations, got)
	}
}

// TestReportSchema: explore.json is what docs/explore-json.md describes: every key
// documented is there.
func TestReportSchema(t *testing.T) {
	_, rep, dir := explored(t, "ricart-priority-workload.toml", Options{Seed: 3, Runs: 500})
	data, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil || m["schema"] != Schema || len(rep.Findings) != 1 {
		t.Fatalf("%v %v", err, m["schema"])
	}
	doc, err := os.ReadFile("../docs/explore-json.md")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				keys = append(keys, k)
				if k != "findings_by_kind" { // its keys are the kinds
					walk(e)
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(m)
	for _, k := range keys {
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("docs/explore-json.md does not describe %q", k)
		}
	}
}

// TestSplitBrainRule: for an algorithm without terms, a split brain inside a
// partition is the lesson, not a finding; one still there the settle time after
// the heal is. For one with terms, two leaders in a term always are.
func TestSplitBrainRule(t *testing.T) {
	s, cfg := load(t, "bully-split-brain")
	b, _ := NewBase(s, cfg)
	v := &Variant{Seed: cfg.Seed, Actions: cfg.Script}
	p := &properties{kinds: []string{KindSplit}}
	us := func(d time.Duration) int64 { return d.Microseconds() }
	split := func(at, cleared time.Duration) []netsim.AlertRecord {
		c := int64(-1)
		if cleared >= 0 {
			c = us(cleared)
		}
		return []netsim.AlertRecord{{AtUS: us(at), Kind: KindSplit, Text: "2 live nodes lead at once", ClearedUS: c}}
	}
	heal := time.Duration(-1)
	for _, a := range cfg.Script {
		if a.Action.Verb == "heal" {
			heal = a.At
		}
	}
	if heal < 0 || b.Settle <= 0 {
		t.Fatalf("bully-split-brain has no heal (%v) or no settle time (%v)", heal, b.Settle)
	}
	for _, c := range []struct {
		name    string
		cleared time.Duration
		finding bool
	}{
		{"cleared inside the partition", heal - time.Second, false},
		{"cleared soon after the heal", heal + b.Settle/2, false},
		{"still there the settle time after the heal", heal + b.Settle + time.Second, true},
		{"never cleared", -1, true},
	} {
		x := p.check(b, v, cfg.Script, split(heal-2*time.Second, c.cleared), nil, cfg.Until)
		if (x != nil) != c.finding {
			t.Errorf("%s: finding %v, expected %v", c.name, x, c.finding)
		}
	}
	r, rcfg := load(t, "raft-partition")
	rb, _ := NewBase(r, rcfg)
	if x := p.check(rb, &Variant{Seed: rcfg.Seed, Actions: rcfg.Script}, rcfg.Script, split(4*time.Second, 4*time.Second+time.Millisecond), nil, rcfg.Until); x == nil {
		t.Error("two leaders in one term, even for a moment, is not a finding")
	}
}

// TestDrawnCount: a run draws 0 to 40 actions (the bound, and
// explore.json's profile count says so), however its bursts of requests and its
// faults' ends fall, and the count is what it added.
func TestDrawnCount(t *testing.T) {
	for _, c := range []struct {
		name     string
		liveness bool
	}{{"maekawa-workload.toml", true}, {"quorum-empty.toml", false}} {
		s, cfg := load(t, c.name)
		b, err := NewBase(s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		sr, err := newSearch(context.Background(), b, Options{Liveness: c.liveness})
		if err != nil {
			t.Fatal(err)
		}
		most := 0
		for i := range 3000 {
			v, p, err := sr.draw(RunSeed(1, i))
			if err != nil {
				t.Fatal(err)
			}
			if p.Count > maxDrawn || len(v.Actions)-len(s.Script) != p.Count {
				t.Fatalf("%s run %d: profile count %d, %d actions drawn; expected at most %d", c.name, i, p.Count, len(v.Actions)-len(s.Script), maxDrawn)
			}
			most = max(most, p.Count)
		}
		if most != maxDrawn {
			t.Errorf("%s: at most %d actions drawn in 3,000 runs, expected some run to draw %d", c.name, most, maxDrawn)
		}
	}
}

// TestProfileText: a profile of one action or one burst says it in the
// singular, in the text and in explore.json's timing.
func TestProfileText(t *testing.T) {
	p := Profile{Verbs: []string{"request"}, Count: 1, bursts: 1, window: 20 * time.Millisecond}
	if got, want := p.Text(lang.En), "1 action (request), in 1 burst within 20ms"; got != want {
		t.Errorf("%q, expected %q", got, want)
	}
	p.Count, p.bursts, p.half = 3, 2, true
	if got, want := p.Text(lang.En), "3 actions (request), in 2 bursts within 20ms, half of them spread out"; got != want {
		t.Errorf("%q, expected %q", got, want)
	}
	// The latency's distribution in the reader's language.
	p.Latency = "constant 5ms"
	if got, want := p.Text(lang.Pt), "3 ações (request), em 2 rajadas dentro de 20ms, "; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "constante 5ms") {
		t.Errorf("%q, expected %q… and the latency constante 5ms", got, want)
	}
	s, cfg := load(t, "maekawa-workload.toml")
	b, _ := NewBase(s, cfg)
	sr, err := newSearch(context.Background(), b, Options{Liveness: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if _, p, _ := sr.draw(RunSeed(1, i)); strings.HasPrefix(p.Timing, "1 bursts") || p.bursts == 1 && !strings.HasPrefix(p.Timing, "1 burst within") {
			t.Fatalf("run %d: timing %q", i, p.Timing)
		}
	}
}

// TestLivenessFindingOpenAlert: a liveness finding's scenario expects no alert of
// its kind still open at the end. Yo-Yo's election is slow: without the
// finding's crash, the run of the seed the shrinking chose raises a no-leader
// alert that ends 75 ms later, which "no alert no-leader" counted, so deleting
// the crash from the finding's scenario still failed it.
func TestLivenessFindingOpenAlert(t *testing.T) {
	_, rep, dir := explored(t, "yoyo", Options{Seed: 2, Liveness: true})
	if len(rep.Findings) != 1 || rep.Findings[0].Kind != KindNoLeader {
		t.Fatalf("findings %+v: expected a no-leader", rep.Findings)
	}
	s, err := presets.LoadFile(filepath.Join(dir, rep.Findings[0].File+".toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Expect) != 1 || s.Expect[0].That != "no open alert no-leader" {
		t.Errorf("the finding expects %+v, expected no open alert no-leader", s.Expect)
	}
	checkFinding(t, dir, rep.Findings[0])
}

// TestLivenessFindingsOneMinimalAsText: a liveness finding's scenario file, as a
// student checks it: the whole file fails its expectation; deleting any one
// [[script]] entry from the text (its story comment, header, at and do) and
// running what is left passes it, the alert lost. The end of the faults is the
// file's faults.end, when the search stopped drawing faults, and no entry of the
// script. Shrinking the file again keeps that end and fails the same way.
func TestLivenessFindingsOneMinimalAsText(t *testing.T) {
	for _, c := range []struct {
		name string
		o    Options
		kind string
	}{
		{"maekawa-workload.toml", Options{Seed: 1, Runs: 500, Liveness: true}, KindStarvation},
		{"maekawa-workload.toml", Options{Seed: 1, Runs: 500, Liveness: true, Faults: []string{FaultNetwork}}, KindStarvation},
		{"yoyo", Options{Seed: 2, Liveness: true}, KindNoLeader},
	} {
		t.Run(c.name+"/"+strings.Join(c.o.Faults, ","), func(t *testing.T) {
			res, rep, dir := explored(t, c.name, c.o)
			if len(rep.Findings) != 1 || rep.Findings[0].Kind != c.kind {
				t.Fatalf("findings %+v: expected %s", rep.Findings, c.kind)
			}
			path := filepath.Join(dir, rep.Findings[0].File+".toml")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			if strings.Contains(text, "(liveness)") || !strings.Contains(text, "\n[faults]\n# When every fault ends") {
				t.Fatalf("%s: expected faults.end with its comment and no closing actions:\n%s", path, text)
			}
			open := func(text string) bool {
				s, err := presets.Parse(path, []byte(text))
				if err != nil {
					t.Fatalf("%v\n%s", err, text)
				}
				if end, ok := s.FaultsEnd(); !ok || end != res.horizon {
					t.Fatalf("faults.end = %v (set %v), expected %v, where the search stopped drawing faults", end, ok, res.horizon)
				}
				got := simExpectations(t, s)
				if len(got) != 1 || got[0].Text != "no open alert "+c.kind {
					t.Fatalf("expectations %+v", got)
				}
				return got[0].Status == netsim.StatusFail
			}
			if !open(text) {
				t.Fatalf("%s passes its expectation, expected the alert open at the end", path)
			}
			entries := scriptEntries(text)
			if len(entries) == 0 || len(entries) != len(rep.Findings[0].Script) {
				t.Fatalf("%s: %d [[script]] entries, explore.json %d actions", path, len(entries), len(rep.Findings[0].Script))
			}
			for _, e := range entries {
				without := text[:e[0]] + text[e[1]:]
				if open(without) {
					t.Errorf("%s without\n%s\nstill ends with the alert open: the finding is not 1-minimal", path, text[e[0]:e[1]])
				}
			}
			sh, err := ShrinkFile(context.Background(), path, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if end, ok := sh.Base.endOf(sh.Variant); !ok || end != res.horizon || sh.Violation.Kind != c.kind || len(sh.Variant.Actions) > len(entries) {
				t.Fatalf("shrunk again: end %v (%v), %s, %d actions; expected the end kept, %s, at most %d actions", end, ok, sh.Violation.Kind, len(sh.Variant.Actions), c.kind, len(entries))
			}
			out := filepath.Join(t.TempDir(), "shrunk.toml")
			if _, err := WriteShrunk(sh, path, out, false, lang.En); err != nil {
				t.Fatal(err)
			}
			again, err := presets.LoadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if end, ok := again.FaultsEnd(); !ok || end != res.horizon || len(again.Script) != len(sh.Variant.Actions) {
				t.Fatalf("%s: faults.end %v (%v), %d actions", out, end, ok, len(again.Script))
			}
		})
	}
}

// simExpectations runs a scenario as sim does and returns its expectations'
// results.
func simExpectations(t *testing.T, s *presets.Scenario) []netsim.Result {
	t.Helper()
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := session.Run(cfg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sum.Expectations
}

// scriptEntries are where each [[script]] entry of a scenario file's text starts
// and ends: the paragraph (lines between blank lines) that holds its header, with
// its story comment.
func scriptEntries(text string) [][2]int {
	var out [][2]int
	for pos := 0; pos < len(text); {
		n := strings.Index(text[pos:], "\n\n")
		end := len(text)
		if n >= 0 {
			end = pos + n + 1
		}
		if strings.Contains(text[pos:end], "\n[[script]]\n") || strings.HasPrefix(text[pos:end], "[[script]]\n") {
			out = append(out, [2]int{pos, end + 1})
		}
		pos = end + 1
	}
	return out
}
