package lab

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/explore"
)

// TestFindingBugsPage runs docs/finding-bugs.md as a student would: its scenario
// saved under the name the page gives, then every command in page order in one
// folder, each with the exit code its comment announces ("exits 1"), the
// dashboards under tmux, and the output the page shows (times of the wall clock
// aside) compared with what the command prints.
func TestFindingBugsPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs every command of docs/finding-bugs.md; skipped in -short mode")
	}
	page := "../docs/finding-bugs.md"
	dir, bin := buildBinary(t)
	blocks := docBlocks(t, page)
	wrote := false
	for _, b := range blocks {
		if b.lang == "toml" && regexp.MustCompile(`(?m)^algorithm\s*=`).MatchString(b.text) {
			writeFile(t, filepath.Join(dir, "triangle.toml"), b.text)
			wrote = true
			break
		}
	}
	if !wrote {
		t.Fatalf("%s shows no scenario", page)
	}
	page, _ = filepath.Abs(page)
	t.Chdir(dir) // the parser checks files from the working folder
	wallTime := regexp.MustCompile(`\(\d+(\.\d+)? s\)`)
	tmuxOK := true
	if _, err := exec.LookPath("tmux"); err != nil {
		tmuxOK = false
	}
	var last string // the output of the last command run
	for i, b := range blocks {
		switch b.lang {
		case "text":
			// Shown output: the previous block's last command printed it.
			if i == 0 || blocks[i-1].lang != "sh" {
				continue
			}
			want := wallTime.ReplaceAllString(strings.TrimSpace(b.text), "(T)")
			got := wallTime.ReplaceAllString(strings.TrimSpace(last), "(T)")
			if want != got {
				t.Errorf("%s:%d: the page shows\n%s\nthe command prints\n%s", page, b.line, want, got)
			}
		case "sh":
			run, templated := commands(b)
			for _, c := range templated {
				if _, err := cliParser().Parse(untemplate(c.args)); err != nil {
					t.Errorf("%s:%d: clusterlab %s: %v", page, c.line, strings.Join(c.args, " "), err)
				}
			}
			for _, c := range run {
				if _, err := cliParser().Parse(c.args); err != nil {
					t.Fatalf("%s:%d: clusterlab %s: %v", page, c.line, strings.Join(c.args, " "), err)
				}
				if dashboard(c.args) {
					if !tmuxOK {
						t.Logf("%s:%d: tmux is not installed: the dashboard command is only parsed", page, c.line)
						continue
					}
					screen := openDashboard(t, dir, bin, c.args)
					if c.args[0] == "replay" {
						// It opens at the alert where the search's explore.json says.
						at := alertAt(t, filepath.Join(dir, c.args[1]))
						if !strings.Contains(screen, "t="+at) {
							t.Errorf("%s:%d: replay does not open at the finding's alert (%s):\n%s", page, c.line, at, screen)
						}
					}
					continue
				}
				want := wantExit(c)
				out, code := runCLI(t, dir, bin, c.args...)
				if code != want {
					t.Fatalf("%s:%d: clusterlab %s exits %d, the page says %d:\n%s", page, c.line, strings.Join(c.args, " "), code, want, out)
				}
				// What the page shows is stdout; the last line on stderr repeats
				// the verdict.
				lines := strings.Split(strings.TrimSpace(out), "\n")
				if code == 1 && len(lines) > 1 && strings.HasPrefix(lines[len(lines)-1], "clusterlab: ") {
					lines = lines[:len(lines)-1]
				}
				last = strings.Join(lines, "\n")
			}
		}
	}
}

// alertAt is the time of the alert of finding trace as the search's explore.json
// beside it says, as the dashboard's header writes it.
func alertAt(t *testing.T, trace string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(filepath.Dir(trace), explore.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var rep explore.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	stem := strings.TrimSuffix(filepath.Base(trace), ".trace")
	for _, f := range rep.Findings {
		if f.File == stem {
			return strconv.FormatFloat(float64(f.AtUS)/1e6, 'f', 3, 64) + "s"
		}
	}
	t.Fatalf("%s: no finding %s", explore.ReportFile, stem)
	return ""
}

// TestExploreExitCodes: explore and shrink exit 2 on bad input, with the file's
// line and column for a scenario's mistake or the flag's name; explore exits 0
// when it finds nothing and 1 when it finds a violation; an output folder that
// holds a search is not overwritten.
func TestExploreExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	dir, bin := buildBinary(t)
	writeFile(t, filepath.Join(dir, "bad.toml"), "name = \"bad\"\nalgorithm = \"ricart\"\nnodes = 3\n\n[[script]]\nat = \"1s\"\ndo = \"hold n1->n9\"\n")
	writeFile(t, filepath.Join(dir, "junk.jsonl"), "junk = 1\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"explore", "bad.toml"}, 2, "bad.toml:7:16: found \"n9\""},
		{[]string{"explore", "--preset", "ricart", "--mode", "bfs"}, 2, `--mode: found "bfs"`},
		{[]string{"explore", "--preset", "ricart", "--faults", "disk"}, 2, `--faults: found "disk"`},
		{[]string{"explore", "--preset", "ricart", "--shard", "3/2"}, 2, `--shard: found "3/2"`},
		{[]string{"explore", "--preset", "ricart", "--faults", "network", "--runs", "50", "--out", "none"}, 0, "no violation in 50 runs"},
		{[]string{"explore", "--preset", "ricart", "--faults", "network", "--runs", "50", "--out", "none"}, 2, "none/explore.json already exists"},
		{[]string{"explore", "--preset", "ricart-priority", "--runs", "50", "--out", "found"}, 1, "found 1 violation(s): see found/finding-1.md"},
		{[]string{"shrink", "found/finding-1.toml", "--out", "small.toml"}, 0, "wrote small.toml"},
		{[]string{"explore", "--preset", "quorum-amnesia", "--shrink-time", "1ms", "--out", "hasty"}, 1, "its shrinking ran out of time before a fixpoint"},
		{[]string{"shrink", "bad.toml"}, 2, "bad.toml:7:16"},
		{[]string{"shrink", "junk.jsonl"}, 2, "junk.jsonl:1: not a clusterlab trace"},
		// A flag's mistake is named before the folder's: none holds a search.
		{[]string{"explore", "--preset", "ricart", "--property", "deadlock", "--out", "none"}, 2, `--property: found "deadlock"`},
		{[]string{"explore", "--preset", "ricart", "--runs", "10", "--out", "bad.toml"}, 2, "--out: found bad.toml, a file"},
		{[]string{"explore", "--preset", "ricart-priority", "--runs", "50", "--shard", "1/2", "--out", "s1"}, 1, "found 1 violation(s)"},
		{[]string{"explore", "--preset", "ricart-priority", "--runs", "50", "--shard", "2/2", "--out", "s2"}, 1, "found 1 violation(s)"},
		{[]string{"explore", "merge", "s1", "s2", "--out", "found"}, 2, "found/explore.json already exists"},
		{[]string{"explore", "merge", "s1", "s2", "--out", "bad.toml"}, 2, "--out: found bad.toml, a file"},
	} {
		out, code := runCLI(t, dir, bin, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("clusterlab %s: exit %d, expected %d with %q:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out)
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "bad.toml")); err != nil || !strings.HasPrefix(string(data), "name = \"bad\"") {
		t.Errorf("bad.toml was overwritten: %q %v", data, err)
	}
}

// TestShardsFromTwoFolders: shards of one search run from two folders (two
// machines, each with its own copy of the scenario at the same relative place)
// merge: explore.json names the scenario as the command did, not by its absolute
// path, which made merge refuse them as shards of two searches.
func TestShardsFromTwoFolders(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	_, bin := buildBinary(t)
	dir := t.TempDir()
	scenario := "name = \"rp\"\nalgorithm = \"ricart\"\nnodes = 3\nuntil = \"5s\"\n\n[params]\norder = \"priority\"\ncs_rate = 1.0\n"
	for i, m := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(dir, m), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, m, "rp.toml"), scenario)
		shard := strconv.Itoa(i+1) + "/2"
		if out, code := runCLI(t, filepath.Join(dir, m), bin, "explore", "rp.toml", "--runs", "40", "--shard", shard, "--out", "s"); code > 1 {
			t.Fatalf("shard %s: exit %d:\n%s", shard, code, out)
		}
	}
	out, code := runCLI(t, dir, bin, "explore", "merge", "a/s", "b/s", "--out", "merged")
	if code != 1 || !strings.Contains(out, "finding(s)") {
		t.Fatalf("merge: exit %d, expected 1 with the findings:\n%s", code, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "merged", explore.ReportFile))
	if err != nil || !strings.Contains(string(data), `"command": "clusterlab explore rp.toml --mode random`) {
		t.Errorf("merged %s names the scenario otherwise: %v\n%s", explore.ReportFile, err, data)
	}
}

// TestExploreInterrupted: a search stopped by SIGTERM (a batch system's time
// limit) exits 143 with one line, and writes what it did so far, stopped
// "interrupted"; merge joins two such shards as shards whose time ran out.
func TestExploreInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	_, bin := buildBinary(t)
	dir := t.TempDir()
	runs := 0
	for _, shard := range []string{"1/2", "2/2"} {
		out := "s" + shard[:1]
		cmd := exec.Command(bin, "explore", "--preset", "raft-partition", "--runs", "10000000", "--shard", shard, "--out", out)
		cmd.Dir = dir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 143 || strings.Count(stderr.String(), "\n") != 1 {
			t.Fatalf("shard %s: %v, stderr %q: expected exit 143 and one line", shard, err, stderr.String())
		}
		rep := readReport(t, filepath.Join(dir, out))
		if rep.Stopped != "interrupted" || rep.Runs == 0 {
			t.Fatalf("shard %s: stopped %q after %d runs; expected what the search did, stopped interrupted", shard, rep.Stopped, rep.Runs)
		}
		runs += rep.Runs
	}
	if out, code := runCLI(t, dir, bin, "explore", "merge", "s1", "s2", "--out", "merged"); code != 0 {
		t.Fatalf("merge: exit %d:\n%s", code, out)
	}
	if rep := readReport(t, filepath.Join(dir, "merged")); rep.Stopped != "interrupted" || rep.Runs != runs {
		t.Errorf("merged: stopped %q after %d runs, expected interrupted after the shards' %d", rep.Stopped, rep.Runs, runs)
	}
}

// readReport reads the explore.json of an output folder.
func readReport(t *testing.T, dir string) explore.Report {
	t.Helper()
	var rep explore.Report
	data, err := os.ReadFile(filepath.Join(dir, explore.ReportFile))
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return rep
}
