package lang_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
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
		for _, l := range lang.All[1:] {
			if got := l.Preset(name, sc.Description); got == sc.Description {
				t.Errorf("%s: preset %s has no description: add %q to lang/desc.go", l, name, lang.PresetKey(name, sc.Description))
			}
		}
		for _, st := range sc.Script {
			if rest, ok := strings.CutPrefix(st.Do, "marker "); ok {
				if text, err := strconv.Unquote(strings.TrimSpace(rest)); err == nil {
					known["marker:"+text] = true
					for _, l := range lang.All[1:] {
						if l.Marker(text) == text {
							t.Errorf("%s: preset %s's story line %q has no translation: add \"marker:%s\" to lang/desc.go", l, name, text, text)
						}
					}
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

// Every alert kind the monitors raise has a name in the en catalog, so in pt and es
// too (TestCatalogsComplete holds them to English's keys).
func TestAlertKinds(t *testing.T) {
	for _, k := range netsim.AlertKinds {
		if lang.En.Or("alert."+k, "") == "" {
			t.Errorf("alert kind %s has no name: add \"alert.%s\" to lang/en.go, pt.go and es.go", k, k)
		}
	}
}

// What the monitors write into a trace (alerts, how they ended, what expectations
// observed) stays English in the trace and is translated on screen: every such text
// of every preset matches one of the catalogs' templates, so none is left English
// in pt or es. The expectation "agree" observes only arrows (n1→n5 …).
func TestMonitorTexts(t *testing.T) {
	seen := 0
	for _, name := range presets.Names() {
		_, cfg, err := session.Open(session.Source{Preset: name})
		if err != nil {
			t.Fatal(err)
		}
		sum, err := session.Run(cfg, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, a := range sum.Alerts {
			texts = append(texts, a.Text)
			if a.Cleared != "" {
				texts = append(texts, a.Cleared)
			}
		}
		for _, r := range sum.Expectations {
			if !strings.HasPrefix(r.Text, "agree") && r.Got != "" {
				texts = append(texts, r.Got)
			}
		}
		for _, s := range texts {
			seen++
			for _, l := range lang.All[1:] {
				if got := l.Text(s); got == s {
					t.Errorf("%s: %s: %q matches no template in lang/en.go (mon.*, obs.*)", l, name, s)
				}
			}
			// English shows the trace's text, but in the singular for a count of 1
			// and without "-" for no leader.
			if got := lang.En.Text(s); got != s && !strings.HasPrefix(s, "1 ") && !strings.Contains(s, " - ") {
				t.Errorf("en: %q became %q", s, got)
			}
		}
	}
	if seen < 100 {
		t.Errorf("only %d monitor texts in all the presets: the scan is broken", seen)
	}
	for in, want := range map[string]string{
		"1 leaders [n5]":                                "1 líder [n5]",
		"2 leaders [n1 n2]":                             "2 líderes [n1 n2]",
		"1 split-brain alerts":                          "1 alerta de split brain",
		"n1 believes - leads":                           "n1 não conhece líder",
		"split brain over after 4.44 s: one leader n5":  "split brain terminou após 4.44 s: um só líder, n5",
		"n4 suspects n5, which is up (before GST)":      "n4 suspeita de n5, que está ativo (antes do GST)",
		"n4 suspects [n1 n5]":                           "n4 suspeita de [n1 n5]",
		"2 split-brain alerts":                          "2 alertas de split brain",
		"n3 is held":                                    "n3: ocupada",
		"n1, n2, n3, n4, n5, n6, n7, n8 and 3,992 more": "n1, n2, n3, n4, n5, n6, n7, n8 e mais 3,992",
		"something no monitor writes":                   "something no monitor writes",
	} {
		if got := lang.Pt.Text(in); got != want {
			t.Errorf("pt %q = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"1 leaders [n5]":       "1 leader [n5]",
		"2 leaders [n1 n2]":    "2 leaders [n1 n2]",
		"1 mutex alerts":       "1 mutex alert",
		"n1 believes - leads":  "n1 knows no leader",
		"n1 believes n2 leads": "n1 believes n2 leads",
	} {
		if got := lang.En.Text(in); got != want {
			t.Errorf("en %q = %q, want %q", in, got, want)
		}
	}
}
