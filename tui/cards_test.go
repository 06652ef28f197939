package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenMutexCards renders the nodes pane of three mutual-exclusion algorithms
// at 80×24 and 160×48: the critical section with how long, the token holder ◉,
// votes or the queue, and the legend of only what the cards show.
func TestGoldenMutexCards(t *testing.T) {
	for _, algo := range []string{"tokenring", "maekawa", "lamport", "ricart"} {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			w, h := size[0], size[1]
			t.Run(fmt.Sprintf("%s-%dx%d", algo, w, h), func(t *testing.T) {
				m := sized(scenario(5, algo, "mutex"), w, h)
				view := m.place.nodes.draw(m.snap, nodeMarks{sel: m.b.sel})
				checkBox(t, view, w, m.lay.nodesH)
				golden.RequireEqual(t, plain(view))
			})
		}
	}
}

// TestMutexCardRows: every card of a mutual-exclusion run has its rows in the same
// place (a revived node's incarnation does not push its rows down), the holder of
// the token is marked ◉, and the legend names only what the cards show.
func TestMutexCardRows(t *testing.T) {
	f := scenario(5, "tokenring", "mutex")
	must(f.Do("recover n5"))
	m := sized(f, 160, 48)
	lines := strings.Split(plain(m.place.nodes.draw(m.snap, nodeMarks{sel: m.b.sel})), "\n")
	// the rows of the full cards: state, cs, token or queue, entries
	row := func(prefix string) int {
		for i, l := range lines {
			if strings.Contains(l, prefix) {
				return i
			}
		}
		return -1
	}
	csRow := row("cs held")
	if csRow < 0 {
		t.Fatalf("no cs row:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines[csRow : csRow+1] {
		if k := strings.Count(l, "cs "); k != 5 {
			t.Errorf("%d cards show cs on row %d, want all 5:\n%s", k, csRow, strings.Join(lines, "\n"))
		}
	}
	if !strings.Contains(lines[csRow], "cs held") || !strings.Contains(lines[csRow], "cs wanted") {
		t.Errorf("row %q should show a held and a wanted critical section", lines[csRow])
	}
	if !strings.Contains(lines[csRow+1], "◉ token") {
		t.Errorf("the row under cs should show the token holder: %q", lines[csRow+1])
	}
	if k := strings.Count(lines[csRow+2], "entries"); k != 5 {
		t.Errorf("%d cards show entries on row %d, want 5: %q", k, csRow+2, lines[csRow+2])
	}
	legend := lines[len(lines)-1]
	for _, want := range []string{"◉ token holder", "cs critical section", "entries"} {
		if !strings.Contains(legend, want) {
			t.Errorf("legend %q lacks %q", legend, want)
		}
	}
	for _, not := range []string{"ldr", "sus", "★", "votes"} {
		if strings.Contains(legend, not) {
			t.Errorf("legend %q explains %q, which no tokenring card shows", legend, not)
		}
	}
}

// TestMaekawaCardsShowQueue: in maekawa-deadlock each of the three voted for
// itself and holds the other's request in its queue; every card says so beside
// whom its vote went to (issue 23: Maekawa cards never showed their queue).
func TestMaekawaCardsShowQueue(t *testing.T) {
	r := recordPreset(t, "maekawa-deadlock")
	r.SeekTime(3_000_000)
	m := New(r, Options{Title: "maekawa-deadlock"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	s := plain(m.Render())
	cs := cards(s)
	for _, id := range []string{"n1", "n2", "n3"} {
		if !strings.Contains(cs[id], "queue 1") || !strings.Contains(cs[id], "⇢"+id) {
			t.Errorf("%s's card shows no queue or vote: %q", id, cs[id])
		}
	}
	if !strings.Contains(s, "queue requests queued") {
		t.Errorf("the legend does not explain the queue:\n%s", s)
	}
}
