package session

import (
	"fmt"
	"sort"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// FieldDiff is one part of two recordings' headers that differs: the path of its
// first difference (scenario.seed, scenario.network.latency.max, program) and both
// values, rendered short as JSON ("" for a value one side does not have).
type FieldDiff struct {
	Path string `json:"path"`
	A    string `json:"a"`
	B    string `json:"b"`
}

// HeaderDiffs compares two recordings' headers, part by part: each top-level
// field of the scenario (its seed, its network, its script, …) names its first
// difference, then the program that wrote each and the algorithm's code. What
// makes two runs of one scenario part, when they do without an action, is here.
func HeaderDiffs(a, b *trace.Header) []FieldDiff {
	var out []FieldDiff
	var sa, sb any
	// Both headers were read and resolved: their scenarios are JSON objects.
	if decodeNumbers(a.Scenario, &sa) == nil && decodeNumbers(b.Scenario, &sb) == nil {
		ma, _ := sa.(map[string]any)
		mb, _ := sb.(map[string]any)
		keys := map[string]bool{}
		for k := range ma {
			keys[k] = true
		}
		for k := range mb {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			if d, same := sectionDiff("scenario."+k, ma[k], mb[k]); !same {
				out = append(out, absent(d))
			}
		}
	}
	if a.Program != b.Program {
		out = append(out, FieldDiff{"program", render(a.Program), render(b.Program)})
	}
	if (a.Code == nil) != (b.Code == nil) || a.Code != nil && *a.Code != *b.Code {
		out = append(out, FieldDiff{"code", describeCode(a.Code), describeCode(b.Code)})
	}
	return out
}

// absent writes a value one side does not have as "" (render's "nothing"; a
// JSON string "nothing" is rendered quoted).
func absent(d FieldDiff) FieldDiff {
	if d.A == render(nil) {
		d.A = ""
	}
	if d.B == render(nil) {
		d.B = ""
	}
	return d
}

// sectionDiff is the first difference in one part of two scenarios. A list
// that the other lengthens (a script with one more action) names the first
// element only one of them has.
func sectionDiff(path string, a, b any) (FieldDiff, bool) {
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok && len(as) != len(bs) {
		n := min(len(as), len(bs))
		if p, x, y, same := firstDiff(path, as[:n], bs[:n]); !same {
			return FieldDiff{p, x, y}, false
		}
		// firstDiff numbers the elements from 0, as here.
		p := fmt.Sprintf("%s[%d]", path, n)
		if len(as) > n {
			return FieldDiff{p, render(as[n]), render(nil)}, false
		}
		return FieldDiff{p, render(nil), render(bs[n])}, false
	}
	p, x, y, same := firstDiff(path, a, b)
	return FieldDiff{p, x, y}, same
}
