// Package sweep runs experiments: one scenario across a grid of settings (sizes,
// parameters, network knobs, faults) and seeds, every run an independent world, in
// parallel. It writes what was measured (results.csv, summary.csv), the textbook's
// figures beside it (the algorithms' Theory hooks), a Markdown report and plots.
//
// A sweep file is TOML, strict like scenario files: unknown keys are refused and
// every error is one line, file:line:col: found X, expected Y.
package sweep

import (
	"bytes"
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/presets"
)

// File is a sweep file as written.
type File struct {
	Name        string         `toml:"name"`
	Description string         `toml:"description"`
	Base        string         `toml:"base"` // a preset name
	Scenario    string         `toml:"file"` // or a scenario file, relative to the sweep file
	Seeds       any            `toml:"seeds"`
	Set         map[string]any `toml:"set"`
	Axes        map[string]any `toml:"axes"`
	Plot        []Plot         `toml:"plot"`
	Expect      []Expect       `toml:"expect"`
	Notes       string         `toml:"notes"`
	// Completed is a check that says a run finished (as [[expect]] writes one,
	// "entries >= 10"); without it, the family's: a leader agreed, an entry
	// served, every crash detected.
	Completed string `toml:"completed"`
	// AllowIncomplete lets runs that ended before they finished pass: a sweep
	// that studies runs cut off on purpose.
	AllowIncomplete bool `toml:"allow_incomplete"`
}

// Plot is one [[plot]]: Y against X, one line per combination of the Series axes.
type Plot struct {
	X      string `toml:"x"`
	Y      string `toml:"y"`
	Series any    `toml:"series"`
	Theory bool   `toml:"theory"`
	Title  string `toml:"title"`
	LogY   bool   `toml:"log_y"` // a logarithmic y axis (values ≤ 0 are left out)
}

// Expect is one [[expect]]: a check of every run's metric, such as
// "sent.total == theory", "rounds <= theory" or "violations == 0".
type Expect struct {
	That string `toml:"that"`
}

// Axis is one dimension of the grid: a scenario key by its dotted path and the
// values it takes.
type Axis struct {
	Key    string
	Values []any
}

// Sweep is a checked sweep file.
type Sweep struct {
	File
	Path     string // where it was read from ("preset:NAME" for embedded ones)
	Source   []byte // its text, copied into the output so that merge can rebuild
	Axes     []Axis // in the order written
	SeedList []uint64
	Series   [][]string // per plot
	Checks   []check    // the parsed [[expect]]
	done     *check     // the parsed completed, nil for the family's
	base     []byte     // the base scenario's text
	baseName string
	pos      presets.Positions
	grid     grid
	// What checking every cell found: each cell's node count, the algorithms the
	// grid runs, and the cells themselves for a small grid (building them is most
	// of planning, which no job shares).
	nodes      []int32
	algorithms []string
	kept       []Cell
	cells      cellCache
	shown      checkShown // where the first check of the cells shows its progress
}

//go:embed presets/*.toml
var embedded embed.FS

// Names lists the embedded sweeps.
func Names() []string {
	entries, _ := fs.ReadDir(embedded, "presets")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
	}
	slices.Sort(out)
	return out
}

// Load reads an embedded sweep.
func Load(name string) (*Sweep, error) {
	return loadContext(context.Background(), "", name, checkShown{})
}

// loadContext is Load or LoadFile whose check of the cells stops when ctx is
// cancelled: a grid of 100,000 cells takes seconds to check, and a signal must not
// wait for it.
func loadContext(ctx context.Context, file, preset string, shown checkShown) (*Sweep, error) {
	data, dir := []byte(nil), ""
	if file != "" {
		var err error
		if data, err = readFile(file, "a sweep file"); err != nil {
			return nil, err
		}
		dir = filepath.Dir(file)
	} else {
		var err error
		if data, err = embedded.ReadFile("presets/" + preset + ".toml"); err != nil {
			return nil, fmt.Errorf("no sweep preset %q; expected one of: %s", preset, strings.Join(Names(), ", "))
		}
		file = preset + ".toml"
	}
	return parse(ctx, file, data, dir, nil, shown)
}

// parseWithBase reads a sweep whose base scenario's text is given (merge reads both
// from a shard's output folder).
func parseWithBase(file string, data, base []byte) (*Sweep, error) {
	return parse(context.Background(), file, data, "", base, checkShown{})
}

// LoadFile reads a sweep file; a `file = ...` in it is relative to its folder.
// It has a scenario file's guards: a regular file of at most
// presets.MaxFileBytes.
func LoadFile(path string) (*Sweep, error) {
	return loadContext(context.Background(), path, "", checkShown{})
}

// readFile is presets.ReadFile with a missing file said in one line.
func readFile(path, what string) ([]byte, error) {
	data, err := presets.ReadFile(path, what)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: found no such file, expected %s (TOML)", path, what)
	}
	return data, err
}

// duplicateKey is go-toml's error for a key given twice.
var duplicateKey = regexp.MustCompile(`^toml: key (\S+) is already defined$`)

const keys = "name, description, base, file, seeds, set, axes, plot, expect, notes, completed, allow_incomplete"

// Parse reads and checks a sweep. dir is where `file = ...` is looked up ("" for
// embedded sweeps, whose base must be a preset).
func Parse(file string, data []byte, dir string) (*Sweep, error) {
	return parse(context.Background(), file, data, dir, nil, checkShown{})
}

func parse(ctx context.Context, file string, data []byte, dir string, base []byte, shown checkShown) (*Sweep, error) {
	var f File
	if bytes.HasPrefix(data, []byte("\uFEFF")) {
		// An editor's byte-order mark, which TOML does not allow.
		return nil, presets.ErrorAt(file, 1, 1, "found a byte-order mark (U+FEFF), expected TOML without it: save the file as UTF-8 without BOM")
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) && duplicateKey.MatchString(de.Error()) {
			row, col := de.Position()
			key := duplicateKey.FindStringSubmatch(de.Error())[1]
			return nil, presets.ErrorAt(file, row, col, fmt.Sprintf("found %s a second time, expected each key once", key))
		}
		return nil, presets.DecodeError(file, "the sweep format's keys: "+keys, err)
	}
	s := &Sweep{File: f, Path: file, Source: data, pos: presets.Index(data), base: base, shown: shown}
	if err := s.check(ctx, dir); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Sweep) fail(path, format string, args ...any) error {
	l, c := s.pos.At(path)
	return presets.ErrorAt(s.Path, l, c, fmt.Sprintf(format, args...))
}

// plainName is what a sweep's name may be: it names the output folder.
var plainName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

func (s *Sweep) check(ctx context.Context, dir string) error {
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(s.Path), ".toml")
		if !plainName.MatchString(s.Name) {
			s.Name = "sweep"
		}
	} else if !plainName.MatchString(s.Name) {
		return s.fail("name", "found name = %q, expected a plain name of at most 100 letters, digits, '-', '_' and '.' (it names the output folder sweep-NAME)", s.Name)
	}
	switch {
	case s.Base != "" && s.Scenario != "":
		return s.fail("file", "found both base and file, expected one of them")
	case s.base != nil:
		s.baseName = cmp.Or(s.Base, s.Scenario)
	case s.Base != "":
		raw, err := presets.Raw(s.Base)
		if err != nil {
			return s.fail("base", "found base = %q, expected a preset: %s", s.Base, strings.Join(presets.Names(), ", "))
		}
		s.base, s.baseName = raw, s.Base
	case s.Scenario != "":
		if dir == "" {
			return s.fail("file", "found file = %q in an embedded sweep, expected base = a preset", s.Scenario)
		}
		raw, err := readFile(filepath.Join(dir, s.Scenario), "a scenario file")
		if err != nil {
			return s.fail("file", "found file = %q, which cannot be read (%v), expected a scenario file", s.Scenario, err)
		}
		s.base, s.baseName = raw, s.Scenario
	default:
		return s.fail("name", "found neither base nor file, expected base = \"PRESET\" or file = \"scenario.toml\"")
	}
	if err := s.checkSeeds(); err != nil {
		return err
	}
	var names []string
	for k := range s.File.Axes {
		names = append(names, k)
	}
	// The grid's order is the order the axes are written in.
	slices.SortFunc(names, func(a, b string) int {
		la, ca := s.pos.At("axes." + a)
		lb, cb := s.pos.At("axes." + b)
		return cmp.Or(cmp.Compare(la, lb), cmp.Compare(ca, cb), strings.Compare(a, b))
	})
	for _, k := range names {
		vals, ok := s.File.Axes[k].([]any)
		if !ok || len(vals) == 0 {
			return s.fail("axes."+k, "found %s = %v, expected a list of values such as [4, 8, 16]", k, s.File.Axes[k])
		}
		s.Axes = append(s.Axes, Axis{Key: k, Values: vals})
	}
	for i, p := range s.Plot {
		at := fmt.Sprintf("plot[%d]", i)
		if p.Y == "" {
			return s.fail(at, "found a plot without y, expected y = a metric such as \"sent.total\"")
		}
		if !validMetric(p.Y) {
			return s.fail(at+".y", "found y = %q, expected one of the metrics: %s", p.Y, strings.Join(metricPatterns, ", "))
		}
		if !s.isAxis(p.X) {
			return s.fail(at+".x", "found x = %q, expected one of the axes: %s", p.X, strings.Join(s.axisKeys(), ", "))
		}
		var series []string
		switch v := p.Series.(type) {
		case nil:
		case string:
			series = []string{v}
		case []any:
			for _, e := range v {
				str, _ := e.(string)
				series = append(series, str)
			}
		}
		for _, k := range series {
			if !s.isAxis(k) || k == p.X {
				return s.fail(at+".series", "found series %q, expected other axes than x: %s", k, strings.Join(s.axisKeys(), ", "))
			}
		}
		s.Series = append(s.Series, series)
	}
	for i, e := range s.Expect {
		c, err := parseCheck(e.That)
		if err != nil {
			l, col := s.pos.At(fmt.Sprintf("expect[%d].that", i))
			se := err.(*netsim.SyntaxError)
			return presets.ErrorAt(s.Path, l, col+se.Col, se.Msg)
		}
		s.Checks = append(s.Checks, c)
	}
	if s.Completed != "" {
		c, err := parseCheck(s.Completed)
		if err != nil {
			l, col := s.pos.At("completed")
			se := err.(*netsim.SyntaxError)
			return presets.ErrorAt(s.Path, l, col+se.Col, se.Msg)
		}
		s.done = &c
	}
	if err := s.makeGrid(); err != nil {
		return err
	}
	// Every cell must make a valid scenario: find out now, before running anything.
	return s.checkCells(ctx)
}

func (s *Sweep) checkSeeds() error {
	switch v := s.File.Seeds.(type) {
	case nil:
		s.SeedList = []uint64{1}
	case int64:
		if v < 1 || v > MaxSeeds {
			return s.fail("seeds", "found seeds = %d, expected a count from 1 to %d or a list", v, MaxSeeds)
		}
		s.SeedList = seedRange(int(v))
	case []any:
		for _, e := range v {
			n, ok := e.(int64)
			if !ok || n < 0 {
				return s.fail("seeds", "found %v in seeds, expected seeds >= 0 such as [1, 7, 42]", e)
			}
			s.SeedList = append(s.SeedList, uint64(n))
		}
		if len(s.SeedList) == 0 {
			return s.fail("seeds", "found seeds = [], expected at least one seed")
		}
	default:
		return s.fail("seeds", "found seeds = %v, expected a count such as 3 or a list such as [1, 7, 42]", v)
	}
	return nil
}

// MaxSeeds bounds the seeds of a sweep.
const MaxSeeds = 100000

func seedRange(k int) []uint64 {
	out := make([]uint64, k)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out
}

// WithSeeds replaces the seeds by 1..k (the --seeds flag).
func (s *Sweep) WithSeeds(k int) { s.SeedList = seedRange(k) }

func (s *Sweep) isAxis(k string) bool { return slices.Contains(s.axisKeys(), k) }

func (s *Sweep) axisKeys() []string {
	var out []string
	for _, a := range s.Axes {
		out = append(out, a.Key)
	}
	return out
}

// Shrink keeps the first k values of every numeric axis: the reduced sweep the
// tests run (and a quick look before a long sweep).
func (s *Sweep) Shrink(k int) {
	defer func() {
		// Fewer values of axes whose every cell was valid: the smaller grid is too.
		if err := s.makeGrid(); err == nil {
			s.checkCells(context.Background())
		}
	}()
	for i, a := range s.Axes {
		numeric := true
		for _, v := range a.Values {
			switch v.(type) {
			case int64, float64:
			default:
				numeric = false
			}
		}
		if numeric && len(a.Values) > k {
			s.Axes[i].Values = a.Values[:k]
		}
	}
}
