package lab

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// algorithmsPage is docs/algorithms.md as the registry makes it: every algorithm's
// family, description, source, messages, parameters with their defaults and
// ranges, and its textbook figures with the value they take at N = 8 and default
// parameters. Nothing in it is written by hand, so it cannot drift from the code.
func algorithmsPage() string {
	var b strings.Builder
	b.WriteString(`# Algorithms

For every user: each algorithm of the lab, where it comes from in the course notes
(or the paper), its parameters with their defaults and ranges, and the textbook's
figures that reports and sweeps set beside what a run measures. At the end of this
page you can pick an algorithm for a scenario and set its parameters. The page is
generated from the algorithms' registry (` + "`algos.All()`" + `) by ` + "`TestAlgorithmsPage`" + `, which
fails when it is stale; ` + "`CLUSTERLAB_UPDATE_DOCS=1 go test ./lab -run TestAlgorithmsPage`" + `
writes it anew. ` + "`clusterlab algos`" + ` prints the same in the terminal, in the reader's
language.

| algorithm | family | source |
|---|---|---|
`)
	for _, s := range algos.All() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", s.Name, s.Name, s.Family, cell(s.Source))
	}
	for _, s := range algos.All() {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", s.Name, s.Description)
		fmt.Fprintf(&b, "- **Family:** %s\n- **Source:** %s\n", s.Family, s.Source)
		if len(s.Messages) > 0 {
			fmt.Fprintf(&b, "- **Messages:** %s\n", strings.Join(s.Messages, ", "))
		} else {
			b.WriteString("- **Messages:** none\n")
		}
		if len(s.Params) > 0 {
			b.WriteString("\n| parameter | default | range | what it does |\n|---|---|---|---|\n")
			for _, p := range s.Params {
				r := ""
				if lo, hi, ok := p.Bounds(); ok {
					r = lo + " to " + hi
					if hi == "" {
						r = "at least " + lo
					}
					if p.Unit != "" {
						r += " " + p.Unit
					}
				}
				fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", p.Name, p.Default, r, cell(p.Doc))
			}
		}
		if figs := sampleTheory(s); len(figs) > 0 {
			b.WriteString("\n| textbook figure | at N = 8 | source |\n|---|---|---|\n")
			for _, t := range figs {
				fmt.Fprintf(&b, "| `%s` %s | %s | %s |\n", t.Metric, cell(t.Statement(nil)), cell(t.Amount(nil)), cell(t.Source))
			}
		}
	}
	return b.String()
}

// sampleTheory is s's figures for 8 processes n1…n8 with default parameters.
func sampleTheory(s algos.Spec) []algos.Theory {
	params, err := algos.NewParams(s, nil)
	if err != nil {
		return nil
	}
	ids := make([]node.ID, 8)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	return algos.TheoryFor(s, algos.TheoryConfig{Config: algos.Config{IDs: ids, Params: params}})
}

// cell makes text fit a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

// handMark starts the page's part written by hand, which the test keeps as it is.
const handMark = "\n<!-- Above: generated from the registry. Below: written by hand, kept by TestAlgorithmsPage. -->\n"

// TestAlgorithmsPage: docs/algorithms.md, up to its part written by hand, is what
// the registry makes.
func TestAlgorithmsPage(t *testing.T) {
	const path = "../docs/algorithms.md"
	want := algorithmsPage()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, hand, ok := strings.Cut(string(data), handMark)
	if !ok {
		t.Fatalf("%s: no line %q before its part written by hand", path, strings.TrimSpace(handMark))
	}
	if updateDocs && got != want {
		if err := os.WriteFile(path, []byte(want+handMark+hand), 0o644); err != nil {
			t.Fatal(err)
		}
		got = want
	}
	if got != want {
		t.Errorf("%s is stale: the registry changed (CLUSTERLAB_UPDATE_DOCS=1 go test ./lab -run TestAlgorithmsPage writes it anew)", path)
	}
	for _, s := range algos.All() {
		if !strings.Contains(want, "\n## "+s.Name+"\n") {
			t.Errorf("%s has no section for %s", path, s.Name)
		}
	}
}
