package lab

import (
	"bytes"
	"errors"
	"github.com/clusterlab/clusterlab/internal/clitest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalsStopCleanly builds the binary, stops `sim --record` on a long run with
// SIGINT, SIGTERM and SIGHUP, and checks the exit status (130, 143, 129), the one line
// printed, and the recording: whole, ending with reason interrupted, and verified.
func TestSignalsStopCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	dir, bin := buildBinary(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{{syscall.SIGINT, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}, {syscall.SIGHUP, 129, "SIGHUP"}} {
		path := filepath.Join(dir, tc.name+".jsonl")
		cmd := exec.Command(bin, "sim", "--preset", "dp-gst", "--until", "20h", "--record", path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until events are on disk, then stop it.
		deadline := time.Now().Add(20 * time.Second)
		for {
			if fi, err := os.Stat(path + ".partial"); err == nil && fi.Size() > 100000 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("the recording never grew")
			}
			time.Sleep(20 * time.Millisecond)
		}
		cmd.Process.Signal(tc.sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
			t.Fatalf("%s: %v, want exit status %d; stderr %s", tc.name, err, tc.code, stderr.String())
		}
		if lines := strings.Count(stderr.String(), "\n"); lines != 1 || !strings.Contains(stderr.String(), "interrupted by "+tc.name) {
			t.Errorf("%s: stderr %q, want one line saying so", tc.name, stderr.String())
		}
		clitest.EndsInterrupted(t, bin, path, tc.name)
		if tmp, _ := filepath.Glob(filepath.Join(dir, "*.partial")); len(tmp) > 0 {
			t.Errorf("%s: unfinished files left: %v", tc.name, tmp)
		}
	}
}

// TestKilledRecordingLeavesPartial: a recording whose process is killed outright
// (SIGKILL: no handler runs) leaves NAME.partial, visible and readable, which
// verify --partial reads; the next run to the same name is refused and says where
// it is, and --force replaces it.
func TestKilledRecordingLeavesPartial(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	dir, bin := buildBinary(t)
	path := filepath.Join(dir, "killed.jsonl")
	cmd := exec.Command(bin, "sim", "--preset", "dp-gst", "--until", "20h", "--record", path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if fi, err := os.Stat(path + ".partial"); err == nil && fi.Size() > 100000 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no growing killed.jsonl.partial")
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	fi, err := os.Stat(path + ".partial")
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("killed.jsonl.partial: %v, mode %v; want it left, readable by all", err, fi.Mode())
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("killed.jsonl exists: a killed recording must not take the name")
	}
	out, code := runCLI(t, dir, bin, "verify", "--partial", "killed.jsonl.partial")
	if code != 0 || !strings.HasPrefix(out, "verified prefix: ") {
		t.Fatalf("verify --partial killed.jsonl.partial: exit %d\n%s", code, out)
	}
	out, code = runCLI(t, dir, bin, "sim", "--preset", "bully", "--record", "killed.jsonl")
	if code != 2 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "killed.jsonl.partial holds what a run recording to killed.jsonl wrote before it was stopped") ||
		!strings.Contains(out, "verify --partial killed.jsonl.partial") {
		t.Fatalf("the next run: exit %d\n%s", code, out)
	}
	if out, code := runCLI(t, dir, bin, "sim", "--preset", "bully", "--record", "killed.jsonl", "--force"); code != 0 {
		t.Fatalf("--force: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(path + ".partial"); err == nil {
		t.Error("killed.jsonl.partial is still there after a whole recording replaced it")
	}
	if out, code := runCLI(t, dir, bin, "verify", "killed.jsonl"); code != 0 {
		t.Errorf("verify killed.jsonl: exit %d\n%s", code, out)
	}
}
