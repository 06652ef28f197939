package lang

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestTextsNamePagesThatExist: a text that sends the reader to a guide names a
// page of docs/ that exists, and none sends them to the README for figures or
// reference, which live in docs/ (issue 31: --max-pending's help said "see the
// README", which no longer had them).
func TestTextsNamePagesThatExist(t *testing.T) {
	page := regexp.MustCompile(`docs/[\w/.-]+\.md`)
	readme := regexp.MustCompile(`(?i)(see|veja|vea) (the|o|el) README`)
	for _, l := range All {
		for k, v := range catalogs[l] {
			for _, p := range page.FindAllString(v, -1) {
				if _, err := os.Stat("../" + strings.TrimSuffix(p, ".")); err != nil {
					t.Errorf("%s %s names %s, which does not exist", l, k, p)
				}
			}
			if readme.MatchString(v) {
				t.Errorf("%s %s sends the reader to the README: %q", l, k, v)
			}
		}
	}
}
