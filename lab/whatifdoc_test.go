package lab

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestWhatIfPage runs docs/what-if.md as a student would, in one folder, in page
// order: every shell line (with clusterlab on the PATH), each text block compared
// with what the shell block before it printed; the fork in the dashboard, under
// tmux, pressing the keys of the page's table in order; the scenario lines added
// to the preset's file that a shell line saved (the page then compares its run
// with the saved fork, byte for byte); and the dashboards of the last block
// opened and quit.
func TestWhatIfPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs docs/what-if.md; skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: docs/what-if.md forks a replay in the dashboard")
	}
	page, _ := filepath.Abs("../docs/what-if.md")
	dir, bin := buildBinary(t)
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	shell := func(line string) (string, error) {
		cmd := exec.Command("bash", "-o", "pipefail", "-c", line)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "PATH="+path)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	var last string
	forked, tomlAdded := false, false
	blocks := docBlocks(t, page)
	for i, b := range blocks {
		switch b.lang {
		case "text":
			if i > 0 && blocks[i-1].lang == "sh" && strings.TrimSpace(b.text) != strings.TrimSpace(last) {
				t.Errorf("%s:%d: the page shows\n%s\nthe command prints\n%s", page, b.line, b.text, last)
			}
		case "toml":
			// the lines the page says to add at the end of the preset's file,
			// which its shell block before saved
			f, err := os.OpenFile(filepath.Join(dir, "whatif.toml"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatalf("%s:%d: %v", page, b.line, err)
			}
			_, err = f.WriteString("\n" + b.text)
			if err := errors.Join(err, f.Close()); err != nil {
				t.Fatal(err)
			}
			tomlAdded = true
		case "sh":
			last = ""
			for _, line := range strings.Split(strings.TrimSpace(b.text), "\n") {
				args := strings.Fields(line)
				if len(args) > 1 && args[0] == "clusterlab" && dashboard(args[1:]) {
					if args[1] == "replay" && !forked {
						forkInDashboard(t, dir, bin, args[1:], string(data))
						forked = true
					} else {
						openDashboard(t, dir, bin, args[1:])
					}
					continue
				}
				out, err := shell(line)
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				want := 0
				if m := regexp.MustCompile(`# exits (\d)`).FindStringSubmatch(line); m != nil {
					want = int(m[1][0] - '0')
				}
				if code != want {
					t.Fatalf("%s:%d: %s: exit %d, the page says %d\n%s", page, b.line, line, code, want, out)
				}
				last += out
			}
		}
	}
	if !forked || !tomlAdded {
		t.Fatalf("%s never forks a replay, or never writes the fork as a scenario", page)
	}
}

// forkInDashboard opens the replay under tmux and presses the keys of the page's
// table, row by row: each backquoted word of a row's first cell, a key by its
// name (enter, space, ctrl+u) or text typed.
func forkInDashboard(t *testing.T, dir, bin string, args []string, page string) {
	t.Helper()
	session := fmt.Sprintf("clusterlab-whatif-%d", os.Getpid())
	tmux := func(a ...string) string {
		out, _ := exec.Command("tmux", a...).CombinedOutput()
		return string(out)
	}
	tmux(append([]string{"new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", dir, "env", "TERM=xterm-256color", bin}, args...)...)
	defer tmux("kill-session", "-t", session)
	wait := func(what string, ok func(string) bool) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			s := tmux("capture-pane", "-p", "-t", session)
			if ok(s) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("docs/what-if.md: waiting for %s; screen:\n%s", what, s)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	wait("the replay", func(s string) bool { return strings.Contains(s, " │ t=") })
	names := map[string]string{"enter": "Enter", "space": "space", "esc": "Escape", "ctrl+u": "C-u"}
	rows := regexp.MustCompile("(?m)^\\| ((?:`[^`]+` ?)+)\\|(.*)\\|$").FindAllStringSubmatch(page, -1)
	if len(rows) == 0 {
		t.Fatal("docs/what-if.md has no table of keys")
	}
	for _, row := range rows {
		for _, k := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(row[1], -1) {
			if name, ok := names[k[1]]; ok {
				tmux("send-keys", "-t", session, name)
			} else {
				tmux("send-keys", "-t", session, "-l", k[1])
			}
			time.Sleep(150 * time.Millisecond)
		}
		// what the row says comes, in backquotes, is on screen (but the
		// saved fork, after which the dashboard is gone)
		for _, said := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(row[2], -1) {
			if strings.Contains(row[1], "b.jsonl") {
				break
			}
			wait(said[1], func(s string) bool { return strings.Contains(s, said[1]) })
		}
		if strings.Contains(row[1], "space") {
			wait("the pause at 12 s", func(s string) bool { return strings.Contains(s, "t=12.000s") && strings.Contains(s, "⏸ paused") })
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for exec.Command("tmux", "has-session", "-t", session).Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("docs/what-if.md: the fork did not quit after its keys; screen:\n%s", tmux("capture-pane", "-p", "-t", session))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
