package lab

import (
	"os"
	"path/filepath"
	"testing"
)

// mainOutput runs the command line in-process and returns what it wrote to stdout
// and stderr, and its exit code.
func mainOutput(t *testing.T, args ...string) (stdout, stderr string, code int) {
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
	so, se := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = out, errf
	code = Main(args)
	os.Stdout, os.Stderr = so, se
	o, _ := os.ReadFile(out.Name())
	e, _ := os.ReadFile(errf.Name())
	return string(o), string(e), code
}
