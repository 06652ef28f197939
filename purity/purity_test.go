package purity

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/lang"
)

// wants reads the "// want RULE" marks of the Go files in dir: file:line → rules.
func wants(t *testing.T, dir string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	re := regexp.MustCompile(`// want (\w+)`)
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for n := 1; sc.Scan(); n++ {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				key := fmt.Sprintf("%s:%d", filepath.Base(f), n)
				out[key] = append(out[key], m[1])
			}
		}
		fh.Close()
	}
	return out
}

// Every marked line of the dirty package is found with its rule, and nothing
// else is.
func TestDirty(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command; skipped in -short mode")
	}
	got, err := Check(".", "./testdata/dirty")
	if err != nil {
		t.Fatal(err)
	}
	want := wants(t, "testdata/dirty")
	found := map[string][]string{}
	for _, f := range got {
		key := fmt.Sprintf("%s:%d", filepath.Base(f.Pos.Filename), f.Pos.Line)
		found[key] = append(found[key], f.Rule)
		if txt := f.Text(lang.En); strings.Contains(txt, "%!") {
			t.Errorf("%s: %s: a bad text: %s", key, f.Rule, txt)
		}
	}
	for key, rules := range want {
		slices.Sort(rules)
		g := slices.Clone(found[key])
		slices.Sort(g)
		if !slices.Equal(g, rules) {
			t.Errorf("%s: found %v, want %v", key, g, rules)
		}
	}
	for key, rules := range found {
		if _, ok := want[key]; !ok {
			t.Errorf("%s: found %v, want nothing", key, rules)
		}
	}
}

// The same things done the right way are not refused.
func TestClean(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command; skipped in -short mode")
	}
	got, err := Check(".", "./testdata/clean")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		t.Errorf("%s:%d: %s", filepath.Base(f.Pos.Filename), f.Pos.Line, f.Text(lang.En))
	}
}

// A package that does not compile is an error that says where.
func TestBroken(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command; skipped in -short mode")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module broken\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package broken\n\nfunc f() { undefined() }\n"), 0o644)
	_, err := Check(dir, ".")
	if err == nil || !strings.Contains(err.Error(), "b.go:3") {
		t.Fatalf("error %v, want one at b.go:3", err)
	}
}
