package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestHelpPages: `?` shows the keys, the glyphs and what the mouse does at every
// size. At 80×24, where they do not fit at once, the help has pages: `?` turns to
// the next, each page fits the screen, the mouse is on one of them, and `?` on
// the last one closes it. At 160×48 it all fits on one page. Goldens of every
// page, live and replayed.
func TestHelpPages(t *testing.T) {
	mouse := "Mouse: a click on a node"
	for _, c := range []struct {
		name  string
		w, h  int
		pages int
	}{{"80x24", 80, 24, 4}, {"160x48", 160, 48, 1}} {
		for _, replay := range []bool{false, true} {
			name := c.name
			if replay {
				name += "-replay"
			}
			t.Run(name, func(t *testing.T) {
				m := sized(scenario(5, "bully", "election"), c.w, c.h)
				if replay {
					m = replaySized(replayScenario(), c.w, c.h)
				}
				sawMouse, sawGlyphs, sawV, sawQ := false, false, false, false
				for p := 1; p <= c.pages; p++ {
					m.Update(keyMsg("?"))
					if !m.help.ShowAll {
						t.Fatalf("the help closed after %d presses of ?, want %d pages", p, c.pages)
					}
					s := plain(m.Render())
					checkBox(t, m.Render(), c.w, c.h)
					sawMouse = sawMouse || strings.Contains(s, mouse)
					sawGlyphs = sawGlyphs || strings.Contains(s, "Glyphs:")
					sawV = sawV || regexp.MustCompile(`V +history`).MatchString(s)
					sawQ = sawQ || regexp.MustCompile(`q +quit`).MatchString(s)
					if c.pages > 1 && !strings.Contains(s, fmt.Sprintf("help %d/%d", p, c.pages)) {
						t.Fatalf("page %d does not say so:\n%s", p, s)
					}
					if c.pages == 1 && strings.Contains(s, "help 1/") {
						t.Fatalf("a single page says it is one of several:\n%s", s)
					}
					t.Run(fmt.Sprintf("page%d", p), func(t *testing.T) { golden.RequireEqual(t, s) })
				}
				if !sawMouse || !sawGlyphs || !sawV || !sawQ {
					t.Fatalf("over %d pages: mouse %v, glyphs %v, keys %v %v; want all", c.pages, sawMouse, sawGlyphs, sawV, sawQ)
				}
				m.Update(keyMsg("?"))
				if m.help.ShowAll {
					t.Fatalf("? on the last page left the help open")
				}
				m.Update(keyMsg("?"))
				if !m.help.ShowAll || m.helpPage != 0 {
					t.Fatalf("? again opened page %d, want the first", m.helpPage+1)
				}
			})
		}
	}
}
