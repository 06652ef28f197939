package lab

import (
	"regexp"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/explore"
	"github.com/clusterlab/clusterlab/lang"
)

// TestOneIsSingular: sim says "1 sample" / "1 amostra" / "1 muestra" (one
// synchronisation delay measured in notes-quorum-3-2), and "1 leader" for one
// leader, in every language (review row 13).
func TestOneIsSingular(t *testing.T) {
	for _, c := range []struct{ lang, sample, leader string }{
		{"en", "(1 sample)", "(1 leader in term 2 [n1]"},
		{"pt", "(1 amostra)", "(1 líder no mandato 2 [n1]"},
		{"es", "(1 muestra)", "(1 líder en el mandato 2 [n1]"},
	} {
		out, errs, code := mainOutput(t, "sim", "--lang", c.lang, "--preset", "notes-quorum-3-2")
		if code != 0 || !strings.Contains(out, c.sample) {
			t.Errorf("sim --lang %s notes-quorum-3-2: exit %d %s, no %q in:\n%s", c.lang, code, errs, c.sample, out)
		}
		out, errs, code = mainOutput(t, "sim", "--lang", c.lang, "--preset", "raft-weights")
		if code != 0 || !strings.Contains(out, c.leader) {
			t.Errorf("sim --lang %s raft-weights: exit %d %s, no %q in:\n%s", c.lang, code, errs, c.leader, out)
		}
	}
}

// TestOneActionIsSingular: a finding shrunk to one action, a run that drew one
// burst or one action, and one place a state machine must not be, are said in
// the singular (they read "shrunk from 1 to 1 actions", "in 1 burst(s)", "1
// places do").
func TestOneActionIsSingular(t *testing.T) {
	defer func(l lang.Lang) { ui = l }(ui)
	for _, c := range []struct {
		l                      lang.Lang
		one, many, rule, rule3 string
	}{
		{lang.En, "shrunk from 4 to 1 action", "shrunk from 4 to 2 actions", "1 place does", "3 places do"},
		{lang.Pt, "reduzido de 4 para 1 ação", "reduzido de 4 para 2 ações", "1 lugar faz", "3 lugares fazem"},
		{lang.Es, "reducido de 4 a 1 acción", "reducido de 4 a 2 acciones", "1 lugar hace", "3 lugares hacen"},
	} {
		ui = c.l
		if got := findingLine("finding-1", explore.FindingJSON{Kind: "mutex", ActionsFound: 4, Actions: 1}); !strings.HasSuffix(got, c.one) {
			t.Errorf("%s: %q, expected it to end with %q", c.l, got, c.one)
		}
		if got := findingLine("finding-1", explore.FindingJSON{Kind: "mutex", ActionsFound: 4, Actions: 2}); !strings.HasSuffix(got, c.many) {
			t.Errorf("%s: %q, expected it to end with %q", c.l, got, c.many)
		}
		if got := c.l.Count("check.rules.fail", 1); !strings.HasPrefix(got, c.rule) {
			t.Errorf("%s: %q, expected %q", c.l, got, c.rule)
		}
		if got := c.l.Count("check.rules.fail", 3); !strings.HasPrefix(got, c.rule3) {
			t.Errorf("%s: %q, expected %q", c.l, got, c.rule3)
		}
	}
}

// TestSystematicBoundsSaid: systematic mode's bounds are said in the reader's
// language and number: "1 queda", not "1 quedas", and no English word in pt.
func TestSystematicBoundsSaid(t *testing.T) {
	out, errs, code := mainOutput(t, "explore", "--preset", "notes-tokenring-4", "--mode", "systematic", "--lang", "pt", "--out", t.TempDir())
	if want := "todos com no máximo 3 desvios e 1 queda)"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d %s, no %q in:\n%s", code, errs, want, out)
	}
	// Stopped by --time: how far it went, which explore.json says in English
	// ("2 departures").
	out, errs, code = mainOutput(t, "explore", "--preset", "raft-partition", "--mode", "systematic", "--time", "1s", "--lang", "pt", "--out", t.TempDir())
	if code != 0 || !regexp.MustCompile(`, até (1 desvio|\d+ desvios)\)`).MatchString(out) {
		t.Errorf("exit %d %s, no bound in Portuguese in:\n%s", code, errs, out)
	}
	out, errs, code = mainOutput(t, "explore", "--preset", "notes-tokenring-4", "--mode", "systematic", "--delays", "1", "--crashes", "0", "--out", t.TempDir())
	if want := "every schedule with at most 1 delay and 0 crashes)"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d %s, no %q in:\n%s", code, errs, want, out)
	}
}
