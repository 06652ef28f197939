package presets

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/clusterlab/clusterlab/netsim"
)

// Raw is the text of an embedded preset, as written (no defaults filled), for tools
// that derive scenarios from it, such as sweeps.
func Raw(name string) ([]byte, error) {
	data, err := embedded.ReadFile("scenarios/" + name + ".toml")
	if err != nil {
		return nil, fmt.Errorf("no preset %q; expected one of: %s", name, strings.Join(Names(), ", "))
	}
	return data, nil
}

// ReadFile reads a TOML file of a format built on scenarios (what names it: "a
// scenario file", "a sweep file"). Only a regular file of at most MaxFileBytes is
// read: a device, a pipe or a huge file gets an error at once, before any of it is
// held in memory.
func ReadFile(file, what string) ([]byte, error) {
	// Stat before opening: opening a pipe waits for a writer.
	if st, err := os.Stat(file); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: found a device, pipe or directory, expected %s (TOML)", file, what)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: found a file over %s bytes, expected %s of at most %s bytes", file, netsim.Thousands(MaxFileBytes), what, netsim.Thousands(MaxFileBytes))
	}
	return data, nil
}

// Positions finds where values start in a TOML text, by key path ("axes.nodes",
// "plot[1].y", "axes.nodes[2]"), so that errors found after decoding point at
// file:line:col. Other formats built on TOML (sweep files) use it too.
type Positions struct{ p positions }

// Index reads the positions of data's keys.
func Index(data []byte) Positions { return Positions{index(data)} }

// At is the position of path, or of the nearest enclosing key or table that has one.
func (p Positions) At(path string) (line, col int) { return p.p.at(path) }

// Has reports whether path itself has a position.
func (p Positions) Has(path string) bool {
	_, ok := p.p[path]
	return ok
}

// ErrorAt is the one-line error `file:line:col: msg`.
func ErrorAt(file string, line, col int, msg string) error { return &fileError{file, line, col, msg} }

// DecodeError turns go-toml's decoding error into the one-line form; keys names what
// was expected instead of an unknown key.
func DecodeError(file, keys string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		row, col := e.Position()
		key := strings.Join(e.Key(), ".")
		return &fileError{file, row, col, fmt.Sprintf("found unknown key %q, expected one of %s", key, keys)}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		if err := syntaxError(file, de); err != nil {
			return err
		}
		row, col := de.Position()
		return &fileError{file, row, col, fmt.Sprintf("bad TOML: %s", de.Error())}
	}
	return fmt.Errorf("%s: %v", file, err)
}
