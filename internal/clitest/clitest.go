// Package clitest holds what the tests of the command line share: building the
// binary, running commands with a deadline, reading a Markdown page's code
// blocks, and opening the dashboard in tmux. Only tests import it.
package clitest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Block is one fenced code block of a Markdown page.
type Block struct {
	Lang string
	Line int // of the opening fence
	Text string
}

// DocBlocks reads the fenced code blocks of a Markdown file (fences at the
// start of a line; an indented one is part of the prose around it).
func DocBlocks(t testing.TB, path string) []Block {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Block
	var cur *Block
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if cur == nil {
				cur = &Block{Lang: strings.TrimPrefix(line, "```"), Line: n}
			} else {
				out = append(out, *cur)
				cur = nil
			}
			continue
		}
		if cur != nil {
			cur.Text += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: a code block is never closed", path, cur.Line)
	}
	return out
}

// BuildBinary builds the clusterlab command, the package at pkg (the module's
// root, as a path), into a new temporary directory and returns both.
func BuildBinary(t testing.TB, pkg string) (dir, bin string) {
	t.Helper()
	dir = t.TempDir()
	bin = filepath.Join(dir, "clusterlab")
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir, bin
}

// WriteFile writes text to path.
func WriteFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Run runs a command in dir and returns its combined output and exit code; a
// command still running after timeout fails the test.
func Run(t testing.TB, dir string, timeout time.Duration, name string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: no answer in %v\n%s", filepath.Base(name), strings.Join(args, " "), timeout, out)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", filepath.Base(name), strings.Join(args, " "), err)
	}
	return string(out), 0
}

// Must runs a command that must succeed (within 5 minutes) and returns its
// output.
func Must(t testing.TB, dir, name string, args ...string) string {
	t.Helper()
	out, code := Run(t, dir, 5*time.Minute, name, args...)
	if code != 0 {
		t.Fatalf("%s %s (in %s) exits %d:\n%s", filepath.Base(name), strings.Join(args, " "), dir, code, out)
	}
	return out
}

// OpenDashboard starts a dashboard command in a detached tmux session, waits for
// its header, quits it with q, and returns the screen it showed.
func OpenDashboard(t testing.TB, dir, bin string, args []string) string {
	t.Helper()
	session := fmt.Sprintf("clusterlab-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	tmux := func(a ...string) (string, error) {
		out, err := exec.Command("tmux", a...).CombinedOutput()
		return string(out), err
	}
	cmd := append([]string{"new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", dir, "env", "TERM=xterm-256color", bin}, args...)
	if out, err := tmux(cmd...); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	defer tmux("kill-session", "-t", session)
	deadline := time.Now().Add(20 * time.Second)
	var shown string
	for {
		screen, err := tmux("capture-pane", "-p", "-t", session)
		if err == nil && strings.Contains(screen, " │ t=") {
			shown = screen
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("clusterlab %s: no dashboard after 20 s; screen:\n%s", strings.Join(args, " "), screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
	tmux("send-keys", "-t", session, "q")
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if _, err := tmux("has-session", "-t", session); err != nil {
			return shown // the program quit and its session closed
		}
	}
	screen, _ := tmux("capture-pane", "-p", "-t", session)
	t.Fatalf("clusterlab %s: still running 10 s after q; screen:\n%s", strings.Join(args, " "), screen)
	return ""
}

// EndsInterrupted checks a recording that a signal stopped: it was kept, its last
// line is the end record with reason interrupted, and bin verifies it. what names
// the case in the failures.
func EndsInterrupted(t testing.TB, bin, rec, what string) {
	t.Helper()
	data, err := os.ReadFile(rec)
	if err != nil || len(data) == 0 {
		t.Fatalf("%s: the recording was not kept: %v", what, err)
	}
	last := data[bytes.LastIndexByte(data[:len(data)-1], '\n')+1:]
	if !bytes.HasPrefix(last, []byte(`{"ev":"end"`)) || !bytes.Contains(last, []byte(`"reason":"interrupted"`)) {
		t.Fatalf("%s: the recording ends with %s, want its end record with reason interrupted", what, last)
	}
	if out, err := exec.Command(bin, "verify", rec).CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "verified: ") {
		t.Errorf("%s: verify: %v: %s", what, err, out)
	}
}
