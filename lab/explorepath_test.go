package lab

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExploreNameStaysInside: a scenario named "../../escaped" searched without
// --out writes its outputs into one folder of the working folder, not two
// folders up (issue 24 §6: names used as paths stay inside the output folder).
func TestExploreNameStaysInside(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	_, bin := buildBinary(t)
	root := t.TempDir()
	dir := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "t.toml"), "name = \"../../escaped\"\nalgorithm = \"ricart\"\nnodes = 3\nuntil = \"2s\"\n[params]\ncs_rate = \"5\"\n")
	if out, code := runCLI(t, dir, bin, "explore", "t.toml", "--runs", "2"); code != 0 {
		t.Fatalf("explore exits %d:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(root, "escaped")); err == nil {
		t.Error("the search wrote outside its working folder, where its scenario's name led")
	}
	if _, err := os.Stat(filepath.Join(dir, "explore-..-..-escaped", "explore.json")); err != nil {
		t.Errorf("the outputs are not in explore-..-..-escaped/: %v", err)
	}
}
