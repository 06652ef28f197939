package owntest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/internal/clitest"
)

// docs/own-algorithm.md is run as a student would follow it: every sh block's
// commands in order, from an empty folder (cd moves through it), with the page's
// --lab path replaced by this checkout. A TOML block whose first line is a
// comment naming a file ("# rubric.toml") is written to that file; a text block
// right after a sh block is what its last command prints (each line's first
// two words, a check's status and name, must be in the output; the figures
// after them change with the presets); a text block that is a piece of a script
// (it holds ----) must be in the scaffold's script, and the go block in its
// main.go. Other text blocks are illustrations.
func TestOwnAlgorithmPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module outside the repository and runs what docs/own-algorithm.md shows; skipped in -short mode")
	}
	const page = "../../docs/own-algorithm.md"
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	_, lab := clitest.BuildBinary(t, checkout)
	cwd := t.TempDir()
	module := ""                 // the module new wrote, once it has
	built := map[string]string{} // a module's directory → its binary, built for go run
	last, lastKind := "", ""
	for _, b := range clitest.DocBlocks(t, page) {
		where := func() string { return fmt.Sprintf("docs/own-algorithm.md:%d", b.Line) }
		switch {
		case b.Lang == "toml" && strings.HasPrefix(b.Text, "# "):
			name := strings.TrimSpace(strings.SplitN(b.Text, "\n", 2)[0][2:])
			clitest.WriteFile(t, filepath.Join(cwd, name), b.Text)
		case b.Lang == "go":
			main, _ := os.ReadFile(filepath.Join(module, "main.go"))
			for _, l := range strings.Split(b.Text, "\n") {
				if strings.TrimSpace(l) != "" && !strings.Contains(string(main), l) {
					t.Errorf("%s: main.go as new writes it has no line %q", where(), l)
				}
			}
		case b.Lang == "text" && strings.Contains(b.Text, "\n----\n"):
			script, _ := os.ReadFile(filepath.Join(module, filepath.Base(module), "testdata", "basic.txt"))
			if !strings.Contains(string(script), b.Text) {
				t.Errorf("%s: the script new writes has no such piece:\n%s", where(), b.Text)
			}
		case b.Lang == "text" && lastKind == "sh":
			for _, l := range strings.Split(b.Text, "\n") {
				words := strings.Fields(l)
				if len(words) == 0 {
					continue
				}
				want := strings.Join(words[:min(2, len(words))], " ")
				if !strings.Contains(strings.Join(strings.Fields(last), " "), want) {
					t.Errorf("%s: the command prints no %q:\n%s", where(), want, last)
				}
			}
		case b.Lang == "sh":
			for _, line := range strings.Split(b.Text, "\n") {
				code, _, _ := strings.Cut(line, "#")
				f := strings.Fields(code)
				if len(f) == 0 {
					continue
				}
				switch {
				case f[0] == "cd":
					cwd = filepath.Join(cwd, f[1])
				case f[0] == "mkdir" || f[0] == "cp":
					clitest.Must(t, cwd, f[0], f[1:]...)
				case f[0] == "clusterlab":
					for i := range f {
						if f[i] == "--lab" && i+1 < len(f) {
							f[i+1] = checkout
						}
					}
					last = clitest.Must(t, cwd, lab, f[1:]...)
					if f[1] == "new" {
						module = filepath.Join(cwd, f[3])
					}
				case len(f) > 2 && f[0] == "go" && f[1] == "run" && f[2] == ".":
					bin := built[cwd]
					if bin == "" {
						bin = filepath.Join(cwd, ".page.bin")
						clitest.Must(t, cwd, "go", "build", "-o", bin, ".")
						built[cwd] = bin
					}
					if len(f) > 3 && f[3] == "run" {
						if _, err := exec.LookPath("tmux"); err != nil {
							t.Logf("%s: tmux is not installed: the dashboard is not opened (apt-get install tmux)", where())
							continue
						}
						if screen := clitest.OpenDashboard(t, cwd, bin, f[3:]); !strings.Contains(screen, filepath.Base(module)) {
							t.Errorf("%s: the dashboard does not show %s:\n%s", where(), filepath.Base(module), screen)
						}
						continue
					}
					var code int
					last, code = clitest.Run(t, cwd, 5*time.Minute, bin, f[3:]...)
					if code != 0 {
						t.Fatalf("%s: %s exits %d:\n%s", where(), strings.Join(f, " "), code, last)
					}
				case f[0] == "go":
					last = clitest.Must(t, cwd, "go", f[1:]...)
				default:
					t.Fatalf("%s: the page's test does not know how to run %q: teach it, or leave the command out", where(), strings.TrimSpace(code))
				}
			}
		}
		lastKind = b.Lang
	}
	if module == "" {
		t.Fatalf("%s never runs clusterlab new", page)
	}
	if _, err := os.Stat(filepath.Join(module, "grades.csv")); err != nil {
		t.Errorf("the page's grade wrote no grades.csv: %v", err)
	}
}
