package lab

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/alecthomas/kong"

	"github.com/clusterlab/clusterlab/grading"
	"github.com/clusterlab/clusterlab/internal/clitest"
	"github.com/clusterlab/clusterlab/internal/race"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/sweep"
)

// The README and the pages of docs/ are part of the product: every scenario, sweep
// file and command they show must work as shown (TestDocs).

// block is one fenced code block of a page.
type block struct {
	lang string
	line int // of the opening fence
	text string
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

// pageTests names, for each page whose commands a test of its own runs (with the
// outputs it shows, in the order shown), that test. TestDocs checks that the test
// exists, and checks the page's links and TOML blocks; it runs the commands of
// every other page itself.
var pageTests = map[string]string{
	"docs/algorithms.md":    "TestAlgorithmsPage", // generated from the registry
	"docs/calc.md":          "TestDocPages",       // commands, outputs, exit codes
	"docs/exit-codes.md":    "TestDocPages",
	"docs/memory.md":        "TestDocPages",
	"docs/dashboard.md":     "TestDashboardPage",   // keys, glyphs, dashboards under tmux
	"docs/diff-json.md":     "TestDiffPage",        // commands, outputs, exit codes
	"docs/finding-bugs.md":  "TestFindingBugsPage", // commands, outputs, exit codes
	"docs/internals.md":     "TestInternalsPage",   // the benchmarks it names
	"docs/own-algorithm.md": "TestOwnAlgorithmPage",
	"docs/recordings.md":    "TestRecordingsPage", // commands, pandas lines
	"docs/sweeps.md":        "TestSweepsPage",     // every line, GNU parallel included
	"docs/what-if.md":       "TestWhatIfPage",
	"docs/teaching.md":      "TestTeachingPage", // a class served on loopback, ssh-keygen, grade
}

// allDocPages lists README.md and every page of docs/, as paths from the module's
// root.
func allDocPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md"}
	for _, pattern := range []string{"../docs/*.md", "../docs/*/*.md"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			pages = append(pages, strings.TrimPrefix(filepath.ToSlash(p), "../"))
		}
	}
	return pages
}

// TestDocs: the README and every page of docs/ work as shown. Every internal link
// resolves (to a file, and to a heading of it); every TOML block reads (a scenario
// passes its own expectations, a sweep file, a rubric and a fragment of a scenario
// read); every command of a page without a test of its own runs, in page order, in
// a folder of the page's own, with the exit code it announces (`# exits 1`), and
// every dashboard it opens is opened under tmux.
func TestDocs(t *testing.T) {
	pages := allDocPages(t)
	tests := testFuncs(t, "Test")
	for _, page := range pages {
		if name, ok := pageTests[page]; ok && !tests[name] {
			t.Errorf("%s: pageTests names %s, which no test file defines", page, name)
		}
	}
	t.Run("links", func(t *testing.T) {
		for _, page := range pages {
			checkLinks(t, page)
		}
	})
	if testing.Short() {
		t.Skip("the rest builds the binary and runs every command the pages show; skipped in -short mode")
	}
	if race.Enabled {
		// Minutes of subprocesses and dashboards, which the race detector does not
		// look into, on top of the package's other tests: .ci/run's plain pass runs it.
		t.Skip("the pages' commands run in .ci/run's plain pass (go test -run TestDocs ./lab), not under the race detector")
	}
	dir, bin := buildBinary(t)
	for _, page := range pages {
		t.Run(strings.ReplaceAll(page, "/", "_"), func(t *testing.T) {
			pdir := filepath.Join(dir, strings.ReplaceAll(strings.TrimSuffix(page, ".md"), "/", "-"))
			if err := os.Mkdir(pdir, 0o755); err != nil {
				t.Fatal(err)
			}
			blocks := docBlocks(t, "../"+page)
			t.Chdir(pdir) // the parser checks that files exist from the working directory
			checkTOML(t, page, pdir, bin, blocks, pageTests[page] == "")
			if pageTests[page] == "" {
				runPage(t, page, pdir, bin, blocks)
			}
		})
	}
}

// testFuncs lists the functions of the module's test files whose names start
// with kind, a regular expression ("Test", "(?:Benchmark|Fuzz)").
func testFuncs(t *testing.T, kind string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	re := regexp.MustCompile(`(?m)^func (` + kind + `\w+)\(`)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			out[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
)

// slug is a heading's anchor as GitHub makes it.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkLinks checks that every relative link of page names a file that exists,
// and a heading of it when it has an anchor.
func checkLinks(t *testing.T, page string) {
	t.Helper()
	data, err := os.ReadFile("../" + page)
	if err != nil {
		t.Fatal(err)
	}
	// Links inside code are code, not links.
	text := regexp.MustCompile("(?s)```.*?```|`[^`]*`").ReplaceAllString(string(data), "")
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		path := "../" + page
		if file != "" {
			path = filepath.Join(filepath.Dir("../"+page), file)
		}
		body, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: the link %s leads nowhere (%v)", page, target, err)
			continue
		}
		if anchor == "" {
			continue
		}
		found := false
		for _, h := range mdHeading.FindAllStringSubmatch(string(body), -1) {
			if slug(strings.TrimSpace(h[1])) == anchor {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the link %s names no heading of %s", page, target, file)
		}
	}
}

var (
	scenarioBlock = regexp.MustCompile(`(?m)^algorithm\s*=`)
	sweepBlock    = regexp.MustCompile(`(?m)^(base|file)\s*=`)
	rubricBlock   = regexp.MustCompile(`(?m)^\[\[require\]\]`)
	namedBlock    = regexp.MustCompile(`^# ([\w.-]+\.toml)\n`)
)

// checkTOML writes each TOML block of a page into dir, under the name its first
// line gives (`# rubric.toml`), or my.toml for the first scenario and
// my-sweep.toml for the first sweep, and checks that it reads. With run, a
// scenario must also pass its own expectations.
func checkTOML(t *testing.T, page, dir, bin string, blocks []block, run bool) {
	t.Helper()
	wroteScenario, wroteSweep := false, false
	for _, b := range blocks {
		if b.lang != "toml" {
			continue
		}
		text, name := b.text, fmt.Sprintf("block-%d.toml", b.line)
		if m := namedBlock.FindStringSubmatch(text); m != nil {
			name = m[1]
		}
		where := fmt.Sprintf("%s:%d", page, b.line)
		switch {
		case rubricBlock.MatchString(text):
			writeFile(t, filepath.Join(dir, name), text)
			if _, err := grading.ParseRubric(where, []byte(text)); err != nil {
				t.Errorf("%s: the rubric does not read: %v", where, err)
			}
			continue
		case scenarioBlock.MatchString(text):
			if !wroteScenario && !namedBlock.MatchString(text) {
				writeFile(t, filepath.Join(dir, "my.toml"), text)
				wroteScenario = true
			}
		case sweepBlock.MatchString(text):
			if !wroteSweep && !namedBlock.MatchString(text) {
				name, wroteSweep = "my-sweep.toml", true
			}
			writeFile(t, filepath.Join(dir, name), text)
			if _, err := sweep.Parse(where, []byte(text), dir); err != nil {
				t.Errorf("%s: the sweep file does not read: %v", where, err)
			}
			continue
		default:
			text = "name = \"fragment\"\nalgorithm = \"omega\"\nnodes = 3\nuntil = \"5s\"\n" + text
		}
		writeFile(t, filepath.Join(dir, name), text)
		if _, err := presets.Parse(where, []byte(text)); err != nil {
			t.Errorf("%s: the scenario does not read: %v", where, err)
			continue
		}
		if run {
			if out, code := runCLI(t, dir, bin, "sim", "--file", name); code != 0 {
				t.Errorf("%s: the scenario does not pass its own expectations (exit %d):\n%s", where, code, out)
			}
		}
	}
}

// runPage runs the sh blocks' lines of a page in order, in dir: a clusterlab
// command that opens the dashboard in tmux, a templated one (a batch system's) only
// through the parser, every other line in sh with the built clusterlab first on
// PATH. Lines about the checkout (go, git) are not run: the binary is built.
func runPage(t *testing.T, page, dir, bin string, blocks []block) {
	t.Helper()
	_, tmuxErr := exec.LookPath("tmux")
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, b := range blocks {
		if b.lang != "sh" {
			continue
		}
		for _, c := range pageLines(b) {
			where := fmt.Sprintf("%s:%d", page, c.line)
			if c.template {
				if _, err := cliParser().Parse(untemplate(c.args)); err != nil && !errors.Is(err, fs.ErrNotExist) && !strings.Contains(err.Error(), "no such file or directory") {
					t.Errorf("%s: clusterlab %s: %v", where, strings.Join(c.args, " "), err)
				}
				continue
			}
			if c.clusterlab && len(c.args) > 0 && c.args[0] == "serve" {
				// serve runs until it is stopped: parsed here; TestTeachingPage serves
				// docs/teaching.md's class.
				if _, err := cliParser().Parse(c.args); err != nil {
					t.Errorf("%s: clusterlab %s: %v", where, strings.Join(c.args, " "), err)
				}
				continue
			}
			if c.clusterlab && !strings.ContainsAny(c.code, "<>|;&") && dashboard(withoutLang(c.args)) {
				// A dashboard needs a terminal: its flags are checked by the parser,
				// and it is opened in tmux. A translated page's dashboards are the
				// English page's, opened there.
				if _, err := cliParser().Parse(c.args); err != nil {
					t.Errorf("%s: clusterlab %s: %v", where, strings.Join(c.args, " "), err)
					continue
				}
				if tmuxErr != nil {
					t.Logf("%s: tmux is not installed: the dashboard of clusterlab %s is only parsed (apt-get install tmux)", where, strings.Join(c.args, " "))
				} else if !translated(page) {
					openDashboard(t, dir, bin, c.args)
				}
				continue
			}
			if tool, ok := missingTool(c.code); ok {
				t.Logf("%s: %s is not installed: %s is not run (.ci/run installs it)", where, tool, c.code)
				continue
			}
			cmd := exec.Command("sh", "-c", c.code)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+path)
			out, err := runDeadline(cmd, 3*time.Minute)
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatalf("%s: %s: %v", where, c.code, err)
			}
			if want := wantExit(readmeCommand{comment: c.comment}); code != want {
				t.Errorf("%s: %s exits %d, the page says %d:\n%s", where, c.code, code, want, out)
				continue
			}
			// A quoted result in the comment is what the command prints.
			for _, m := range regexp.MustCompile(`(\d\.\d+e-\d+)`).FindAllString(c.comment, -1) {
				if !strings.Contains(out, m) {
					t.Errorf("%s: the comment says %s, the command prints:\n%s", where, m, out)
				}
			}
			if c.clusterlab && len(c.args) > 0 && c.args[0] == "verify" && code == 0 && !strings.HasPrefix(out, "verified:") {
				t.Errorf("%s: verify does not say verified:\n%s", where, out)
			}
		}
	}
}

// missingTool names the first command of a pipeline line that is not installed
// (jq, for docs/sim-json.md's grading lines), other than clusterlab itself.
func missingTool(code string) (string, bool) {
	// split at the pipes outside quotes: jq's programs hold pipes of their own
	var parts []string
	var quote rune
	start := 0
	for i, r := range code {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '|':
			parts, start = append(parts, code[start:i]), i+1
		}
	}
	for _, part := range append(parts, code[start:]) {
		f := strings.Fields(part)
		if len(f) == 0 || f[0] == "clusterlab" {
			continue
		}
		if _, err := exec.LookPath(f[0]); err != nil {
			return f[0], true
		}
	}
	return "", false
}

// translated reports whether page is a translation (docs/pt/, docs/es/) of an
// English page with the same commands.
func translated(page string) bool {
	return strings.HasPrefix(page, "docs/pt/") || strings.HasPrefix(page, "docs/es/")
}

// withoutLang is args without a leading --lang flag.
func withoutLang(args []string) []string {
	switch {
	case len(args) >= 2 && args[0] == "--lang":
		return args[2:]
	case len(args) >= 1 && strings.HasPrefix(args[0], "--lang="):
		return args[1:]
	}
	return args
}

// pageLine is a line of a page's sh block as TestDocs runs it: the clusterlab
// arguments when it runs clusterlab, and whether they are a batch system's
// template (run by a tool, or with $VAR, {} or *).
type pageLine struct {
	shLine
	args                 []string
	clusterlab, template bool
}

// pageLines lists the lines of a sh block that TestDocs runs: lines about the
// checkout (go, git, cd) and asciinema's are left out.
func pageLines(b block) []pageLine {
	var out []pageLine
	for _, l := range shLines(b) {
		f := strings.Fields(l.code)
		if len(f) == 0 || f[0] == "go" || f[0] == "git" || f[0] == "cd" || f[0] == "asciinema" {
			continue
		}
		p := pageLine{shLine: l}
		for j, w := range f {
			if w == "clusterlab" {
				p.clusterlab, p.args = true, f[j+1:]
				p.template = j > 0 && !strings.ContainsAny(l.code, "<>") || strings.ContainsAny(l.code, "${}*")
				break
			}
		}
		out = append(out, p)
	}
	return out
}

// runDeadline runs cmd and returns its combined output; past the deadline it is
// killed.
func runDeadline(cmd *exec.Cmd, d time.Duration) (string, error) {
	var buf strings.Builder
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		return "", err
	}
	timer := time.AfterFunc(d, func() { cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	return buf.String(), err
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

// TestREADMETraceVersion: the trace format version docs/recordings.md gives is the one
// recordings are written with.
func TestREADMETraceVersion(t *testing.T) {
	data, err := os.ReadFile("../docs/recordings.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("(format version %d)", trace.Version), fmt.Sprintf(`"version":%d`, trace.Version)} {
		if !strings.Contains(string(data), want) {
			t.Errorf("docs/recordings.md does not say %s", want)
		}
	}
}

// TestScenariosPageKeys: docs/scenarios.md has a row for every key the scenario
// reader and the sweep reader accept (their types' toml tags, by dotted path; a
// latency's own keys once, under "A latency"), and no row for a key they refuse.
func TestScenariosPageKeys(t *testing.T) {
	data, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	_, keyPart, ok1 := strings.Cut(page, "\n## Every key\n")
	scenarioPart, sweepPart, ok2 := strings.Cut(keyPart, "\n## The sweep file\n")
	if !ok1 || !ok2 {
		t.Fatal("docs/scenarios.md lacks its sections \"Every key\" and \"The sweep file\", in that order")
	}
	latency := reflect.TypeOf(presets.Latency{})
	for _, c := range []struct {
		part string
		typ  reflect.Type
	}{{scenarioPart, reflect.TypeOf(presets.Scenario{})}, {sweepPart, reflect.TypeOf(sweep.File{})}} {
		rows := map[string]bool{}
		for _, m := range regexp.MustCompile("(?m)^\\| (`[^|]*`) \\|").FindAllStringSubmatch(c.part, -1) {
			for _, k := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m[1], -1) {
				rows[k[1]] = true
			}
		}
		keys := tomlKeys(c.typ, "", latency)
		for _, k := range keys {
			if !rows[k] {
				t.Errorf("docs/scenarios.md: no row for the key %s (%s)", k, c.typ.Name())
			}
			delete(rows, k)
		}
		for k := range rows {
			if strings.Contains(k, "=") || strings.Contains(k, "[") {
				continue
			}
			t.Errorf("docs/scenarios.md: a row for %s, which the %s reader does not accept", k, c.typ.Name())
		}
	}
	for _, k := range tomlKeys(latency, "", nil) {
		if !strings.Contains(page, "`"+k+"`") {
			t.Errorf("docs/scenarios.md: the latency key %s is not described", k)
		}
	}
}

// tomlKeys lists the dotted toml keys of type t's fields, and of the tables under
// them, but not inside a table of type stop.
func tomlKeys(t reflect.Type, prefix string, stop reflect.Type) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == stop {
		return nil
	}
	var out []string
	for i := 0; i < t.NumField(); i++ {
		k, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
		if k == "" || k == "-" {
			continue
		}
		out = append(out, prefix+k)
		out = append(out, tomlKeys(t.Field(i).Type, prefix+k+".", stop)...)
	}
	return out
}
