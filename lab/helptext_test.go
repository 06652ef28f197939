package lab

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/clusterlab/clusterlab/lang"
)

// placeholderToken is a placeholder kong writes in a help: <file>, =DIR.
var placeholderToken = regexp.MustCompile(`<[a-z-]+>|=[A-Z][A-Z0-9-]*\b`)

// helpText is what `clusterlab ARGS --help` prints in l, from the real command
// line (a copy of cli).
func helpText(t *testing.T, l lang.Lang, args ...string) string {
	t.Helper()
	var c cmdLine
	var out bytes.Buffer
	type exited struct{}
	p, err := newParser(&c, l, kong.Writers(&out, &out), kong.Exit(func(int) { panic(exited{}) }))
	if err != nil {
		t.Fatalf("%s: %v (a help tag names a variable the catalog lacks?)", l, err)
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(exited); !ok {
					panic(r)
				}
			}
		}()
		if _, err := p.Parse(append(args, "--help")); err != nil {
			t.Fatalf("%s %v: %v", l, args, err)
		}
	}()
	return out.String()
}

// Every command's --help speaks the language chosen: in pt and es no help text of
// the English catalog is left, and kong's own words (Usage:, Flags:, …) are
// translated; in English the text is the catalog's English.
func TestHelpLanguages(t *testing.T) {
	commands := [][]string{nil, {"run"}, {"replay"}, {"sim"}, {"presets"}, {"algos"}, {"verify"},
		{"export"}, {"sweep"}, {"calc"}, {"sweep", "run"}, {"sweep", "merge"}, {"sweeps"}, {"calc", "pv"},
		{"new"}, {"check"}, {"grade"}, {"explore"}, {"explore", "run"}, {"explore", "merge"}, {"shrink"}, {"diff"},
		{"presets", "show"}, {"presets", "list"}, {"help"}, {"serve"}}
	fold := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	seen := map[string]bool{}
	for _, args := range commands {
		enRaw := helpText(t, lang.En, args...)
		en := fold(enRaw)
		for _, k := range lang.Keys("help.") {
			if strings.Contains(en, fold(lang.En.T(k))) {
				seen[k] = true
			}
		}
		for _, l := range lang.All {
			// The last line names the guide that covers the command.
			raw := enRaw
			if l != lang.En {
				raw = helpText(t, l, args...)
			}
			raw = strings.TrimRight(raw, "\n")
			if last, want := raw[strings.LastIndex(raw, "\n")+1:], guideLine(l, strings.Join(args[:min(len(args), 1)], "")); last != want {
				t.Errorf("%s: clusterlab %s --help ends with %q, want %q", l, strings.Join(args, " "), last, want)
			}
			if l == lang.En {
				continue
			}
			out := fold(raw)
			for _, k := range lang.Keys("help.") {
				if e := fold(lang.En.T(k)); strings.Contains(out, e) {
					t.Errorf("%s: clusterlab %s --help still says %q (%s)", l, strings.Join(args, " "), e, k)
				}
			}
			// kong's placeholders (<file>, --out=DIR, …) in l's words; a letter
			// (=N, <a>), =A-B and =DPI read the same in every language.
			for _, ph := range placeholderToken.FindAllString(en, -1) {
				if name := strings.Trim(ph, "=<>"); len(name) > 1 && name != "A-B" && name != "DPI" && regexp.MustCompile(regexp.QuoteMeta(ph)+`([^\p{L}\p{N}-]|$)`).MatchString(out) {
					t.Errorf("%s: clusterlab %s --help keeps the placeholder %s", l, strings.Join(args, " "), ph)
				}
			}
			if !strings.HasPrefix(out, l.T("help.usage")+" clusterlab") || !strings.Contains(out, l.T("help.flags")) {
				t.Errorf("%s: clusterlab %s --help does not start in %s:\n%s", l, strings.Join(args, " "), l, out)
			}
		}
	}
	// Every help text of the catalog is shown by some command (the more and
	// morecmd lines are kong's, and usage, flags, … are titles).
	for _, k := range lang.Keys("help.") {
		switch k {
		case "help.more", "help.morecmd", "help.usage", "help.flags", "help.commands", "help.arguments":
			continue
		}
		if !seen[k] {
			t.Errorf("%s (%q) is shown by no command's help", k, lang.En.T(k))
		}
	}
	if got := argLang([]string{"sim", "--lang=pt"}); got != "pt" {
		t.Errorf("argLang(--lang=pt) = %q", got)
	}
	if got := argLang([]string{"--lang", "es", "sim"}); got != "es" {
		t.Errorf("argLang(--lang es) = %q", got)
	}
	if got := argLang([]string{"sim", "--", "--lang", "es"}); got != "" {
		t.Errorf("argLang after -- = %q, want none", got)
	}
}
