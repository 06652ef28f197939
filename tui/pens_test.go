package tui

import (
	"testing"

	"charm.land/lipgloss/v2"
)

// TestPens: painting with a style's pen gives what lipgloss renders, for every
// style that has one, so that the fast path draws exactly the same screen.
func TestPens(t *testing.T) {
	st := DefaultStyles()
	pn := st.pens()
	for name, c := range map[string]struct {
		p pen
		s lipgloss.Style
	}{
		"border": {pn.border, st.Border}, "borderFocused": {pn.borderFocused, st.BorderFocused},
		"title": {pn.title, st.Title}, "titleFocused": {pn.titleFocused, st.TitleFocused},
		"muted": {pn.muted, st.Muted}, "lane": {pn.lane, st.Lane}, "arrow": {pn.arrow, st.Arrow},
		"dropped": {pn.dropped, st.Dropped}, "event": {pn.event, st.Event}, "marker": {pn.marker, st.Marker},
		"lead": {pn.lead, st.Lead}, "down": {pn.down, st.Down}, "spark": {pn.spark, st.Spark},
	} {
		for _, text := range []string{"x", "─────", "n1 ★ leader", "✗ loss · 3.214s", " "} {
			if got, want := c.p.paint(text), c.s.Render(text); got != want {
				t.Errorf("pen %s paints %q as %q, lipgloss as %q", name, text, got, want)
			}
		}
	}
}
