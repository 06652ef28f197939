package lang

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// glossary is one term per concept, the course notes' own (notes 000, 001, 003 for
// Brazilian Portuguese; 004 for Spanish), with the words a catalog must not use for
// that concept. A text quoted from the notes ("Permissão de Acesso") is the notes'
// and is not held to it.
var glossary = []struct {
	lang    Lang
	concept string
	term    string // the one word, as it appears at least once in the catalogs
	wrong   string // a regular expression of the other words, matched lower-case
}{
	{Pt, "sink (Yo-Yo)", "vertedouro", `sumidouro|sorvedouro`},
	{Pt, "grant", "autoriza", `concess[ãõ]|permiss[ãõ]`},
	{Pt, "monitoring", "monitoramento", `monitoração`},
	{Pt, "critical section", "região crítica", `se[cç]?ção crítica`},
	{Pt, "a monitored process (peer)", "processo monitorado", `\bpar\b`},
	{Pt, "grid", "grade", `grelha`},
	{Pt, "heal a partition", "reparar", `\bcurar?\b|\bsanar\b`},
	{Pt, "dropped message (a whole label, or a glyph's)", "descartada", `^perdid[ao]s$|✗ perdid[ao]s?\b`},
	{Pt, "share (Brazilian)", "compartilh", `\bpartilh`},
	{Pt, "meanwhile (Brazilian)", "enquanto isso", `entretanto`},
	{Pt, "waiting (Brazilian)", "aguardando", `à espera`},
	{Pt, "in progress (Brazilian)", "em andamento", `em curso`},
	{Pt, "stop (a help text's verb; \"Para\" reads as \"for\")", "interromp", `^para (de|após|a execução)\b|: para com\b`},
	{Pt, "pronoun before the verb (Brazilian)", "se elege", `\b\p{L}+-(se|lo|la|los|las|no|na|nos|nas)\b|[\p{L}\p{N},] \p{L}+-(o|a|os|as)\b`},
	{Es, "grant", "autoriza", `concesi[oó]n|\bpermisos?\b`},
	{Es, "critical section", "sección crítica", `región crítica`},
	{Es, "a monitored process (peer)", "proceso vigilado", `\bpar\b`},
	{Es, "grid", "cuadrícula", `rejilla`},
	{Es, "heal a partition", "reparar", `\bsanar\b|\bcurar\b`},
	{Es, "dropped message (a whole label, or a glyph's)", "descartado", `^perdid[ao]s$|✗ perdid[ao]s?\b`},
	{Es, "stop (a help text's verb; \"Para\" reads as \"for\")", "detiene", `^para (tras|de)\b`},
	{Es, "join (imperative; \"una\" reads as an article)", "combine", `\buna las\b`},
	{Es, "elects itself", "se autoproclama", `\bse elige\b`},
}

// quotedNotes are the notes' own words inside a text: between \" \" or “ ”.
var quotedNotes = regexp.MustCompile(`"[^"]*"|“[^”]*”`)

// texts lists every text of l the lab shows, each with where it comes from.
func texts(l Lang) map[string]string {
	out := map[string]string{}
	for k, v := range catalogs[l] {
		out["catalog "+k] = v
	}
	for k, v := range phrases[l] {
		out["phrase "+k] = v
	}
	for k, v := range descriptions[l] {
		out["description "+k] = v
	}
	return out
}

// TestGlossary fails when a catalog uses, for a concept of the glossary, another
// word than the glossary's, and when a glossary term appears nowhere (a glossary
// that no longer describes the catalogs).
func TestGlossary(t *testing.T) {
	for _, g := range glossary {
		// \b in Go is ASCII: "par" would end at the á of "parámetro".
		wrong := regexp.MustCompile(strings.ReplaceAll(g.wrong, `\b`, `(?:^|$|[^\p{L}\p{N}_])`))
		used := false
		var bad []string
		for where, text := range texts(g.lang) {
			low := strings.ToLower(quotedNotes.ReplaceAllString(text, `""`))
			if strings.Contains(strings.ToLower(text), g.term) {
				used = true
			}
			if m := wrong.FindString(low); m != "" {
				bad = append(bad, where+": "+m)
			}
		}
		sort.Strings(bad)
		for _, b := range bad {
			t.Errorf("%s, %s: the glossary says %q, found %s", g.lang, g.concept, g.term, b)
		}
		if !used {
			t.Errorf("%s, %s: the glossary's %q is used nowhere", g.lang, g.concept, g.term)
		}
	}
	if !slices.ContainsFunc(glossary, func(g struct {
		lang    Lang
		concept string
		term    string
		wrong   string
	}) bool {
		return g.term == "vertedouro"
	}) {
		t.Error("the glossary lost the notes' vertedouro")
	}
}
