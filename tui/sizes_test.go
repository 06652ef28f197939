package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestEverySize renders the dashboard at many sizes, for a small and a large
// cluster, every family and every mode: never a panic, and from 40×12 up the screen
// is exactly the terminal's size.
func TestEverySize(t *testing.T) {
	// a coarse grid from nothing to 220×64, and every layout threshold: too small,
	// compact, full
	step := [2]int{19, 7}
	if testing.Short() {
		step = [2]int{57, 21}
	}
	var sizes [][2]int
	for w := 0; w <= 220; w += step[0] {
		for h := 0; h <= 64; h += step[1] {
			sizes = append(sizes, [2]int{w, h})
		}
	}
	for _, w := range []int{39, 40, 41, 69, 70, 71, 79, 80, 100, 160} {
		for _, h := range []int{11, 12, 13, 17, 18, 19, 20, 23, 24, 30, 48} {
			sizes = append(sizes, [2]int{w, h})
		}
	}
	for _, c := range []struct {
		n           int
		algo, fam   string
		modes, help bool
	}{{5, "bully", "election", true, false}, {5, "omega", "detector", false, true}, {9, "ricart", "mutex", false, false}, {64, "omega", "detector", true, false}, {300, "bully", "election", false, false}} {
		t.Run(fmt.Sprintf("%d-%s", c.n, c.algo), func(t *testing.T) {
			m := New(scenario(c.n, c.algo, c.fam), Options{Title: "sizes"})
			if c.modes {
				m.Update(keyMsg("p"))
			}
			if c.help {
				m.Update(keyMsg("?"))
			}
			for _, sz := range sizes {
				w, h := sz[0], sz[1]
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				out := m.Render()
				if w >= 40 && h >= 12 {
					checkBox(t, out, w, h)
					if t.Failed() {
						t.Fatalf("at %d×%d:\n%s", w, h, plain(out))
					}
				}
			}
		})
	}
}
