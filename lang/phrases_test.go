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
	var texts []string
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
		texts = append(texts, sc.Source)
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
	if got := lang.Pt.Phrase("3N−1 (one starter, the maximum's successor): the ELECTION part"); got != "3N−1 (um iniciador, o sucessor do máximo): a parte de ELECTION" {
		t.Errorf("pt ELECTION part = %q", got)
	}
	if got := lang.En.Phrase("heartbeat period"); got != "heartbeat period" {
		t.Errorf("en = %q", got)
	}
	if got := lang.Es.Phrase("a text nobody translated"); got != "a text nobody translated" {
		t.Errorf("an unknown text shows %q, want its English", got)
	}
}
