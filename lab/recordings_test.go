package lab

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace/export"
)

// TestRecordingsPage runs what docs/recordings.md shows: its commands in order in
// one directory, each of which must succeed, then its pandas lines over the CSV
// they wrote (python3 with pandas, which .ci/run installs; that part is skipped
// without it). The page's tables name every format.
func TestRecordingsPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs what docs/recordings.md shows; skipped in -short mode")
	}
	const page = "../docs/recordings.md"
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range export.Formats {
		if !strings.Contains(string(text), "| `"+f+"` |") || !strings.Contains(string(text), "\n| "+f) {
			t.Errorf("%s: no row for %s in its tables", page, f)
		}
	}
	dir, bin := buildBinary(t)
	var python []block
	for _, b := range docBlocks(t, page) {
		switch b.lang {
		case "python":
			python = append(python, b)
		case "sh":
			run, _ := commands(b)
			for _, c := range run {
				if out, code := runCLI(t, dir, bin, c.args...); code != 0 {
					t.Errorf("docs/recordings.md:%d: clusterlab %s exits %d:\n%s", c.line, strings.Join(c.args, " "), code, out)
				}
			}
		}
	}
	if len(python) == 0 {
		t.Fatalf("%s shows no pandas lines", page)
	}
	t.Run("pandas", func(t *testing.T) {
		py := ""
		for _, p := range []string{"python3", "/usr/bin/python3"} {
			if exec.Command(p, "-c", "import pandas").Run() == nil {
				py = p
				break
			}
		}
		if py == "" {
			t.Skip("python3 with pandas is not installed: the page's pandas lines are not run (apt-get install python3-pandas)")
		}
		for _, b := range python {
			cmd := exec.Command(py, "-c", b.text)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "delivered") {
				t.Errorf("docs/recordings.md:%d: the pandas lines fail (%v):\n%s", b.line, err, out)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "messages.csv")); err != nil {
			t.Error(err)
		}
	})
}
