package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
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
	s, cfg, err := Open(Source{File: file})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Script) == 0 {
		t.Fatal("the generator made no fault in 8s at 0.5/s")
	}
	path := filepath.Join(dir, "f.jsonl")
	f, err := Create(path, false)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := trace.NewRecorder(f, Header(s, cfg))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(cfg, 0, rec); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	v, err := Verify(path)
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK {
		t.Fatalf("%s", v.Reason)
	}
}
