package algos

import (
	"testing"
	"testing/fstest"
)

func TestFuncPackage(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/hw/mybully.init.0":            "example.com/hw/mybully",
		"main.init.0":                              "main",
		"gopkg.in/yaml%2ev3.init.func1":            "gopkg.in/yaml.v3",
		"github.com/clusterlab/clusterlab/algos.F": "github.com/clusterlab/clusterlab/algos",
	} {
		if got := funcPackage(in); got != want {
			t.Errorf("funcPackage(%q) = %q, want %q", in, got, want)
		}
	}
}

// Register finds the package that called it: a test of this package is the lab's
// own, so its algorithm is a built-in, with no origin.
func TestRegisterFindsCaller(t *testing.T) {
	s := Spec{Name: "origin-test-probe", Family: Election}
	Register(s)
	defer func() { registry = registry[:len(registry)-1] }()
	got, _ := Lookup("origin-test-probe")
	pkg, file := got.Package()
	if pkg != LabModule+"/algos" || file == "" {
		t.Fatalf("Package() = %q, %q; want this package and this file", pkg, file)
	}
	if !got.Builtin() || OriginOf(got) != (Origin{}) {
		t.Fatalf("a package of the lab registered it: want a built-in with no origin, got %v %+v", got.Builtin(), OriginOf(got))
	}
}

// The source hash covers the Go files that are built, each by name and content,
// and leaves the tests out.
func TestSourceHash(t *testing.T) {
	code := fstest.MapFS{
		"a.go":      {Data: []byte("package a\n")},
		"b.go":      {Data: []byte("package a\nvar B = 1\n")},
		"a_test.go": {Data: []byte("package a\n// test\n")},
		"notes.txt": {Data: []byte("not code")},
	}
	h := sourceHash(Spec{Code: code})
	if len(h) != 64 {
		t.Fatalf("hash %q, want 64 hex digits", h)
	}
	code["a_test.go"] = &fstest.MapFile{Data: []byte("package a\n// another test\n")}
	code["notes.txt"] = &fstest.MapFile{Data: []byte("other notes")}
	if h2 := sourceHash(Spec{Code: code}); h2 != h {
		t.Errorf("tests and other files changed the hash: %s, then %s", h, h2)
	}
	code["b.go"] = &fstest.MapFile{Data: []byte("package a\nvar B = 2\n")}
	if h3 := sourceHash(Spec{Code: code}); h3 == h {
		t.Errorf("an edit to b.go left the hash %s", h)
	}
	if h4 := sourceHash(Spec{Code: fstest.MapFS{}}); h4 != "" {
		t.Errorf("no files: hash %q, want none", h4)
	}
}
