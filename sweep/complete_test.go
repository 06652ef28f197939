package sweep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/lang"
)

// chang is the Chang-Roberts sweep on the ring preset, whose until (3 s) is too
// short for the largest ring: a user's first try at "how does it grow?".
const chang = `base = "ring"
seeds = 2
[set]
"params.initiators" = ["n1"]
[axes]
nodes = [4, 8, 16, 32]
[[plot]]
x = "nodes"
y = "sent.ELECTION"
theory = true
[[plot]]
x = "nodes"
y = "sent.ELECTED"
theory = true
`

// TestCutOffRunsFail: a run that until ends before its election finished is
// completed = false in results.csv and fails the sweep; the printed table marks
// its cell and says which until to raise; every run that finished has the
// textbook's 2N−1 ELECTION and N ELECTED. allow_incomplete lets the cut-off runs
// pass, still marked.
func TestCutOffRunsFail(t *testing.T) {
	for _, allow := range []bool{false, true} {
		src := chang
		if allow {
			src = "allow_incomplete = true\n" + src
		}
		p := parsePlan(t, src)
		dir := filepath.Join(t.TempDir(), "out")
		var table bytes.Buffer
		o, err := p.RunTo(context.Background(), dir, false, 2, nil, &table, false)
		if err != nil {
			t.Fatal(err)
		}
		cut := 0
		for _, row := range readCSV(t, filepath.Join(dir, ResultsFile)) {
			n, _ := strconv.Atoi(row["nodes"])
			done, passed := row["completed"] == "true", row["passed"] == "true"
			if !done {
				cut++
				if passed != allow {
					t.Errorf("nodes=%d seed=%s: cut off, passed = %v with allow_incomplete = %v", n, row["seed"], passed, allow)
				}
				continue
			}
			if !passed || row["sent.ELECTION"] != strconv.Itoa(2*n-1) || row["sent.ELECTED"] != strconv.Itoa(n) {
				t.Errorf("nodes=%d seed=%s: passed %v, %s ELECTION and %s ELECTED; want 2N−1 = %d and N", n, row["seed"], passed, row["sent.ELECTION"], row["sent.ELECTED"], 2*n-1)
			}
		}
		if cut != 2 || o.Failed != map[bool]int{false: 2, true: 0}[allow] {
			t.Errorf("allow_incomplete = %v: %d runs cut off, %d failed; want the 2 runs at N = 32 cut off", allow, cut, o.Failed)
		}
		hint := "until 3s ended 2 runs before the election finished: set until"
		if allow {
			hint = "until 3s ended 2 runs before the election finished (allowed: allow_incomplete)"
		}
		if !strings.Contains(table.String(), "⚠ "+hint) || !strings.Contains(table.String(), "0/2 ⚠") {
			t.Errorf("the table does not flag the cut-off runs with %q:\n%s", hint, table.String())
		}
		report, _ := os.ReadFile(filepath.Join(dir, ReportFile))
		if !strings.Contains(string(report), hint) {
			t.Errorf("report.md does not say %q", hint)
		}
	}
}

// TestExactTheoryFlagged: a mean that is not the exact theory value is marked ≠ in
// the printed table and in report.md; a bound (Franklin's rounds ≤ ⌈log₂N⌉+1) that
// holds is not.
func TestExactTheoryFlagged(t *testing.T) {
	p := parsePlan(t, chang)
	dir := filepath.Join(t.TempDir(), "out")
	var table bytes.Buffer
	if _, err := p.RunTo(context.Background(), dir, false, 2, nil, &table, false); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(table.String(), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || f[0] == "nodes" || f[0] == "⚠" || f[0] == "≠" {
			continue
		}
		marked := strings.Contains(l, "≠")
		if (f[0] == "32") != marked {
			t.Errorf("row %q: marked %v, want ≠ only at N = 32 (60 ELECTION, theory 63)", l, marked)
		}
	}
	report, _ := os.ReadFile(filepath.Join(dir, ReportFile))
	if !strings.Contains(string(report), "| 32 | 60 | 60–60 | 63 | **-3** ≠ |") {
		t.Errorf("report.md does not flag 60 against 63:\n%s", report)
	}
	// A bound that holds gets no mark.
	q := plan(t, "franklin-rounds", 1, 2, Shard{})
	var tb bytes.Buffer
	if _, err := q.RunTo(context.Background(), filepath.Join(t.TempDir(), "f"), false, 2, nil, &tb, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(tb.String(), "≠") {
		t.Errorf("franklin-rounds, whose measures keep within their bounds, is marked:\n%s", tb.String())
	}
}

// readCSV reads a CSV output as rows keyed by header.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\r\n"), "\r\n")
	head := strings.Split(lines[0], ",")
	var out []map[string]string
	for _, l := range lines[1:] {
		row := map[string]string{}
		for i, v := range strings.Split(l, ",") {
			if i < len(head) {
				row[head[i]] = v
			}
		}
		out = append(out, row)
	}
	return out
}

// TestCSVLinesAndTimings: every CSV of a sweep ends its lines with CRLF, as the
// exported CSVs do (RFC 4180), and timings.csv gives every real run a wall time
// above zero (to the microsecond, not 0.0000).
func TestCSVLinesAndTimings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	writeDir(t, plan(t, "ring-complexity", 3, 1, Shard{}), dir, 2)
	for _, f := range []string{ResultsFile, SummaryFile, TimingsFile} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if lf, crlf := bytes.Count(data, []byte("\n")), bytes.Count(data, []byte("\r\n")); lf == 0 || lf != crlf {
			t.Errorf("%s: %d lines, %d of them end with CRLF", f, lf, crlf)
		}
	}
	rows := readCSV(t, filepath.Join(dir, TimingsFile))
	for _, row := range rows {
		w, err := strconv.ParseFloat(row["wall_s"], 64)
		if err != nil || w <= 0 || len(row["wall_s"]) != len("0.000000") {
			t.Errorf("run %s: wall_s %q, want seconds above 0 to the µs", row["run"], row["wall_s"])
		}
	}
	if len(rows) != 12 {
		t.Errorf("%d timings, want 12", len(rows))
	}
}

// TestTextsTranslated: every embedded sweep's description and notes have their
// Portuguese and Spanish (lang/sweepdocs.go); a changed text needs them again.
func TestTextsTranslated(t *testing.T) {
	for _, name := range Names() {
		s, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for what, text := range map[string]string{"description": s.Description, "notes": s.Notes} {
			if text == "" {
				continue
			}
			for _, l := range []lang.Lang{lang.Pt, lang.Es} {
				if got := l.SweepText(name, what, text); got == text || strings.Contains(got, "%%") {
					t.Errorf("%s's %s has no %s translation in lang/sweepdocs.go (its key is %s)", name, what, l, lang.SweepKey(name, what, text))
				}
			}
		}
	}
}
