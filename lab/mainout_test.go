package lab

import (
	"os"
	"path/filepath"
	"testing"
)

// mainOutput runs the command line in-process and returns what it wrote to stdout
// and stderr, and its exit code.
func mainOutput(t *testing.T, args ...string) (outText, errText string, code int) {
	t.Helper()
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	errf, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer errf.Close()
	so, se, sw := os.Stdout, os.Stderr, stdout
	os.Stdout, os.Stderr, stdout = out, errf, &checkedWriter{w: out}
	code = Main(args)
	os.Stdout, os.Stderr, stdout = so, se, sw
	o, _ := os.ReadFile(out.Name())
	e, _ := os.ReadFile(errf.Name())
	return string(o), string(e), code
}
