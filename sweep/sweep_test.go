package sweep

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/internal/race"
	"github.com/clusterlab/clusterlab/node"

	_ "github.com/clusterlab/clusterlab/algos/all"
)

// plan loads an embedded sweep reduced to seeds and the first k values of numeric
// axes.
func plan(t *testing.T, name string, seeds, k int, shard Shard) *Plan {
	t.Helper()
	s, err := Load(name)
	if err != nil {
		t.Fatal(err)
	}
	s.WithSeeds(seeds)
	s.Shrink(k)
	p, err := NewPlan(s, shard)
	if err != nil {
		t.Fatal(err)
	}
	testDPI(p)
	return p
}

// testDPI draws the PNG plots of a test's sweep small under the race detector,
// where drawing them takes most of a test's time; the SVGs are the same.
func testDPI(p *Plan) { p.DPI = dpiForTests() }

func dpiForTests() int {
	if race.Enabled {
		return MinDPI
	}
	return 0
}

// runAll runs every run of the plan and returns the results in run order.
func runAll(p *Plan, jobs int) []Result {
	var out []Result
	p.Execute(context.Background(), jobs, func(r Result) { out = append(out, r) })
	return out
}

// writeDir runs the plan into dir with jobs workers.
func writeDir(t *testing.T, p *Plan, dir string, jobs int) *Outcome {
	t.Helper()
	o, err := p.RunTo(context.Background(), dir, false, jobs, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// summarize gathers results as the outputs do, writing no file.
func summarize(p *Plan, results []Result) *outputs {
	o := p.newOutputs(nil, false)
	for _, r := range results {
		o.add(r)
	}
	o.finish()
	return o
}

// parsePlan plans a whole sweep given as text.
func parsePlan(t *testing.T, src string) *Plan {
	t.Helper()
	s, err := Parse("t.toml", []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(s, Shard{})
	if err != nil {
		t.Fatal(err)
	}
	testDPI(p)
	return p
}

// TestEmbeddedSweeps runs every embedded sweep at a reduced size (one seed, the
// first three values of every numeric axis) and checks what it writes:
//   - every run meets the sweep's expectations;
//   - report.md read with a real Markdown parser: every table row has its
//     header's cells, none lost to a | left unescaped;
//   - every plot's SVG is its golden's bytes (refresh with go test ./sweep -run
//     EmbeddedSweeps -update, after looking at both) and reads as a report needs
//     it (checkPlot: ticks, labels, legend, colours).
func TestEmbeddedSweeps(t *testing.T) {
	pipes := 0
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			if name == "quorum-amnesia" && race.Enabled {
				t.Skip("five minutes of a quorum retrying every 4 ms, per cell: minutes under the race detector (.ci/run runs it in a plain pass)")
			}
			p := plan(t, name, 1, 3, Shard{})
			if p.Runs() == 0 {
				t.Fatal("no runs")
			}
			dir := filepath.Join(t.TempDir(), "out")
			f, err := openFolder(dir, false)
			if err != nil {
				t.Fatal(err)
			}
			outs := p.newOutputs(f, true)
			p.Execute(context.Background(), 0, outs.add)
			o, err := p.finish(f, outs, reportInfo{command: "clusterlab sweep --preset " + name}, 0, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range o.FailedList {
				t.Errorf("%s", f)
			}
			report, err := os.ReadFile(filepath.Join(dir, ReportFile))
			if err != nil {
				t.Fatal(err)
			}
			pipes += checkTables(t, report)
			figs := p.figures(outs.cells)
			if len(figs) == 0 {
				t.Fatal("no plot")
			}
			for _, fig := range figs {
				data, err := os.ReadFile(filepath.Join(dir, fig.file+".svg"))
				if err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", "plots", name, fig.file+".svg")
				if *update {
					os.MkdirAll(filepath.Dir(golden), 0o755)
					os.WriteFile(golden, data, 0o644)
				}
				if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(data, want) {
					t.Errorf("%s differs from %s (%v): look at both, then -update", fig.file, golden, err)
				}
				checkPlot(t, fig, data)
			}
		})
	}
	if pipes == 0 {
		t.Error("no table cell of any report holds a |: the escaping is not tested (Maekawa's |V| should be)")
	}
}

// TestRingComplexityGolden pins summary.csv of ring-complexity at N = 4, 8, 16 with
// two seeds. Refresh with: go test ./sweep -run Golden -update
func TestRingComplexityGolden(t *testing.T) {
	p := plan(t, "ring-complexity", 2, 3, Shard{})
	dir := t.TempDir()
	writeDir(t, p, dir, 0)
	got, _ := os.ReadFile(filepath.Join(dir, SummaryFile))
	golden := filepath.Join("testdata", "ring-complexity.summary.csv")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("summary.csv differs from %s:\n%s", golden, got)
	}
}

// TestShardsMergeToTheSame: shards 1/3, 2/3 and 3/3 merged give the very bytes of
// the unsharded results.csv and summary.csv, whatever the number of jobs.
func TestShardsMergeToTheSame(t *testing.T) {
	dir := t.TempDir()
	s := smallRingComplexity(t, "seeds = 2")
	whole, err := NewPlan(s, Shard{})
	if err != nil {
		t.Fatal(err)
	}
	testDPI(whole)
	writeDir(t, whole, filepath.Join(dir, "whole"), 1)
	dirs := writeShards(t, s, 3, 2, dir)
	if _, err := Merge(dirs, filepath.Join(dir, "merged"), false, dpiForTests(), "", io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ResultsFile, SummaryFile, ReportFile, "sent.total-vs-nodes.svg", "sent.total-vs-nodes.png"} {
		a, _ := os.ReadFile(filepath.Join(dir, "whole", f))
		b, _ := os.ReadFile(filepath.Join(dir, "merged", f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: merged shards differ from the whole run:\n%s", f, firstDiff(a, b))
		}
	}
	// Merging a shard twice is refused.
	if _, err := Merge([]string{dirs[0], dirs[0]}, filepath.Join(dir, "twice"), false, dpiForTests(), "", io.Discard); err == nil {
		t.Error("a shard merged twice was accepted")
	}
}

// smallRingComplexity is the ring-complexity sweep at N = 4 and 8, its seeds set
// as seeds says, as a file a user could write.
func smallRingComplexity(t *testing.T, seeds string) *Sweep {
	t.Helper()
	src, err := embedded.ReadFile("presets/ring-complexity.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "nodes = [4, 8, 16, 32, 64, 128]", "nodes = [4, 8]", 1)
	text = strings.Replace(text, "seeds = 3", seeds, 1)
	s, err := Parse("small.toml", []byte(text), "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writeShards runs the sweep's k shards with jobs workers each and writes them to
// dir/shard/1 … k, whose paths it returns.
func writeShards(t *testing.T, s *Sweep, k, jobs int, dir string) []string {
	t.Helper()
	var dirs []string
	for i := 1; i <= k; i++ {
		p, err := NewPlan(s, Shard{i, k})
		if err != nil {
			t.Fatal(err)
		}
		testDPI(p)
		d := filepath.Join(dir, "shard", strconv.Itoa(i))
		writeDir(t, p, d, jobs)
		dirs = append(dirs, d)
	}
	return dirs
}

// TestMergeCountsMissingRuns: merging every shard of a sweep leaves no run
// missing; merging only some says how many runs the others hold (the command then
// exits 1).
func TestMergeCountsMissingRuns(t *testing.T) {
	dir := t.TempDir()
	s, err := Parse("small.toml", []byte("name = \"small\"\nbase = \"ring\"\nseeds = 2\n[axes]\nnodes = [8, 10]\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	dirs := writeShards(t, s, 2, 1, dir)
	for _, c := range []struct {
		dirs          []string
		runs, missing int
	}{{dirs, 4, 0}, {dirs[:1], 2, 2}, {dirs[1:], 2, 2}} {
		o, err := Merge(c.dirs, filepath.Join(dir, "merged", strconv.Itoa(len(c.dirs))+filepath.Base(c.dirs[0])), false, dpiForTests(), "", io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if o.Runs != c.runs || o.Missing != c.missing {
			t.Errorf("merged %d shard(s) from %s: %d runs, %d missing; want %d and %d", len(c.dirs), c.dirs[0], o.Runs, o.Missing, c.runs, c.missing)
		}
	}
}

// TestPlotsAreSVG: every plot parses as XML and has one solid path through the
// points per series, and one dashed theory path per series.
func TestPlotsAreSVG(t *testing.T) {
	dir := t.TempDir()
	p := plan(t, "ring-complexity", 1, 3, Shard{})
	writeDir(t, p, dir, 2)
	data, err := os.ReadFile(filepath.Join(dir, "sent.total-vs-nodes.svg"))
	if err != nil {
		t.Fatal(err)
	}
	_, paths := svgContents(t, data)
	solid, dashed := 0, 0
	for _, p := range paths {
		// A series' line joins the 3 nodes values: 2 segments, in colour.
		if strings.Count(p.d, "L") == 2 && !strings.Contains(p.d, "Z") && !strings.Contains(p.style, "stroke:#000000") {
			if strings.Contains(p.style, "dasharray") {
				dashed++
			} else {
				solid++
			}
		}
	}
	if solid != 4 || dashed != 4 {
		t.Errorf("found %d solid and %d dashed series paths, want 4 and 4 (2 initiators × 2 orders)", solid, dashed)
	}
	for _, f := range []string{"sent.total-vs-nodes.png", ReportFile, TimingsFile} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestBadSweeps: each bad sweep file gets one line with its position.
func TestBadSweeps(t *testing.T) {
	const good = "name = \"t\"\nbase = \"ring\"\nseeds = 2\nset = {\"params.initiators\" = \"all\"}\n[axes]\nnodes = [4, 8]\n[[plot]]\nx = \"nodes\"\ny = \"sent.total\"\n[[expect]]\nthat = \"sent.total == theory\"\n"
	for _, tc := range []struct{ old, new, want string }{
		{"seeds = 2", "seeds = 2\ncolour = 1", `t.toml:4:1: found unknown key "colour", expected one of the sweep format's keys: ` + keys},
		{`base = "ring"`, `base = "rink"`, `t.toml:2:8: found base = "rink", expected a preset: `},
		{"seeds = 2", "seeds = 0", "t.toml:3:9: found seeds = 0, expected a count from 1 to 100000 or a list"},
		{"nodes = [4, 8]", "nodes = [4, 0]", "t.toml:6:13: in the cell nodes=0: found nodes = 0, expected 1 to "},
		{"nodes = [4, 8]", "nodes = 4", "t.toml:6:9: found nodes = 4, expected a list of values such as [4, 8, 16]"},
		{`x = "nodes"`, `x = "size"`, `t.toml:8:5: found x = "size", expected one of the axes: nodes`},
		{`that = "sent.total == theory"`, `that = "sent.total ~ theory"`, `t.toml:11:20: found "~", expected `},
		{`that = "sent.total == theory"`, `that = "sends == 3"`, `t.toml:11:9: found metric "sends", expected one of the metrics: `},
		{"nodes = [4, 8]", "nodes = [4]\nids = [[1, 2], [2, 2]]", `t.toml:7:16: in the cell nodes=4 ids=[2,2]: found id 2 a second time, expected distinct ids`},
	} {
		_, err := Parse("t.toml", []byte(strings.Replace(good, tc.old, tc.new, 1)), "")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s:\n got %v\nwant %s…", tc.new, err, tc.want)
		}
	}
}

// TestViolationsCounted: the quorum-amnesia scenario, whose script makes two
// participants share the critical section, counts as a violation in results.
func TestViolationsCounted(t *testing.T) {
	src := "base = \"quorum-amnesia\"\n[axes]\n\"params.cs_hold\" = [\"3s\"]\n" +
		"[[expect]]\nthat = \"violations >= 1\"\n[[expect]]\nthat = \"alerts.mutex >= 1\"\n[[expect]]\nthat = \"violations_per_entry > 0\"\n"
	p := parsePlan(t, src)
	for _, r := range runAll(p, 1) {
		if !r.Passed {
			t.Errorf("%s: %v", p.Describe(r.Run), r.Failures)
		}
	}
}

// TestMessageSize: collect-ring with every process starting sends N² messages of
// 1, 2, …, N ids (notes 003, Algoritmo do Anel 2), so size.total is N·N(N+1)/2,
// size.max N and size.mean (N+1)/2; ring's messages carry no list.
func TestMessageSize(t *testing.T) {
	src := "base = \"collect-ring\"\nseeds = 2\n[set]\n\"params.initiators\" = \"all\"\n[axes]\nnodes = [3, 5, 8]\n" +
		"algorithm = [\"collect-ring\", \"ring\"]\n"
	p := parsePlan(t, src)
	for _, r := range runAll(p, 2) {
		n := float64(p.values(r.Cell)[0].(int64))
		want := map[string]float64{"size.total": n * n * (n + 1) / 2, "size.max": n, "size.mean": (n + 1) / 2, "sent.total": n * n}
		if p.values(r.Cell)[1] == "ring" {
			want = map[string]float64{"size.total": 0, "size.max": 0, "size.mean": 0}
		}
		for m, w := range want {
			if got, ok := r.Values[m]; !ok || got != w {
				t.Errorf("%s: %s = %v (present %v), want %v", p.Describe(r.Run), m, got, ok, w)
			}
		}
	}
	if !validMetric("size.max") || !slices.Contains(p.Columns, "size.total") {
		t.Error("size.max is not a metric a sweep file may name, or size.total is not a column")
	}
}

// TestSameBytesForAnyJobs: every output but the wall times is the same bytes with
// one job as with three, runs and files alike.
func TestSameBytesForAnyJobs(t *testing.T) {
	dir := t.TempDir()
	p := plan(t, "ring-complexity", 2, 3, Shard{})
	for _, jobs := range []int{1, 3} {
		writeDir(t, p, filepath.Join(dir, fmt.Sprint(jobs)), jobs)
	}
	files, _ := os.ReadDir(filepath.Join(dir, "1"))
	if len(files) < 9 {
		t.Fatalf("found %d files, want at least 9", len(files))
	}
	for _, f := range files {
		if f.Name() == TimingsFile {
			continue
		}
		a, _ := os.ReadFile(filepath.Join(dir, "1", f.Name()))
		b, err := os.ReadFile(filepath.Join(dir, "3", f.Name()))
		if err != nil || len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between 1 and 3 jobs (%v)", f.Name(), err)
		}
	}
}

// TestYoyoSourceRounds: source_rounds, measured from the processes' "source" roles,
// stays within Santoro's ⌈log₂N⌉+1, the figure yoyo's theory ties to it, while the
// iteration counter (rounds) goes past it: pruning, not the sources, sets how long
// the election runs. A unit check of the count comes first.
func TestYoyoSourceRounds(t *testing.T) {
	var sc sourceCount
	if _, ok := sc.rounds(); ok {
		t.Error("no source seen, yet source_rounds is set")
	}
	src := func(it int64) *node.Status {
		return &node.Status{Role: "source", Term: 1, Counters: []node.Counter{{Name: "iteration", Value: it}}}
	}
	for _, o := range []struct {
		id node.ID
		it int64
	}{{1, 1}, {2, 1}, {1, 1}, {3, 1}, {1, 2}, {3, 2}, {1, 3}, {1, 4}} {
		sc.observe(o.id, src(o.it))
	}
	sc.observe(2, &node.Status{Role: "sink", Term: 1, Counters: []node.Counter{{Name: "iteration", Value: 5}}})
	if r, _ := sc.rounds(); r != 3 {
		t.Errorf("two sources in iterations 1 and 2, then one: source_rounds = %d, want 3", r)
	}

	p := parsePlan(t, "base = \"yoyo\"\n[set]\nuntil = \"120s\"\nscript = []\norder = \"random\"\ntopology = \"graph\"\ndegree = 3\n[axes]\nnodes = [100, 300]\n")
	for i, r := range runAll(p, 0) {
		n := []float64{100, 300}[i] // one seed: run i is cell i, in axis order
		bound := math.Ceil(math.Log2(n)) + 1
		got, ok := r.Values["source_rounds"]
		if !ok {
			t.Fatalf("%s: no source_rounds", p.Describe(r.Run))
		}
		if got < 1 || got > bound {
			t.Errorf("%s: source_rounds = %v, want 1 to ⌈log₂N⌉+1 = %v", p.Describe(r.Run), got, bound)
		}
		if r.Values["rounds"] <= bound {
			t.Errorf("%s: rounds = %v, expected the pruning tail to take it past %v", p.Describe(r.Run), r.Values["rounds"], bound)
		}
		t.Logf("%s: source_rounds %v, rounds %v, ⌈log₂N⌉+1 = %v", p.Describe(r.Run), got, r.Values["rounds"], bound)
	}
}

// firstDiff shows where two files part: the line of each.
func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  %q\n  %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("one ends at line %d, the other has %d", min(len(la), len(lb)), max(len(la), len(lb)))
}
