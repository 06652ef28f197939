package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestEverySize renders the dashboard at many sizes, for a small and a large
// cluster, every family and every mode: never a panic, and from 40×12 up the screen
// is exactly the terminal's size.
func TestEverySize(t *testing.T) {
	for _, c := range []struct {
		n           int
		algo, fam   string
		modes, help bool
	}{{5, "bully", "election", true, false}, {5, "omega", "detector", false, true}, {9, "ricart", "mutex", false, false}, {64, "omega", "detector", true, false}, {300, "bully", "election", false, false}} {
		f := scenario(c.n, c.algo, c.fam)
		m := New(f, Options{Title: "sizes"})
		if c.modes {
			m.Update(keyMsg("p"))
		}
		if c.help {
			m.Update(keyMsg("?"))
		}
		for w := 0; w <= 210; w += 13 {
			for h := 0; h <= 64; h += 5 {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				out := m.Render()
				if w >= 40 && h >= 12 {
					checkBox(t, out, w, h)
					if t.Failed() {
						t.Fatalf("%d nodes (%s) at %d×%d:\n%s", c.n, c.fam, w, h, plain(out))
					}
				}
			}
		}
	}
}
