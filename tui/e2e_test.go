package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEndToEndTmux runs the real binary in a detached tmux session: the default demo
// shows n1..n5 and a leader; `v` shows the topology and `v` again the cards; `5 c`
// crashes n5 and another leader appears; a partition typed on the command line
// raises the split-brain banner; `q` quits.
func TestEndToEndTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the end-to-end dashboard test needs it (apt-get install tmux)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "clusterlab")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	help, _ := exec.Command(bin, "--help").CombinedOutput()
	if !strings.Contains(string(help), "\n  run") {
		t.Skip("the binary does not open the dashboard yet (no `run` command in --help)")
	}
	session := fmt.Sprintf("clusterlab-e2e-%d", os.Getpid())
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", dir, "env", "TERM=xterm-256color", bin)
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", session).Run() })
	capture := func() string { return tmux("capture-pane", "-p", "-t", session) }
	waitFor := func(what string, cond func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			s := capture()
			if cond(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	first := ""
	waitFor("the cards of n1..n5 and a leader", func(s string) bool {
		var ok bool
		first, ok = leaderOnLiveCards(s, five...)
		return ok
	})
	// the mouse: the dashboard asks for it, a click on n3's card selects it, a
	// click on [crash] crashes it, and a right click revives it (clicks are sent
	// as the terminal sends them, SGR-encoded, 1-based)
	if got := strings.TrimSpace(tmux("display", "-p", "-t", session, "#{mouse_button_flag}#{mouse_sgr_flag}")); got != "11" {
		t.Errorf("tmux reports mouse button and SGR flags %q, want 11", got)
	}
	sgr := func(button, x, y int) {
		tmux("send-keys", "-t", session, "-l", fmt.Sprintf("\x1b[<%d;%d;%dM\x1b[<%d;%d;%dm", button, x+1, y+1, button, x+1, y+1))
	}
	at := func(s, text string) (int, int) {
		for y, l := range strings.Split(s, "\n") {
			if i := strings.Index(l, text); i >= 0 {
				return len([]rune(l[:i])), y
			}
		}
		t.Fatalf("%q is not on screen:\n%s", text, s)
		return 0, 0
	}
	x, y := at(capture(), "─ n3 ")
	sgr(0, x+2, y+2)
	s := waitFor("n3 selected by a click", func(s string) bool { return strings.Contains(s, "Nodes (5) · n3:") })
	x, y = at(s, "[crash]")
	sgr(0, x+1, y)
	waitFor("n3 crashed by a click", func(s string) bool { return strings.Contains(cards(s)["n3"], "down") })
	x, y = at(capture(), "━ n3 ") // selected, its border is heavy
	sgr(2, x+2, y+2)
	waitFor("n3 revived by a right click", func(s string) bool {
		return strings.Contains(s, "✓ recover n3") && !strings.Contains(cards(s)["n3"], "down")
	})
	// v puts the topology in the cards' place, and v again brings the cards back
	tmux("send-keys", "-t", session, "v")
	waitFor("the topology", func(s string) bool { return strings.Contains(s, "Topology ·") && !strings.Contains(s, "Nodes (") })
	tmux("send-keys", "-t", session, "v")
	waitFor("the cards again", func(s string) bool { return strings.Contains(s, "Nodes (") })
	tmux("send-keys", "-t", session, "5", "c")
	waitFor("n5 down and another leader", func(s string) bool {
		ld, ok := leaderOnLiveCards(s, five...)
		return ok && ld != "n5" && strings.Contains(cards(s)["n5"], "down")
	})
	tmux("send-keys", "-t", session, ":")
	tmux("send-keys", "-t", session, "-l", "partition n1,n2 | n3,n4,n5")
	tmux("send-keys", "-t", session, "Enter")
	waitFor("the split-brain banner", func(s string) bool { return strings.Contains(s, "SPLIT BRAIN") })
	// paused, the dashboard does next to nothing: under 2 % of a core
	tmux("send-keys", "-t", session, "space")
	waitFor("paused", func(s string) bool { return strings.Contains(s, "⏸ paused") })
	pid := strings.TrimSpace(tmux("list-panes", "-t", session, "-F", "#{pane_pid}"))
	cpu := func() float64 {
		b, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			t.Skipf("no /proc to measure CPU: %v", err)
		}
		f := strings.Fields(string(b)[strings.LastIndexByte(string(b), ')')+2:])
		var u, s float64
		fmt.Sscan(f[11], &u)
		fmt.Sscan(f[12], &s)
		return (u + s) / 100 // clock ticks of 10 ms
	}
	time.Sleep(time.Second)
	c0, w0 := cpu(), time.Now()
	time.Sleep(5 * time.Second)
	share := (cpu() - c0) / time.Since(w0).Seconds()
	t.Logf("paused, the dashboard used %.1f %% of a core", share*100)
	if share > 0.02 {
		t.Errorf("paused, the dashboard used %.1f %% of a core, want under 2 %%", share*100)
	}
	tmux("send-keys", "-t", session, "q")
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("tmux", "has-session", "-t", session).Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit; screen:\n%s", capture())
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = first

	// maekawa-deadlock: once every node waits for a grant that never comes nothing
	// is pending, yet the clock goes on past 6 s while the header says running
	idle := session + "-idle"
	session = idle
	tmux("new-session", "-d", "-s", idle, "-x", "160", "-y", "48", "-c", dir, "env", "TERM=xterm-256color", bin, "run", "--preset", "maekawa-deadlock", "--speed", "4")
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", idle).Run() })
	waitFor("the clock past 6 s, running, with a deadlock suspected", func(s string) bool {
		return strings.Contains(s, "▶ running") && strings.Contains(s, "deadlock? nothing pending") && headerTime(s) > 6
	})

	// a tiny storm guard: the dashboard shows sim's storm line, the header says
	// stopped, and q still quits
	storm := session + "-storm"
	session = storm
	tmux("new-session", "-d", "-s", storm, "-x", "160", "-y", "48", "-c", dir, "env", "TERM=xterm-256color", bin, "run", "--preset", "bully", "--max-pending", "10")
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", storm).Run() })
	waitFor("the storm line and the clock stopped", func(s string) bool {
		return strings.Contains(s, "✗ event storm: 10 events pending at t=") && strings.Contains(s, "■ stopped") && !strings.Contains(s, "▶ running")
	})
	tmux("send-keys", "-t", storm, "q")
	deadline = time.Now().Add(10 * time.Second)
	for exec.Command("tmux", "has-session", "-t", storm).Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit after the storm; screen:\n%s", capture())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
