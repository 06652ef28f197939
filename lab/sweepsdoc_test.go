package lab

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSweepsPage runs docs/sweeps.md as a user would: its sweep files saved under
// the names the page gives, then every line of its sh blocks in page order in one
// folder: clusterlab commands with the exit code their comment announces ("exits
// 1"), the GNU parallel recipe with Debian's parallel on local job slots, and the
// diff that shows its merged folder is one machine's; lines for a batch system or
// other hosts are parsed only. The output a text block shows is what the command
// before it printed.
func TestSweepsPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs every command of docs/sweeps.md; skipped in -short mode")
	}
	page, _ := filepath.Abs("../docs/sweeps.md")
	dir, bin := buildBinary(t)
	blocks := docBlocks(t, page)
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	named := regexp.MustCompile("`([A-Za-z0-9_.-]+\\.toml)` is:\\s*$")
	wroteSweep := false
	for _, b := range blocks {
		if b.lang != "toml" {
			continue
		}
		// The sentence before a block may name its file: "where `cut-off.toml` is:".
		name := ""
		for i := b.line - 2; i >= 0 && name == ""; i-- {
			if l := strings.TrimSpace(lines[i]); l != "" {
				if m := named.FindStringSubmatch(l); m != nil {
					name = m[1]
				}
				break
			}
		}
		switch {
		case name != "":
			writeFile(t, filepath.Join(dir, name), b.text)
		case regexp.MustCompile(`(?m)^(base|file)\s*=`).MatchString(b.text) && !wroteSweep:
			writeFile(t, filepath.Join(dir, "my-sweep.toml"), b.text)
			wroteSweep = true
		default: // a fragment of a scenario
			f := fmt.Sprintf("fragment-%d.toml", b.line)
			writeFile(t, filepath.Join(dir, f), "name = \"fragment\"\nalgorithm = \"omega\"\nnodes = 3\nuntil = \"5s\"\n"+b.text)
			if out, code := runCLI(t, dir, bin, "sim", "--file", f); code != 0 {
				t.Errorf("%s:%d: the fragment does not run in a scenario (exit %d):\n%s", page, b.line, code, out)
			}
		}
	}
	if !wroteSweep {
		t.Fatalf("%s shows no sweep file", page)
	}
	t.Chdir(dir) // the parser checks files from the working folder
	_, perr := exec.LookPath("parallel")
	ranParallel := false
	var last string // what the last command printed
	for i, b := range blocks {
		switch b.lang {
		case "text":
			if i > 0 && blocks[i-1].lang == "sh" && !strings.Contains(last, strings.TrimSpace(b.text)) {
				t.Errorf("%s:%d: the page shows\n%s\nthe command printed\n%s", page, b.line, b.text, last)
			}
		case "sh":
			for _, l := range shLines(b) {
				fields := strings.Fields(l.code)
				switch {
				case len(fields) == 0:
				case fields[0] == "clusterlab" && !strings.ContainsAny(l.code, "$*"):
					args := fields[1:]
					if _, err := cliParser().Parse(args); err != nil {
						t.Fatalf("%s:%d: %s: %v", page, l.line, l.code, err)
					}
					want := 0
					if strings.HasPrefix(l.comment, "exits 1") {
						want = 1
					}
					var code int
					last, code = runCLI(t, dir, bin, args...)
					if code != want {
						t.Fatalf("%s:%d: %s exits %d, want %d:\n%s", page, l.line, l.code, code, want, last)
					}
				case fields[0] == "clusterlab" || fields[0] == "parallel" && strings.Contains(l.code, " -S "):
					// A batch system's or other hosts' line: its clusterlab command is
					// checked by the parser.
					k := strings.Index(l.code, "clusterlab ")
					args := untemplate(strings.Fields(l.code[k+len("clusterlab "):]))
					if _, err := cliParser().Parse(args); err != nil && !errors.Is(err, os.ErrNotExist) && !strings.Contains(err.Error(), "no such file") {
						t.Errorf("%s:%d: %s: %v", page, l.line, l.code, err)
					}
				case fields[0] == "parallel" || fields[0] == "diff":
					if perr != nil {
						t.Logf("%s:%d: GNU parallel is not installed (apt-get install parallel): the sharded recipe is not run", page, l.line)
						continue
					}
					cmd := exec.Command("sh", "-c", l.code)
					cmd.Dir = dir
					// The binary under test is the clusterlab the recipe calls;
					// PARALLEL is parallel's own options (no citation notice).
					cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "PARALLEL=--will-cite")
					out, err := cmd.CombinedOutput()
					if err != nil || (fields[0] == "diff" && len(out) > 0) {
						t.Fatalf("%s:%d: %s: %v\n%s", page, l.line, l.code, err, out)
					}
					last = string(out)
					ranParallel = ranParallel || fields[0] == "parallel"
				default:
					t.Errorf("%s:%d: the test does not know how to run %q", page, l.line, l.code)
				}
			}
		}
	}
	// The recording of run 7 is the row's, and the merged shards are one
	// machine's folder, file by file (timings aside).
	rows := readRows(t, filepath.Join(dir, "cut-off", "results.csv"))
	for _, rec := range []string{"run-7.jsonl", "n32.jsonl"} {
		out, err := exec.Command(bin, "verify", rec).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "hash "+rows[7]["trace_hash"]) {
			t.Errorf("%s: %v, %s; want the hash of row 7, %s", rec, err, out, rows[7]["trace_hash"])
		}
	}
	if perr != nil {
		t.Skip("GNU parallel is not installed (apt-get install parallel; .ci/run installs it): the page's other commands ran, its sharded recipe did not")
	}
	if !ranParallel {
		t.Fatal("the page shows no GNU parallel recipe that runs on one machine")
	}
	{
		files, _ := os.ReadDir(filepath.Join(dir, "one-machine"))
		if len(files) < 10 {
			t.Fatalf("one-machine holds %d files", len(files))
		}
		for _, f := range files {
			if f.Name() == "timings.csv" {
				continue
			}
			a, _ := os.ReadFile(filepath.Join(dir, "one-machine", f.Name()))
			b, err := os.ReadFile(filepath.Join(dir, "merged", f.Name()))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("merged/%s is not one machine's (%v)", f.Name(), err)
			}
		}
	}
}

// shLine is one line of a sh block, its continuation lines joined, and its
// comment.
type shLine struct {
	line          int
	code, comment string
}

// shLines splits a sh block into its lines; comment lines (#!, #SBATCH) go.
func shLines(b block) []shLine {
	var out []shLine
	raw := strings.Split(b.text, "\n")
	for i := 0; i < len(raw); i++ {
		start := i
		l := strings.TrimSpace(raw[i])
		for strings.HasSuffix(l, `\`) && i+1 < len(raw) {
			i++
			l = strings.TrimSuffix(l, `\`) + " " + strings.TrimSpace(raw[i])
		}
		if strings.HasPrefix(l, "#") || l == "" {
			continue
		}
		code, comment, _ := strings.Cut(l, " #")
		out = append(out, shLine{line: b.line + 1 + start, code: strings.TrimSpace(code), comment: strings.TrimSpace(comment)})
	}
	return out
}
