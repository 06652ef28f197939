package lab

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docPages are the pages of docs/ whose commands this test runs: each line of a
// sh block that calls clusterlab is run by sh in a fresh folder, with the
// binary first in PATH, and must end with the code its comment gives ("# exit 3:
// …", 0 without one) and print what the comment quotes after its last colon (up
// to an ellipsis). A toml block whose first line is "# NAME.toml" is written to
// that file first.
var docPages = []string{"exit-codes.md", "memory.md", "calc.md"}

var exitComment = regexp.MustCompile(`^exit (\d+)(?:: (.*))?$`)

func TestDocPages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the pages' commands: skipped with -short")
	}
	_, bin := buildBinary(t)
	for _, page := range docPages {
		t.Run(page, func(t *testing.T) {
			blocks := docBlocks(t, filepath.Join("..", "docs", page))
			dir := t.TempDir()
			for _, b := range blocks {
				if name, ok := strings.CutPrefix(strings.SplitN(b.text, "\n", 2)[0], "# "); b.lang == "toml" && ok && strings.HasSuffix(name, ".toml") {
					writeFile(t, filepath.Join(dir, name), b.text)
				}
			}
			ran := 0
			for _, b := range blocks {
				if b.lang != "sh" {
					continue
				}
				for i, line := range strings.Split(b.text, "\n") {
					code, comment, _ := strings.Cut(line, "#")
					code, comment = strings.TrimSpace(code), strings.TrimSpace(comment)
					if !strings.HasPrefix(code, "clusterlab ") {
						continue
					}
					want, quote := 0, ""
					if m := exitComment.FindStringSubmatch(comment); m != nil {
						want, _ = strconv.Atoi(m[1])
						quote = m[2]
					} else if k := strings.LastIndex(comment, ": "); k >= 0 {
						quote = comment[k+2:]
					}
					quote, _, _ = strings.Cut(quote, "…")
					quote = strings.TrimSpace(quote)
					cmd := exec.Command("sh", "-c", code)
					cmd.Dir = dir
					cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "CLUSTERLAB_LANG=en")
					var stdout, stderr bytes.Buffer
					cmd.Stdout, cmd.Stderr = &stdout, &stderr
					err := cmd.Run()
					got := 0
					if ee, ok := err.(*exec.ExitError); ok {
						got = ee.ExitCode()
					} else if err != nil {
						t.Fatal(err)
					}
					where := page + ":" + strconv.Itoa(b.line+1+i)
					out := stdout.String() + stderr.String()
					if got != want {
						t.Errorf("%s: %s exits %d, the page says %d:\n%s", where, code, got, want, out)
					}
					if quote != "" && !strings.Contains(out, quote) {
						t.Errorf("%s: %s does not print %q:\n%s", where, code, quote, out)
					}
					if lines := strings.Count(stderr.String(), "\n"); want != 0 && lines != 1 {
						t.Errorf("%s: %s: %d lines on stderr, want one:\n%s", where, code, lines, stderr.String())
					}
					ran++
				}
			}
			if ran == 0 {
				t.Fatalf("%s shows no clusterlab command", page)
			}
		})
	}
}
