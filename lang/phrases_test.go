package lang_test

import (
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
)

// Every text `algos`, `presets --notes` and the md report show from the registry
// and the presets has its Portuguese and Spanish: each algorithm's source, each
// parameter's doc and unit, each preset's notes section, and the formula and source
// of every textbook figure a preset's run carries.
func TestPhrases(t *testing.T) {
	texts := append([]string(nil), algos.TheoryWords...)
	for _, s := range algos.All() {
		texts = append(texts, s.Source)
		for _, p := range s.Params {
			texts = append(texts, p.Doc, p.Unit)
		}
	}
	for _, name := range presets.Names() {
		sc, err := presets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, detail, ok := sc.Section(); ok {
			texts = append(texts, detail) // presets --notes shows it under its section
		} else {
			texts = append(texts, sc.Source)
		}
		_, cfg, err := session.Open(session.Source{Preset: name})
		if err != nil {
			t.Fatal(err)
		}
		figs, err := sc.Theory(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range figs {
			texts = append(texts, f.Label, f.Source)
		}
	}
	for _, l := range lang.All[1:] {
		for _, s := range texts {
			if !l.HasPhrase(s) {
				t.Errorf("%s: no translation of %q: add it to lang/phrases.go", l, s)
			}
		}
	}
	if got := lang.Pt.Phrase("ELECTION messages (one starter, the maximum's successor)"); got != "mensagens ELECTION (um iniciador, o sucessor do máximo)" {
		t.Errorf("pt label of what and when = %q", got)
	}
	if got := lang.Es.Phrase("ELECTION messages (a case nobody translated)"); got != "ELECTION messages (a case nobody translated)" {
		t.Errorf("a label whose case has no translation shows %q, want its English", got)
	}
	if got := lang.En.Phrase("heartbeat period"); got != "heartbeat period" {
		t.Errorf("en = %q", got)
	}
	if got := lang.Es.Phrase("a text nobody translated"); got != "a text nobody translated" {
		t.Errorf("an unknown text shows %q, want its English", got)
	}
}
