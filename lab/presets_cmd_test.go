package lab

import (
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
	var listed []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.Contains(line, "notes") {
			t.Errorf("presets --notes: %q names no section of the notes", line)
		}
		listed = append(listed, strings.Fields(line)[0])
	}
	if strings.Join(listed, " ") != strings.Join(withSource, " ") || len(listed) < 10 {
		t.Errorf("presets --notes lists %v, want %v", listed, withSource)
	}
}
