package lab

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/internal/termtext"
	"github.com/clusterlab/clusterlab/presets"
)

type presetsListCmd struct {
	Notes bool `help:"${help_presets_notes}"`
}

// Run lists the presets by chapter of the course: failure detectors, election,
// mutual exclusion; with --notes, the worked examples of the notes, by section.
func (c presetsListCmd) Run() error {
	if c.Notes {
		return c.notes()
	}
	byFamily := map[algos.Family][]string{}
	for _, name := range presets.Names() {
		s, err := presets.Load(name)
		if err != nil {
			return err
		}
		desc := termtext.Line(strings.Join(strings.Fields(ui.Preset(name, s.Description)), " "))
		if r := []rune(desc); len(r) > 90 {
			desc = string(r[:87]) + "..."
		}
		spec, _ := algos.Lookup(s.Algorithm)
		byFamily[spec.Family] = append(byFamily[spec.Family], fmt.Sprintf("  %-26s %-14s %s", termtext.Line(name), termtext.Line(s.Algorithm), desc))
	}
	for i, f := range []algos.Family{algos.Detector, algos.Election, algos.Mutex} {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s:\n%s\n", ui.Family(string(f)), strings.Join(byFamily[f], "\n"))
	}
	return nil
}

// notes lists the presets that reproduce a worked example of the course notes,
// under the section they come from (notes 003, "Algoritmo do YoYo"), sections in
// the order of the notes' files, then of their titles.
func (presetsListCmd) notes() error {
	type entry struct{ file, titles, line string }
	var entries []entry
	for _, name := range presets.Names() {
		s, err := presets.Load(name)
		if err != nil {
			return err
		}
		if file, titles, detail, ok := s.Section(); ok {
			line := strings.TrimRight(fmt.Sprintf("  %-26s %s", termtext.Line(name), termtext.Line(ui.Phrase(detail))), " ")
			entries = append(entries, entry{file, `"` + strings.Join(titles, `", "`) + `"`, line})
		}
	}
	slices.SortStableFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.titles, b.titles))
	})
	for i, e := range entries {
		if i == 0 || e.file != entries[i-1].file || e.titles != entries[i-1].titles {
			fmt.Fprintln(stdout, ui.F("presets.section", e.file, termtext.Line(e.titles)))
		}
		fmt.Fprintln(stdout, e.line)
	}
	return nil
}

type algosCmd struct{}

// Run lists every algorithm, its family, description, source and parameters. The
// family column is as wide as the longest family name in the reader's language
// ("exclusão mútua") and two spaces, so that no family runs into its description.
func (algosCmd) Run() error {
	width := 0
	for _, f := range []algos.Family{algos.Detector, algos.Election, algos.Mutex} {
		width = max(width, utf8.RuneCountInString(ui.Family(string(f)))+1)
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-utf8.RuneCountInString(s)) }
	indent := strings.Repeat(" ", 15) + pad("")
	for _, s := range algos.All() {
		// A student's module registers algorithms too: their texts go through the
		// sanitiser, as a file's do.
		fmt.Fprintf(stdout, "%-14s %s %s\n", termtext.Line(s.Name), pad(ui.Family(string(s.Family))), termtext.Line(ui.Algo(s.Name, s.Description)))
		msgs := termtext.Line(strings.Join(s.Messages, ", "))
		if msgs == "" {
			msgs = ui.T("algos.nomessages")
		}
		fmt.Fprintf(stdout, "%s %s\n", indent, ui.F("algos.source", termtext.Line(ui.Phrase(s.Source)), msgs))
		for _, p := range s.Params {
			doc := termtext.Line(ui.Phrase(p.Doc))
			if lo, hi, ok := p.Bounds(); ok {
				r := ui.F("algos.range", lo, hi)
				if hi == "" {
					r = ui.F("algos.atleast", lo)
				}
				if p.Unit != "" {
					r += " " + ui.Phrase(p.Unit)
				}
				doc += " (" + r + ")"
			}
			fmt.Fprintf(stdout, "%s   %s = %q: %s\n", indent, termtext.Line(p.Name), p.Default, doc)
		}
	}
	return nil
}
