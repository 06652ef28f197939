package lang_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/presets"
)

// Every registered algorithm has its description in every language, and no
// translated description names an algorithm or preset that does not exist.
func TestDescriptions(t *testing.T) {
	known := map[string]bool{}
	for _, s := range algos.All() {
		known["algo:"+s.Name] = true
		for _, l := range lang.All[1:] {
			if got := l.Algo(s.Name, s.Description); got == s.Description {
				t.Errorf("%s: algorithm %s has no description: add \"algo:%s\" to lang/desc.go", l, s.Name, s.Name)
			}
		}
	}
	for _, name := range presets.Names() {
		sc, err := presets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		known[lang.PresetKey(name, sc.Description)] = true
		for _, st := range sc.Script {
			if rest, ok := strings.CutPrefix(st.Do, "marker "); ok {
				if text, err := strconv.Unquote(strings.TrimSpace(rest)); err == nil {
					known["marker:"+text] = true
				}
			}
		}
	}
	for _, l := range lang.All[1:] {
		for _, k := range lang.DescriptionKeys(l) {
			if !known[k] {
				t.Errorf("%s: %q in lang/desc.go names no registered algorithm, embedded preset (with that English description) or marker", l, k)
			}
		}
	}
	if got := lang.En.Algo("bully", "english"); got != "english" {
		t.Errorf("en description = %q, want the algorithm's own", got)
	}
	bully, err := presets.Load("bully")
	if err != nil {
		t.Fatal(err)
	}
	if got := lang.Pt.Preset("bully", bully.Description); !strings.Contains(got, "valentão") {
		t.Errorf("pt bully preset = %q", got)
	}
	if got := lang.Pt.Preset("bully", "a file of mine named bully"); got != "a file of mine named bully" {
		t.Errorf("a scenario sharing only the name shows %q, want its own text", got)
	}
	if got := lang.Pt.Algo("bully", "x"); !strings.Contains(got, "valentão") {
		t.Errorf("pt bully = %q, want the notes' term valentão", got)
	}
}
