package tui

import (
	"github.com/clusterlab/clusterlab/lang"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// cardLevel is how much of a node a card shows; the nodes pane picks the richest
// level whose grid fits.
type cardLevel int

const (
	levelFull   cardLevel = iota // bordered card, four lines
	levelMedium                  // two lines
	levelLine                    // one line
	levelTiny                    // id, a space and a glyph
	levelDot                     // one character, under a row header of ids
)

type levelGeom struct{ w, h, gap int }

var levelGeoms = [...]levelGeom{
	levelFull:   {14, 6, 0},
	levelMedium: {19, 2, 1},
	levelLine:   {13, 1, 1},
	levelTiny:   {tinyW, 1, 1},
	levelDot:    {1, 1, 0},
}

// tinyW is a tiny card's width: an id of up to three digits, a space, a glyph, so
// that ids never run into their dots (100● was read as a node 100●).
const tinyW = 5

// nodesPane shows one card per node.
type nodesPane struct {
	st      *Styles
	w, h    int
	n       int
	level   cardLevel
	cols    int
	cw      int // card width
	focused bool
	used    legendItem // what the last View's cards showed, for the legend
	first   int        // the first line of cards the last View showed
	// dots memoizes the smallest cards as drawn: a thousand of them share a few
	// dozen looks, and styling each anew was half of a 1,000-node frame
	dots map[dotLook]string
	// left is the nodes that just left the critical section (board.left)
	left map[node.ID]int64
	// label leads the title: which recording the diff view shows ("A · ")
	label string
	// recv is "◂#165" while a message in flight is selected, and to its receiver
	recv string
	to   node.ID
}

// justLeft reports whether n is drawn as having just left the critical section.
func justLeft(left map[node.ID]int64, n trace.NodeView) bool {
	_, ok := left[n.ID]
	return ok && n.Up && n.Status.CS != node.CSHeld
}

// dotLook is a smallest card's look: its style (lookSelected… or dotGroup+group)
// and its text.
type dotLook struct {
	style int
	text  string
}

const (
	lookSelected = iota
	lookSideA
	lookDown
	lookLead
	lookSlow
	lookUp
	lookGroup
)

// dot is text in style s, known as look k, rendered once.
func (p *nodesPane) dot(k int, s lipgloss.Style, text string) string {
	look := dotLook{k, text}
	if r, ok := p.dots[look]; ok {
		return r
	}
	if p.dots == nil || len(p.dots) >= 4096 {
		p.dots = make(map[dotLook]string)
	}
	r := s.Render(text)
	p.dots[look] = r
	return r
}

// SetSize sets the pane's box and lays out n cards in it.
func (p *nodesPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.layout()
}

func (p *nodesPane) setCount(n int) {
	if n != p.n {
		p.n = n
		p.layout()
	}
}

// nodesHeight is the box height (borders included) the pane wants for
// n nodes at width w, at most maxH: the richest level that fits, or the densest one.
func nodesHeight(n, w, maxH int) int {
	iw := w - 2
	for l := levelFull; l <= levelDot; l++ {
		if !levelFits(l, n) {
			continue
		}
		cols, _ := gridCols(l, n, iw)
		rows := (n + cols - 1) / max(cols, 1)
		if need := rows*levelGeoms[l].h + 2; need <= maxH {
			return need
		}
	}
	return maxH
}

// levelFits reports whether level l can show n nodes' ids (1…n): a tiny card has
// room for three digits.
func levelFits(l cardLevel, n int) bool {
	return l != levelTiny || n < 1000
}

// gridCols is how many cards of level l fit in a row of width iw, and their width.
// The densest grid leaves room for its row header and groups its dots by ten.
func gridCols(l cardLevel, n, iw int) (cols, cw int) {
	g := levelGeoms[l]
	if l == levelDot {
		room := iw - len(strconv.Itoa(max(n, 1))) - 1
		// groups of ten need two groups' room; a narrower row is not grouped
		cols = max(1, min(room, 2*dotGroup-1))
		if k := (room + 1) / (dotGroup + 1) * dotGroup; k >= 2*dotGroup {
			cols = k
		}
		return min(cols, max(n, 1)), 1
	}
	cols = max(1, (iw+g.gap)/(g.w+g.gap))
	cols = min(cols, max(n, 1))
	cw = g.w
	if l == levelFull || l == levelMedium {
		cw = min(22, (iw-g.gap*(cols-1))/cols)
		cw = max(cw, g.w)
	}
	return cols, cw
}

func (p *nodesPane) layout() {
	iw, ih := p.w-2, p.h-2
	p.level = levelDot
	for l := levelFull; l <= levelDot; l++ {
		if !levelFits(l, p.n) {
			continue
		}
		cols, cw := gridCols(l, p.n, iw)
		rows := (p.n + cols - 1) / max(cols, 1)
		if rows*levelGeoms[l].h <= ih || l == levelDot {
			p.level, p.cols, p.cw = l, cols, cw
			break
		}
	}
	if p.cols <= 0 {
		p.cols = 1
	}
}

// move returns the selection after an arrow key.
func (p *nodesPane) move(sel int, dir string) int {
	if p.n == 0 {
		return 0
	}
	switch dir {
	case "left":
		sel--
	case "right":
		sel++
	case "up":
		sel -= p.cols
	case "down":
		sel += p.cols
	}
	return min(max(sel, 0), p.n-1)
}

// nodeMarks is the view state the cards need besides the snapshot.
type nodeMarks struct {
	sel int
	// to receives the selected message in flight, msg (0: none)
	to        node.ID
	msg       uint64
	hover     int // the node under the pointer, as index + 1; 0 for none
	partition bool
	sideA     map[node.ID]bool
}

// recvMark is " ◂#165" on the card of the selected message's receiver, else "".
func (p *nodesPane) recvMark(n trace.NodeView) string {
	if p.recv == "" || n.ID != p.to {
		return ""
	}
	return " " + p.recv
}

// draw renders the pane, with the legend of what its cards show in its bottom
// border.
func (p *nodesPane) draw(s *trace.Snapshot, m nodeMarks) string {
	title := p.label + p.st.T("tui.title.nodes") + " (" + strconv.Itoa(len(s.Nodes)) + ")"
	// the node under the pointer, if not the one selected, else the selected one:
	// where dots stand for nodes, pointing at one is how to read its id
	if h := m.hover - 1; h >= 0 && h < len(s.Nodes) && h != m.sel {
		title += " · ↖ " + nodeSummary(p.st.Lang, s.Nodes[h], s.Info.Family, s.T)
	} else if m.sel < len(s.Nodes) {
		title += " · " + nodeSummary(p.st.Lang, s.Nodes[m.sel], s.Info.Family, s.T)
	}
	p.used = 0
	p.recv = ""
	if m.msg != 0 {
		p.recv, p.to = "◂#"+strconv.FormatUint(m.msg, 10), m.to
	}
	f := newCardFacts(s)
	var lines []string
	g := levelGeoms[p.level]
	hw := p.headerW()
	for start := 0; start < len(s.Nodes); start += p.cols {
		end := min(start+p.cols, len(s.Nodes))
		rows := make([]strings.Builder, g.h)
		if hw > 0 {
			rows[0].WriteString(p.st.Muted.Render(fit(strconv.Itoa(int(s.Nodes[start].ID)), hw-1)) + " ")
		}
		for i := start; i < end; i++ {
			card := p.card(s.Nodes[i], i == m.sel, m.partition && m.sideA[s.Nodes[i].ID], &f)
			for r := range rows {
				if i > start && g.gap > 0 {
					rows[r].WriteString(strings.Repeat(" ", g.gap))
				}
				if i > start && p.level == levelDot && p.cols >= 2*dotGroup && (i-start)%dotGroup == 0 {
					rows[r].WriteString(" ")
				}
				if r < len(card) {
					rows[r].WriteString(card[r])
				}
			}
		}
		for r := range rows {
			lines = append(lines, rows[r].String())
		}
	}
	ih := p.h - 2
	if len(lines) > ih && ih > 0 {
		// keep the selected card's row in view
		row := (m.sel / p.cols) * g.h
		first := 0
		if row+g.h > ih {
			first = row + g.h - ih
		}
		lines = lines[first:min(len(lines), first+ih)]
		p.first = first
	} else {
		p.first = 0
	}
	// the legend is drawn in the bottom border: it costs the cards no line
	return boxWithFooter(p.st, title, legendLine(p.st, p.used, p.w-6), lines, p.w, p.h, p.focused)
}

// dotGroup is how many dots the densest grid groups between spaces, so that a
// dot's id is read from its row's header and its place in the row.
const dotGroup = 10

// headerW is the width of the row header (the id of the row's first node and a
// space) of the densest grid, where ids and dots are kept apart; 0 at the other
// levels.
func (p *nodesPane) headerW() int {
	if p.level != levelDot {
		return 0
	}
	return len(strconv.Itoa(max(p.n, 1))) + 1
}

// cardAt is the index of the card drawn at cell (x, y) of the pane (borders
// included), for a mouse: false on a border, a gap or a row header.
// It follows the geometry of the last View, scrolled as it was.
func (p *nodesPane) cardAt(x, y int) (int, bool) {
	x, y = x-1, y-1
	g := levelGeoms[p.level]
	ih := p.h - 2
	if x < 0 || y < 0 || x >= p.w-2 || y >= ih {
		return 0, false
	}
	row := (y + p.first) / g.h
	x -= p.headerW()
	if x < 0 {
		return 0, false
	}
	col := 0
	if p.level == levelDot && p.cols >= 2*dotGroup {
		grp := x / (dotGroup + 1)
		in := x % (dotGroup + 1)
		if in == dotGroup {
			return 0, false
		}
		col = grp*dotGroup + in
	} else {
		step := p.cw + g.gap
		col = x / step
		if x%step >= p.cw {
			return 0, false
		}
	}
	if col >= p.cols {
		return 0, false
	}
	i := row*p.cols + col
	if i >= p.n {
		return 0, false
	}
	return i, true
}

// nodeSummary is the one-line description of a node for the pane title.
func nodeSummary(l lang.Lang, n trace.NodeView, family string, now int64) string {
	var b strings.Builder
	b.WriteString(n.ID.String())
	b.WriteString(": ")
	b.WriteString(upText(l, n))
	if n.Up && n.Status.Role != "" {
		b.WriteString(" " + l.Word(n.Status.Role))
	}
	// a down node's status is what it had: it names no leader now
	if n.Up && (family != "mutex" || n.Status.Leader != node.None) {
		b.WriteString(", " + l.T("tui.node.leader") + " " + n.Status.Leader.String())
	}
	if n.Status.Term > 0 {
		b.WriteString(", " + l.T("tui.node.term") + " " + strconv.FormatInt(n.Status.Term, 10))
	}
	b.WriteString(", " + l.T("tui.node.inc") + " " + strconv.FormatInt(n.Inc, 10))
	if len(n.Status.Suspects) > 0 {
		b.WriteString(", " + l.T("tui.node.suspects") + " " + idList(n.Status.Suspects))
	}
	if n.Status.CS != node.CSNone {
		b.WriteString(", " + l.T("tui.node.cs") + " " + l.Word(n.Status.CS.String()))
	}
	if d := n.Status.Deadline; n.Up && d.Running() {
		b.WriteString(", " + l.F("tui.node.timer", l.Word(d.For), fmtDur(max(d.At.Microseconds()-now, 0))))
	}
	return b.String()
}

func upText(l lang.Lang, n trace.NodeView) string {
	switch {
	case !n.Up:
		return l.T("tui.node.down")
	case n.Isolated:
		return l.T("tui.node.isolated")
	case n.Slow > 1:
		return l.T("tui.node.slow") + "×" + strconv.Itoa(n.Slow)
	default:
		return l.T("tui.node.up")
	}
}

// glyph is a node in one character.
func glyph(n trace.NodeView) string {
	switch {
	case !n.Up:
		return "✖"
	case n.Status.Leader == n.ID:
		return "★"
	case n.Status.CS == node.CSHeld:
		return "◆"
	case n.Status.Role == "holder":
		return "◉"
	case n.Slow > 1:
		return "◐"
	case n.Isolated:
		return "◌"
	default:
		return "●"
	}
}

// glyphItem is the legend entry of a glyph.
func glyphItem(g string) legendItem {
	switch g {
	case "✖":
		return lgDown
	case "★":
		return lgLeader
	case "◆":
		return lgHeld
	case "◉":
		return lgToken
	case "◐":
		return lgSlow
	case "◌":
		return lgIsolated
	case "◇":
		return lgLeft
	}
	return lgUp
}

func idList(ids []node.ID) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, ",")
}

func counter(st node.Status, name string) (int64, bool) {
	for _, c := range st.Counters {
		if c.Name == name {
			return c.Value, true
		}
	}
	return 0, false
}

// stateStyle colours the up/down/slow word.
func (p *nodesPane) stateStyle(n trace.NodeView) lipgloss.Style {
	switch {
	case !n.Up:
		return p.st.Down
	case n.Slow > 1 || n.Isolated:
		return p.st.Slow
	default:
		return p.st.Up
	}
}

// card renders one node at the pane's level, as lines of exactly p.cw cells, and
// notes in p.used what the legend must explain.
func (p *nodesPane) card(n trace.NodeView, sel, sideA bool, f *cardFacts) []string {
	st := p.st
	leads := n.Up && n.Status.Leader == n.ID
	gs := st.Group(n.Group)
	g := glyph(n)
	if g == "●" && justLeft(p.left, n) {
		g = "◇"
	}
	if p.level >= levelLine {
		p.used |= glyphItem(g) // the richer cards say it in words
	}
	switch p.level {
	case levelDot, levelTiny:
		text := g
		if p.level == levelTiny {
			id := strconv.Itoa(int(n.ID))
			if len(id) > tinyW-2 {
				id = ""
			}
			text = fit(strings.Repeat(" ", tinyW-2-len(id))+id+" "+g, tinyW)
		}
		switch {
		case sel:
			return []string{p.dot(lookSelected, st.Selected, text)}
		case sideA:
			return []string{p.dot(lookSideA, st.SideA, text)}
		case !n.Up:
			return []string{p.dot(lookDown, st.Down, text)}
		case leads:
			return []string{p.dot(lookLead, st.Lead, text)}
		case n.Group > 0:
			return []string{p.dot(lookGroup+n.Group, gs, text)}
		case n.Slow > 1 || n.Isolated:
			return []string{p.dot(lookSlow, st.Slow, text)}
		}
		return []string{p.dot(lookUp, st.Up, text)}
	case levelLine, levelMedium:
		mark := " "
		if sel {
			mark = "»"
		}
		id := n.ID.String()
		if p.level == levelLine {
			l1 := mark + id + " " + g + p.recvMark(n)
			if f.family == "mutex" {
				if cs := p.csText(n, f); cs != "" {
					l1 += " " + cs
				}
			} else if n.Up {
				l1 += " →" + n.Status.Leader.String()
				p.used |= lgArrow
			}
			if k := len(n.Status.Suspects); k > 0 {
				l1 += " s" + strconv.Itoa(k)
				p.used |= lgSusN
			}
			return []string{p.cardStyle(n, sel, sideA).Render(fit(l1, p.cw))}
		}
		l1 := mark + id + p.recvMark(n) + " " + upText(st.Lang, n)
		if leads {
			l1 += " ★"
			p.used |= lgLeader
		}
		if g := groupLetter(n.Group); g != "" {
			l1 += " [" + g + "]"
		}
		var l2 string
		if f.family == "mutex" {
			l2 = "  " + p.csText(n, f)
			if q := p.queueText(n); q != "" {
				l2 += " " + q
			}
		} else if !n.Up {
			l2 = "  ↓ " + fmtT(n.DownSince)
			p.used |= lgDownSince
		} else {
			l2 = "  →" + n.Status.Leader.String()
			p.used |= lgArrow
			if tt := p.termText(n); tt != "" {
				l2 += " " + tt
			}
			if k := len(n.Status.Suspects); k > 0 {
				l2 += " " + st.T("tui.card.sus") + strconv.Itoa(k)
				p.used |= lgSus
			}
		}
		cs := p.cardStyle(n, sel, sideA)
		return []string{cs.Render(fit(l1, p.cw)), cs.Render(fit(l2, p.cw))}
	}
	// full card
	iw := p.cw - 2
	stateWord := p.stateStyle(n).Render(upText(st.Lang, n))
	role := st.Lang.Word(n.Status.Role)
	switch {
	case leads:
		role = st.Lead.Render("★ " + st.Lang.Word("leader"))
		p.used |= lgLeader
	case !n.Up:
		role = ""
	case n.Status.Role == "holder":
		role = st.Lead.Render("◉ " + role)
		p.used |= lgToken
	}
	l1 := stateWord
	if role != "" {
		l1 += " " + role
	}
	rest := p.rows(n, f)
	l2, l3, l4 := rest[0], rest[1], rest[2]
	if !n.Up {
		l2, l3, l4 = st.Muted.Render(l2), st.Muted.Render(l3), st.Muted.Render(l4)
	}
	// border: group colour, red when down, bright and heavy when selected
	bs := st.Border
	if n.Group > 0 {
		bs = gs
	}
	if !n.Up {
		bs = st.Down
	}
	tl, tr, bl, br, hz, vt := "╭", "╮", "╰", "╯", "─", "│"
	if sel {
		bs = st.BorderFocused.Bold(true)
		tl, tr, bl, br, hz, vt = "┏", "┓", "┗", "┛", "━", "┃"
	}
	title := " " + n.ID.String() + " "
	switch {
	case leads:
		title = " " + n.ID.String() + " ★ "
	case n.Up && n.Status.Role == "holder":
		title = " " + n.ID.String() + " ◉ "
	}
	titleS := st.Title.Render(title)
	if leads || (n.Up && n.Status.Role == "holder") {
		titleS = st.Lead.Render(title)
	}
	if r := p.recvMark(n); r != "" {
		// the receiver of the selected message: said in its title
		titleS += st.Selected.Render(r[1:] + " ")
	}
	right := ""
	if g := groupLetter(n.Group); g != "" {
		right = gs.Bold(true).Render(g)
	}
	if n.Isolated {
		right = st.Slow.Render("iso")
	}
	if sideA {
		right = st.SideA.Render("A")
	}
	fill := iw - ansi.StringWidth(titleS) - ansi.StringWidth(right) - 1
	if right != "" {
		fill--
	}
	var top string
	if fill >= 0 {
		top = bs.Render(tl+hz) + titleS + bs.Render(strings.Repeat(hz, fill))
		if right != "" {
			top += right + bs.Render(hz)
		}
		top += bs.Render(tr)
	} else {
		top = bs.Render(tl) + fit(titleS, iw) + bs.Render(tr)
	}
	side := bs.Render(vt)
	out := []string{top}
	for _, l := range []string{l1, l2, l3, l4} {
		out = append(out, side+fit(l, iw)+side)
	}
	out = append(out, bs.Render(bl+strings.Repeat(hz, iw)+br))
	return out
}

// cardStyle is the style of a borderless card.
func (p *nodesPane) cardStyle(n trace.NodeView, sel, sideA bool) lipgloss.Style {
	switch {
	case sel:
		return p.st.Selected
	case sideA:
		return p.st.SideA
	case !n.Up:
		return p.st.Down
	case n.Up && n.Status.Leader == n.ID:
		return p.st.Lead
	case n.Group > 0:
		return p.st.Group(n.Group)
	}
	return lipgloss.NewStyle()
}

// termText is "t3", "t3 i2" or "#2": the algorithm's term and incarnation, or the
// runtime incarnation after a revival.
func (p *nodesPane) termText(n trace.NodeView) string {
	var parts []string
	if n.Status.Term > 0 {
		parts = append(parts, "t"+strconv.FormatInt(n.Status.Term, 10))
		p.used |= lgTerm
	}
	if n.Status.Inc > 0 {
		parts = append(parts, "i"+strconv.FormatInt(n.Status.Inc, 10))
		p.used |= lgAlgoInc
	} else if n.Inc > 1 {
		parts = append(parts, "#"+strconv.FormatInt(n.Inc, 10))
		p.used |= lgRevival
	}
	return strings.Join(parts, " ")
}
