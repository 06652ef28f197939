package all

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/node"
)

// figures gathers every figure the registry gives over a set of configurations:
// rings of 8 with ids up and down, one starter or all, with and without the
// highest id crashed first.
func figures(t *testing.T) []algos.Theory {
	t.Helper()
	up := []node.ID{1, 2, 3, 4, 5, 6, 7, 8}
	down := []node.ID{8, 7, 6, 5, 4, 3, 2, 1}
	var out []algos.Theory
	for _, spec := range algos.All() {
		for _, ids := range [][]node.ID{up, down} {
			for _, init := range []any{"all", "n1", "n7", "n8"} {
				values := map[string]any{}
				if _, ok := spec.Param("initiators"); ok {
					values["initiators"] = init
				}
				p, err := algos.NewParams(spec, values)
				if err != nil {
					t.Fatal(err)
				}
				for _, crashed := range [][]node.ID{nil, {8}} {
					out = append(out, algos.TheoryFor(spec, algos.TheoryConfig{Config: algos.Config{IDs: ids, Params: p}, Crashed: crashed, CrashRate: 0.3})...)
				}
			}
		}
	}
	return out
}

// Every figure's texts come from its kind's template, so the formula, the value
// and the unit are always there, and a formula written with N alone gives the
// figure's value at N = 8: a label that names another formula than the value it
// stands beside (3N−1 beside 2N−1's 15) fails here.
func TestTheoryTexts(t *testing.T) {
	figs := figures(t)
	if len(figs) < 40 {
		t.Fatalf("only %d figures", len(figs))
	}
	kinds := map[string]bool{}
	for _, f := range figs {
		st, am := f.Statement(nil), f.Amount(nil)
		kinds[f.Bound] = true
		if f.Formula == "" || f.Label == "" || f.Source == "" {
			t.Errorf("%s: formula %q, label %q, source %q: none may be empty", f.Metric, f.Formula, f.Label, f.Source)
		}
		if !strings.Contains(st, f.Formula) || !strings.Contains(st, f.Label) {
			t.Errorf("%s: statement %q lacks its formula %q or its label", f.Metric, st, f.Formula)
		}
		want := map[string]string{algos.Exact: "= ", algos.AtMost: "≤ ", algos.AtLeast: "≥ "}[f.Bound]
		switch {
		case f.Bound == algos.Range:
			if !strings.Contains(st, f.LowFormula+" to "+f.Formula) || !strings.Contains(am, " to ") {
				t.Errorf("%s: range statement %q, amount %q", f.Metric, st, am)
			}
		case want == "":
			t.Errorf("%s: unknown kind %q", f.Metric, f.Bound)
		case !strings.HasPrefix(st, want) || !strings.HasPrefix(am, want):
			t.Errorf("%s: %q and %q should start with %q", f.Metric, st, am, want)
		}
		if !strings.Contains(am, strconv.FormatFloat(f.Value, 'g', 4, 64)) {
			t.Errorf("%s: amount %q lacks the value %v", f.Metric, am, f.Value)
		}
		if f.Unit == "T" && (!strings.Contains(st, "message times") || !strings.Contains(am, "message times")) {
			t.Errorf("%s: a delay in message times reads %q, %q", f.Metric, st, am)
		}
		if v, ok := evalN(f.Formula, 8); ok && math.Abs(v-f.Value) > 1e-9 {
			t.Errorf("%s: %q is %v at N = 8, but the figure beside it is %v", f.Metric, f.Formula, v, f.Value)
		}
	}
	for _, k := range []string{algos.Exact, algos.AtMost, algos.AtLeast, algos.Range} {
		if !kinds[k] {
			t.Errorf("no figure of kind %q: the test covers every template", k)
		}
	}
}

// The figure in seconds keeps its formula in message times and says both.
func TestTheoryInSeconds(t *testing.T) {
	f := algos.Theory{Metric: "client_delay_s", Value: 0.02, Unit: "s", Formula: "2", Label: "client delay", Source: "x"}
	if got, want := f.Statement(nil), "= 2 message times: client delay"; got != want {
		t.Errorf("statement %q, want %q", got, want)
	}
	if got, want := f.Amount(nil), "= 0.02 s"; got != want {
		t.Errorf("amount %q, want %q", got, want)
	}
	r := algos.Theory{Metric: "client_delay_s", Value: 0.04, Bound: algos.Range, Unit: "s", LowFormula: "0", Formula: "N", Label: "client delay"}
	if got, want := r.Statement(nil), "0 to N message times: client delay"; got != want {
		t.Errorf("range statement %q, want %q", got, want)
	}
	if got, want := r.Amount(nil), "0 to 0.04 s"; got != want {
		t.Errorf("range amount %q, want %q", got, want)
	}
}

// evalN evaluates a formula written with N, numbers, + − · /, parentheses,
// implicit products (2N, N(N+1)) and ⌈log₂N⌉; false for any other formula (one
// with k, |V|, Σ or a probability).
func evalN(f string, n float64) (float64, bool) {
	e := &expr{s: []rune(strings.ReplaceAll(f, "⌈log₂N⌉", "L")), n: n}
	v := e.sum()
	return v, e.ok && e.i == len(e.s)
}

type expr struct {
	s  []rune
	i  int
	n  float64
	ok bool
}

func (e *expr) peek() rune {
	if e.i < len(e.s) {
		return e.s[e.i]
	}
	return 0
}

func (e *expr) sum() float64 {
	e.ok = true
	v := e.product()
	for {
		switch e.peek() {
		case '+':
			e.i++
			v += e.product()
		case '−', '-':
			e.i++
			v -= e.product()
		default:
			return v
		}
	}
}

func (e *expr) product() float64 {
	v := e.factor()
	for {
		switch c := e.peek(); {
		case c == '·':
			e.i++
			v *= e.factor()
		case c == '/':
			e.i++
			v /= e.factor()
		case c == 'N' || c == 'L' || c == '(' || (c >= '0' && c <= '9'):
			v *= e.factor() // implicit product: 2N, N(N+1)
		default:
			return v
		}
	}
}

func (e *expr) factor() float64 {
	c := e.peek()
	switch {
	case c == 'N':
		e.i++
		return e.n
	case c == 'L':
		e.i++
		return float64(bits.Len(uint(e.n) - 1))
	case c == '(':
		e.i++
		ok := e.ok
		v := e.sum()
		e.ok = e.ok && ok
		if e.peek() != ')' {
			e.ok = false
			return 0
		}
		e.i++
		return v
	case c >= '0' && c <= '9':
		j := e.i
		for e.i < len(e.s) && e.s[e.i] >= '0' && e.s[e.i] <= '9' {
			e.i++
		}
		v, _ := strconv.ParseFloat(string(e.s[j:e.i]), 64)
		return v
	}
	e.ok = false
	e.i = len(e.s) + 1 // stop: not a formula in N alone
	return 0
}

// Every figure's label and source, over all the configurations figures tries (more
// than the presets run: sweeps reach them), has its Portuguese and Spanish, so
// that a sweep report's theory reads in the reader's language.
func TestTheoryTranslated(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range figures(t) {
		for _, s := range []string{f.Label, f.Source} {
			if seen[s] {
				continue
			}
			seen[s] = true
			for _, l := range lang.All[1:] {
				if !l.HasPhrase(s) {
					t.Errorf("%s: no translation of %q: add it to lang/phrases.go", l, s)
				}
			}
		}
	}
	if len(seen) < 30 {
		t.Errorf("only %d texts", len(seen))
	}
}
