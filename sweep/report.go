package sweep

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/clusterlab/clusterlab/algos"
)

// reportInfo is what report.md says beside the results: the command that makes the
// sweep again, and why it stopped early, if it did.
type reportInfo struct {
	command string // canonical, with --shard for a shard
	stopped string // the signal that stopped the runs, "" if none did
}

// report is report.md: the grid, the expectations, the runs cut off and those that
// failed, a table and the plot of every [[plot]] with theory beside measurement,
// the sources, the sweep's notes, and the command that reproduces it. It is the
// same bytes for any --jobs and after any merge.
func (p *Plan) report(o *outputs, figs []figure, info reportInfo) []byte {
	ui := p.ui
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n", ui.F("sweep.report.title", p.Name))
	if d := p.description(); d != "" {
		fmt.Fprintf(&b, "%s\n\n", d)
	}
	fmt.Fprintf(&b, "%s\n\n```sh\n%s\n```\n\n", ui.T("sweep.report.reproduce"), info.command)
	fmt.Fprintf(&b, "## %s\n\n%s\n\n| %s | %s |\n|---|---|\n", ui.T("sweep.report.grid"), ui.F("sweep.report.base", p.baseName),
		ui.T("sweep.report.axis"), ui.T("sweep.report.values"))
	for _, a := range p.Axes {
		var vs []string
		for _, v := range a.Values {
			vs = append(vs, Format(v))
		}
		fmt.Fprintf(&b, "| %s | %s |\n", cell("`"+a.Key+"`"), cell(strings.Join(vs, ", ")))
	}
	fmt.Fprintf(&b, "\n%s\n\n", ui.F("sweep.report.counts", p.seedsLine(), ui.Count("sweep.cells", p.CellCount()), ui.Count("sweep.seeds", len(p.SeedList)), ui.Count("sweep.run", p.Total()), o.runs, o.passed, o.completed))
	if info.stopped != "" {
		fmt.Fprintf(&b, "> %s\n\n", ui.F("sweep.report.stopped", info.stopped, o.runs, p.Total()))
	}
	fmt.Fprintf(&b, "## %s\n\n", ui.T("sweep.report.expect"))
	for _, c := range p.Checks {
		fmt.Fprintf(&b, "- `%s`\n", c.text)
	}
	if p.AllowIncomplete {
		fmt.Fprintf(&b, "- %s\n\n", ui.T("sweep.report.allowcut"))
	} else {
		fmt.Fprintf(&b, "- %s\n\n", ui.T("sweep.report.mustfinish"))
	}
	if len(o.cut) > 0 {
		fmt.Fprintf(&b, "### %s\n\n", ui.T("sweep.report.cut"))
		for _, c := range o.cut {
			fmt.Fprintf(&b, "- %s\n", p.cutHint(c))
		}
		b.WriteString("\n")
	}
	if failed := o.runs - o.passed; failed > 0 {
		fmt.Fprintf(&b, "### %s\n\n", ui.T("sweep.report.failed"))
		for _, r := range o.failed {
			fmt.Fprintf(&b, "- %s: %s. %s `%s --run %d --record run-%d.jsonl`\n", p.Describe(r.Run), p.reasons(r),
				ui.T("sweep.report.rerun"), p.command, r.Index, r.Index)
		}
		if failed > len(o.failed) {
			fmt.Fprintf(&b, "- %s\n", ui.F("sweep.report.more", failed-len(o.failed)))
		}
		b.WriteString("\n")
	}
	for _, f := range figs {
		title := f.title(ui)
		fmt.Fprintf(&b, "## %s\n\n![%s](%s.svg)\n\n", title, strings.ReplaceAll(title, "]", `\]`), f.file)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n|---|---|---|---|---|---|---|\n", ui.T("sweep.report.series"), cell("`"+f.X+"`"),
			ui.T("sweep.report.measured"), ui.T("sweep.report.range"), ui.T("sweep.report.theory"), ui.T("sweep.report.diff"), ui.T("sweep.report.formula"))
		for _, l := range f.lines {
			for _, pt := range l.points {
				diff := ""
				if !math.IsNaN(pt.theory) {
					diff = signed(pt.mean - pt.theory)
					if pt.differs {
						diff = "**" + diff + "** ≠"
					}
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s–%s | %s | %s | %s |\n", cell(l.name), cell(Format(pt.x)), short(pt.mean), short(pt.lo), short(pt.hi),
					short(pt.theory), diff, cell(pt.label))
			}
		}
		if f.differs() {
			fmt.Fprintf(&b, "\n%s\n", ui.T("sweep.report.differs"))
		}
		b.WriteString("\n")
	}
	if len(o.sources) > 0 {
		fmt.Fprintf(&b, "## %s\n\n", ui.T("sweep.report.sources"))
		for _, s := range o.sources {
			fmt.Fprintf(&b, "- %s\n", s)
		}
		b.WriteString("\n")
	}
	if n := p.notes(); n != "" {
		fmt.Fprintf(&b, "## %s\n\n%s\n", ui.T("sweep.report.notes"), n)
	}
	return b.Bytes()
}

// reasons are why a run failed, in the report's language.
func (p *Plan) reasons(r Result) string {
	out := make([]string, len(r.Failures))
	for i, f := range r.Failures {
		out[i] = p.ui.Text(f)
	}
	return strings.Join(out, "; ")
}

// cell escapes text for a Markdown table cell: a | would end the cell, a line
// break the row.
func cell(s string) string {
	s = strings.ReplaceAll(s, `|`, `\|`)
	return strings.Join(strings.Fields(s), " ")
}

// seedsLine lists the seeds, or their range when they are many.
func (p *Plan) seedsLine() string {
	seeds := p.SeedList
	if len(seeds) > 12 {
		return fmt.Sprintf("%d, %d, … %d", seeds[0], seeds[1], seeds[len(seeds)-1])
	}
	var out []string
	for _, s := range seeds {
		out = append(out, fmt.Sprint(s))
	}
	return strings.Join(out, ", ")
}

// cutHint says how many runs an until cut off, and what to do.
func (p *Plan) cutHint(c cutoff) string {
	what := p.finishWhat(p.ui, c.algorithm)
	if p.AllowIncomplete {
		return p.ui.F("sweep.cut.allowed", c.until, p.nRuns(c.runs), what)
	}
	return p.ui.F("sweep.cut", c.until, p.nRuns(c.runs), what)
}

// nRuns is "1 run", "2 runs" in the report's language.
func (p *Plan) nRuns(n int) string { return p.ui.Count("sweep.run", n) }

// description is the sweep's description in the report's language, on one line.
func (p *Plan) description() string {
	return strings.Join(strings.Fields(p.ui.SweepText(p.Name, "description", p.Description)), " ")
}

// notes are the sweep's notes in the report's language.
func (p *Plan) notes() string {
	return strings.TrimSpace(p.ui.SweepText(p.Name, "notes", p.Notes))
}

// source is one figure with its source, as the report lists it.
func (p *Plan) source(col string, t algos.Theory) string {
	return fmt.Sprintf("`%s` %s — %s", col, t.Statement(p.ui.Phrase), p.ui.Phrase(t.Source))
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
