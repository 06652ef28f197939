package lab

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alecthomas/kong"

	"github.com/clusterlab/clusterlab/internal/clitest"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// The README is part of the product: every scenario, sweep file and command it shows
// must work as shown. This test reads README.md, writes its TOML blocks to the files
// its commands name, and runs every `clusterlab` command in document order in one
// directory, so that `sim --record hw.jsonl` comes before `verify hw.jsonl`.

// block is one fenced code block of the README.
type block struct {
	lang string
	line int // of the opening fence
	text string
}

func readmeBlocks(t *testing.T) []block {
	t.Helper()
	return docBlocks(t, "../README.md")
}

// docBlocks reads the fenced code blocks of a Markdown file.
func docBlocks(t *testing.T, path string) []block {
	t.Helper()
	var out []block
	for _, b := range clitest.DocBlocks(t, path) {
		out = append(out, block{lang: b.Lang, line: b.Line, text: b.Text})
	}
	return out
}

// readmeCommand is one command line of a sh block, with its continuation lines joined
// and its comment cut off.
type readmeCommand struct {
	line    int
	args    []string
	comment string
}

// commands lists the clusterlab (and `go run .`) command lines of a sh block. Lines
// with shell templating ($VAR, {}) are for batch systems: they are returned with
// template set, to be checked by the parser only.
func commands(b block) (run, templated []readmeCommand) {
	lines := strings.Split(b.text, "\n")
	for i := 0; i < len(lines); i++ {
		start := i
		l := lines[i]
		for strings.HasSuffix(strings.TrimSpace(l), `\`) && i+1 < len(lines) {
			l = strings.TrimSuffix(strings.TrimSpace(l), `\`) + " " + strings.TrimSpace(lines[i+1])
			i++
		}
		code, comment, _ := strings.Cut(l, "#")
		code = strings.TrimSpace(code)
		if strings.HasPrefix(code, "go run .") {
			code = "clusterlab" + strings.TrimPrefix(code, "go run .")
		}
		fields := strings.Fields(code)
		// A clusterlab command may also sit inside another tool's line (GNU parallel).
		k := -1
		for j, f := range fields {
			if f == "clusterlab" {
				k = j
				break
			}
		}
		if k < 0 {
			continue
		}
		c := readmeCommand{line: b.line + 1 + start, args: fields[k+1:], comment: strings.TrimSpace(comment)}
		if k > 0 || strings.ContainsAny(code, "${}*") {
			templated = append(templated, c)
		} else {
			run = append(run, c)
		}
	}
	return run, templated
}

// wantExit is the exit code a page's command announces in its comment ("exits
// 1"), 0 when it announces none.
func wantExit(c readmeCommand) int {
	if strings.HasPrefix(c.comment, "exits 1") {
		return 1
	}
	return 0
}

// dashboard reports whether args open the dashboard (which needs a terminal).
func dashboard(args []string) bool {
	return len(args) == 0 || args[0] == "run" || args[0] == "replay" || strings.HasPrefix(args[0], "-")
}

func TestREADME(t *testing.T) {
	if testing.Short() {
		t.Skip("the README test builds the binary and runs every command it shows; skipped in -short mode")
	}
	dir, bin := buildBinary(t)
	blocks := readmeBlocks(t)

	// The TOML blocks: a scenario is saved as my.toml (what the tour's `sim --file
	// my.toml` runs) and a sweep as my-sweep.toml; a fragment is checked inside a small
	// scenario of its own.
	wroteScenario, wroteSweep := false, false
	for _, b := range blocks {
		if b.lang != "toml" {
			continue
		}
		name := fmt.Sprintf("block-%d.toml", b.line)
		text := b.text
		switch {
		case regexp.MustCompile(`(?m)^algorithm\s*=`).MatchString(text):
			if !wroteScenario {
				writeFile(t, filepath.Join(dir, "my.toml"), text)
				wroteScenario = true
			}
		case regexp.MustCompile(`(?m)^(base|file)\s*=`).MatchString(text):
			if !wroteSweep {
				writeFile(t, filepath.Join(dir, "my-sweep.toml"), text)
				wroteSweep = true
			}
			continue // run by the sweep command that names it
		default:
			text = "name = \"fragment\"\nalgorithm = \"omega\"\nnodes = 3\nuntil = \"5s\"\n" + text
		}
		writeFile(t, filepath.Join(dir, name), text)
		t.Run(fmt.Sprintf("toml-line-%d", b.line), func(t *testing.T) {
			out, code := runCLI(t, dir, bin, "sim", "--file", name)
			if code != 0 {
				t.Errorf("README.md:%d: the scenario does not pass its own expectations (exit %d):\n%s", b.line, code, out)
			}
		})
	}

	// Each sh block runs in a directory of its own, with the TOML files beside it, so
	// that a command shown twice (in the tour and in its section) finds a clean slate.
	// The parser checks that files exist relative to the working directory.
	tomls, _ := filepath.Glob(filepath.Join(dir, "*.toml"))
	tmuxOK := true
	if _, err := exec.LookPath("tmux"); err != nil {
		tmuxOK = false
	}
	for _, b := range blocks {
		if b.lang != "sh" {
			continue
		}
		run, templated := commands(b)
		bdir := filepath.Join(dir, fmt.Sprintf("sh-%d", b.line))
		if err := os.Mkdir(bdir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range tomls {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(bdir, filepath.Base(f)), string(text))
		}
		t.Chdir(bdir)
		for _, c := range templated {
			t.Run(fmt.Sprintf("parse-line-%d", c.line), func(t *testing.T) {
				args := untemplate(c.args)
				// The files a batch job would have made (its shards) are absent here:
				// a missing path is the one error accepted.
				if _, err := cliParser().Parse(args); err != nil && !errors.Is(err, fs.ErrNotExist) && !strings.Contains(err.Error(), "no such file or directory") {
					t.Errorf("README.md:%d: clusterlab %s: %v", c.line, strings.Join(c.args, " "), err)
				}
			})
		}
		for _, c := range run {
			t.Run(fmt.Sprintf("line-%d", c.line), func(t *testing.T) {
				if _, err := cliParser().Parse(c.args); err != nil {
					t.Fatalf("README.md:%d: clusterlab %s: %v", c.line, strings.Join(c.args, " "), err)
				}
				if dashboard(c.args) {
					if !tmuxOK {
						t.Skip("tmux is not installed: dashboard commands of the README are only parsed (apt-get install tmux)")
					}
					openDashboard(t, bdir, bin, c.args)
					return
				}
				out, code := runCLI(t, bdir, bin, c.args...)
				if code != 0 {
					t.Fatalf("README.md:%d: clusterlab %s exits %d:\n%s", c.line, strings.Join(c.args, " "), code, out)
				}
				// A quoted result in the comment is what the command prints.
				for _, m := range regexp.MustCompile(`(\d\.\d+e-\d+)`).FindAllString(c.comment, -1) {
					if !strings.Contains(out, m) {
						t.Errorf("README.md:%d: the comment says %s, the command prints:\n%s", c.line, m, out)
					}
				}
				if c.args[0] == "verify" && !strings.HasPrefix(out, "verified:") {
					t.Errorf("README.md:%d: verify does not say verified:\n%s", c.line, out)
				}
			})
		}
	}
}

// untemplate fills a batch system's variables with the first shard of a small job.
func untemplate(args []string) []string {
	for i, a := range args {
		if a == ":::" { // GNU parallel's argument list
			args = args[:i]
			break
		}
	}
	r := strings.NewReplacer(`"$SLURM_CPUS_PER_TASK"`, "1", `"$SLURM_ARRAY_TASK_ID/16"`, "1/16",
		`"shard-$SLURM_ARRAY_TASK_ID"`, "shard-1", "{}", "1")
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = r.Replace(a)
	}
	return out
}

// builtBinary is the clusterlab command, built once for all the package's tests:
// fifteen of them run it, and a link takes seconds, tens of them on a loaded
// machine (the package's tests passed their ten minutes at a load of 40).
var builtBinary struct {
	once     sync.Once
	dir, bin string
	err      error
}

// checkout is the module's root, found before any test changes the working
// directory.
var labRoot, _ = filepath.Abs("..")

// buildBinary returns the clusterlab command, built once, and a new temporary
// directory for the test to run it in.
func buildBinary(t *testing.T) (dir, bin string) {
	t.Helper()
	b := &builtBinary
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "clusterlab-bin-"); b.err != nil {
			return
		}
		b.bin = filepath.Join(b.dir, "clusterlab")
		if out, err := exec.Command("go", "build", "-o", b.bin, labRoot).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return t.TempDir(), b.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtBinary.dir != "" {
		os.RemoveAll(builtBinary.dir)
	}
	os.Exit(code)
}

func writeFile(t *testing.T, path, text string) { clitest.WriteFile(t, path, text) }

// runCLI runs the binary in dir and returns its combined output and exit code.
func runCLI(t *testing.T, dir, bin string, args ...string) (string, int) {
	t.Helper()
	return clitest.Run(t, dir, 3*time.Minute, bin, args...)
}

// openDashboard starts a dashboard command in a detached tmux session, waits for its
// header, quits it with q, and returns the screen it showed.
func openDashboard(t *testing.T, dir, bin string, args []string) string {
	return clitest.OpenDashboard(t, dir, bin, args)
}

// cliParser is the command line's parser, built anew for each check; it never exits
// the test.
func cliParser() *kong.Kong {
	var cli cmdLine
	p, err := newParser(&cli, lang.En, kong.Exit(func(int) {}))
	if err != nil {
		panic(err)
	}
	return p
}

// TestREADMETraceVersion: the trace format version the README gives is the one
// recordings are written with.
func TestREADMETraceVersion(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("(format version %d)", trace.Version), fmt.Sprintf(`"version":%d`, trace.Version)} {
		if !strings.Contains(string(data), want) {
			t.Errorf("README.md does not say %s", want)
		}
	}
}
