package session

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGeneratedFaultsVerify: a run whose crashes come from the [faults] generator
// replays from its header like a scripted one.
func TestGeneratedFaultsVerify(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.toml")
	os.WriteFile(file, []byte(`algorithm = "heartbeat-dp"
nodes = 4
seed = 9
until = "8s"
[faults]
crash_rate = "0.5/s"
down_for = {dist = "uniform", min = "200ms", max = "1s"}
partition_rate = "0.2/s"
`), 0o644)
	_, cfg, err := Open(Source{File: file})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Generated == nil {
		t.Fatal("no generator")
	}
	if a, ok := cfg.Generated().Next(); !ok || a.At >= cfg.Until {
		t.Fatal("the generator made no fault in 8s at 0.5/s")
	}
	path := filepath.Join(dir, "f.jsonl")
	lines := recordRun(t, Source{File: file}, 0, path)
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, `"ev":"crash"`) }) {
		t.Fatal("the recording has no crash")
	}
	if v := verify(t, path, false); !v.OK {
		t.Fatalf("%s", v.Reason)
	}
}
