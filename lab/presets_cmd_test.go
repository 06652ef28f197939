package lab

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/presets"
)

// TestPresetsByChapter: `clusterlab presets` lists every preset once, under the
// chapter of its algorithm's family, and `--notes` lists exactly the presets that
// name the section of the course notes they reproduce.
func TestPresetsByChapter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	dir, bin := buildBinary(t)
	out, code := runCLI(t, dir, bin, "--lang", "en", "presets")
	if code != 0 {
		t.Fatalf("presets exits %d:\n%s", code, out)
	}
	chapter := ""
	seen := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasSuffix(line, ":") && !strings.HasPrefix(line, " "):
			chapter = strings.TrimSuffix(line, ":")
		case strings.HasPrefix(line, "  "):
			f := strings.Fields(line)
			seen[f[0]] = chapter
		}
	}
	var withSource []string
	for _, name := range presets.Names() {
		s, err := presets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := algos.Lookup(s.Algorithm)
		if got := seen[name]; got != string(spec.Family) {
			t.Errorf("%s is listed under %q, want %q", name, got, spec.Family)
		}
		if s.Source != "" {
			withSource = append(withSource, name)
		}
	}
	if len(seen) != len(presets.Names()) {
		t.Errorf("%d presets listed, want %d", len(seen), len(presets.Names()))
	}
	out, code = runCLI(t, dir, bin, "presets", "--notes")
	if code != 0 {
		t.Fatalf("presets --notes exits %d:\n%s", code, out)
	}
	// Sections are lines of their own (notes 003, "Algoritmo do YoYo"); the
	// presets under each are indented.
	var listed []string
	section := map[string]string{}
	head := ""
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, " ") {
			if !strings.HasPrefix(line, "notes ") || !strings.Contains(line, `"`) {
				t.Errorf("presets --notes: %q is no section of the notes", line)
			}
			head = line
			continue
		}
		name := strings.Fields(line)[0]
		listed = append(listed, name)
		section[name] = head
	}
	slices.Sort(listed)
	if strings.Join(listed, " ") != strings.Join(withSource, " ") || len(listed) < 10 {
		t.Errorf("presets --notes lists %v, want %v", listed, withSource)
	}
	for _, name := range []string{"yoyo-bridge", "yoyo-bridge-cut", "yoyo-bridge-split"} {
		if got := section[name]; got != `notes 003, "Algoritmo do YoYo"` {
			t.Errorf("presets --notes lists %s under %q, want the Yo-Yo section", name, got)
		}
	}
}

// A scenario error is said in the reader's language, what the user wrote kept as
// written; a latency above Δ is warned about at its place.
func TestScenarioErrorsAndWarningsInLanguages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	dir, bin := buildBinary(t)
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("algorithm = \"bully\"\nnodes = 3\n[network]\nloss = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for l, want := range map[string]string{
		"en": "bad.toml:4:8: found loss = 2, expected a probability from 0 to 1",
		"pt": "bad.toml:4:8: encontrado loss = 2, esperado uma probabilidade de 0 a 1",
		"es": "bad.toml:4:8: se encontró loss = 2, se esperaba una probabilidad de 0 a 1",
	} {
		out, code := runCLI(t, dir, bin, "--lang", l, "sim", "--file", "bad.toml")
		if code != 2 || !strings.Contains(out, want) {
			t.Errorf("--lang %s: exit %d, %q; want 2 and %q", l, code, out, want)
		}
	}
	slow := filepath.Join(dir, "slow.toml")
	if err := os.WriteFile(slow, []byte("algorithm = \"bully\"\nnodes = 3\nuntil = \"1s\"\n[network]\ndelta = \"50ms\"\n[[links]]\nfrom = \"n1\"\nto = \"n2\"\nlatency = { dist = \"constant\", mean = \"120ms\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, dir, bin, "--lang", "pt", "sim", "--file", "slow.toml")
	if code != 0 || !strings.Contains(out, "slow.toml:9:11: aviso: links[0].latency pode levar até 120ms, acima de delta = 50ms") || !strings.Contains(out, "⚠ latência acima de Δ = 50ms (n1→n2 até 120ms)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
