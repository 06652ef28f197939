package lab

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSweepCheckProgress: the real binary, in a terminal (tmux), checking a grid
// of 100,000 cells (seconds before any run), shows its progress on that line in
// the reader's language; Ctrl-C then stops it with exit 130, as before.
func TestSweepCheckProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the progress line shows only on a terminal (apt-get install tmux)")
	}
	_, bin := buildBinary(t)
	dir := t.TempDir()
	writeBigGrid(t, filepath.Join(dir, "big.toml"))
	session := fmt.Sprintf("clusterlab-sweepcheck-%d", os.Getpid())
	tmux := func(a ...string) string {
		out, _ := exec.Command("tmux", a...).CombinedOutput()
		return string(out)
	}
	status := filepath.Join(dir, "status")
	// The shell outlives the Ctrl-C (its trap) to write the exit code down.
	script := fmt.Sprintf("trap : INT; %s sweep big.toml --out big; echo $? > %s", bin, status)
	tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "10", "-c", dir, "env", "TERM=xterm-256color", "CLUSTERLAB_LANG=pt", "sh", "-c", script)
	defer tmux("kill-session", "-t", session)
	// The line shows after half a second of checking, and stays until the check
	// ends: seconds for this grid, more under the race detector.
	const want = "] verificando células "
	var screen string
	for deadline := time.Now().Add(time.Minute); !strings.Contains(screen, want); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no progress line of the check after a minute; screen:\n%s", screen)
		}
		if _, err := os.Stat(status); err == nil {
			t.Fatalf("the sweep ended before its check was seen; screen:\n%s", screen)
		}
		screen = tmux("capture-pane", "-p", "-t", session)
	}
	if !strings.Contains(screen, "/100000 · ") || !strings.Contains(screen, "/s · faltam ") {
		t.Errorf("the progress line does not count the 100,000 cells:\n%s", screen)
	}
	tmux("send-keys", "-t", session, "C-c")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if data, err := os.ReadFile(status); err == nil {
			if code := strings.TrimSpace(string(data)); code != "130" {
				t.Errorf("Ctrl-C while checking: exit %s, want 130; screen:\n%s", code, tmux("capture-pane", "-p", "-t", session))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still running 30 s after Ctrl-C; screen:\n%s", tmux("capture-pane", "-p", "-t", session))
		}
	}
}
