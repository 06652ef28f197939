package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// find is the cell (column, line) where text first appears on a plain screen at or
// below line from, or false.
func find(screen, text string, from int) (x, y int, ok bool) {
	return findIn(screen, text, from, -1)
}

// findIn is find on the lines from to to (excluded; -1 for the end).
func findIn(screen, text string, from, to int) (x, y int, ok bool) {
	for y, l := range strings.Split(screen, "\n") {
		if y < from || (to >= 0 && y >= to) {
			continue
		}
		if i := strings.Index(l, text); i >= 0 {
			return len([]rune(l[:i])), y, true
		}
	}
	return 0, 0, false
}

// label is where id is written beside its glyph on the topology's circle: "●n3"
// or "n11★" (the table at the right writes "n3  ●"). The id's first cell is given.
func label(screen, id string, from int) (x, y int, ok bool) {
	isGlyph := func(r rune) bool { return strings.ContainsRune("●★✖◐◌◆◇", r) }
	for y, l := range strings.Split(screen, "\n") {
		if y < from {
			continue
		}
		rs := []rune(l)
		for x := 0; x+len(id) <= len(rs); x++ {
			if string(rs[x:x+len(id)]) != id {
				continue
			}
			before := x > 0 && isGlyph(rs[x-1])
			after := x+len(id) < len(rs) && isGlyph(rs[x+len(id)])
			digitAfter := x+len(id) < len(rs) && rs[x+len(id)] >= '0' && rs[x+len(id)] <= '9'
			if (before && !digitAfter) || (after && (x == 0 || rs[x-1] == ' ')) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

func click(m *Model, x, y int, b tea.MouseButton) {
	m.Update(tea.MouseClickMsg{X: x, Y: y, Button: b})
}

// TestMouseHit clicks, at 80×24 and 160×48, on every node's card (where its id is
// drawn on screen), on every node of the topology (its label), on the gaps and
// borders around them, on the timeline's rows and on the action buttons, and checks
// that each lands on what is drawn under it.
func TestMouseHit(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			f := scenario(12, "bully", "election")
			m := sized(f, w, h)
			base := len(f.Calls()) // the scenario's own
			calls := func() []string { return f.Calls()[base:] }
			nodesTop := m.topLines()
			for i, n := range m.snap.Nodes {
				s := plain(m.Render())
				// a full card's title is "─ n3 ", a smaller card's line "»n3 " or " n3 "
				end := nodesTop + m.lay.nodesH - 1
				x, y, ok := findIn(s, "─ "+n.ID.String()+" ", nodesTop+1, end)
				if ok {
					x += 2
				} else if x, y, ok = findIn(s, " "+n.ID.String()+" ", nodesTop+1, end); ok {
					x++
				} else if x, y, ok = findIn(s, "»"+n.ID.String()+" ", nodesTop+1, end); ok {
					x++
				}
				if !ok {
					t.Fatalf("%s is not on screen:\n%s", n.ID, s)
				}
				click(m, x, y, tea.MouseLeft)
				if m.b.sel != i {
					t.Fatalf("a click on %s's card at (%d,%d) selected %s", n.ID, x, y, m.snap.Nodes[m.b.sel].ID)
				}
				if m.focus != paneNodes {
					t.Fatalf("a click on a card left the focus on %v", m.focus)
				}
			}
			// the pane's borders and the space right of the last card select nothing
			m.b.sel = 0
			for _, c := range [][2]int{{0, nodesTop + 1}, {w - 1, nodesTop + 1}, {w - 2, nodesTop + 1}, {5, nodesTop}} {
				click(m, c[0], c[1], tea.MouseLeft)
				if m.b.sel != 0 {
					t.Fatalf("a click at (%d,%d), on no card, selected %s", c[0], c[1], m.snap.Nodes[m.b.sel].ID)
				}
			}
			// the buttons act on the selected node as their keys do
			s := plain(m.Render())
			x, y, ok := find(s, "[isolate]", nodesTop)
			if !ok {
				t.Fatalf("no buttons on screen:\n%s", s)
			}
			click(m, x+3, y, tea.MouseLeft)
			click(m, x-1, y, tea.MouseLeft) // between two buttons
			if got := calls(); !slices.Equal(got, []string{"isolate n1"}) {
				t.Fatalf("after a click on [isolate] and one beside it: calls %q", got)
			}
			// a right click crashes a live node and revives a down one
			s = plain(m.Render())
			x, y, _ = find(s, " n2 ", nodesTop+1)
			click(m, x+1, y, tea.MouseRight)
			click(m, x+1, y, tea.MouseRight)
			if got := calls()[1:]; !slices.Equal(got, []string{"crash n2", "recover n2"}) || m.b.sel != 1 {
				t.Fatalf("two right clicks on n2: calls %q, selected %s", got, m.snap.Nodes[m.b.sel].ID)
			}
			// the timeline: a click on a row pauses with that row the newest shown
			s = plain(m.Render())
			tl := m.boxes()[paneTimeline]
			y = tl.y + tl.h/2
			line := []rune(strings.Split(s, "\n")[y])
			when := strings.Fields(string(line[tl.x+1 : tl.x+12]))[0]
			click(m, tl.x+20, y, tea.MouseLeft)
			if !f.Paused() || m.timeline.scroll.anchor == 0 || m.focus != paneTimeline {
				t.Fatalf("a click on the timeline's row at %s: paused %v, anchor %d, focus %v", when, f.Paused(), m.timeline.scroll.anchor, m.focus)
			}
			s = plain(m.Render())
			// the newest row drawn (older history may not fill the pane)
			last := ""
			for _, l := range strings.Split(s, "\n")[tl.y+2 : tl.y+tl.h-1] {
				if r := []rune(l); strings.TrimSpace(string(r[tl.x+1:tl.x+12])) != "" {
					last = l
				}
			}
			if !strings.Contains(last, when) || !strings.Contains(s, "scrolled back") {
				t.Fatalf("after a click on the row at %s the last row is %q:\n%s", when, last, s)
			}
			// the wheel scrolls the timeline, or the feed under the pointer
			at := m.timeline.scroll.anchor
			m.Update(tea.MouseWheelMsg{X: tl.x + 5, Y: tl.y + 3, Button: tea.MouseWheelDown})
			if m.timeline.scroll.anchor <= at && m.timeline.scroll.anchor != 0 {
				t.Fatalf("the wheel down left the timeline at %d (was %d)", m.timeline.scroll.anchor, at)
			}
			for range 20 {
				m.Update(tea.MouseWheelMsg{X: tl.x + 5, Y: tl.y + 3, Button: tea.MouseWheelDown})
			}
			if m.timeline.scroll.anchor != 0 {
				t.Fatalf("the wheel did not bring the timeline back to the present (anchor %d)", m.timeline.scroll.anchor)
			}
			tr := m.boxes()[paneTraffic]
			m.Update(tea.MouseWheelMsg{X: tr.x + 2, Y: tr.y + tr.h - 2, Button: tea.MouseWheelUp})
			if m.traffic.scroll.anchor == 0 || m.timeline.scroll.anchor != 0 {
				t.Fatalf("the wheel over the feed: feed anchor %d, timeline anchor %d", m.traffic.scroll.anchor, m.timeline.scroll.anchor)
			}
			// the topology: a click on a node's label selects it
			m.Update(keyMsg("v"))
			labelled := 0
			for i, n := range m.snap.Nodes {
				s := plain(m.Render())
				x, y, ok := label(s, n.ID.String(), nodesTop+1)
				if !ok {
					continue // hidden under another node's label
				}
				labelled++
				click(m, x, y, tea.MouseLeft)
				if m.b.sel != i {
					t.Fatalf("a click on %s in the topology at (%d,%d) selected %s:\n%s", n.ID, x, y, m.snap.Nodes[m.b.sel].ID, s)
				}
			}
			if labelled < len(m.snap.Nodes)/2 {
				t.Fatalf("only %d of %d labels found on the circle", labelled, len(m.snap.Nodes))
			}
		})
	}
}

// TestFlowMouse: in a running dashboard, a click on n3's card selects it and a click
// on the [crash] button over the cards crashes it.
func TestFlowMouse(t *testing.T) {
	c := newFake(5, "bully", "election")
	f := startFlow(t, c, 100, 30)
	s := f.waitFor("the cards at 100 columns", func(s string) bool {
		return len(cards(s)) == 5 && len([]rune(strings.Split(s, "\n")[0])) == 100
	})
	x, y, ok := find(s, "─ n3 ", 2)
	if !ok {
		t.Fatalf("no card n3:\n%s", s)
	}
	f.tm.Send(tea.MouseClickMsg{X: x + 3, Y: y + 2, Button: tea.MouseLeft})
	s = f.waitFor("n3 selected", func(s string) bool { return strings.Contains(s, "Nodes (5) · n3:") })
	x, y, ok = find(s, "[crash]", 2)
	if !ok {
		t.Fatalf("no crash button:\n%s", s)
	}
	f.tm.Send(tea.MouseClickMsg{X: x + 4, Y: y, Button: tea.MouseLeft})
	f.waitFor("n3 down", func(s string) bool { return strings.Contains(cards(s)["n3"], "down") })
	if got := c.Calls(); !slices.Equal(got, []string{"crash n3"}) {
		t.Fatalf("Do calls %q, want crash n3", got)
	}
}

// TestMouseTableAndStrip clicks, at 80×24 and 160×48, on each node's line of the
// table beside the topology and of the history strip: a left click selects the
// node, a right click crashes it, as on a card. In a replay a click on the strip
// also goes to the instant of the column clicked; live it only selects.
func TestMouseTableAndStrip(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			f := scenario(5, "bully", "election")
			m := sized(f, w, h)
			base := len(f.Calls())
			top := m.topLines()
			m.Update(keyMsg("v"))
			for i, n := range m.snap.Nodes {
				s := plain(m.Render())
				// the table's line: "n3 ● follower …", right of the circle
				x, y, ok := 1+m.place.topo.drawn.tableX, 0, false
				for l, line := range strings.Split(s, "\n") {
					if r := []rune(line); l > top && len(r) > x && strings.HasPrefix(string(r[x:]), n.ID.String()+" ") {
						y, ok = l, true
						break
					}
				}
				if !ok {
					t.Fatalf("%s has no line in the table:\n%s", n.ID, s)
				}
				click(m, x+6, y, tea.MouseLeft)
				if m.b.sel != i {
					t.Fatalf("a click on %s's line of the table at (%d,%d) selected %s:\n%s", n.ID, x+6, y, m.snap.Nodes[m.b.sel].ID, s)
				}
			}
			// below the table's lines nothing is selected
			m.b.sel = 0
			tb := m.boxes()[paneNodes]
			click(m, tb.w-3, tb.y+tb.h-2, tea.MouseLeft)
			if m.b.sel != 0 {
				t.Fatalf("a click under the table selected %s", m.snap.Nodes[m.b.sel].ID)
			}
			// a right click on n2's line crashes it
			s := plain(m.Render())
			y := tb.y + 1 + 1 // n2 is the table's second line
			if line := []rune(strings.Split(s, "\n")[y]); !strings.Contains(string(line[m.place.topo.drawn.tableX:]), "n2 ") {
				t.Fatalf("line %d is not n2's: %q", y, string(line))
			}
			click(m, tb.w-4, y, tea.MouseRight)
			if got := f.Calls()[base:]; !slices.Equal(got, []string{"crash n2"}) || m.b.sel != 1 {
				t.Fatalf("a right click on n2's line: calls %q, selected %s", got, m.snap.Nodes[m.b.sel].ID)
			}
			// the history strip: a click on a node's line selects it, and a live
			// session does not move or pause
			m.Update(keyMsg("V"))
			s = plain(m.Render())
			for i, n := range m.snap.Nodes {
				_, y, ok := findIn(s, n.ID.String()+" ", top+1, top+m.lay.nodesH-1)
				if !ok {
					t.Fatalf("%s has no line in the strip:\n%s", n.ID, s)
				}
				click(m, w/2, y, tea.MouseLeft)
				if m.b.sel != i {
					t.Fatalf("a click on %s's line of the strip at (%d,%d) selected %s:\n%s", n.ID, w/2, y, m.snap.Nodes[m.b.sel].ID, s)
				}
			}
			if f.Paused() || len(f.Calls()) != base+1 {
				t.Fatalf("a click on the live strip paused (%v) or acted: %q", f.Paused(), f.Calls()[base:])
			}
		})
	}
}

// TestMouseStripSeeks: in a replay a click on the history strip goes to the instant
// of the column clicked, paused; the right edge is now, and each column to the left
// a slice of the strip's window earlier.
func TestMouseStripSeeks(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			r := replayScenario()
			r.SetPaused(false)
			m := replaySized(r, w, h)
			m.Update(keyMsg("V"))
			plain(m.Render())
			now := m.snap.T
			hd := m.place.hist.drawn
			b := m.boxes()[paneNodes]
			right := b.x + 1 + hd.idW + 1 + hd.sw - 1 // the strip's last column
			col := 10                                 // columns from the right
			click(m, right-col, b.y+1+2, tea.MouseLeft)
			want := now - int64(col)*historyWindow/int64(hd.sw)
			calls := r.Calls()
			if len(calls) != 1 || calls[0] != "seek "+fmtT(want) || !r.Paused() || m.b.sel != 2 {
				t.Fatalf("a click %d columns left of now (%s) on n3's line: calls %q, paused %v, selected %s; want seek %s, paused, n3",
					col, fmtT(now), calls, r.Paused(), m.snap.Nodes[m.b.sel].ID, fmtT(want))
			}
			// the id column selects without moving
			click(m, b.x+1, b.y+1+1, tea.MouseLeft)
			if len(r.Calls()) != 1 || m.b.sel != 1 {
				t.Fatalf("a click on n2's id: calls %q, selected %s", r.Calls(), m.snap.Nodes[m.b.sel].ID)
			}
		})
	}
}
