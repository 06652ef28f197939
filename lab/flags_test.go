package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadFlags: a bad flag value gets one line that names the flag and what was
// expected, exit 2, and no output file.
func TestBadFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	dir, bin := buildBinary(t)
	if out, code := runCLI(t, dir, bin, "sim", "--preset", "bully", "--record", "t.jsonl"); code != 0 {
		t.Fatalf("sim --record exits %d:\n%s", code, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "t.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[500] = strings.Replace(lines[500], `{"seq":500,`, `{"seq":7,`, 1)
	writeFile(t, filepath.Join(dir, "bad.jsonl"), strings.Join(lines, ""))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "t.jsonl", "--format", "cast", "--fps", "0", "-o", "out"}, "--fps: found 0, expected frames per second from 1 to 60"},
		{[]string{"export", "t.jsonl", "--format", "cast", "--fps", "1000000", "-o", "out"}, "--fps"},
		{[]string{"export", "t.jsonl", "--format", "cast", "--view", "circle", "-o", "out"}, "--view"},
		{[]string{"export", "t.jsonl", "--format", "gif", "-o", "out"}, "gif"},
		{[]string{"sim", "--preset", "bully", "--until", "100000h"}, "--until"},
		{[]string{"run", "--preset", "bully", "--speed", "5000"}, "--speed: found 5000"},
		{[]string{"--lang", "xx", "presets"}, `--lang: found "xx"`},
		{[]string{"verify", "t.jsonl", "--max-pending", "0"}, "--max-pending: found 0"},
		// A trace that breaks off in its middle: every export says where, exit 2,
		// and leaves no file, though it wrote as it read.
		{[]string{"export", "bad.jsonl", "--format", "md", "-o", "out"}, "bad.jsonl:501: found seq 7"},
		{[]string{"export", "bad.jsonl", "--format", "csv", "-o", "out"}, "bad.jsonl:501: found seq 7"},
		{[]string{"export", "bad.jsonl", "--format", "shiviz", "-o", "out"}, "bad.jsonl:501: found seq 7"},
		{[]string{"export", "bad.jsonl", "--format", "perfetto", "-o", "out"}, "bad.jsonl:501: found seq 7"},
		{[]string{"export", "bad.jsonl", "--format", "cast", "-o", "out"}, "bad.jsonl:501: found seq 7"},
		{[]string{"export", "bad.jsonl", "--format", "mermaid", "--split", "-o", "out"}, "bad.jsonl:501: found seq 7"},
	} {
		out, code := runCLI(t, dir, bin, c.args...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 2 || !strings.Contains(out, c.want) || len(lines) > 1 && !strings.Contains(lines[0], c.want) {
			t.Errorf("clusterlab %s: exit %d, want 2 and one line with %q:\n%s", strings.Join(c.args, " "), code, c.want, out)
		}
		if out, _ := runCLI(t, dir, "/bin/ls", "out"); !strings.Contains(out, "No such file") {
			t.Errorf("clusterlab %s left an output file", strings.Join(c.args, " "))
		}
	}
}
