// Package grading marks a folder of homework recordings: each file is verified
// (re-run from its header and compared event by event), then checked against a
// rubric's requirements, for `clusterlab grade`.
//
// A rubric is a small TOML file:
//
//	title = "Homework 2: bully under a partition"
//
//	[[require]]                       # the scenario: one of these presets, or at least 5 nodes
//	preset = ["bully-split-brain"]
//	min_nodes = 5
//
//	[[require]]                       # a split brain, and its end
//	alert = "split-brain"
//	ended = true
//
//	[[require]]                       # at least one crash of the leader
//	crash = "leader"
//
//	[[require]]                       # every expectation of the scenario passes
//	expectations = "pass"
//
//	[[require]]                       # the recording runs this algorithm
//	algorithm = "mybully"
//
// Each [[require]] holds one requirement (preset and min_nodes together are one:
// either will do) and may say it in words with what = "…". Errors are one line,
// file:line:col.
package grading

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/presets"
)

// Rubric is a rubric file as written.
type Rubric struct {
	Title   string        `toml:"title"`
	Require []Requirement `toml:"require"`
}

// Requirement is one [[require]].
type Requirement struct {
	What         string   `toml:"what"`
	Preset       []string `toml:"preset"`
	MinNodes     int      `toml:"min_nodes"`
	Alert        string   `toml:"alert"`
	Ended        bool     `toml:"ended"`
	Crash        string   `toml:"crash"`
	Expectations string   `toml:"expectations"`
	Algorithm    string   `toml:"algorithm"`
}

// The kinds of requirement.
const (
	KindScenario     = "scenario"
	KindAlert        = "alert"
	KindCrash        = "crash"
	KindExpectations = "expectations"
	KindAlgorithm    = "algorithm"
)

// Kind says which requirement r is.
func (r Requirement) Kind() string {
	switch {
	case len(r.Preset) > 0 || r.MinNodes > 0:
		return KindScenario
	case r.Alert != "":
		return KindAlert
	case r.Crash != "":
		return KindCrash
	case r.Expectations != "":
		return KindExpectations
	case r.Algorithm != "":
		return KindAlgorithm
	}
	return ""
}

const rubricKeys = "title, require"

// maxRubricBytes bounds a rubric file.
const maxRubricBytes = 1 << 20

// LoadRubric reads and checks a rubric file.
func LoadRubric(path string) (*Rubric, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxRubricBytes {
		return nil, fmt.Errorf("%s: expected a rubric file (TOML) of at most 1 MB", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseRubric(path, data)
}

// ParseRubric reads and checks a rubric.
func ParseRubric(file string, data []byte) (*Rubric, error) {
	var r Rubric
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, presets.DecodeError(file, rubricKeys+" (and in [[require]]: what, preset, min_nodes, alert, ended, crash, expectations, algorithm)", err)
	}
	pos := presets.Index(data)
	fail := func(path, format string, args ...any) error {
		line, col := pos.At(path)
		return presets.ErrorAt(file, line, col, fmt.Sprintf(format, args...))
	}
	if len(r.Require) == 0 {
		return nil, fail("", "found no [[require]], expected at least one requirement, such as [[require]] expectations = \"pass\"")
	}
	for i, q := range r.Require {
		at := fmt.Sprintf("require[%d]", i)
		kinds := 0
		for _, set := range []bool{len(q.Preset) > 0 || q.MinNodes > 0, q.Alert != "", q.Crash != "", q.Expectations != "", q.Algorithm != ""} {
			if set {
				kinds++
			}
		}
		switch {
		case kinds == 0:
			return nil, fail(at, "found a [[require]] with no requirement, expected one of preset/min_nodes, alert, crash, expectations, algorithm")
		case kinds > 1:
			return nil, fail(at, "found a [[require]] with more than one requirement, expected one per [[require]] (preset and min_nodes together are one)")
		case q.MinNodes < 0:
			return nil, fail(at+".min_nodes", "found min_nodes = %d, expected a number of nodes ≥ 1", q.MinNodes)
		case q.Alert != "" && !slices.Contains(netsim.AlertKinds, q.Alert):
			return nil, fail(at+".alert", "found alert = %q, expected an alert kind: %s", q.Alert, strings.Join(netsim.AlertKinds, ", "))
		case q.Ended && q.Alert == "":
			return nil, fail(at+".ended", "found ended = true without alert, expected it beside alert = \"KIND\"")
		case q.Crash != "" && q.Crash != "leader" && q.Crash != "any":
			return nil, fail(at+".crash", "found crash = %q, expected \"leader\" or \"any\"", q.Crash)
		case q.Expectations != "" && q.Expectations != "pass":
			return nil, fail(at+".expectations", "found expectations = %q, expected \"pass\"", q.Expectations)
		}
		for j, p := range q.Preset {
			if !slices.Contains(presets.Names(), p) {
				return nil, fail(fmt.Sprintf("%s.preset[%d]", at, j), "found preset %q, expected one of: %s", p, strings.Join(presets.Names(), ", "))
			}
		}
	}
	return &r, nil
}
