package tui

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
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
		data, err := os.ReadFile(rec)
		if err != nil {
			t.Fatalf("%s: the recording was not kept: %v", tc.name, err)
		}
		last := data[bytes.LastIndexByte(data[:len(data)-1], '\n')+1:]
		if !bytes.HasPrefix(last, []byte(`{"ev":"end"`)) || !bytes.Contains(last, []byte(`"reason":"interrupted"`)) {
			t.Errorf("%s: the recording ends with %s, want its end record with reason interrupted", tc.name, last)
		}
		if out, err := exec.Command(bin, "verify", rec).CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "verified: ") {
			t.Errorf("%s: verify: %v: %s", tc.name, err, out)
		}
	}
}
