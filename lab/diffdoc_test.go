package lab

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDiffPage runs docs/diff-json.md: its scenario saved as drop.toml, its
// commands in order in one folder, each with the exit code its comment
// announces, the output it shows compared with what the command prints; its
// JSON example is what diff --json prints (the end states cut, as it says), and
// every field diff --json prints is in its tables. Then diff's refusals: exit 2
// for a file that is not a recording and for recordings of other algorithms,
// and its output in the reader's language.
func TestDiffPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs what docs/diff-json.md shows; skipped in -short mode")
	}
	const page = "../docs/diff-json.md"
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	dir, bin := buildBinary(t)
	blocks := docBlocks(t, page)
	var example string
	last := ""
	for i, b := range blocks {
		switch b.lang {
		case "toml":
			writeFile(t, filepath.Join(dir, "drop.toml"), b.text)
		case "json":
			example = b.text
		case "text":
			if i > 0 && blocks[i-1].lang == "sh" && strings.TrimSpace(b.text) != last {
				t.Errorf("%s:%d: the page shows\n%s\nthe command prints\n%s", page, b.line, strings.TrimSpace(b.text), last)
			}
		case "sh":
			run, _ := commands(b)
			for _, c := range run {
				if slices.Contains(c.args, "--view") {
					// Side by side in a terminal: opened in tmux, read, quit.
					if _, err := exec.LookPath("tmux"); err != nil {
						t.Logf("%s:%d: tmux is not installed: the view is not opened (apt-get install tmux)", page, c.line)
						continue
					}
					screen := openDashboard(t, dir, bin, c.args)
					// the clock at the later of the two first differing
					// events, each marked ◆ as its Timeline's newest row
					out, _ := runCLI(t, dir, bin, "diff", "a.jsonl", "drop.jsonl", "--json")
					var d struct {
						First struct{ A, B struct{ T int64 } } `json:"first_difference"`
					}
					if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(out), "clusterlab: the recordings differ")), &d); err != nil {
						t.Fatal(err)
					}
					at := func(us int64) string { return strconv.FormatFloat(float64(us)/1e6, 'f', 3, 64) + "s" }
					for _, want := range []string{"A a.jsonl · B drop.jsonl │ t=" + at(max(d.First.A.T, d.First.B.T)), "first difference at 3.370s (event 383): why: B takes the action",
						"A · Nodes (5)", "B · Nodes (5)", "A · Timeline", "B · Timeline", "◆ 3.370s", "d first difference",
						"│◆ " + at(d.First.A.T) + " ", "│◆ " + at(d.First.B.T) + " "} {
						if !strings.Contains(screen, want) {
							t.Errorf("%s:%d: clusterlab %s does not show %q:\n%s", page, c.line, strings.Join(c.args, " "), want, screen)
						}
					}
					if n := strings.Count(screen, "│◆ "); n != 2 || d.First.A.T == d.First.B.T {
						t.Errorf("%s:%d: %d Timeline rows marked ◆, want A's and B's (at %d and %dµs):\n%s", page, c.line, n, d.First.A.T, d.First.B.T, screen)
					}
					continue
				}
				want := wantExit(c)
				out, code := runCLI(t, dir, bin, c.args...)
				if code != want {
					t.Fatalf("%s:%d: clusterlab %s exits %d, the page says %d:\n%s", page, c.line, strings.Join(c.args, " "), code, want, out)
				}
				last = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(out), "clusterlab: the recordings differ"))
			}
		}
	}
	if example == "" {
		t.Fatalf("%s shows no JSON", page)
	}

	out, code := runCLI(t, dir, bin, "diff", "a.jsonl", "drop.jsonl", "--json")
	if code != 1 {
		t.Fatalf("diff --json exits %d:\n%s", code, out)
	}
	var got, shown map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(out), "clusterlab: the recordings differ")), &got); err != nil {
		t.Fatalf("diff --json: %v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(example), &shown); err != nil {
		t.Fatalf("%s: its JSON: %v", page, err)
	}
	ends := got["end_states"].([]any)
	if n := len(shown["end_states"].([]any)); n <= len(ends) {
		got["end_states"] = ends[:n]
	}
	if !reflect.DeepEqual(got, shown) {
		g, _ := json.MarshalIndent(got, "", "  ")
		t.Errorf("%s: the JSON example is not what diff --json prints:\n%s", page, g)
	}
	// Every field, of every object, in the page's tables. The seed diff has a
	// cause with a message and its fates.
	out, _ = runCLI(t, dir, bin, "diff", "a.jsonl", "seed8.jsonl", "--json")
	var seed map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(out), "clusterlab: the recordings differ")), &seed); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	jsonKeys(got, keys)
	jsonKeys(seed, keys)
	for _, k := range []string{"message", "mid", "sent_us", "what", "reason"} {
		if !keys[k] {
			t.Errorf("no %q in diff --json: the test no longer sees every field", k)
		}
	}
	for k := range keys {
		if k != "seq" && k != "ev" && k != "msg" && !strings.Contains(string(text), "`"+k+"`") && !strings.Contains(string(text), `"`+k+`"`) {
			t.Errorf("%s does not document the field %q", page, k)
		}
	}

	// Refusals and languages.
	writeFile(t, filepath.Join(dir, "x.jsonl"), "hello\n")
	for _, c := range [][]string{
		{"diff", "a.jsonl", "x.jsonl"},
		{"diff", "a.jsonl", "missing.jsonl"},
	} {
		if out, code := runCLI(t, dir, bin, c...); code != 2 || strings.Count(strings.TrimSpace(out), "\n") > 0 {
			t.Errorf("clusterlab %s: exit %d, want 2 and one line:\n%s", strings.Join(c, " "), code, out)
		}
	}
	if out, code := runCLI(t, dir, bin, "sim", "--preset", "hs", "--record", "hs.jsonl"); code != 0 {
		t.Fatal(out)
	}
	if out, code := runCLI(t, dir, bin, "diff", "a.jsonl", "hs.jsonl"); code != 2 || !strings.Contains(out, "expected two recordings of one algorithm") {
		t.Errorf("diff of bully and hs: exit %d:\n%s", code, out)
	}
	for lang, want := range map[string]string{"pt": "primeira diferença: evento 383 em 3.370s", "es": "primera diferencia: evento 383 en 3.370s"} {
		if out, code := runCLI(t, dir, bin, "diff", "a.jsonl", "drop.jsonl", "--lang", lang); code != 1 || !strings.Contains(out, want) {
			t.Errorf("diff --lang %s: exit %d:\n%s", lang, code, out)
		}
	}
}

// jsonKeys adds every object key in v, at any depth, to keys.
func jsonKeys(v any, keys map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			keys[k] = true
			jsonKeys(e, keys)
		}
	case []any:
		for _, e := range x {
			jsonKeys(e, keys)
		}
	}
}
