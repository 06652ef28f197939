package tui

import (
	"strings"
	"testing"
	"unicode"

	"github.com/clusterlab/clusterlab/lang"
)

// isLine reports a box-drawing rune (U+2500-U+257F): borders, lifelines, links and
// arrows' shafts are lines, whatever they join.
func isLine(r rune) bool { return r >= 0x2500 && r <= 0x257f }

// glyphMeanings reads the help's glyph lists: each item is a glyph and what it
// means. It returns each single glyph's meanings as listed.
func glyphMeanings(help string) map[rune][]string {
	out := map[rune][]string{}
	for _, line := range strings.Split(help, "\n") {
		if _, rest, ok := strings.Cut(line, ":"); ok {
			line = rest
		}
		for _, item := range strings.Split(line, "  ") {
			glyph, meaning, ok := strings.Cut(strings.TrimSpace(item), " ")
			rs := []rune(glyph)
			if !ok || len(rs) != 1 || rs[0] < 0x80 || isLine(rs[0]) || unicode.IsLetter(rs[0]) {
				continue
			}
			out[rs[0]] = append(out[rs[0]], strings.TrimSpace(meaning))
		}
	}
	return out
}

// TestGlyphsAllListed draws every view of several clusters (an election with a
// partition, a crash, a slow and an isolated node; a failure detector; a mutual
// exclusion; a replay), and checks that every glyph they show is listed in `?`,
// and that the help never gives one glyph two meanings, in every language
// (issue 23: ✗ meant down, dropped and mistakes; ◆ in CS and a replay mark; ●
// up and the playhead; ┊ ✖ ↻ ❝ ┄ · ✶ ╲ and iso were not in ? at all).
func TestGlyphsAllListed(t *testing.T) {
	for _, l := range lang.All {
		st := DefaultStyles()
		st.Lang = l
		help := plain(strings.Join(glyphHelp(st, 1000), "\n"))
		for g, ms := range glyphMeanings(help) {
			for _, m := range ms[1:] {
				if m != ms[0] {
					t.Errorf("%s: %c means %q and %q", l, g, ms[0], m)
				}
			}
		}
	}
	help := plain(strings.Join(glyphHelp(DefaultStyles(), 1000), "\n"))
	seen := map[rune]string{}
	look := func(name string, m *Model) {
		for _, view := range []string{"", "v", "V"} {
			if view != "" {
				m.Update(keyMsg(view))
			}
			for _, r := range plain(m.Render()) {
				if r >= 0x80 && !isLine(r) && !unicode.IsLetter(r) && !strings.ContainsRune("·…–—→↑↓←±", r) {
					if _, ok := seen[r]; !ok {
						seen[r] = name + " " + view
					}
				}
			}
			if view != "" {
				m.Update(keyMsg(view))
			}
		}
	}
	el := scenario(12, "bully", "election")
	must(el.Do("isolate n11"))
	el.publish()
	look("election", sized(el, 200, 60))
	look("detector", sized(scenario(5, "omega", "detector"), 200, 60))
	look("mutex", sized(scenario(5, "ricart", "mutex"), 200, 60))
	look("replay", replaySized(replayScenario(), 200, 60))
	rec := scenario(5, "bully", "election")
	rec.rec = "x.jsonl"
	look("recording", sized(rec, 200, 60))
	big := newFake(300, "bully", "election")
	must(big.Do("partition n1,n2 | n3"))
	big.publish()
	look("300 nodes", sized(big, 200, 60))
	for r, where := range seen {
		if !strings.ContainsRune(help, r) {
			t.Errorf("%c (drawn in %s) is not in the help's glyphs:\n%s", r, where, help)
		}
	}
	if len(seen) < 15 {
		t.Errorf("only %d glyphs seen: %q", len(seen), keysOf(seen))
	}
}

func keysOf(m map[rune]string) string {
	var b strings.Builder
	for r := range m {
		b.WriteRune(r)
	}
	return b.String()
}
