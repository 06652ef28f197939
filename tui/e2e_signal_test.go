package tui

import (
	"bytes"
	"github.com/clusterlab/clusterlab/internal/clitest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEndToEndSignals stops a recording dashboard with SIGHUP (a closed terminal or
// ssh session) and with SIGTERM (issue 24 §8): either way it ends like a quit, but
// with reason interrupted — the recording keeps its end record and verifies, the
// terminal leaves the alternate screen, and the exit status is 128 + the signal.
// Before, SIGHUP killed the process where it stood: no end record, and the
// terminal left in the alternate screen.
func TestEndToEndSignals(t *testing.T) {
	dir, bin := e2eBinary(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		name string
		code string
	}{{syscall.SIGHUP, "SIGHUP", "129"}, {syscall.SIGTERM, "SIGTERM", "143"}} {
		rec := filepath.Join(dir, tc.name+".jsonl")
		x := openTerm(t, "sig-"+tc.name, dir, 200, 40, bin, "run", "--record", rec, "--speed", "1")
		x.waitFor("the dashboard recording", e2eWait, func(s string) bool { return strings.Contains(s, "⏺ REC") && headerTime(s) > 0.5 })
		// the pane stays once the program ends, to be looked at
		x.tmux("set-option", "-w", "-t", x.name, "remain-on-exit", "on")
		if got := strings.TrimSpace(x.tmux("display", "-p", "-t", x.name, "#{alternate_on}")); got != "1" {
			t.Fatalf("%s: the dashboard is not on the alternate screen (alternate_on %q)", tc.name, got)
		}
		pid := strings.TrimSpace(x.tmux("list-panes", "-t", x.name, "-F", "#{pane_pid}"))
		if err := exec.Command("kill", "-"+strings.TrimPrefix(tc.name, "SIG"), pid).Run(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(e2eWait)
		var state []string
		for {
			state = strings.Fields(x.tmux("display", "-p", "-t", x.name, "#{pane_dead} #{pane_dead_status} #{alternate_on}"))
			if len(state) == 3 && state[0] == "1" {
				break
			}
			// tmux 3.3a can mark the pane dead before it reaps the process, and then
			// never says its status: the zombie's own exit code says it.
			if len(state) == 2 && state[0] == "1" {
				if code, ok := zombieStatus(pid); ok {
					state = []string{"1", code, state[1]}
					break
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the dashboard did not end; screen:\n%s", tc.name, x.capture())
			}
			time.Sleep(50 * time.Millisecond)
		}
		if state[1] != tc.code || state[2] != "0" {
			t.Errorf("%s: exit status %s and alternate screen %s, want %s and 0 (the terminal restored)", tc.name, state[1], state[2], tc.code)
		}
		if s := x.tmux("capture-pane", "-p", "-S", "-200", "-t", x.name); !strings.Contains(s, "interrupted by "+tc.name) {
			t.Errorf("%s: the terminal does not say why it ended:\n%s", tc.name, s)
		}
		clitest.EndsInterrupted(t, bin, rec, tc.name)
	}
}

// zombieStatus is the exit status of process pid once it has exited and is not yet
// reaped: /proc/PID/stat's exit_code field (the 52nd, as waitpid gives it).
func zombieStatus(pid string) (string, bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return "", false
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 50 || f[0] != "Z" {
		return "", false
	}
	ws, err := strconv.Atoi(f[49])
	if err != nil {
		return "", false
	}
	return strconv.Itoa(ws >> 8), true
}
