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
	levelTiny                    // id and a glyph
	levelDot                     // one character
)

type levelGeom struct{ w, h, gap int }

var levelGeoms = [...]levelGeom{
	levelFull:   {14, 6, 0},
	levelMedium: {19, 2, 1},
	levelLine:   {13, 1, 1},
	levelTiny:   {4, 1, 1},
	levelDot:    {1, 1, 0},
}

// nodesPane shows one card per node.
type nodesPane struct {
	st      *Styles
	w, h    int
	n       int
	level   cardLevel
	cols    int
	cw      int // card width
	focused bool
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

// need is the box height (borders included) the pane wants for n nodes at width w,
// at most maxH: the richest level that fits, or the densest one.
func nodesHeight(n, w, maxH int) int {
	iw := w - 2
	for l := levelFull; l <= levelDot; l++ {
		cols, _ := gridCols(l, n, iw)
		rows := (n + cols - 1) / max(cols, 1)
		if need := rows*levelGeoms[l].h + 2; need <= maxH {
			return need
		}
	}
	return maxH
}

// gridCols is how many cards of level l fit in a row of width iw, and their width.
func gridCols(l cardLevel, n, iw int) (cols, cw int) {
	g := levelGeoms[l]
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
	sel       int
	partition bool
	sideA     map[node.ID]bool
}

// View renders the pane.
func (p *nodesPane) View(s *trace.Snapshot, m nodeMarks) string {
	title := p.st.T("tui.title.nodes") + " (" + strconv.Itoa(len(s.Nodes)) + ")"
	if m.sel < len(s.Nodes) {
		title += " · " + nodeSummary(p.st.Lang, s.Nodes[m.sel])
	}
	iw := p.w - 2
	var lines []string
	g := levelGeoms[p.level]
	for start := 0; start < len(s.Nodes); start += p.cols {
		end := min(start+p.cols, len(s.Nodes))
		rows := make([]strings.Builder, g.h)
		for i := start; i < end; i++ {
			card := p.card(s.Nodes[i], i == m.sel, m.partition && m.sideA[s.Nodes[i].ID], s.Info.Family, s.T)
			for r := range rows {
				if i > start && g.gap > 0 {
					rows[r].WriteString(strings.Repeat(" ", g.gap))
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
	if ih := p.h - 2; len(lines) > ih && ih > 0 {
		// keep the selected card's row in view
		row := (m.sel / p.cols) * g.h
		first := 0
		if row+g.h > ih {
			first = row + g.h - ih
		}
		lines = lines[first:min(len(lines), first+ih)]
	}
	_ = iw
	return box(p.st, title, lines, p.w, p.h, p.focused)
}

// nodeSummary is the one-line description of a node for the pane title.
func nodeSummary(l lang.Lang, n trace.NodeView) string {
	var b strings.Builder
	b.WriteString(n.ID.String())
	b.WriteString(": ")
	b.WriteString(upText(l, n))
	if n.Up && n.Status.Role != "" {
		b.WriteString(" " + l.Word(n.Status.Role))
	}
	b.WriteString(", " + l.T("tui.node.leader") + " " + n.Status.Leader.String())
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
		return "✗"
	case n.Status.Leader == n.ID:
		return "★"
	case n.Slow > 1:
		return "◐"
	case n.Isolated:
		return "◌"
	default:
		return "●"
	}
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

// card renders one node at the pane's level, as lines of exactly p.cw cells.
func (p *nodesPane) card(n trace.NodeView, sel, sideA bool, family string, now int64) []string {
	st := p.st
	leads := n.Up && n.Status.Leader == n.ID
	gs := st.Group(n.Group)
	switch p.level {
	case levelDot, levelTiny:
		g := glyph(n)
		text := g
		if p.level == levelTiny {
			text = fit(strconv.Itoa(int(n.ID)), 3) + g
			text = strings.Repeat(" ", max(0, 4-ansi.StringWidth(text))) + text
		}
		switch {
		case sel:
			return []string{st.Selected.Render(text)}
		case sideA:
			return []string{st.SideA.Render(text)}
		case !n.Up:
			return []string{st.Down.Render(text)}
		case leads:
			return []string{st.Lead.Render(text)}
		case n.Group > 0:
			return []string{gs.Render(text)}
		}
		return []string{p.stateStyle(n).Render(text)}
	case levelLine, levelMedium:
		mark := " "
		if sel {
			mark = "▸"
		}
		id := n.ID.String()
		l1 := mark + id + " " + glyph(n) + " →" + n.Status.Leader.String()
		if p.level == levelLine {
			if k := len(n.Status.Suspects); k > 0 {
				l1 += " s" + strconv.Itoa(k)
			}
			return []string{p.cardStyle(n, sel, sideA).Render(fit(l1, p.cw))}
		}
		l1 = mark + id + " " + upText(st.Lang, n)
		if leads {
			l1 += " ★"
		}
		if g := groupLetter(n.Group); g != "" {
			l1 += " [" + g + "]"
		}
		l2 := "  →" + n.Status.Leader.String()
		if tt := termText(n); tt != "" {
			l2 += " " + tt
		}
		if k := len(n.Status.Suspects); k > 0 {
			l2 += " " + st.T("tui.card.sus") + strconv.Itoa(k)
		}
		if n.Status.CS != node.CSNone {
			l2 += " " + st.Lang.Word(n.Status.CS.String())
		}
		cs := p.cardStyle(n, sel, sideA)
		return []string{cs.Render(fit(l1, p.cw)), cs.Render(fit(l2, p.cw))}
	}
	// full card
	iw := p.cw - 2
	stateWord := p.stateStyle(n).Render(upText(st.Lang, n))
	role := st.Lang.Word(n.Status.Role)
	if leads {
		role = st.Lead.Render("★ " + st.Lang.Word("leader"))
	} else if !n.Up {
		role = ""
	}
	l1 := stateWord
	if role != "" {
		l1 += " " + role
	}
	// the other lines, in order of interest for the family; a mutual-exclusion
	// card skips the leader and suspects unless the algorithm reports them
	var rest []string
	mutex := family == "mutex"
	switch {
	case !n.Up:
		// a down node has no state worth showing: when it went down (↓), and which
		// incarnation it was
		rest = append(rest, "↓ "+fmtT(n.DownSince))
	case family == "detector" && n.Status.Leader == node.None && n.Status.Term == 0:
		// a plain failure detector has no leader line
	case !mutex || n.Status.Leader != node.None || n.Status.Term > 0:
		l := st.T("tui.card.ldr") + " " + n.Status.Leader.String()
		if tt := termText(n); tt != "" {
			l += " " + tt
		}
		rest = append(rest, l)
	}
	// suspects are a detector's output; others show them only when they report some
	if n.Up && (family == "detector" || len(n.Status.Suspects) > 0) {
		l := st.T("tui.card.sus") + " –"
		if len(n.Status.Suspects) > 0 {
			l = st.T("tui.card.sus") + " " + idList(n.Status.Suspects)
		}
		rest = append(rest, l)
	}
	if n.Up && (n.Status.CS != node.CSNone || mutex) {
		l := st.T("tui.node.cs") + " –"
		if n.Status.CS != node.CSNone {
			l = st.T("tui.node.cs") + " " + st.Lang.Word(n.Status.CS.String())
		}
		if n.Status.CS == node.CSHeld {
			l = st.T("tui.node.cs") + " " + st.Lead.Render(st.Lang.Word("held"))
		}
		if n.Status.CS == node.CSWanted && n.WantedSince >= 0 && now >= n.WantedSince {
			l += " " + fmtDur(now-n.WantedSince)
		}
		rest = append(rest, l)
	}
	if mutex && n.Up {
		if tt := termText(n); tt != "" {
			rest = append(rest, tt)
		}
	}
	for _, c := range n.Status.Counters {
		if len(rest) >= 3 || !n.Up {
			break
		}
		if c.Name == "timeout_ms" {
			rest = append(rest, "to "+strconv.FormatInt(c.Value, 10)+"ms")
		} else {
			rest = append(rest, c.Name+" "+strconv.FormatInt(c.Value, 10))
		}
	}
	if len(rest) < 3 {
		rest = append(rest, st.T("tui.node.inc")+" "+strconv.FormatInt(n.Inc, 10))
	}
	for len(rest) < 3 {
		rest = append(rest, "")
	}
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
	if leads {
		title = " " + n.ID.String() + " ★ "
	}
	titleS := st.Title.Render(title)
	if leads {
		titleS = st.Lead.Render(title)
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
	fill := iw - ansi.StringWidth(title) - ansi.StringWidth(right) - 1
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

// termText is "t3", "t3 i2" or "i2": the algorithm's term and incarnation, or the
// runtime incarnation after a revival.
func termText(n trace.NodeView) string {
	var parts []string
	if n.Status.Term > 0 {
		parts = append(parts, "t"+strconv.FormatInt(n.Status.Term, 10))
	}
	if n.Status.Inc > 0 {
		parts = append(parts, "i"+strconv.FormatInt(n.Status.Inc, 10))
	} else if n.Inc > 1 {
		parts = append(parts, "#"+strconv.FormatInt(n.Inc, 10))
	}
	return strings.Join(parts, " ")
}
