package session

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// dynamicKeys are the JSON objects whose keys are data (message types, drop reasons,
// counter names), not part of the shape.
var dynamicKeys = map[string]bool{"messages": true, "drops": true, "dropped_by": true, "counters": true,
	"messages_per_election": true, "messages_per_entry": true}

// kind is the structure of a JSON value: its kind, an object's fields, the shared
// shape of an array's or a keyed map's elements (nil while none was seen).
type kind struct {
	name   string // object, map, array, string, number, bool, null
	fields map[string]*kind
	elem   *kind
}

// shapeOf reads the structure of v; key is the field v sits in.
func shapeOf(v any, key string) *kind {
	switch x := v.(type) {
	case map[string]any:
		if dynamicKeys[key] {
			k := &kind{name: "map"}
			for _, e := range x {
				k.elem = mustMerge(k.elem, shapeOf(e, ""))
			}
			return k
		}
		k := &kind{name: "object", fields: map[string]*kind{}}
		for f, e := range x {
			k.fields[f] = shapeOf(e, f)
		}
		return k
	case []any:
		k := &kind{name: "array"}
		for _, e := range x {
			k.elem = mustMerge(k.elem, shapeOf(e, ""))
		}
		return k
	case string:
		return &kind{name: "string"}
	case float64:
		return &kind{name: "number"}
	case bool:
		return &kind{name: "bool"}
	}
	return &kind{name: "null"}
}

// merge joins two shapes of the same place, or says where they differ.
func merge(a, b *kind, at string) (*kind, error) {
	switch {
	case a == nil:
		return b, nil
	case b == nil:
		return a, nil
	case a.name != b.name:
		return nil, fmt.Errorf("%s: %s in one, %s in another", at, a.name, b.name)
	}
	out := &kind{name: a.name}
	if a.fields != nil {
		out.fields = map[string]*kind{}
		for f := range a.fields {
			if _, ok := b.fields[f]; !ok {
				return nil, fmt.Errorf("%s.%s: present in one, missing in another", at, f)
			}
		}
		for f := range b.fields {
			m, err := merge(a.fields[f], b.fields[f], at+"."+f)
			if err != nil {
				return nil, err
			}
			out.fields[f] = m
		}
	}
	var err error
	out.elem, err = merge(a.elem, b.elem, at+"[]")
	return out, err
}

func mustMerge(a, b *kind) *kind {
	m, err := merge(a, b, "")
	if err != nil {
		return &kind{name: "MIXED(" + err.Error() + ")"}
	}
	return m
}

// render writes the shape as indented text, one field a line.
func (k *kind) render(b *strings.Builder, indent string) {
	switch k.name {
	case "object":
		b.WriteString("{\n")
		names := make([]string, 0, len(k.fields))
		for f := range k.fields {
			names = append(names, f)
		}
		sort.Strings(names)
		for _, f := range names {
			b.WriteString(indent + "  " + f + ": ")
			k.fields[f].render(b, indent+"  ")
			b.WriteString("\n")
		}
		b.WriteString(indent + "}")
	case "map", "array":
		open, end := "[", "]"
		if k.name == "map" {
			open, end = "{KEY: ", "}"
		}
		b.WriteString(open)
		if k.elem == nil {
			b.WriteString("?")
		} else {
			k.elem.render(b, indent)
		}
		b.WriteString(end)
	default:
		b.WriteString(k.name)
	}
}

// simJSON runs a preset headless and returns its summary as `sim --json` writes it.
func simJSON(t *testing.T, preset string, until time.Duration) (*netsim.Summary, map[string]any) {
	t.Helper()
	_, cfg, err := Open(Source{Preset: preset})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Run(cfg, until, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return sum, v
}

// TestSimJSONShape pins the shape of `sim --json`: one preset of each family gives
// the same keys and kinds, every section present, and together they fill the golden
// file that docs/sim-json.md describes.
func TestSimJSONShape(t *testing.T) {
	var all *kind
	for _, preset := range []string{"omega-crash", "bully-split-brain", "ricart"} {
		_, v := simJSON(t, preset, 0)
		if v["schema"] != netsim.Schema {
			t.Fatalf("%s: schema %v, want %s", preset, v["schema"], netsim.Schema)
		}
		var err error
		if all, err = merge(all, shapeOf(v, ""), preset); err != nil {
			t.Fatalf("the shape differs between families: %v", err)
		}
	}
	var b strings.Builder
	all.render(&b, "")
	got := b.String() + "\n"
	if strings.Contains(got, "MIXED") || strings.Contains(got, "null") {
		t.Fatalf("mixed kinds or a null in one list or map:\n%s", got)
	}
	const golden = "testdata/sim-json.shape"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("the shape of sim --json changed (bump netsim.Schema, update docs/sim-json.md, then go test -update):\n got: %s\nwant: %s", got, want)
	}
}

// TestSimNotEvaluated: a run that stops before an expectation's time does not pass,
// and says which expectations were never checked.
func TestSimNotEvaluated(t *testing.T) {
	sum, v := simJSON(t, "bully-split-brain", 5*time.Second)
	if sum.Passed || v["passed"] != false {
		t.Fatal("a run that skipped expectations passed")
	}
	var status []string
	for _, r := range v["expectations"].([]any) {
		status = append(status, r.(map[string]any)["status"].(string))
	}
	want := "pass not-evaluated not-evaluated not-evaluated not-evaluated"
	if strings.Join(status, " ") != want || sum.NotEvaluated() != 4 {
		t.Fatalf("statuses %v, want %s", status, want)
	}
	// An end-of-run expectation belongs to the scenario's end, not to an early stop.
	sum, _ = simJSON(t, "omega-crash", 5*time.Second)
	last := sum.Expectations[len(sum.Expectations)-1]
	if sum.Passed || !last.AtEnd || last.Status != netsim.StatusNotEvaluated || last.AtUS != 10_000_000 {
		t.Fatalf("omega-crash to 5s: passed %v, last expectation %+v", sum.Passed, last)
	}
	sum, _ = simJSON(t, "omega-crash", 12*time.Second)
	if !sum.Passed || sum.NotEvaluated() != 0 {
		t.Fatalf("omega-crash past its end: passed %v, %d not evaluated", sum.Passed, sum.NotEvaluated())
	}
	sum, _ = simJSON(t, "bully-split-brain", 0)
	if !sum.Passed || sum.NotEvaluated() != 0 || len(sum.Expectations) != 5 {
		t.Fatalf("the full run: passed %v, %d not evaluated, %d results", sum.Passed, sum.NotEvaluated(), len(sum.Expectations))
	}
}
