package lab

import (
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/algos"
)

func TestNewName(t *testing.T) {
	for name, want := range map[string]string{
		"mybully":  "",
		"MyBully":  "expected a lower-case name",
		"my-bully": "expected a lower-case name",
		"9lives":   "expected a lower-case name",
		"func":     "a word Go keeps for itself",
		"main":     "a word Go keeps for itself",
		"bully":    "the name of a built-in algorithm",
		"time":     "a package of Go's standard library",
		"os":       "a package of Go's standard library",
		"node":     "",
	} {
		err := checkName(name)
		if (err == nil) != (want == "") || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("checkName(%q) = %v, want %q", name, err, want)
		}
	}
}

// TestStdRoots: every first element of a standard library package's import path
// is refused as a name (a module so named does not build: go build finds its
// package in two places), as the go command of this machine lists them.
func TestStdRoots(t *testing.T) {
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		t.Skipf("go list std: %v", err)
	}
	for _, path := range strings.Fields(string(out)) {
		root, _, _ := strings.Cut(path, "/")
		if checkName(root) == nil {
			t.Errorf("new accepts %q, the first element of the standard library's %s", root, path)
		}
	}
}

// The files new writes: the templates filled in, gofmt-clean Go, a go.mod that
// requires the lab with a replace to the checkout and the checkout's own
// requirements, and the checkout's go.sum.
func TestScaffoldFiles(t *testing.T) {
	lab, err := readCheckout("..", "--lab")
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range []algos.Family{algos.Election, algos.Mutex, algos.Detector} {
		files, err := scaffoldFiles(fam, "myalgo", lab)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"go.mod", "go.sum", "main.go", "README.md", "myalgo/myalgo.go", "myalgo/myalgo_test.go", "myalgo/testdata/basic.txt", "scenarios/myalgo.toml"} {
			if _, ok := files[want]; !ok {
				t.Errorf("%s: no %s", fam, want)
			}
		}
		for path, data := range files {
			if strings.Contains(string(data), "__") && path != "go.sum" {
				t.Errorf("%s: %s keeps a placeholder: %q", fam, path, data[strings.Index(string(data), "__"):][:20])
			}
			if strings.HasSuffix(path, ".go") {
				if out, err := format.Source(data); err != nil || string(out) != string(data) {
					t.Errorf("%s: %s is not gofmt-clean (%v)", fam, path, err)
				}
			}
		}
		mod := string(files["go.mod"])
		for _, want := range []string{"module myalgo\n", "require github.com/clusterlab/clusterlab " + placeholderVersion, "github.com/alecthomas/kong v1.17.0 // indirect", "replace github.com/clusterlab/clusterlab => " + lab.checkout} {
			if !strings.Contains(mod, want) {
				t.Errorf("%s: go.mod lacks %q:\n%s", fam, want, mod)
			}
		}
	}
}

// new refuses a directory that exists, and writes nothing into it.
func TestNewRefusesExistingDir(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "mine.txt")
	os.WriteFile(marker, []byte("keep"), 0o644)
	c := &newCmd{Family: "election", Name: "mybully", Dir: dir, Lab: ".."}
	err := c.Run()
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("error %v, want already exists", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the directory holds %d entries, want only mine.txt", len(entries))
	}
	if err := (&newCmd{Family: "election", Name: "mybully", Dir: filepath.Join(dir, "no", "such"), Lab: ".."}).Run(); err == nil {
		t.Fatal("a directory in a missing one: no error")
	}
	if err := (&newCmd{Family: "election", Name: "mybully", Dir: filepath.Join(dir, "x"), Lab: dir}).Run(); err == nil || !strings.Contains(err.Error(), "found no go.mod") {
		t.Fatalf("--lab without the lab: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Fatal("a refused new left its directory behind")
	}
}
