package session

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/clusterlab/clusterlab/internal/race"
	"github.com/clusterlab/clusterlab/presets"
)

// TestSameTraceOtherBuild builds the clusterlab binary in the other race mode than
// this test (without -race when the test runs with it, and the other way round),
// records every preset with it, and checks each recording's hash against a run in
// this process: the trace does not depend on the race detector.
func TestSameTraceOtherBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "clusterlab")
	args := []string{"build", "-o", bin}
	if !race.Enabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "github.com/clusterlab/clusterlab")...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go %v: %v\n%s", args, err, out)
	}
	for _, name := range presets.Names() {
		path := filepath.Join(dir, name+".jsonl")
		out, err := exec.Command(bin, "sim", "--preset", name, "--record", path).CombinedOutput()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("%s: %v\n%s", name, err, out)
			}
		}
		tr, err := ReadTrace(path)
		if err != nil {
			t.Fatal(err)
		}
		mine := filepath.Join(dir, name+"-here.jsonl")
		recordPreset(t, name, mine)
		here, err := ReadTrace(mine)
		if err != nil {
			t.Fatal(err)
		}
		if here.Hash != tr.Hash || tr.End == nil || here.End == nil || *here.End != *tr.End {
			t.Errorf("%s: race=%v in this process gives %s (end %+v), the other build %s (end %+v)", name, race.Enabled, here.Hash, here.End, tr.Hash, tr.End)
		}
	}
}
