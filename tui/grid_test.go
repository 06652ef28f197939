package tui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

// idRunsIntoGlyph is a digit touching a node's glyph: 100● reads as one word.
var idRunsIntoGlyph = regexp.MustCompile(`[0-9][●★✖◐◌◆◇◉]|[●★✖◐◌◆◇◉][0-9]`)

// TestCompactGrid: at 300 and 1,000 nodes the nodes pane keeps ids apart from the
// dots, shows every node, heads each row of dots with its first node's id, and a
// click on any dot finds that dot's node.
func TestCompactGrid(t *testing.T) {
	for _, c := range []struct{ n, w, h int }{{300, 160, 48}, {300, 80, 24}, {1000, 160, 48}, {1000, 220, 60}} {
		t.Run(fmt.Sprintf("%d-nodes-%dx%d", c.n, c.w, c.h), func(t *testing.T) {
			f := newFake(c.n, "bully", "election")
			must(f.Do("crash n" + strconv.Itoa(c.n/2)))
			m := sized(f, c.w, c.h)
			view := plain(m.place.nodes.draw(m.snap, nodeMarks{sel: m.b.sel}))
			checkBox(t, view, c.w, m.lay.nodesH)
			if bad := idRunsIntoGlyph.FindString(view); bad != "" {
				t.Errorf("an id runs into a dot: %q\n%s", bad, view)
			}
			lines := strings.Split(view, "\n")
			next := 0 // the index of the next node expected in reading order
			for y, l := range lines {
				cells := []rune(l)
				rowFirst := -1
				for x, r := range cells {
					if !strings.ContainsRune("●★✖◐◌◆◇◉", r) || y == len(lines)-1 {
						continue // the legend's glyphs are not nodes
					}
					i, ok := m.place.nodes.cardAt(x, y)
					if !ok || i != next {
						t.Fatalf("the glyph at (%d,%d) is node index %d (%v), want %d\n%s", x, y, i, ok, next, view)
					}
					if rowFirst < 0 {
						rowFirst = i
					}
					next++
				}
				if rowFirst >= 0 && m.place.nodes.level == levelDot {
					head := strings.Fields(strings.Trim(l, "│"))[0]
					if want := strconv.Itoa(int(m.snap.Nodes[rowFirst].ID)); head != want {
						t.Errorf("row %d is headed %q, want its first node's id %s", y, head, want)
					}
				}
			}
			if next != c.n && len(lines)-2 >= (c.n+m.place.nodes.cols-1)/m.place.nodes.cols {
				t.Errorf("%d nodes drawn, want %d\n%s", next, c.n, view)
			}
			if next == 0 {
				t.Errorf("no node drawn\n%s", view)
			}
		})
	}
}

// TestGoldenCompactGrid renders the nodes pane of 300 and 1,000 nodes at 80×24 and
// 160×48: tiny cards with a space between id and glyph, or dots in groups of ten
// under row headers of ids.
func TestGoldenCompactGrid(t *testing.T) {
	for _, n := range []int{300, 1000} {
		f := newFake(n, "bully", "election")
		must(f.Do("crash n" + strconv.Itoa(n/2)))
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(fmt.Sprintf("%d-nodes-%dx%d", n, size[0], size[1]), func(t *testing.T) {
				m := sized(f, size[0], size[1])
				view := m.place.nodes.draw(m.snap, nodeMarks{sel: m.b.sel})
				checkBox(t, view, size[0], m.lay.nodesH)
				golden.RequireEqual(t, plain(view))
			})
		}
	}
}

// TestHoverNamesTheDot: at 1,000 nodes the grid's dots carry no ids; the pointer
// over a dot names its node in the pane's title (↖), another move over the same
// node draws no new frame, and the pointer gone from the pane gives the title back
// to the selected node.
func TestHoverNamesTheDot(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			f := newFake(1000, "bully", "election")
			m := sized(f, size[0], size[1])
			screen := plain(m.Render())
			_, top, ok := find(screen, "Nodes (1000)", 0)
			if !ok {
				t.Fatalf("no nodes pane:\n%s", screen)
			}
			lines := strings.Split(screen, "\n")
			hovered := 0
			for y := top + 1; y < top+m.lay.nodesH-1 && hovered < 40; y++ {
				for x, r := range []rune(lines[y]) {
					if !strings.ContainsRune("●★✗", r) || hovered >= 40 {
						continue
					}
					m.Update(tea.MouseMotionMsg{X: x, Y: y})
					i := m.b.hover - 1
					if i < 0 {
						t.Fatalf("the pointer on the dot at (%d,%d) is over no node", x, y)
					}
					if i == m.b.sel {
						continue
					}
					want := "Nodes (1000) · ↖ " + m.snap.Nodes[i].ID.String() + ":"
					if s := plain(m.Render()); !strings.Contains(s, want) {
						t.Fatalf("pointer at (%d,%d): no %q in\n%s", x, y, want, s)
					}
					m.View()
					m.Update(tea.MouseMotionMsg{X: x, Y: y})
					if m.dirty {
						t.Fatalf("a move over the same node asks for a new frame")
					}
					hovered++
				}
			}
			if hovered < 20 {
				t.Fatalf("hovered %d dots, want at least 20", hovered)
			}
			m.Update(tea.MouseMotionMsg{X: 0, Y: size[1] - 1}) // the key bar
			want := "Nodes (1000) · " + m.snap.Nodes[m.b.sel].ID.String() + ":"
			if s := plain(m.Render()); !strings.Contains(s, want) || strings.Contains(s, "↖") {
				t.Fatalf("pointer gone: want %q and no ↖ in\n%s", want, s)
			}
		})
	}
}
