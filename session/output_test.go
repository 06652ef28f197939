package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dirFiles lists the names in dir, temporary files included.
func dirFiles(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

func writeOutput(t *testing.T, path string, force bool, text string, inputs ...string) error {
	t.Helper()
	o, err := CreateOutput(path, force, inputs...)
	if err != nil {
		return err
	}
	defer o.Abort()
	if _, err := o.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	return o.Commit()
}

func TestOutputCommitAndAbort(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	o, err := CreateOutput(out, false)
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("half"))
	for _, name := range strings.Fields(dirFiles(t, dir)) {
		if name == "out.csv" {
			t.Fatal("the output has its name before Commit")
		}
	}
	if err := o.Abort(); err != nil {
		t.Fatal(err)
	}
	if got := dirFiles(t, dir); got != "" {
		t.Fatalf("an aborted output left files: %s", got)
	}
	if err := writeOutput(t, out, false, "whole"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); string(b) != "whole" || dirFiles(t, dir) != "out.csv" {
		t.Fatalf("after Commit: %q, files %s", b, dirFiles(t, dir))
	}
	if err := writeOutput(t, out, false, "again"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("an existing file without force: %v", err)
	}
	os.Chmod(out, 0o600)
	if err := writeOutput(t, out, true, "forced"); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(out)
	if b, _ := os.ReadFile(out); string(b) != "forced" || st.Mode().Perm() != 0o600 || dirFiles(t, dir) != "out.csv" {
		t.Fatalf("after a forced Commit: %q, mode %v, files %s", b, st.Mode(), dirFiles(t, dir))
	}
}

// TestOutputNeverReplacesAnInput: the output may not be any input, by whatever name,
// even with force.
func TestOutputNeverReplacesAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.jsonl")
	os.WriteFile(in, []byte("trace"), 0o644)
	hard := filepath.Join(dir, "hard.jsonl")
	if err := os.Link(in, hard); err != nil {
		t.Skip("no hard links here:", err)
	}
	soft := filepath.Join(dir, "soft.jsonl")
	if err := os.Symlink(in, soft); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, out := range []string{in, filepath.Join(dir, ".", "t.jsonl"), hard, soft, filepath.Join(dir, "sub", "..", "t.jsonl")} {
		os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
		err := writeOutput(t, out, true, "csv", in)
		if err == nil || !strings.Contains(err.Error(), "same file as the input") {
			t.Errorf("-o %s onto the input %s: %v", out, in, err)
		}
	}
	if b, _ := os.ReadFile(in); string(b) != "trace" {
		t.Fatalf("the input changed: %q", b)
	}
	if err := writeOutput(t, filepath.Join(dir, "new.csv"), true, "csv", in); err != nil {
		t.Fatalf("a new path next to the input: %v", err)
	}
	if err := writeOutput(t, dir, true, "csv"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a directory as output: %v", err)
	}
}

// TestOutputRaceForTheName: without force, a file that appears while the output is
// written is not replaced.
func TestOutputRaceForTheName(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.jsonl")
	o, err := CreateOutput(out, false)
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("mine"))
	os.WriteFile(out, []byte("theirs"), 0o644)
	if err := o.Commit(); err == nil {
		t.Fatal("Commit replaced a file that appeared meanwhile")
	}
	if b, _ := os.ReadFile(out); string(b) != "theirs" || dirFiles(t, dir) != "r.jsonl" {
		t.Fatalf("after the failed Commit: %q, files %s", b, dirFiles(t, dir))
	}
}

func TestRemovePending(t *testing.T) {
	dir := t.TempDir()
	a, _ := CreateOutput(filepath.Join(dir, "a"), false)
	b, _ := CreateOutput(filepath.Join(dir, "b"), false)
	a.Write([]byte("x"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	RemovePending()
	if got := dirFiles(t, dir); got != "b" {
		t.Fatalf("after RemovePending: %s", got)
	}
	if err := a.Commit(); err == nil {
		t.Fatal("Commit after RemovePending succeeded")
	}
}

// TestOutputInAMissingFolder: an output in a folder that does not exist (or under a
// file) is refused in the lab's words, naming the folder, before any temporary
// file is tried ("open /x/.y.md.tmp-3759348050: no such file or directory").
func TestOutputInAMissingFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "regular")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "no", "such", "x.md"), filepath.Join(file, "x.md")} {
		_, err := CreateOutput(path, false)
		if err == nil || !strings.Contains(err.Error(), "found no folder "+filepath.Dir(path)+" for x.md") || strings.Contains(err.Error(), ".tmp-") {
			t.Errorf("CreateOutput(%s): %v, want the folder named", path, err)
		}
		if _, err := CreateRecording(path, false); err == nil || !strings.Contains(err.Error(), "found no folder") {
			t.Errorf("CreateRecording(%s): %v, want the folder named", path, err)
		}
	}
}
