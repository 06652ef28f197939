package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
)

// recordPreset records a headless run of a preset and returns the file's lines.
func recordPreset(t *testing.T, name, path string) []string {
	t.Helper()
	s, cfg, err := Open(Source{Preset: name})
	if err != nil {
		t.Fatal(err)
	}
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
	data, _ := os.ReadFile(path)
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestVerifyEveryPreset records each preset headless and verifies it.
func TestVerifyEveryPreset(t *testing.T) {
	dir := t.TempDir()
	for _, name := range presets.Names() {
		path := filepath.Join(dir, name+".jsonl")
		recordPreset(t, name, path)
		v, err := Verify(path)
		if err != nil {
			t.Fatal(err)
		}
		if !v.OK {
			t.Errorf("%s: %s\n recorded %s\n re-run   %s", name, v.Reason, v.Recorded, v.Rerun)
		}
	}
}

// TestVerifyCatchesTampering edits a line, deletes a line and cuts the file.
func TestVerifyCatchesTampering(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hw.jsonl")
	lines := recordPreset(t, "omega-crash", path)
	write := func(name string, ls []string, cut int) string {
		p := filepath.Join(dir, name)
		all := strings.Join(ls, "\n") + "\n"
		os.WriteFile(p, []byte(all[:len(all)-cut]), 0o644)
		return p
	}
	edited := append([]string(nil), lines...)
	at := 40
	for !strings.Contains(lines[at], `"from":"n1"`) {
		at++
	}
	edited[at] = strings.Replace(edited[at], `"from":"n1"`, `"from":"n3"`, 1)
	deleted := append(append([]string(nil), lines[:60]...), lines[61:]...)
	for _, tc := range []struct {
		name, path, want string
	}{
		{"edited", write("edited.jsonl", edited, 0), fmt.Sprintf("line %d differs from the re-run", at+1)},
		{"deleted", write("deleted.jsonl", deleted, 0), "line 61 differs from the re-run (lines were renumbered: one is missing)"},
		{"truncated", write("cut.jsonl", lines, 25), fmt.Sprintf("the file is truncated: line %d is cut short", len(lines))},
	} {
		v, err := Verify(tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if v.OK || !strings.Contains(v.Reason, tc.want) {
			t.Errorf("%s: verdict %q, want it to say %q", tc.name, v.Reason, tc.want)
		}
	}
}

// TestVerifyFarFutureEdit edits the time of a line to centuries ahead: verify must
// report the difference without simulating that far.
func TestVerifyFarFutureEdit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hw.jsonl")
	lines := recordPreset(t, "omega-crash", path)
	last := len(lines) - 1
	lines[last] = strings.Replace(lines[last], `"t":`, `"t":9`, 1) + ""
	lines[last] = strings.Replace(lines[last], `"t":9`, `"t":900000000000000`, 1)
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	done := make(chan *Verdict)
	go func() {
		v, err := Verify(path)
		if err != nil {
			t.Error(err)
		}
		done <- v
	}()
	select {
	case v := <-done:
		if v == nil || v.OK || !strings.Contains(v.Reason, fmt.Sprintf("line %d", len(lines))) {
			t.Fatalf("verdict %+v", v)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("verify is simulating the edited far future")
	}
}
