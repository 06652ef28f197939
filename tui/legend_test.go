package tui

import (
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/lang"
)

// TestLegendNamesWhatCardsShow: in every language, each legend entry that explains
// an abbreviation begins with the very word the cards write (pt's card says "rc",
// so its legend must too, not "cs").
func TestLegendNamesWhatCardsShow(t *testing.T) {
	pairs := [][2]string{ // legend key, the catalog key of the word on the card
		{"tui.legend.cs", "tui.node.cs"},
		{"tui.legend.inc", "tui.node.inc"},
		{"tui.legend.ldr", "tui.card.ldr"},
		{"tui.legend.sus", "tui.card.sus"},
		{"tui.legend.queue", "tui.card.queue"},
		{"tui.legend.votes", "tui.card.votes"},
		{"tui.legend.replies", "tui.card.replies"},
		{"tui.legend.grants", "tui.card.grants"},
		{"tui.legend.entries", "counter.entries"},
	}
	for _, l := range lang.All {
		for _, p := range pairs {
			legend, word := l.T(p[0]), l.T(p[1])
			if !strings.HasPrefix(legend, word+" ") {
				t.Errorf("%s: %s is %q, but the cards write %q (%s)", l, p[0], legend, word, p[1])
			}
		}
	}
}
