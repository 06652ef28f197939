package algos

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// LabModule is the lab's own module. An algorithm registered by one of its
// packages is a built-in.
const LabModule = "github.com/clusterlab/clusterlab"

// Origin names the code of an algorithm that is not a built-in: the package that
// registered it, the module that package is in and the module's version as the
// build recorded them (debug.ReadBuildInfo; "(devel)" for the module being built),
// and Source, the SHA-256 of the package's Go files (test files left out), in hex;
// "" when the files could not be read.
type Origin struct {
	Package string
	Module  string
	Version string
	Source  string
}

// Builtin reports whether s is one of the lab's own algorithms, registered by a
// package of the lab's module.
func (s Spec) Builtin() bool {
	return s.pkg == "" || s.pkg == LabModule || strings.HasPrefix(s.pkg, LabModule+"/")
}

// Package is the import path of the package that registered s ("main" for a
// program's main package), and the source file that called Register, as the
// build saw it. Both are empty for a Spec that was not registered.
func (s Spec) Package() (pkg, file string) { return s.pkg, s.file }

// Dir is the directory of the package that registered s, or "" when the build
// did not keep it (a binary built with -trimpath, or moved away from its source).
func (s Spec) Dir() string {
	if s.file == "" || !filepath.IsAbs(s.file) {
		return ""
	}
	dir := filepath.Dir(s.file)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return ""
	}
	return dir
}

var origins sync.Map // algorithm name → Origin, computed once

// OriginOf is where s's code comes from. The zero Origin stands for a built-in.
func OriginOf(s Spec) Origin {
	if s.Builtin() {
		return Origin{}
	}
	if o, ok := origins.Load(s.Name); ok {
		return o.(Origin)
	}
	o := Origin{Package: s.pkg}
	if info, ok := debug.ReadBuildInfo(); ok {
		o.Module, o.Version = moduleOf(info, s.pkg)
		if s.pkg == "main" {
			o.Package = info.Main.Path
		}
	}
	o.Source = sourceHash(s)
	origins.Store(s.Name, o)
	return o
}

// moduleOf finds the module that holds package pkg among the build's modules: the
// one with the longest path that is pkg or a prefix of it. A replaced module is
// named with its replacement.
func moduleOf(info *debug.BuildInfo, pkg string) (module, version string) {
	if pkg == "main" {
		return info.Main.Path, info.Main.Version
	}
	best := &info.Main
	within := func(m *debug.Module) bool { return pkg == m.Path || strings.HasPrefix(pkg, m.Path+"/") }
	if !within(best) {
		best = nil
	}
	for _, m := range info.Deps {
		if within(m) && (best == nil || len(m.Path) > len(best.Path)) {
			best = m
		}
	}
	if best == nil {
		return "", ""
	}
	version = best.Version
	if r := best.Replace; r != nil && r.Version != "" {
		version = r.Path + " " + r.Version
	}
	return best.Path, version
}

// sourceHash hashes s's Go files, read from Spec.Code or else from the package's
// directory: each file's name, its length and its bytes, in name order.
func sourceHash(s Spec) string {
	var names []string
	var read func(string) ([]byte, error)
	if s.Code != nil {
		names, _ = fs.Glob(s.Code, "*.go")
		read = func(name string) ([]byte, error) { return fs.ReadFile(s.Code, name) }
	} else if dir := s.Dir(); dir != "" {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			names = append(names, e.Name())
		}
		read = func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
	}
	h := sha256.New()
	n := 0
	slices.Sort(names)
	for _, name := range names {
		if path.Ext(name) != ".go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := read(name)
		if err != nil {
			return ""
		}
		h.Write([]byte(name + "\n" + strconv.Itoa(len(data)) + "\n"))
		h.Write(data)
		n++
	}
	if n == 0 {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// caller is the package and the file of Register's caller.
func caller() (pkg, file string) {
	pc, file, _, ok := runtime.Caller(2)
	if !ok {
		return "", ""
	}
	if fn := runtime.FuncForPC(pc); fn != nil {
		pkg = funcPackage(fn.Name())
	}
	return pkg, file
}

// funcPackage is the package of a function as the runtime names it:
// "example.com/hw/mybully.init.0" is in "example.com/hw/mybully". The runtime
// escapes a dot in the path's last element as %2e.
func funcPackage(name string) string {
	slash := strings.LastIndex(name, "/")
	if dot := strings.Index(name[slash+1:], "."); dot >= 0 {
		name = name[:slash+1+dot]
	}
	return strings.ReplaceAll(name, "%2e", ".")
}
