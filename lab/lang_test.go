package lab

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/session"
)

// TestLanguagesShareTraces: the language changes what people read, never what is
// recorded. A run recorded in Portuguese and the same run recorded in English are
// the same bytes with the same hash; the Portuguese recording verifies and replays
// in English and Spanish; sim --json is the same in every language; the text
// summary is in the language asked for.
func TestLanguagesShareTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	dir, bin := buildBinary(t)
	run := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), append([]string{"LC_ALL=", "LC_MESSAGES=", "LANG=", "CLUSTERLAB_LANG="}, env...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("clusterlab %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
		}
		return out.String()
	}
	const preset = "notes-bully-7"
	pt := filepath.Join(dir, "pt.jsonl")
	en := filepath.Join(dir, "en.jsonl")
	outPt := run(nil, "--lang", "pt", "sim", "--preset", preset, "--record", pt)
	outEn := run([]string{"LANG=es_ES.UTF-8"}, "--lang", "en", "sim", "--preset", preset, "--record", en)
	outEs := run([]string{"LANG=es_ES.UTF-8"}, "sim", "--preset", preset)
	for _, c := range []struct{ out, want string }{
		{outPt, "cenário " + preset}, {outPt, "eventos gravados"}, {outPt, "líder"},
		{outEn, "scenario " + preset}, {outEn, "recorded"},
		{outEs, "escenario " + preset}, {outEs, "líder"},
	} {
		if !strings.Contains(c.out, c.want) {
			t.Errorf("missing %q in\n%s", c.want, c.out)
		}
	}
	a, err := os.ReadFile(pt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(en)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("the recording made in pt differs from the one made in en")
	}
	hash := regexp.MustCompile(`hash ([0-9a-f]{16,})`)
	hp, he := hash.FindStringSubmatch(outPt), hash.FindStringSubmatch(outEn)
	if hp == nil || he == nil || hp[1] != he[1] {
		t.Errorf("hashes: pt %v, en %v", hp, he)
	}
	// The command line's help follows --lang, or CLUSTERLAB_LANG without it.
	for _, c := range []struct {
		env  []string
		args []string
		want []string
	}{
		{nil, []string{"--lang", "pt", "--help"}, []string{"Uso: clusterlab", "Opções:", "Comandos:", "Roda um cenário sem painel"}},
		{[]string{"CLUSTERLAB_LANG=pt"}, []string{"sim", "--help"}, []string{"Uso: clusterlab sim", "Grava a execução neste arquivo de trace", "Mostra a ajuda do contexto."}},
		{[]string{"LANG=es_ES.UTF-8"}, []string{"export", "--help"}, []string{"Uso: clusterlab export", "Argumentos:", "Archivo de traza a exportar."}},
		{[]string{"CLUSTERLAB_LANG=pt"}, []string{"--lang=en", "sim", "--help"}, []string{"Usage: clusterlab sim", "Flags:", "Record the run to this trace file"}},
	} {
		if out := run(c.env, c.args...); !containsAll(out, c.want) {
			t.Errorf("clusterlab %s with %v: want %q in\n%s", strings.Join(c.args, " "), c.env, c.want, out)
		}
	}
	// The Portuguese recording verifies in English and in Spanish.
	for _, l := range []string{"en", "es"} {
		run(nil, "--lang", l, "verify", pt)
	}
	// sim --json does not depend on the language.
	if j1, j2 := run(nil, "--lang", "pt", "sim", "--preset", preset, "--json"), run(nil, "--lang", "es", "sim", "--preset", preset, "--json"); j1 != j2 {
		t.Errorf("sim --json differs between pt and es")
	}
	// Replaying both recordings folds to the same final state.
	end := func(path string) string {
		r, err := session.OpenReplay(path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		r.SeekTime(r.End())
		var buf strings.Builder
		for _, n := range r.Snapshot().Nodes {
			buf.WriteString(n.ID.String() + " " + n.Status.Role + " " + n.Status.Leader.String() + "\n")
		}
		return buf.String()
	}
	if sp, se := end(pt), end(en); sp != se || sp == "" {
		t.Errorf("replay of the pt recording ends in\n%s\nof the en one in\n%s", sp, se)
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
