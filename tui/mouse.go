package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// wheeler is a pane the wheel scrolls: k rows back (negative: forward).
type wheeler interface{ wheel(k int) }

// The mouse (issue 12). Every click is hit-tested against the layout the dashboard
// already computes (the panes' boxes from m.lay, and where the last frame drew the
// cards, the circle's nodes and the timeline's rows), so a click lands on exactly
// what is drawn under it. Every mouse action is also a key: the mouse is a shortcut,
// never the only way.
//
//   - a click on a card, on a node of the topology or its line in the table beside
//     it, or on a node's line of the history strip selects it (in partition mode
//     it puts it into side A or takes it out, as space does);
//   - a right click on one selects it and crashes it, or revives it if it is down;
//   - the buttons in the nodes pane's top border act on the selected node, as
//     their keys do;
//   - a click on a timeline row pauses there: the row becomes the newest one shown
//     (a replay seeks to it); in a replay, a click on the history strip goes to
//     the instant of the column clicked;
//   - a click on a message in flight selects it (issue 30): its letter in the
//     topology, or its dotted row at the timeline's foot, where a paused live
//     run lists them;
//   - the wheel scrolls the timeline, or the feed when the pointer is over it;
//   - a click in any pane focuses it.

// rect is a pane's box on screen.
type rect struct{ x, y, w, h int }

func (r rect) has(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// boxes is where Render puts each pane at the current size: the nodes pane (or the
// view in its place) under the top lines, then the left column (suspect matrix,
// timeline) beside the right one (network, feed, alerts, story), or the feed alone
// below the nodes when compact.
func (m *Model) boxes() map[paneID]rect {
	l := m.lay
	if m.snap == nil || l.tooSmall {
		return nil
	}
	y := m.topLines()
	out := map[paneID]rect{paneNodes: {0, y, m.w, l.nodesH}}
	y += l.nodesH
	if l.compact {
		out[paneTraffic] = rect{0, y, m.w, l.trafficH}
		return out
	}
	stack := func(x, w, y int, panes ...paneID) {
		hs := map[paneID]int{paneMatrix: l.matrixH, paneTimeline: l.timelineH, paneNetwork: l.networkH,
			paneTraffic: l.trafficH, paneAlerts: l.alertsH, paneStory: l.storyH}
		for _, p := range panes {
			if hs[p] > 0 {
				out[p] = rect{x, y, w, hs[p]}
				y += hs[p]
			}
		}
	}
	stack(0, l.leftW, y, paneMatrix, paneTimeline)
	stack(l.leftW, l.rightW, y, paneNetwork, paneTraffic, paneAlerts, paneStory)
	return out
}

// paneAt is the pane under (x, y) and its box.
func (m *Model) paneAt(x, y int) (paneID, rect, bool) {
	for p, r := range m.boxes() {
		if r.has(x, y) {
			return p, r, true
		}
	}
	return 0, rect{}, false
}

// topoHit is where the topology's last frame drew the nodes: each node's cell on the
// canvas (inside the border), the centre column that decides which side a label
// goes, and whether every node was labelled.
type topoHit struct {
	pos    []point
	cx     int
	labels bool
	// the table beside the circle: its first column (0 when there is none), the
	// node on its first line and how many nodes it lists, one a line
	tableX, tableFirst, tableRows int
	// msgs is where the messages in flight were drawn
	msgs []msgHit
}

// msgHit is a message in flight drawn on the circle, for a click.
type msgHit struct {
	at point
	f  flight
}

// messageAt is the message in flight drawn at (x, y) of the topology pane's box.
// A message drawn on a node's cell is under the node: a click there is the node's.
func (p *topoPane) messageAt(x, y int) (flight, bool) {
	at := point{x - 1, y - 1}
	if slices.Contains(p.drawn.pos, at) {
		return flight{}, false
	}
	for _, h := range p.drawn.msgs {
		if h.at == at {
			return h.f, true
		}
	}
	return flight{}, false
}

// nodeAt is the index of the node drawn at (x, y) of the topology pane's box: its
// glyph or its label. Where nodes share a cell, the one drawn last (on top) wins, as
// the eye sees it.
func (p *topoPane) nodeAt(x, y, sel int, ids []string) (int, bool) {
	h := p.drawn
	x, y = x-1, y-1
	if h.tableX > 0 && x >= h.tableX {
		// a line of the table is its node, as a card is
		if y >= 0 && y < h.tableRows && x < p.w-2 {
			return h.tableFirst + y, true
		}
		return 0, false
	}
	found, pass := -1, -1
	for i, q := range h.pos {
		if i >= len(ids) || q.y != y {
			continue
		}
		on := q.x == x
		if !on && (h.labels || i == sel) {
			lo := q.x + 1
			if q.x < h.cx {
				lo = q.x - len(ids[i])
			}
			on = x >= lo && x < lo+len(ids[i])
		}
		if !on {
			continue
		}
		// the exact glyph beats a label, and the selected node beats the rest
		k := 0
		if q.x == x {
			k = 2
		}
		if i == sel {
			k++
		}
		if k > pass {
			found, pass = i, k
		}
	}
	return found, found >= 0
}

// rowAt is the timeline row drawn at line y of the pane's box (the border and the
// header of ids take the first two lines), newest last.
func (p *timelinePane) rowAt(y int) (*trace.Row, bool) {
	r := y - 2
	if r < 0 || r >= len(p.drawn) {
		return nil, false
	}
	return p.drawn[len(p.drawn)-1-r], true
}

// footAt is the message in flight drawn at line y of the timeline's box, at
// its foot below the rows.
func (p *timelinePane) footAt(y int) (flight, bool) {
	i := y - 2 - len(p.drawn)
	if i < 0 || i >= len(p.feet) {
		return flight{}, false
	}
	return p.feet[i], true
}

// button is one of the actions shown for the selected node: the key it presses,
// and where it is drawn on the top line of the pane in the nodes' place.
type button struct {
	b      *key.Binding
	x0, x1 int
}

// buttons are the selected node's actions at the right end of the top border of
// the pane in the nodes' place (its bottom border holds the legend): crash,
// revive, isolate, slow, each doing what pressing its key does. The title before
// them is cut if need be. A replay takes no actions and shows none, and neither
// does a pane too narrow for them and a few cells of title.
func (m *Model) buttons() (tail string, bs []button) {
	if _, ok := m.b.selected(); !ok || m.seek != nil {
		return "", nil
	}
	k := &m.keys
	bs = []button{{b: &k.Crash}, {b: &k.Revive}, {b: &k.Isolate}, {b: &k.Slow}}
	bord := m.st.Border
	if m.place.focused {
		bord = m.st.BorderFocused
	}
	texts := make([]string, len(bs))
	w := 0
	for i := range bs {
		texts[i] = "[" + bs[i].b.Help().Desc + "]"
		w += ansi.StringWidth(texts[i]) + 1
	}
	// ─ [crash] [revive] [isolate] [slow ×10] ─╮
	x := m.w - 2 - w // the first button's cell
	if x < 20 {
		return "", nil
	}
	var b strings.Builder
	b.WriteString(bord.Render("─") + " ")
	for i := range bs {
		bs[i].x0, bs[i].x1 = x, x+ansi.StringWidth(texts[i])
		b.WriteString(m.st.Key.Render(texts[i]) + " ")
		x = bs[i].x1 + 1
	}
	b.WriteString(bord.Render("─╮"))
	return b.String(), bs
}

// withButtons puts the selected node's buttons at the right end of the pane's top
// border, cutting its title (with …) where they need its place.
func (m *Model) withButtons(pane string) string {
	tail, _ := m.buttons()
	nl := strings.IndexByte(pane, '\n')
	if tail == "" || nl < 0 {
		return pane
	}
	top := pane[:nl]
	keep := m.w - ansi.StringWidth(tail)
	plainTop := []rune(ansi.Strip(top))
	end := len(plainTop) - 1 // the last cell of the title, before the fill
	for end > 0 && (plainTop[end] == '─' || plainTop[end] == '╮') {
		end--
	}
	head := ansi.Cut(top, 0, keep)
	if end >= keep-1 {
		head = ansi.Truncate(top, keep-1, "…") + " "
	}
	return head + tail + pane[nl:]
}

// pressOf is a key press of the binding's first key, so that a button does exactly
// what its key does.
func pressOf(b *key.Binding) tea.KeyPressMsg {
	k := b.Keys()[0]
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// mouse handles a click or a turn of the wheel.
func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	ev := msg.Mouse()
	if m.snap == nil || m.mode == modeConfirm || m.prompt() != nil || m.mode == modeFilter {
		return nil // a line being typed, or a question asked, keeps the mouse out
	}
	p, r, ok := m.paneAt(ev.X, ev.Y)
	if !ok {
		return nil
	}
	x, y := ev.X-r.x, ev.Y-r.y
	if _, wheel := msg.(tea.MouseWheelMsg); wheel {
		k := 0
		switch ev.Button {
		case tea.MouseWheelUp:
			k = 3
		case tea.MouseWheelDown:
			k = -3
		}
		// the pane under the pointer scrolls, if it does; else the timeline
		if q, ok := m.panes[p].(wheeler); ok {
			q.wheel(k)
		} else {
			m.timeline.wheel(k)
		}
		return nil
	}
	if _, click := msg.(tea.MouseClickMsg); !click {
		return nil
	}
	if m.mode == modeNormal && ev.Button != tea.MouseRight {
		m.setFocus(p)
	}
	switch p {
	case paneNodes:
		if y == 0 && ev.Button == tea.MouseLeft {
			_, bs := m.buttons()
			for _, b := range bs {
				if x >= b.x0 && x < b.x1 {
					return m.key(pressOf(b.b))
				}
			}
			return nil
		}
		if m.place.view == viewTopology && m.seek == nil && ev.Button == tea.MouseLeft && m.mode == modeNormal {
			// a message's letter on the circle selects the message (issue 30)
			if f, ok := m.place.topo.messageAt(x, y); ok {
				m.pickMessage(f)
				return nil
			}
		}
		i, ok := m.place.nodeAt(x, y)
		if !ok {
			return nil
		}
		m.b.sel = i
		switch {
		case m.mode == modePartition && ev.Button == tea.MouseLeft:
			return m.key(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
		case ev.Button == tea.MouseRight && m.mode == modeNormal:
			if m.snap.Nodes[i].Up {
				return m.key(pressOf(&m.keys.Crash))
			}
			return m.key(pressOf(&m.keys.Revive))
		case m.place.view == viewHistory && m.seek != nil && ev.Button == tea.MouseLeft && m.mode == modeNormal:
			// a replay goes to the instant of the column clicked, as to a
			// timeline row's
			if t, ok := m.place.hist.timeAt(x); ok {
				m.seekTo(t)
			}
		}
	case paneTimeline:
		if ev.Button != tea.MouseLeft || m.mode != modeNormal {
			return nil
		}
		// a message in flight at the foot selects it (issue 30)
		if f, ok := m.timeline.footAt(y); ok && m.seek == nil {
			m.pickMessage(f)
			return nil
		}
		if row, ok := m.timeline.rowAt(y); ok {
			m.pauseAt(row)
		}
	}
	return nil
}

// hoverAt follows the pointer over the nodes pane's cards and dots and the
// topology's circle; it reports whether the node under it changed.
func (m *Model) hoverAt(ev tea.Mouse) bool {
	h := 0
	if p, r, ok := m.paneAt(ev.X, ev.Y); ok && p == paneNodes && m.snap != nil && m.place.view != viewHistory {
		if i, ok := m.place.nodeAt(ev.X-r.x, ev.Y-r.y); ok {
			h = i + 1
		}
	}
	changed := h != m.b.hover
	m.b.hover = h
	return changed
}

// pauseAt pauses with the timeline ending at row: a live run stops where it is and
// the timeline scrolls back to the row; a replay goes back to the row's instant.
func (m *Model) pauseAt(row *trace.Row) {
	if m.seek != nil {
		m.seekTo(row.T)
		return
	}
	m.c.SetPaused(true)
	m.refresh()
	m.timeline.scroll.anchor = rowKey(row)
	m.say("⏸ "+m.st.T("tui.hdr.paused")+" "+fmtT(row.T)+" ("+m.keys.Follow.Help().Key+" "+m.keys.Follow.Help().Desc+")", false)
}

// seekTo pauses a replay at virtual time t (µs) and says so.
func (m *Model) seekTo(t int64) {
	m.c.SetPaused(true)
	m.seek.SeekTime(t)
	m.refresh()
	m.say("⏸ "+m.st.T("tui.say.jumped")+" "+fmtT(m.snap.T), false)
}

// mouseHelp is what the mouse does, wrapped to w cells, for the full help.
func mouseHelp(st *Styles, w int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(st.T("tui.help.mouse")) {
		if line != "" && ansi.StringWidth(line)+1+ansi.StringWidth(word) > w {
			lines = append(lines, st.Muted.Render(line))
			line = " "
		}
		if line != "" && line != " " {
			line += " "
		}
		line += word
	}
	return append(lines, st.Muted.Render(line))
}
