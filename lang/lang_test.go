package lang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every catalog holds exactly English's keys, with the same formatting verbs in the
// same order, so that no text is missing in a language and no argument is dropped.
func TestCatalogsComplete(t *testing.T) {
	for _, l := range All[1:] {
		c := catalogs[l]
		for k, v := range en {
			tr, ok := c[k]
			if !ok {
				t.Errorf("%s: key %q missing (en: %q)", l, k, v)
				continue
			}
			if a, b := verbs(v), verbs(tr); !slices.Equal(a, b) {
				t.Errorf("%s: key %q has verbs %v, en has %v", l, k, b, a)
			}
		}
		for k := range c {
			if _, ok := en[k]; !ok {
				t.Errorf("%s: key %q is not in the en catalog", l, k)
			}
		}
	}
}

var verbRE = regexp.MustCompile(`%[-+# 0*]*[0-9]*(\.[0-9]+)?[a-zA-Z%]`)

func verbs(s string) []string { return verbRE.FindAllString(s, -1) }

// Every key the code looks up with a literal (l.T("…"), l.F("…", …)) is in the
// English catalog: a typo would otherwise show the key itself.
func TestCodeKeysExist(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "T" && sel.Sel.Name != "F") {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			key, err := strconv.Unquote(lit.Value)
			if err != nil || !strings.Contains(key, ".") || strings.ContainsAny(key, " %") {
				return true
			}
			n++
			if _, ok := en[key]; !ok {
				t.Errorf("%s: key %q is not in the en catalog", fset.Position(lit.Pos()), key)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Errorf("found only %d lookups in the code: the scan is broken", n)
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Lang{
		"pt": Pt, "pt-BR": Pt, "pt_BR.UTF-8": Pt, "pt_PT": Pt, "pt_PT.UTF-8@euro": Pt,
		"es": Es, "es_ES.UTF-8": Es, "es-419": Es, "es_AR": Es,
		"en": En, "en_US.UTF-8": En, "en-GB": En, "EN": En,
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "fr", "de_DE.UTF-8", "!!", "C", "pt_BR!"} {
		if got, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, got)
		} else if !strings.Contains(err.Error(), "expected pt, es or en") {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}

func TestSelect(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		flag string
		env  func(string) string
		want Lang
		err  string
	}{
		{"", env(), En, ""},
		{"pt", env("CLUSTERLAB_LANG", "es", "LANG", "en_US.UTF-8"), Pt, ""},
		{"", env("CLUSTERLAB_LANG", "es", "LC_ALL", "pt_BR.UTF-8"), Es, ""},
		{"", env("LC_ALL", "pt_PT.UTF-8", "LANG", "es_ES.UTF-8"), Pt, ""},
		{"", env("LC_MESSAGES", "es_ES.UTF-8", "LANG", "pt_BR.UTF-8"), Es, ""},
		{"", env("LANG", "es_ES.UTF-8"), Es, ""},
		{"", env("LANG", "pt_BR.UTF-8"), Pt, ""},
		{"", env("LC_ALL", "C", "LANG", "pt_BR.UTF-8"), En, ""},
		{"", env("LANG", "fr_FR.UTF-8"), En, ""},
		{"fr", env(), En, "--lang: found \"fr\""},
		{"", env("CLUSTERLAB_LANG", "xx!"), En, "CLUSTERLAB_LANG: found \"xx!\""},
	}
	for _, c := range cases {
		got, err := Select(c.flag, c.env)
		switch {
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("Select(%q) error %v, want %q…", c.flag, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("Select(%q): %v", c.flag, err)
		case got != c.want:
			t.Errorf("Select(%q) = %v, want %v", c.flag, got, c.want)
		}
	}
}

func TestLookups(t *testing.T) {
	if got := Pt.T("word.leader"); got != "líder" {
		t.Errorf("pt leader = %q", got)
	}
	if got := Lang("").T("sim.pass"); got != "pass" {
		t.Errorf("zero Lang = %q, want English", got)
	}
	if got := Es.Word("leader"); got != "líder" {
		t.Errorf("es Word(leader) = %q", got)
	}
	if got := Pt.Word("empossado"); got != "empossado" {
		t.Errorf("unknown word = %q, want it unchanged", got)
	}
	if got := Es.Family("mutex"); got != "exclusión mutua" {
		t.Errorf("es mutex = %q", got)
	}
	if got := Pt.F("sim.alerts", 3); got != "alertas: 3" {
		t.Errorf("pt alerts = %q", got)
	}
}
