package lab

import (
	"strings"
	"testing"
)

// TestMissingFileNamed: every command that reads a file given as an argument
// refuses a missing one before any work, with exit 2 and one line naming the path
// in the lab's words (not Go's "stat …: no such file or directory").
func TestMissingFileNamed(t *testing.T) {
	for _, args := range [][]string{
		{"verify", "nosuch.jsonl"},
		{"export", "nosuch.jsonl", "--format", "csv", "-o", "x.csv"},
		{"shrink", "nosuch.jsonl"},
		{"diff", "nosuch.jsonl", "nosuch2.jsonl"},
		{"sim", "--file", "nosuch.toml"},
	} {
		_, errText, code := mainOutput(t, args...)
		line := strings.TrimSpace(errText)
		if code != 2 || !strings.Contains(line, "nosuch.") || !strings.Contains(line, "does not exist") ||
			strings.Contains(line, "stat ") || strings.Count(line, "\n") != 0 {
			t.Errorf("%s: exit %d, %q; want exit 2 and one line saying the file does not exist", strings.Join(args, " "), code, errText)
		}
	}
}
