package tui

import (
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// role is what the history strip shows of a node at one instant.
type role uint8

const (
	roleNone role = iota // not seen yet
	roleUp
	roleDown
	roleLeader
	roleCandidate
	roleCS
	roleSuspected
)

// roleCells are the strip's glyphs, indexed by role.
var roleCells = [...]rune{roleNone: ' ', roleUp: '─', roleDown: '_', roleLeader: '█', roleCandidate: '▒', roleCS: '▓', roleSuspected: '░'}

// historyWindow is how much virtual time the strip spans (µs).
const historyWindow = 10_000_000

// historyCap bounds the samples kept: a sample is taken only when some node's role
// changes, and the oldest go first, so memory stays bounded however long the run.
const historyCap = 512

// roleSample is the roles of every node from instant t on.
type roleSample struct {
	t     int64
	roles []role
}

// historyPane is a Gantt of roles: per node one line over the last historyWindow of
// virtual time, folded from the snapshots the dashboard has seen.
type historyPane struct {
	st      *Styles
	w, h    int
	ids     []node.ID
	samples []roleSample // oldest first, at most historyCap
	drawn   histHit      // where the last frame put the lines and the columns
}

// histHit is where the strip's last frame drew its lines: the first node and how
// many lines, the width of the id column (and its space), the strip's columns and
// the virtual time its left edge stands for (µs).
type histHit struct {
	first, rows, idW, sw int
	start                int64
}

// nodeAt is the node whose line is drawn at (x, y) of the pane's box.
func (p *historyPane) nodeAt(x, y int) (int, bool) {
	h := p.drawn
	x, y = x-1, y-1
	if x < 0 || x >= h.idW+1+h.sw || y < 0 || y >= h.rows {
		return 0, false
	}
	return h.first + y, true
}

// timeAt is the virtual time (µs) of the strip's column at x of the pane's box: the
// end of the stretch of time the column stands for, as it shows the role in force
// then. False on the id column.
func (p *historyPane) timeAt(x int) (int64, bool) {
	h := p.drawn
	c := x - 1 - (h.idW + 1)
	if c < 0 || c >= h.sw {
		return 0, false
	}
	return max(h.start+int64(c+1)*historyWindow/int64(h.sw), 0), true
}

// SetSize sets the pane's box.
func (p *historyPane) SetSize(w, h int) { p.w, p.h = w, h }

// rolesOf is each node's role in s, the most telling first: down, in the critical
// section, leading, candidate, suspected by a live node, up.
func rolesOf(s *trace.Snapshot) []role {
	suspected := map[node.ID]bool{}
	for _, n := range s.Nodes {
		if n.Up {
			for _, id := range n.Status.Suspects {
				suspected[id] = true
			}
		}
	}
	out := make([]role, len(s.Nodes))
	for i, n := range s.Nodes {
		switch {
		case !n.Up:
			out[i] = roleDown
		case n.Status.CS == node.CSHeld:
			out[i] = roleCS
		case n.Status.Leader == n.ID || n.Status.Role == "leader":
			out[i] = roleLeader
		case n.Status.Role == "candidate":
			out[i] = roleCandidate
		case suspected[n.ID]:
			out[i] = roleSuspected
		default:
			out[i] = roleUp
		}
	}
	return out
}

// observe folds one snapshot. A snapshot earlier than the last sample (a replay
// that went back) forgets what came after it.
func (p *historyPane) observe(s *trace.Snapshot) {
	if len(s.Nodes) != len(p.ids) || !slices.EqualFunc(s.Nodes, p.ids, func(n trace.NodeView, id node.ID) bool { return n.ID == id }) {
		p.ids = make([]node.ID, len(s.Nodes))
		for i, n := range s.Nodes {
			p.ids[i] = n.ID
		}
		p.samples = nil
	}
	for len(p.samples) > 0 && p.samples[len(p.samples)-1].t > s.T {
		p.samples = p.samples[:len(p.samples)-1]
	}
	r := rolesOf(s)
	if k := len(p.samples); k > 0 && slices.Equal(p.samples[k-1].roles, r) {
		return
	}
	if k := len(p.samples); k > 0 && p.samples[k-1].t == s.T {
		p.samples[k-1].roles = r
		return
	}
	if len(p.samples) == historyCap {
		p.samples = slices.Delete(p.samples, 0, 1)
	}
	p.samples = append(p.samples, roleSample{t: s.T, roles: r})
}

// roleStyle is the colour of a role's cells.
func (p *historyPane) roleStyle(r role) lipgloss.Style {
	st := p.st
	switch r {
	case roleUp:
		return st.Up
	case roleDown:
		return st.Down
	case roleLeader:
		return st.Lead
	case roleCandidate:
		return st.Warn
	case roleCS:
		return st.Key
	case roleSuspected:
		return st.Bad
	}
	return lipgloss.NewStyle()
}

// View renders the strip at snapshot s with node index sel selected: the last
// historyWindow of virtual time, now at the right edge.
func (p *historyPane) draw(s *trace.Snapshot, sel int, focused bool) string {
	iw, ih := p.w-2, p.h-2
	title := p.st.Lang.F("tui.title.history", historyWindow/1_000_000)
	if iw < 8 || ih < 1 {
		p.drawn = histHit{}
		return box(p.st, title, nil, p.w, p.h, focused)
	}
	idW := 0
	for _, id := range p.ids {
		idW = max(idW, len(id.String()))
	}
	sw := iw - idW - 1
	rows := ih
	legend := ih >= 4
	if legend {
		rows--
	}
	n := len(p.ids)
	first := 0
	if n > rows && sel >= rows {
		first = min(sel-rows+1, n-rows)
	}
	// the sample in force at the end of each column
	col := make([]int, max(sw, 0))
	start := s.T - historyWindow
	j := -1
	for c := range col {
		end := start + int64(c+1)*historyWindow/int64(sw)
		for j+1 < len(p.samples) && p.samples[j+1].t <= end {
			j++
		}
		col[c] = j
	}
	p.drawn = histHit{first: first, rows: min(n-first, rows), idW: idW, sw: max(sw, 0), start: start}
	lines := make([]string, 0, ih)
	var b, run strings.Builder
	for i := first; i < n && len(lines) < rows; i++ {
		b.Reset()
		id := p.ids[i].String()
		id += strings.Repeat(" ", idW-len(id)) + " "
		if i == sel {
			b.WriteString(p.st.Selected.Render(id[:len(id)-1]) + " ")
		} else {
			b.WriteString(id)
		}
		at := func(c int) role {
			if col[c] < 0 || i >= len(p.samples[col[c]].roles) {
				return roleNone
			}
			return p.samples[col[c]].roles[i]
		}
		for c := 0; c < sw; {
			r := at(c)
			run.Reset()
			for c < sw && at(c) == r {
				run.WriteRune(roleCells[r])
				c++
			}
			if r == roleNone {
				b.WriteString(run.String())
			} else {
				b.WriteString(p.roleStyle(r).Render(run.String()))
			}
		}
		lines = append(lines, b.String())
	}
	if legend {
		for len(lines) < rows {
			lines = append(lines, "")
		}
		var l strings.Builder
		for _, it := range []struct {
			r    role
			text string
		}{{roleUp, p.st.T("tui.node.up")}, {roleDown, p.st.T("tui.node.down")}, {roleLeader, p.st.Lang.Word("leader")}, {roleCandidate, p.st.Lang.Word("candidate")}, {roleCS, p.st.T("tui.hist.incs")}, {roleSuspected, p.st.T("tui.hist.suspected")}} {
			l.WriteString(p.roleStyle(it.r).Render(string(roleCells[it.r])) + " " + p.st.Muted.Render(it.text) + "  ")
		}
		lines = append(lines, l.String())
	}
	return box(p.st, title, lines, p.w, p.h, focused)
}

// nodesView is what the nodes pane's place shows.
type nodesView uint8

const (
	viewNodes nodesView = iota
	viewTopology
	viewHistory
)

// toggle is the view after the key of view v: v, or the cards if v is shown.
func (cur nodesView) toggle(v nodesView) nodesView {
	if cur == v {
		return viewNodes
	}
	return v
}

// height is the pane's height: the cards' own for the cards, at least half the body
// (half) for the topology, and one line per node (and the legend) for the strip.
func (cur nodesView) height(cards, n, half int) int {
	switch cur {
	case viewTopology:
		return max(cards, half)
	case viewHistory:
		return max(cards, min(n+3, half))
	}
	return cards
}
