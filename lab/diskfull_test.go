package lab

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiskFullKeepsThePartial: sim --record on a disk that fills (prlimit --fsize)
// exits 3 with one line that names the file, and leaves what it wrote as
// NAME.partial, which verify --partial reads, instead of removing it: a student
// whose disk filled keeps the run so far.
func TestDiskFullKeepsThePartial(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit (util-linux) is not installed: the full disk is not simulated")
	}
	_, bin := buildBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(prlimit, "--fsize=1048576", bin, "sim", "--preset", "dp-gst", "--until", "1h", "--record", "full.jsonl")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("sim --record on a full disk: %v, want exit 3:\n%s", err, stderr.String())
	}
	line := stderr.String()
	if strings.Count(line, "\n") != 1 || !strings.Contains(line, "write full.jsonl: file too large") || !strings.Contains(line, "verify --partial full.jsonl.partial") {
		t.Errorf("the error is not one line naming the file and the partial recording:\n%s", line)
	}
	if _, err := os.Stat(filepath.Join(dir, "full.jsonl")); err == nil {
		t.Error("full.jsonl exists: an unfinished recording took the name")
	}
	out, code := runCLI(t, dir, bin, "verify", "--partial", "full.jsonl.partial")
	if code != 0 || !strings.HasPrefix(out, "verified prefix:") {
		t.Errorf("verify --partial of what was kept exits %d:\n%s", code, out)
	}
}
