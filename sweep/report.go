package sweep

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
)

// report is report.md: the grid, the expectations, a table and the plot of every
// [[plot]] with theory beside measurement, the sources, the sweep's notes, and the
// command that reproduces it.
func (p *Plan) report(results []Result, figs []figure, command string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Sweep %s\n\n", p.Name)
	if p.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", strings.Join(strings.Fields(p.Description), " "))
	}
	fmt.Fprintf(&b, "Reproduce with:\n\n```sh\n%s\n```\n\n", command)
	fmt.Fprintf(&b, "## Grid\n\nBase scenario: `%s`.\n\n| axis | values |\n|---|---|\n", p.baseName)
	for _, a := range p.Axes {
		var vs []string
		for _, v := range a.Values {
			vs = append(vs, Format(v))
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", a.Key, strings.Join(vs, ", "))
	}
	var seeds []string
	for _, s := range p.SeedList {
		seeds = append(seeds, fmt.Sprint(s))
	}
	passed := 0
	for _, r := range results {
		if r.Passed {
			passed++
		}
	}
	fmt.Fprintf(&b, "\nSeeds %s: %d cells × %d seed(s) = %d runs; %d here, %d passed.\n\n",
		strings.Join(seeds, ", "), len(p.Cells), len(p.SeedList), len(p.Cells)*len(p.SeedList), len(results), passed)
	if len(p.Checks) > 0 {
		fmt.Fprintf(&b, "## Expectations (every run)\n\n")
		for _, c := range p.Checks {
			fmt.Fprintf(&b, "- `%s`\n", c.text)
		}
		b.WriteString("\n")
	}
	if passed < len(results) {
		fmt.Fprintf(&b, "### Runs that failed\n\n")
		shown := 0
		for _, r := range results {
			if r.Passed {
				continue
			}
			if shown == 30 {
				fmt.Fprintf(&b, "- … %d more\n", len(results)-passed-shown)
				break
			}
			fmt.Fprintf(&b, "- %s: %s\n", p.Describe(r.Run), strings.Join(r.Failures, "; "))
			shown++
		}
		b.WriteString("\n")
	}
	var figures []string
	for _, f := range figs {
		title := f.Title
		if title == "" {
			title = f.Y + " vs " + f.X
		}
		fmt.Fprintf(&b, "## %s\n\n![%s](%s.svg)\n\n", title, title, f.file)
		fmt.Fprintf(&b, "| series | `%s` | measured (mean) | min–max | theory | difference | formula |\n|---|---|---|---|---|---|---|\n", f.X)
		for _, l := range f.lines {
			for _, pt := range l.points {
				diff := ""
				if !math.IsNaN(pt.theory) {
					diff = signed(pt.mean - pt.theory)
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s–%s | %s | %s | %s |\n", l.name, Format(pt.x), short(pt.mean), short(pt.lo), short(pt.hi), short(pt.theory), diff, pt.label)
				if pt.label != "" && !slices.Contains(figures, pt.label) {
					figures = append(figures, pt.label)
				}
			}
		}
		b.WriteString("\n")
	}
	if src := p.sources(results); len(src) > 0 {
		fmt.Fprintf(&b, "## Theory and its sources\n\n")
		for _, s := range src {
			fmt.Fprintf(&b, "- %s\n", s)
		}
		b.WriteString("\n")
	}
	if p.Notes != "" {
		fmt.Fprintf(&b, "## Notes\n\n%s\n", strings.TrimSpace(p.Notes))
	}
	return b.Bytes()
}

// sources lists every figure the grid's algorithms give, with its source, once.
func (p *Plan) sources(results []Result) []string {
	var out []string
	for _, st := range p.cellStats(results) {
		for _, col := range p.Columns {
			for _, t := range st[col].figures {
				line := fmt.Sprintf("`%s` %s — %s", col, t.Statement(nil), t.Source)
				if !slices.Contains(out, line) {
					out = append(out, line)
				}
			}
		}
	}
	return out
}

// short writes a figure for people: four significant digits.
func short(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e9 {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.4g", v)
}

func signed(v float64) string {
	if v >= 0 {
		return "+" + short(v)
	}
	return short(v)
}
