package lab

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAlgosColumns: in every language, algos lines its descriptions up in one
// column, and the widest family name ("exclusão mútua") stays two spaces clear of
// its description.
func TestAlgosColumns(t *testing.T) {
	for _, l := range []string{"en", "pt", "es"} {
		out, errs, code := mainOutput(t, "algos", "--lang", l)
		if code != 0 {
			t.Fatalf("algos --lang %s: exit %d: %s", l, code, errs)
		}
		families := map[string]bool{"detector": true, "election": true, "mutex": true, "eleição": true, "exclusão mútua": true, "elección": true, "exclusión mutua": true}
		col, lines := -1, 0
		for _, line := range strings.Split(out, "\n") {
			if line == "" || line[0] == ' ' {
				continue
			}
			name, rest, _ := strings.Cut(line, " ")
			rest = strings.TrimLeft(rest, " ")
			fam := ""
			for f := range families {
				if strings.HasPrefix(rest, f) && len(f) > len(fam) {
					fam = f
				}
			}
			if fam == "" {
				t.Fatalf("--lang %s: no family after %s: %q", l, name, line)
			}
			after := strings.TrimPrefix(rest, fam)
			desc := strings.TrimLeft(after, " ")
			if gap := len(after) - len(desc); gap < 2 {
				t.Errorf("--lang %s: %q: the family %q runs into the description (%d space)", l, line, fam, gap)
			}
			at := utf8.RuneCountInString(line) - utf8.RuneCountInString(desc)
			if col >= 0 && at != col {
				t.Errorf("--lang %s: %q: the description starts at column %d, the others at %d", l, line, at, col)
			}
			col = at
			lines++
		}
		if lines < 15 {
			t.Errorf("--lang %s: %d algorithms listed:\n%s", l, lines, out)
		}
	}
}
