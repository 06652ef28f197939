package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
)

// check is one parsed [[expect]]: METRIC OP VALUE, where VALUE is a number or
// "theory", or METRIC within P% of theory.
type check struct {
	text   string
	metric string
	op     string // == <= >= < > within
	value  float64
	theory bool
}

const checkGrammar = `METRIC == K (or <=, >=, <, >), METRIC == theory (or <=, >=), or METRIC within P% of theory`

func parseCheck(s string) (check, error) {
	f := strings.Fields(s)
	c := check{text: s}
	bad := func(col int, found string) error {
		return &netsim.SyntaxError{Col: col, Msg: fmt.Sprintf("found %s, expected %s", found, checkGrammar)}
	}
	col := func(i int) int { // 1-based column of field i in s
		at := 0
		for j := 0; j <= i; j++ {
			at = strings.Index(s[at:], f[j]) + at
			if j < i {
				at += len(f[j])
			}
		}
		return at + 1
	}
	if len(f) < 3 {
		return c, bad(len(s)+1, fmt.Sprintf("%q", s))
	}
	c.metric = f[0]
	if !validMetric(c.metric) {
		return c, &netsim.SyntaxError{Col: col(0), Msg: fmt.Sprintf("found metric %q, expected one of the metrics: %s", c.metric, strings.Join(metricPatterns, ", "))}
	}
	if f[1] == "within" {
		if len(f) != 5 || f[3] != "of" || f[4] != "theory" || !strings.HasSuffix(f[2], "%") {
			return c, bad(col(1), fmt.Sprintf("%q", strings.Join(f[1:], " ")))
		}
		v, err := strconv.ParseFloat(strings.TrimSuffix(f[2], "%"), 64)
		if err != nil || v < 0 {
			return c, bad(col(2), fmt.Sprintf("%q", f[2]))
		}
		c.op, c.value, c.theory = "within", v/100, true
		return c, nil
	}
	switch f[1] {
	case "==", "<=", ">=", "<", ">":
		c.op = f[1]
	default:
		return c, bad(col(1), fmt.Sprintf("%q", f[1]))
	}
	if len(f) != 3 {
		return c, bad(col(3), fmt.Sprintf("%q", strings.Join(f[3:], " ")))
	}
	if f[2] == "theory" {
		c.theory = true
		return c, nil
	}
	v, err := strconv.ParseFloat(f[2], 64)
	if err != nil {
		return c, bad(col(2), fmt.Sprintf("%q", f[2]))
	}
	c.value = v
	return c, nil
}

// eval checks one run: got is the run's metric (NaN when it has none), theory the
// cell's figure (NaN when there is none). It returns what went wrong, or "", in
// English, as results.csv keeps it (lang.Text reads it back in another language).
func (c check) eval(got, theory float64) string {
	if math.IsNaN(got) {
		return lang.En.F("sweep.fail.nometric", c.text, c.metric)
	}
	want := c.value
	if c.theory {
		if math.IsNaN(theory) {
			return lang.En.F("sweep.fail.notheory", c.text)
		}
		want = theory
	}
	ok := false
	switch c.op {
	case "==":
		ok = math.Abs(got-want) <= 1e-9*max(1, math.Abs(want))
	case "<=":
		ok = got <= want+1e-9
	case ">=":
		ok = got >= want-1e-9
	case "<":
		ok = got < want
	case ">":
		ok = got > want
	case "within":
		ok = math.Abs(got-theory) <= c.value*math.Abs(theory)
		want = theory
	}
	if ok {
		return ""
	}
	return lang.En.F("sweep.fail.check", c.text, num(got), num(want))
}
