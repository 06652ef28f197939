package lang_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clusterlab/clusterlab/lang"
)

// Kong's parse errors read in every language, without Go's terms (a Go type, stat,
// EOL) even in English; the lab's own errors pass unchanged.
func TestParseError(t *testing.T) {
	for _, c := range []struct {
		l       lang.Lang
		in, out string
	}{
		{lang.Pt, `unknown flag --pres, did you mean "--preset"?`, `opção desconhecida --pres; você quis dizer "--preset"?`},
		{lang.Es, `unexpected argument simm`, `argumento inesperado simm`},
		{lang.Pt, `missing flags: --m=INT, --n=INT, --p=FLOAT-64`, `faltam opções: --m=INTEIRO, --n=INTEIRO, --p=NÚMERO`},
		{lang.Es, `expected "<file>"`, `se esperaba "<archivo>"`},
		{lang.En, `--p: expected a float but got "x" (string)`, `--p: found "x", expected a number`},
		{lang.En, `--until: expected duration but got "xx": time: invalid duration "xx"`, `--until: found "xx", expected a duration such as 2s or 1500ms`},
		{lang.Pt, `--view must be one of "nodes","topology" but got "x"`, `--view: encontrado "x", esperado um de "nodes","topology"`},
		{lang.Es, `<file>: stat /x/y.jsonl: no such file or directory`, `/x/y.jsonl no existe`},
		{lang.En, `<dir>: stat /x/hw: no such file or directory`, `/x/hw does not exist`},
		{lang.Pt, `--file: stat /x/y.toml: no such file or directory`, `--file: /x/y.toml não existe`},
		{lang.Pt, `--until: found -1s, expected 1µs to 24h`, `--until: found -1s, expected 1µs to 24h`},
	} {
		if got := c.l.ParseError(c.in); got != c.out {
			t.Errorf("%s: %q\n got %q\nwant %q", c.l, c.in, got, c.out)
		}
	}
}

// A placeholder replaced in a column of help keeps the column where kong put it.
func TestPlaceholders(t *testing.T) {
	in := "      --n=INT         Coordinators.\n      --p=FLOAT-64    Probability.\n"
	got := lang.Es.Placeholders(in)
	lines := strings.Split(got, "\n")
	col := func(line, word string) int { return utf8.RuneCountInString(line[:strings.Index(line, word)]) }
	if a, b := col(lines[0], "Coordinators"), col(lines[1], "Probability"); a != b || !strings.Contains(got, "--n=ENTERO") {
		t.Errorf("columns moved or placeholder left:\n%s", got)
	}
	// A placeholder inside a flag's value (AXIS in --cell=AXIS=V,…): the gap
	// after the whole value takes up the difference.
	in2 := "      --cell=AXIS=V,…      Record a run.\n      --seed=S             Seed.\n  <family>    The family.\n  <name>      The name.\n"
	got2 := strings.Split(lang.Pt.Placeholders(in2), "\n")
	if a, b := col(got2[0], "Record"), col(got2[1], "Seed"); a != b || !strings.Contains(got2[0], "--cell=EIXO=V,…") {
		t.Errorf("columns moved or placeholder left:\n%s", strings.Join(got2, "\n"))
	}
	if a, b := col(got2[2], "The family"), col(got2[3], "The name"); a != b || !strings.Contains(got2[2], "<família>") {
		t.Errorf("columns moved or placeholder left:\n%s", strings.Join(got2, "\n"))
	}
	if lang.En.Placeholders(in) != in {
		t.Errorf("English changed")
	}
}
