package export

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/lang"
)

// TestMarkdownLanguages: the md report of one recording in Portuguese and Spanish
// (goldens), with translated headings and the same data as the English one: the
// same lines count, message types and trace hash.
func TestMarkdownLanguages(t *testing.T) {
	tr := record(t, "omega-crash")
	render := func(l lang.Lang) string {
		o, err := ParseOptions(&tr.Header, Flags{Format: "md"})
		if err != nil {
			t.Fatal(err)
		}
		o.Lang = l
		var b bytes.Buffer
		if err := Write(&b, TraceSource(tr), o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	en := render(lang.En)
	for _, c := range []struct {
		l    lang.Lang
		want []string
	}{
		{lang.Pt, []string{"# Relatório do trabalho: omega-crash", "## Falhas e trocas de líder", "## Latências de detecção", "## Mensagens por tipo e resultado (entregue/descartada)", "| Semente |", "HEARTBEAT"}},
		{lang.Es, []string{"# Informe del trabajo: omega-crash", "## Fallos y cambios de líder", "## Latencias de detección", "## Mensajes por tipo y resultado (entregado/descartado)", "| Semilla |", "HEARTBEAT"}},
	} {
		t.Run(string(c.l), func(t *testing.T) {
			got := render(c.l)
			for _, w := range append(c.want, tr.Hash) {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q", w)
				}
			}
			if strings.Contains(got, "## Faults") || strings.Contains(got, "Homework report") {
				t.Errorf("English headings left in the %s report", c.l)
			}
			if g, e := strings.Count(got, "\n"), strings.Count(en, "\n"); g != e {
				t.Errorf("%d lines, the English report has %d", g, e)
			}
			checkGolden(t, filepath.Join("testdata", "omega-crash."+string(c.l)+".md.golden"), got)
		})
	}
}
