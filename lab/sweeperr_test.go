package lab

import (
	"os"
	"strings"
	"testing"
)

// TestSweepErrorKeys: in pt and es, the sweep's bad-input lines that name the
// user's own keys keep them as typed (an axis list, a cell's unknown parameter),
// and word the rest in the reader's language.
func TestSweepErrorKeys(t *testing.T) {
	t.Chdir(t.TempDir())
	for name, text := range map[string]string{
		"both.toml":  "base = \"ring\"\nfile = \"x.toml\"\n",
		"plotx.toml": "base = \"ring\"\n[axes]\nnodes = [4]\n[[plot]]\nx = \"nodez\"\ny = \"sent.total\"\n",
		"param.toml": "base = \"ring\"\n[axes]\n\"params.foo\" = [1]\n",
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args   []string
		lang   string
		want   string
		absent string
	}{
		{[]string{"sweep", "both.toml"}, "pt", "esperado um deles\n", "them"},
		{[]string{"sweep", "both.toml"}, "es", "se esperaba uno de ellos\n", "them"},
		{[]string{"sweep", "plotx.toml"}, "pt", "esperado um dos eixos: nodes\n", "nós"},
		{[]string{"sweep", "plotx.toml"}, "es", "se esperaba uno de los ejes: nodes\n", "nodos"},
		{[]string{"sweep", "param.toml", "--out", "p"}, "pt", `na célula params.foo=1: encontrado o parâmetro desconhecido "foo"`, "unknown"},
		{[]string{"sweep", "param.toml", "--out", "p"}, "es", `en la celda params.foo=1: se encontró el parámetro desconocido "foo"`, "unknown"},
	} {
		_, errs, code := mainOutput(t, append(append([]string(nil), c.args...), "--lang", c.lang)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(errs, c.absent) {
			t.Errorf("--lang %s %v: exit %d, %q; want 2, %q and no %q", c.lang, c.args, code, errs, c.want, c.absent)
		}
	}
}
