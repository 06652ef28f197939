package lab

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/internal/race"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
)

// TestPresetsShowRoundTrips: what `presets show NAME` prints, in every language,
// saved and run as a scenario file, makes the preset's own trace: the event count
// and hash that session/testdata/preset-hashes.txt pins for it. Under the race
// detector (minutes for every preset) the shown file must resolve to the preset's
// own configuration, and three presets are run; .ci/run's plain pass runs them all.
func TestPresetsShowRoundTrips(t *testing.T) {
	pinned, err := os.ReadFile("../session/testdata/preset-hashes.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(pinned)), "\n") {
		label, rest, _ := strings.Cut(line, " ")
		want[label] = rest
	}
	dir := t.TempDir()
	defer func(l lang.Lang) { ui = l }(ui)
	for _, name := range presets.Names() {
		data, err := presets.Raw(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := presets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []lang.Lang{lang.En, lang.Pt, lang.Es} {
			ui = l
			var shown bytes.Buffer
			if err := showPreset(&shown, name, s.Algorithm, data); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(shown.String(), "# "+name+": ") || uncommented(shown.String()) != uncommented(string(data)) {
				t.Fatalf("%s (%s): the shown file does not start with its comment or lacks the preset's text", name, l)
			}
			if l != lang.En && !strings.Contains(shown.String(), "clusterlab presets show "+name+" > ") {
				t.Errorf("%s (%s): no command to save it", name, l)
			}
			file := filepath.Join(dir, fmt.Sprintf("%s-%s.toml", name, l))
			if err := os.WriteFile(file, shown.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if l != lang.En {
				// The comments differ by language, the scenario does not.
				a, err1 := presets.LoadFile(file)
				if err1 != nil || a.Name != s.Name || a.Algorithm != s.Algorithm {
					t.Errorf("%s (%s): reads back as %v (%v)", name, l, a, err1)
				}
				continue
			}
			_, cfg, err := session.Open(session.Source{File: file})
			if err != nil {
				t.Fatalf("%s: the shown file does not read: %v", name, err)
			}
			_, own, err := session.Open(session.Source{Preset: name})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cfg.Scenario, own.Scenario) {
				t.Errorf("%s: the shown file resolves to another scenario than the preset's", name)
			}
			if race.Enabled && !slices.Contains([]string{"bully-split-brain", "ricart", "yoyo-bridge"}, name) {
				continue
			}
			h := trace.NewHasher()
			if _, err := session.Run(cfg, 0, h); err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%d %s", h.Count(), h.Sum()); got != want[name] {
				t.Errorf("%s: the shown file, run, gives %s; the preset's pinned trace is %s", name, got, want[name])
			}
		}
	}
}

// uncommented is a TOML text without its comment lines and blank lines.
func uncommented(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
