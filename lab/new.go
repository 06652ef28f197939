package lab

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/clusterlab/clusterlab/algos"
)

// new: a Go module of the student's own, with a small correct algorithm of a
// family to start from. The templates are in scaffold/: common/ for every family,
// and one folder per family. In them __NAME__ is the algorithm's name (also its
// package and the module's path), __MODULE__ the module's path and __FAMILY__ the
// family; the Go templates are Go files with a package named __NAME__, so that
// gofmt keeps them tidy.

//go:embed scaffold
var scaffold embed.FS

type newCmd struct {
	Family string `arg:"" enum:"election,mutex,detector" help:"${help_new_family}"`
	Name   string `arg:"" help:"${help_new_name}"`
	Dir    string `help:"${help_new_dir}" placeholder:"DIR"`
	Lab    string `help:"${help_new_lab}" placeholder:"PATH"`
}

func (c *newCmd) Run() error {
	if err := checkName(c.Name); err != nil {
		return badInput(err)
	}
	dir := c.Dir
	if dir == "" {
		dir = c.Name
	}
	lab, err := labSource(c.Lab)
	if err != nil {
		return badInput(err)
	}
	files, err := scaffoldFiles(algos.Family(c.Family), c.Name, lab)
	if err != nil {
		return badInput(err)
	}
	if err := writeNew(dir, files); err != nil {
		return err
	}
	outln(ui.F("new.wrote", dir, c.Name, ui.Family(c.Family)))
	if lab.checkout == "" {
		// A released lab: go.mod names its version, and go mod tidy fetches what
		// it needs (the module proxy, or the module cache when it has it).
		tidy := exec.Command("go", "mod", "tidy")
		tidy.Dir = dir
		if out, err := tidy.CombinedOutput(); err != nil {
			return checkFailed(errors.New(ui.F("new.err.tidy", dir, strings.TrimSpace(string(out)))))
		}
	} else if c.Lab == "" {
		outln(ui.F("new.checkout", lab.checkout))
	}
	outln()
	outln(ui.F("new.next", dir, c.Name, c.Name))
	return nil
}

// stdRoots are the first elements of the standard library's import paths (go
// list std), and the go command's reserved patterns: a module named so makes
// its package's import path ambiguous, and go build refuses it.
// TestStdRoots holds the list to the go command's.
var stdRoots = []string{"all", "archive", "bufio", "builtin", "bytes", "cmd", "cmp", "compress", "container", "context", "crypto",
	"database", "debug", "embed", "encoding", "errors", "expvar", "flag", "fmt", "go", "hash", "html", "image", "index",
	"internal", "io", "iter", "log", "maps", "math", "mime", "net", "os", "path", "plugin", "reflect", "regexp", "runtime",
	"slices", "sort", "std", "strconv", "strings", "structs", "sync", "syscall", "testing", "text", "time", "tool",
	"unicode", "unique", "unsafe", "vendor", "weak"}

// nameRE is what an algorithm's name may be: it is also a Go package's name and
// the module's path.
var nameRE = regexp.MustCompile(`^[a-z][a-z0-9]{0,30}$`)

func checkName(name string) error {
	switch {
	case !nameRE.MatchString(name):
		return fmt.Errorf("NAME: found %q, expected a lower-case name of letters and digits starting with a letter, such as mybully (it names the algorithm, its Go package and the module)", name)
	case token.IsKeyword(name) || name == "main" || name == "test":
		return fmt.Errorf("NAME: found %q, a word Go keeps for itself; expected another name, such as my%s", name, name)
	case slices.Contains(stdRoots, name):
		return fmt.Errorf("NAME: found %q, a package of Go's standard library (the module would not build: its import path %s/%s starts as the library's); expected another name, such as my%s", name, name, name, name)
	}
	if _, ok := algos.Lookup(name); ok {
		return fmt.Errorf("NAME: found %q, the name of a built-in algorithm; expected a new name, such as my%s", name, name)
	}
	return nil
}

// labRef is the lab a new module builds with: a local checkout (replace), or a
// released version.
type labRef struct {
	checkout string // an absolute path, or "" for a released version
	version  string // the version go.mod requires
	goMod    []byte // the checkout's go.mod and go.sum, copied into the new module
	goSum    []byte
}

// placeholderVersion is what go.mod requires of a module that a replace points
// at a local directory.
const placeholderVersion = "v0.0.0-00010101000000-000000000000"

// labSource finds the lab the new module builds with: the --lab checkout; else
// the version this binary was built at; else, for a binary built from a
// checkout, that checkout, when it is still there.
func labSource(flag string) (labRef, error) {
	if flag != "" {
		return readCheckout(flag, "--lab")
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		m := &info.Main
		if m.Path != algos.LabModule {
			m = nil
			for _, d := range info.Deps {
				if d.Path == algos.LabModule {
					m = d
				}
			}
		}
		if m != nil && m.Replace != nil && m.Replace.Version == "" {
			return readCheckout(m.Replace.Path, "the lab's replace")
		}
		if m != nil && m.Version != "" && m.Version != "(devel)" {
			return labRef{version: m.Version}, nil
		}
	}
	// Built from a checkout: this file's own directory says where it was.
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if ref, err := readCheckout(filepath.Dir(filepath.Dir(file)), "the checkout"); err == nil {
			return ref, nil
		}
	}
	return labRef{}, errors.New("--lab: this clusterlab was built from a checkout that is no longer there; expected --lab PATH, a checkout of the lab for the new module to build with")
}

// readCheckout checks that path holds the lab's module and reads its go.mod and
// go.sum.
func readCheckout(path, what string) (labRef, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return labRef{}, err
	}
	mod, err := os.ReadFile(filepath.Join(abs, "go.mod"))
	if err != nil {
		return labRef{}, fmt.Errorf("%s: found no go.mod in %s, expected a checkout of %s", what, path, algos.LabModule)
	}
	if modulePath(mod) != algos.LabModule {
		return labRef{}, fmt.Errorf("%s: %s holds module %q, expected %s", what, filepath.Join(path, "go.mod"), modulePath(mod), algos.LabModule)
	}
	sum, err := os.ReadFile(filepath.Join(abs, "go.sum"))
	if err != nil {
		return labRef{}, fmt.Errorf("%s: found no go.sum in %s, expected a checkout of %s", what, path, algos.LabModule)
	}
	return labRef{checkout: abs, version: placeholderVersion, goMod: mod, goSum: sum}, nil
}

func modulePath(goMod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(goMod))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// goModFile is the new module's go.mod. With a checkout it requires what the
// checkout requires, as indirect requirements, so that the module builds at
// once without asking the module proxy anything.
func goModFile(name string, lab labRef) []byte {
	var b strings.Builder
	goVersion := strings.TrimPrefix(runtime.Version(), "go")
	var reqs []string
	sc := bufio.NewScanner(bytes.NewReader(lab.goMod))
	inBlock := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "go "):
			goVersion = strings.TrimPrefix(line, "go ")
		case line == "require (":
			inBlock = true
		case inBlock && line == ")":
			inBlock = false
		case inBlock && line != "":
			reqs = append(reqs, strings.TrimSpace(strings.TrimSuffix(line, "// indirect")))
		case strings.HasPrefix(line, "require "):
			reqs = append(reqs, strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "require "), "// indirect")))
		}
	}
	fmt.Fprintf(&b, "module %s\n\ngo %s\n\nrequire %s %s\n", name, goVersion, algos.LabModule, lab.version)
	if len(reqs) > 0 {
		b.WriteString("\nrequire (\n")
		for _, r := range reqs {
			fmt.Fprintf(&b, "\t%s // indirect\n", r)
		}
		b.WriteString(")\n")
	}
	if lab.checkout != "" {
		fmt.Fprintf(&b, "\nreplace %s => %s\n", algos.LabModule, lab.checkout)
	}
	return []byte(b.String())
}

// scaffoldFiles renders the templates of family for an algorithm called name:
// path in the new module → content.
func scaffoldFiles(family algos.Family, name string, lab labRef) (map[string][]byte, error) {
	fill := strings.NewReplacer("__NAME__", name, "__MODULE__", name, "__FAMILY__", string(family))
	files := map[string][]byte{"go.mod": goModFile(name, lab)}
	if lab.goSum != nil {
		files["go.sum"] = lab.goSum
	}
	for tmpl, out := range map[string]string{
		"common/main.go.tmpl":                  "main.go",
		"common/README.md.tmpl":                "README.md",
		"common/test.go.tmpl":                  name + "/" + name + "_test.go",
		string(family) + "/algo.go.tmpl":       name + "/" + name + ".go",
		string(family) + "/basic.txt.tmpl":     name + "/testdata/basic.txt",
		string(family) + "/scenario.toml.tmpl": "scenarios/" + name + ".toml",
	} {
		data, err := fs.ReadFile(scaffold, "scaffold/"+tmpl)
		if err != nil {
			return nil, err // a template missing from the binary: a bug
		}
		files[out] = []byte(fill.Replace(string(data)))
	}
	return files, nil
}

// writeNew creates dir, which must not exist, and writes files into it. Nothing
// outside dir is touched; a failure removes what it made.
func writeNew(dir string, files map[string][]byte) (err error) {
	if _, err := os.Lstat(dir); err == nil {
		return badInput(fmt.Errorf("--dir %s: already exists; expected a new directory (new never writes into an existing one)", dir))
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if diskError(err) {
			return ioError(dir, err)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return badInput(fmt.Errorf("--dir %s: %v; expected a new directory in an existing one", dir, err))
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	for path, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return ioError(filepath.Dir(full), err) // a disk that is full or read-only: exit 3
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return ioError(full, err)
		}
	}
	return nil
}
