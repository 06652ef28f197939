package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckBadFlags: check refuses a bad flag with exit 2 and one line naming it,
// before it runs anything (a --save that is a file used to fail only after the
// property runs, with exit 1).
func TestCheckBadFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "bully", "--jobs=-1"}, "--jobs: found -1"},
		{[]string{"check", "bully", "--explore=-1"}, "--explore: found -1"},
		{[]string{"check", "bully", "--sizes", "9-3"}, `--sizes: found "9-3"`},
		{[]string{"check", "bully", "--save", file}, "--save: found " + file + ", a file"},
		{[]string{"check", "nosuch"}, `NAME: found "nosuch"`},
	} {
		out, errs, code := mainOutput(t, c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; expected exit 2 and one line with %q", strings.Join(c.args, " "), code, out, errs, c.want)
		}
	}
	if data, err := os.ReadFile(file); err != nil || string(data) != "mine\n" {
		t.Errorf("%s changed: %q %v", file, data, err)
	}
}
