// Package lang holds the lab's message catalogs (English, Portuguese, Spanish) and
// picks the language a run speaks: the --lang flag, then CLUSTERLAB_LANG, then the
// locale (LC_ALL, LC_MESSAGES, LANG), matched with golang.org/x/text/language.
//
// Only what a person reads is translated. Message type names (ELECTION, …), trace
// and export contents, JSON keys and hashes are the same in every language, so a
// recording made in one language verifies and replays in another.
//
// The terms are the course notes' own (/work/shared/seeds): líder, suspeito,
// eleição, região crítica, mandato, encarnação, valentão (pt); líder, sospechoso,
// elección, sección crítica (es).
package lang

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"

	"golang.org/x/text/language"
)

// Lang is a language the lab speaks. The zero value is English.
type Lang string

// The languages with a catalog.
const (
	En Lang = "en"
	Pt Lang = "pt"
	Es Lang = "es"
)

// All lists the languages with a catalog, English first.
var All = []Lang{En, Pt, Es}

// catalogs maps each language to its catalog: key → text. Each language's texts
// live in its own file (en.go, pt.go, es.go).
var catalogs = map[Lang]map[string]string{En: en, Pt: pt, Es: es}

// descriptions maps each language but English to the translated descriptions of
// algorithms ("algo:NAME") and presets ("preset:NAME"); English ones live with the
// algorithm or the scenario.
var descriptions = map[Lang]map[string]string{Pt: ptDesc, Es: esDesc}

var supported = []language.Tag{language.English, language.Portuguese, language.Spanish}

var matcher = language.NewMatcher(supported)

// Parse matches a language or locale name ("pt", "pt-BR", "pt_PT.UTF-8", "es_ES",
// "en-GB") to a language with a catalog. It fails on a name it cannot read or one
// matching no catalog.
func Parse(s string) (Lang, error) {
	name := localeName(s)
	tag, err := language.Parse(name)
	if err != nil || name == "" {
		return En, fmt.Errorf("found %q, expected pt, es or en (or a locale such as pt_BR.UTF-8)", s)
	}
	_, i, conf := matcher.Match(tag)
	if conf == language.No {
		return En, fmt.Errorf("found %q, expected pt, es or en: the lab has no catalog for it", s)
	}
	return All[i], nil
}

// localeName turns a POSIX locale name (pt_BR.UTF-8@euro) into a BCP 47 one (pt-BR).
func localeName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	return strings.ReplaceAll(s, "_", "-")
}

// FromEnv picks the language when no --lang flag is given: CLUSTERLAB_LANG, then
// LC_ALL, LC_MESSAGES and LANG, the first one set. A CLUSTERLAB_LANG the lab cannot
// match is an error (it was set for the lab); a locale it cannot match, or the C
// and POSIX locales, mean English, as for any program without that translation.
func FromEnv(getenv func(string) string) (Lang, error) {
	if v := getenv("CLUSTERLAB_LANG"); v != "" {
		l, err := Parse(v)
		if err != nil {
			return En, fmt.Errorf("CLUSTERLAB_LANG: %w", err)
		}
		return l, nil
	}
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(name)
		if v == "" {
			continue
		}
		if l, err := Parse(v); err == nil {
			return l, nil
		}
		return En, nil // the first locale variable set decides, as in POSIX
	}
	return En, nil
}

// Select picks the language: the flag when given, else FromEnv.
func Select(flag string, getenv func(string) string) (Lang, error) {
	if flag != "" {
		l, err := Parse(flag)
		if err != nil {
			return En, fmt.Errorf("--lang: %w", err)
		}
		return l, nil
	}
	return FromEnv(getenv)
}

// T returns the text for key in l, falling back to English, then to the key itself
// (which the catalog test forbids for any key the code uses).
func (l Lang) T(key string) string {
	if s, ok := catalogs[l][key]; ok {
		return s
	}
	if s, ok := en[key]; ok {
		return s
	}
	return key
}

// F formats the text for key with args, as fmt.Sprintf.
func (l Lang) F(key string, args ...any) string {
	return fmt.Sprintf(l.T(key), args...)
}

// Algo returns algorithm name's description in l, or english when l has none.
func (l Lang) Algo(name, english string) string {
	return l.desc("algo:"+name, english)
}

// Preset returns preset name's description in l, or english when l has none.
func (l Lang) Preset(name, english string) string {
	return l.desc(PresetKey(name, english), english)
}

// PresetKey is the catalog key of preset name's description english.
func PresetKey(name, english string) string {
	h := fnv.New32a()
	h.Write([]byte(strings.Join(strings.Fields(english), " ")))
	return fmt.Sprintf("preset:%s#%08x", name, h.Sum32())
}

// Marker returns a scenario's story line (a marker's text) in l, or text when l
// has none. Only the screen changes: the recording keeps the scenario's own text.
func (l Lang) Marker(text string) string {
	return l.desc("marker:"+text, text)
}

func (l Lang) desc(key, english string) string {
	if s, ok := descriptions[l][key]; ok {
		return s
	}
	return english
}

// String returns the language's code.
func (l Lang) String() string {
	if l == "" {
		return string(En)
	}
	return string(l)
}

// Word translates a word an algorithm reports at run time (a role such as leader,
// a critical-section state such as held); a word the catalogs do not know is shown
// as it is.
func (l Lang) Word(s string) string {
	if _, ok := en["word."+s]; ok {
		return l.T("word." + s)
	}
	return s
}

// Latency is a latency as netsim writes it ("constant 10ms", "uniform 5ms 20ms")
// with its distribution named in l ("constante 10ms").
func (l Lang) Latency(s string) string {
	dist, rest, _ := strings.Cut(s, " ")
	return strings.TrimSpace(l.Word(dist) + " " + rest)
}

// Count is key's text for n things: key+".one" when n is 1, key+".many" with n
// otherwise ("1 sample", "3 samples").
func (l Lang) Count(key string, n int) string {
	if n == 1 {
		return l.T(key + ".one")
	}
	return l.F(key+".many", n)
}

// Or returns the text for key in l when the English catalog has key, and fallback
// otherwise: for names known at run time (alert kinds, roles).
func (l Lang) Or(key, fallback string) string {
	if _, ok := en[key]; ok {
		return l.T(key)
	}
	return fallback
}

// Family translates an algorithm family's name (detector, election, mutex).
func (l Lang) Family(f string) string {
	if _, ok := en["family."+f]; ok {
		return l.T("family." + f)
	}
	return f
}

// DescriptionKeys lists l's translated descriptions ("algo:NAME", "preset:NAME").
func DescriptionKeys(l Lang) []string {
	keys := make([]string, 0, len(descriptions[l]))
	for k := range descriptions[l] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Keys lists the English catalog's keys that begin with prefix, sorted.
func Keys(prefix string) []string {
	var keys []string
	for k := range en {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
