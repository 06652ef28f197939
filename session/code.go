package session

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// CodeOf is what a trace header records of spec's code: nil for a built-in, whose
// recordings keep their bytes; otherwise its package, module, version and source
// hash (algos.OriginOf).
func CodeOf(spec algos.Spec) *trace.Code {
	if spec.Builtin() {
		return nil
	}
	c := trace.Code(algos.OriginOf(spec))
	return &c
}

// CodeError is a recording made by other code than this program's algorithm of
// the same name: the header names one code, this program has another (or none).
type CodeError struct {
	File      string
	Algorithm string
	Recorded  *trace.Code // nil: the header names no code (a built-in's recording)
	Here      *trace.Code // nil: this program's algorithm is a built-in
	Missing   bool        // this program has no algorithm of that name
}

func (e *CodeError) Error() string {
	if e.Missing {
		return fmt.Sprintf("%s:1: recorded with %s of %s; this program has no algorithm %s: open the recording with that module (go run . verify %s, or replay, export)",
			e.File, e.Algorithm, describeCode(e.Recorded), e.Algorithm, e.File)
	}
	return fmt.Sprintf("%s:1: recorded by other code: the recording names %s of %s, and this program's %s is %s; verify it with the code that recorded it",
		e.File, e.Algorithm, describeCode(e.Recorded), e.Algorithm, describeCode(e.Here))
}

// describeCode names a code in words: its package (and module when the package
// is not its root), version and the first 12 digits of its source hash.
func describeCode(c *trace.Code) string {
	if c == nil {
		return "the lab's built-in code"
	}
	s := c.Package
	if c.Module != "" && c.Module != c.Package {
		s += " (module " + c.Module + ")"
	}
	if c.Version != "" {
		s += " " + c.Version
	}
	if c.Source == "" {
		return s + ", source not read"
	}
	return s + ", source " + short(c.Source)
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// sameCode reports whether a recording's code is this program's: the same
// package and, where both were read, the same source; where either source is
// unknown, the same module and version.
func sameCode(rec, here *trace.Code) bool {
	if rec == nil || here == nil {
		return rec == nil && here == nil
	}
	if rec.Package != here.Package {
		return false
	}
	if rec.Source != "" && here.Source != "" {
		return rec.Source == here.Source
	}
	return rec.Source == here.Source && rec.Module == here.Module && rec.Version == here.Version
}

// checkCode refuses a header whose code is not this program's spec.
func checkCode(file string, h *trace.Header, spec algos.Spec) error {
	here := CodeOf(spec)
	if sameCode(h.Code, here) {
		return nil
	}
	return &CodeError{File: file, Algorithm: spec.Name, Recorded: h.Code, Here: here}
}

// missingCode is the error for a header that names the code of an algorithm this
// program does not have, or nil when the header names none or the algorithm is
// here.
func missingCode(file string, h *trace.Header) error {
	if h.Code == nil {
		return nil
	}
	var s struct {
		Algorithm string `json:"algorithm"`
	}
	if json.NewDecoder(bytes.NewReader(h.Scenario)).Decode(&s) != nil {
		return nil
	}
	if _, ok := algos.Lookup(s.Algorithm); ok {
		return nil
	}
	return &CodeError{File: file, Algorithm: s.Algorithm, Recorded: h.Code, Missing: true}
}

// ReadHeader reads a recording's header line alone, without resolving its
// scenario: what a tool that lists recordings shows of one that does not verify
// (or whose algorithm this program lacks).
func ReadHeader(path string) (trace.Header, error) {
	tf, err := openTraceWith(path, func(*trace.Header) error { return nil }, 0)
	if err != nil {
		return trace.Header{}, err
	}
	defer tf.Close()
	return tf.Header, nil
}
