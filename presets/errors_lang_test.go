package presets

import (
	"regexp"
	"testing"

	"github.com/clusterlab/clusterlab/lang"
)

// englishLeft are the English words an error's frame and phrases are made of; a
// translated error keeps none of them outside what the user wrote (quotes and keys).
var englishLeft = regexp.MustCompile(`\b(found|expected|such as|one of|without|between|another|nodes?|probability|duration|number|integer|time|the end|at least|at most|or|and|with)\b`)

var userParts = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`|\\b[a-z_][a-z_.0-9\\[\\]]* =|\\[[^\\]]*\\]")

// TestErrorsInEveryLanguage: every error a hostile scenario gets reads in Portuguese
// and Spanish with none of the frame's or the phrases' English left, and English
// stays as written.
func TestErrorsInEveryLanguage(t *testing.T) {
	for _, c := range hostile {
		if got := lang.En.Error(c.want); got != c.want {
			t.Errorf("en changed %q into %q", c.want, got)
		}
		for _, l := range []lang.Lang{lang.Pt, lang.Es} {
			got := l.Error(c.want)
			if got == c.want {
				t.Errorf("%s: %s: %q is not translated", l, c.name, c.want)
				continue
			}
			if m := englishLeft.FindString(userParts.ReplaceAllString(got, "")); m != "" {
				t.Errorf("%s: %s: %q keeps the English %q", l, c.name, got, m)
			}
		}
	}
}
