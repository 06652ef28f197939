package grading

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/internal/rectest"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// record records a preset with a seed the way `sim --record` does, into dir.
func record(t testing.TB, dir, preset string, seed uint64) string {
	t.Helper()
	return rectest.Record(t, filepath.Join(dir, preset+"-"+strings.Repeat("x", int(seed))+".jsonl"), preset, seed, nil, 0)
}

// rewrite changes a recording's lines and makes its end record's hash again, as a
// forger who knows the format would.
func rewrite(t *testing.T, path string, change func(lines []string) []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := change(strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"))
	h := trace.NewHasher()
	h.Header([]byte(lines[0]))
	for _, l := range lines[1 : len(lines)-1] {
		h.AddLine([]byte(l))
	}
	end := len(lines) - 1
	lines[end] = regexp.MustCompile(`"hash":"[0-9a-f]+"`).ReplaceAllString(lines[end], `"hash":"`+h.Sum()+`"`)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

const rubricText = `title = "Bully under a partition"

[[require]]
preset = ["bully-split-brain"]
min_nodes = 5

[[require]]
alert = "split-brain"
ended = true

[[require]]
crash = "leader"

[[require]]
expectations = "pass"
`

// Ten recordings, three of them forged (cut, edited with its hash made again,
// made by other code) and two that verify but miss the rubric: each gets its
// verdict, with a reason that says why.
func TestGradeTenRecordings(t *testing.T) {
	dir := t.TempDir()
	var files []string
	// Five that pass: bully-split-brain shows a split brain and its end, and
	// bully a crash of the leader… but one rubric asks for both.
	for seed := uint64(1); seed <= 5; seed++ {
		files = append(files, record(t, dir, "bully-split-brain", seed))
	}
	cut := record(t, dir, "bully-split-brain", 6)
	edited := record(t, dir, "bully-split-brain", 7)
	foreign := record(t, dir, "bully-split-brain", 8)
	raft := record(t, dir, "raft-partition", 1)
	small := record(t, dir, "notes-bully-coulouris", 1)

	data, _ := os.ReadFile(cut)
	os.WriteFile(cut, data[:len(data)*2/3], 0o644)
	rewrite(t, edited, func(l []string) []string {
		for i := 100; i < len(l); i++ {
			if strings.Contains(l[i], `"ev":"deliver"`) {
				l[i] = regexp.MustCompile(`"t":\d+`).ReplaceAllString(l[i], `"t":1`)
				break
			}
		}
		return l
	})
	rewrite(t, foreign, func(l []string) []string {
		l[0] = strings.Replace(l[0], `"scenario":`, `"code":{"package":"example.com/hw/bully","module":"example.com/hw","version":"(devel)","source":"aa"},"scenario":`, 1)
		return l
	})

	r, err := ParseRubric("rubric.toml", []byte(rubricText))
	if err != nil {
		t.Fatal(err)
	}
	all, err := Files(dir)
	if err != nil || len(all) != 10 {
		t.Fatalf("Files found %d recordings (%v), want 10", len(all), err)
	}
	rows, err := Grade(context.Background(), all, r, 2, lang.En)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Verdict{cut: Cut, edited: Edited, foreign: Foreign, raft: Fail, small: Fail}
	for _, f := range files {
		want[f] = Fail // bully-split-brain shows no crash of the leader: the rubric asks for one
	}
	reasons := map[string]string{cut: "cut short", edited: "forged or edited", foreign: "made by other code",
		raft:  "a split-brain alert, and its end: there is no split-brain alert",
		small: "the preset bully-split-brain or a scenario with at least 5 nodes: the recording runs notes-bully-coulouris with 4 nodes"}
	for _, row := range rows {
		if row.Verdict != want[row.File] {
			t.Errorf("%s: %s (%s), want %s", filepath.Base(row.File), row.Verdict, row.Reason, want[row.File])
		}
		if w := reasons[row.File]; w != "" && !strings.Contains(row.Reason, w) {
			t.Errorf("%s: reason %q does not say %q", filepath.Base(row.File), row.Reason, w)
		}
		if row.Scenario == "" {
			t.Errorf("%s: no scenario named", filepath.Base(row.File))
		}
	}
	if Failed(rows) != 10 {
		t.Errorf("Failed = %d, want 10", Failed(rows))
	}

	// Without the crash requirement, the five genuine ones pass, each with its hash.
	r.Require = slices.DeleteFunc(r.Require, func(q Requirement) bool { return q.Kind() == KindCrash })
	rows, _ = Grade(context.Background(), all, r, 2, lang.En)
	for _, row := range rows {
		genuine := slices.Contains(files, row.File)
		if genuine != (row.Verdict == Pass) {
			t.Errorf("without the crash: %s is %s (%s)", filepath.Base(row.File), row.Verdict, row.Reason)
		}
		if genuine && len(row.Hash) != 64 {
			t.Errorf("%s: hash %q", filepath.Base(row.File), row.Hash)
		}
	}
	var csv, md strings.Builder
	if err := WriteCSV(&csv, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, dir, r, rows, lang.En); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(csv.String(), "\n"); n != 11 {
		t.Errorf("grades.csv has %d lines, want a header and 10 rows:\n%s", n, csv.String())
	}
	for _, w := range []string{"# Bully under a partition", "10 recordings, 5 pass", "pass 5 · fail 2 · edited 1 · cut 1 · foreign 1", "| " + filepath.Base(cut) + " | cut |"} {
		if !strings.Contains(md.String(), w) {
			t.Errorf("grades.md does not say %q:\n%s", w, md.String())
		}
	}
}

// A rubric's requirements on recordings that meet each one.
func TestRequirementsMet(t *testing.T) {
	dir := t.TempDir()
	bully := record(t, dir, "bully", 1) // n5, the leader, crashes at 4s and comes back
	rows, _ := Grade(context.Background(), []string{bully}, &Rubric{Require: []Requirement{
		{Crash: "leader"}, {Crash: "any"}, {Algorithm: "bully"}, {MinNodes: 5}, {Expectations: "pass"},
	}}, 1, lang.En)
	if rows[0].Verdict != Pass {
		t.Fatalf("bully: %s (%s)", rows[0].Verdict, rows[0].Reason)
	}
	rows, _ = Grade(context.Background(), []string{bully}, &Rubric{Require: []Requirement{{Algorithm: "raft"}}}, 1, lang.En)
	if rows[0].Verdict != Fail || !strings.Contains(rows[0].Reason, "the algorithm raft: the recording runs bully") {
		t.Fatalf("bully as raft: %s (%s)", rows[0].Verdict, rows[0].Reason)
	}
	// A requirement in the teacher's words is quoted, so that the reason reads
	// whatever its grammar.
	rows, _ = Grade(context.Background(), []string{bully}, &Rubric{Require: []Requirement{{What: "shows a split brain and its end", Alert: "split-brain", Ended: true}}}, 1, lang.En)
	if want := "verified, but it does not meet the rubric's “shows a split brain and its end”: there is no split-brain alert"; rows[0].Verdict != Fail || rows[0].Reason != want {
		t.Fatalf("bully without a split brain: %s (%s), expected %q", rows[0].Verdict, rows[0].Reason, want)
	}
}

// Bad rubrics are one-line errors at file:line:col.
func TestRubricErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"title = \"x\"\n", "r.toml:1:1: found no [[require]]"},
		{"[[require]]\nalert = \"boom\"\n", "r.toml:2:9: found alert = \"boom\", expected an alert kind"},
		{"[[require]]\ncrash = \"leader\"\nalgorithm = \"x\"\n", "r.toml:1:1: found a [[require]] with more than one requirement"},
		{"[[require]]\nfoo = 1\n", "r.toml:2:1: found unknown key \"require.foo\""},
		{"[[require]]\nexpectations = \"pass\"\n[[require]]\ncrash = \"king\"\n", "r.toml:4:9: found crash = \"king\", expected \"leader\" or \"any\""},
		{"[[require]]\npreset = [\"bully\", \"nope\"]\n", "r.toml:2:20: found preset \"nope\""},
		{"[[require]]\nended = true\n", "r.toml:1:1: found a [[require]] with no requirement"},
		{"[[require]]\nexpectations = \"pass\"\nended = true\n", "found ended = true without alert"},
	} {
		_, err := ParseRubric("r.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// BenchmarkGrade50 grades fifty recordings of bully-split-brain (12 s, 5 nodes,
// about 1,300 events each) against a four-requirement rubric, on every core.
func BenchmarkGrade50(b *testing.B) {
	dir := b.TempDir()
	var files []string
	for seed := uint64(1); seed <= 50; seed++ {
		files = append(files, record(b, dir, "bully-split-brain", seed))
	}
	r, err := ParseRubric("rubric.toml", []byte(rubricText))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		rows, err := Grade(context.Background(), files, r, 0, lang.En)
		if err != nil || len(rows) != 50 {
			b.Fatal(err)
		}
	}
}
