package presets

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
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
		row, col := de.Position()
		return &fileError{file, row, col, fmt.Sprintf("bad TOML: %s", de.Error())}
	}
	return fmt.Errorf("%s: %v", file, err)
}
