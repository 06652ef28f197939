package lab

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// grade's outputs that cannot be written: exit 3 naming the file, and neither
// grades.csv nor its summary left half written.
func TestGradeOutputFails(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to set a file size limit with ulimit")
	}
	dir, bin := buildBinary(t)
	hw := filepath.Join(dir, "hw")
	os.Mkdir(hw, 0o755)
	for _, name := range []string{"a", "b", "c", "d"} {
		if out, err := exec.Command(bin, "sim", "--preset", "bully", "--record", filepath.Join(hw, name+".jsonl")).CombinedOutput(); err != nil {
			t.Fatalf("sim --record: %v\n%s", err, out)
		}
	}
	// A limit of one 512-byte block: the recordings are read, the summary
	// cannot be written, as on a full disk.
	cmd := exec.Command(sh, "-c", `ulimit -f 1 && exec "$0" grade hw --out grades.csv`, bin)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(string(out), "clusterlab: write grades.") {
		t.Errorf("grade whose disk fills: %v, %q; want exit 3 naming the file", err, out)
	}
	for _, f := range []string{"grades.csv", "grades.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("grade that could not write its outputs left %s", f)
		}
	}
	// Without the limit the same folder is graded.
	cmd = exec.Command(bin, "grade", "hw", "--out", "grades.csv")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "pass") {
		t.Errorf("grade: %v\n%s", err, out)
	}
}
