package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// matrixPane is the suspect matrix of a failure detector: rows are observers,
// columns targets, and a cell shows whether the observer suspects the target. The
// observers' current timeouts are on the right. Where not every node fits, the
// rows and the columns both follow the selection, so that "everyone suspects
// n500" is in view once n500 is selected. Focused, its arrows move the selection.
type matrixPane struct {
	b       *board
	w, h    int
	focused bool
	// cols is how many columns the last View drew, for the arrows
	cols int
}

func newMatrixPane(b *board) *matrixPane { return &matrixPane{b: b} }

func (p *matrixPane) SetSize(w, h int)  { p.w, p.h = w, h }
func (p *matrixPane) setFocused(f bool) { p.focused = f }
func (p *matrixPane) ShortHelp() []key.Binding {
	return []key.Binding{p.b.keys.Move}
}
func (p *matrixPane) FullHelp() [][]key.Binding { return [][]key.Binding{{p.b.keys.Move}} }

// Update moves the selection: up and down a row (an observer), left and right a
// column (a target): the selected node is both.
func (p *matrixPane) Update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || p.b.snap == nil || !key.Matches(k, p.b.keys.Move) {
		return false, nil
	}
	p.b.step(k.String())
	return true, nil
}

// View renders the pane.
func (p *matrixPane) View() string { return p.draw(p.b.snap, p.b.sel) }

// follow is the first of n items to show k at a time so that sel is in view,
// centred where it can be.
func follow(sel, n, k int) int {
	if k >= n {
		return 0
	}
	return min(max(sel-k/2, 0), n-k)
}

// matrixHeight is the box height the matrix wants for n nodes.
func matrixHeight(n int) int { return n + 3 }

// draw renders the pane for s with node index sel selected.
func (p *matrixPane) draw(s *trace.Snapshot, sel int) string {
	st := p.b.st
	iw, ih := p.w-2, p.h-2
	n := len(s.Nodes)
	label := 2
	for _, nv := range s.Nodes {
		label = max(label, len(nv.ID.String()))
	}
	cell := label + 1
	right := 14 // " to 1234ms ✗3"
	cols := min(n, max(0, (iw-label-1-right)/cell))
	if cols < n {
		right = 0
		cols = min(n, max(0, (iw-label-1)/cell))
		if cols < n {
			cols = max(cols-1, 1) // room for … at either end
		}
	}
	rows := min(n, ih-1)
	var lines []string
	p.cols = cols
	c0 := follow(sel, n, cols)
	var hdr strings.Builder
	hdr.WriteString(strings.Repeat(" ", label+1))
	if c0 > 0 {
		hdr.WriteString(st.Muted.Render("…"))
	}
	for j := c0; j < c0+cols; j++ {
		if j == sel {
			hdr.WriteString(st.Selected.Render(s.Nodes[j].ID.String()) + strings.Repeat(" ", cell-len(s.Nodes[j].ID.String())))
		} else {
			hdr.WriteString(st.Muted.Render(pad(s.Nodes[j].ID.String(), cell)))
		}
	}
	if c0+cols < n {
		hdr.WriteString(st.Muted.Render("…"))
	}
	if right > 0 {
		hdr.WriteString(st.Muted.Render(" " + st.T("tui.mx.timeout")))
	}
	lines = append(lines, hdr.String())
	first := follow(sel, n, rows)
	susp := make(map[node.ID]bool, n)
	for i := first; i < first+rows && i < n; i++ {
		o := s.Nodes[i]
		clear(susp)
		for _, id := range o.Status.Suspects {
			susp[id] = true
		}
		var b strings.Builder
		name := pad(o.ID.String(), label+1)
		if i == sel {
			b.WriteString(st.Selected.Render(name))
		} else {
			b.WriteString(name)
		}
		if c0 > 0 {
			b.WriteString(" ")
		}
		for j := c0; j < c0+cols; j++ {
			t := s.Nodes[j]
			var c string
			switch {
			case !o.Up, t.ID == o.ID:
				c = pad("", cell) // a down observer trusts no one; no one suspects itself
			case susp[t.ID]:
				if t.Up {
					c = st.Warn.Render(pad("⊘", cell)) // a mistake: suspects a live node
				} else {
					c = st.Bad.Render(pad("⊗", cell))
				}
			default:
				c = st.Good.Render(pad("○", cell))
			}
			b.WriteString(c)
		}
		if c0+cols < n {
			b.WriteString(" ")
		}
		if right > 0 {
			if !o.Up {
				b.WriteString(st.Down.Render(" " + st.T("tui.node.down")))
			} else if v, ok := counter(o.Status, "timeout_ms"); ok {
				b.WriteString(" " + strconv.FormatInt(v, 10) + "ms")
				if m, ok := counter(o.Status, "mistakes"); ok && m > 0 {
					b.WriteString(st.Warn.Render(" ⊘" + strconv.FormatInt(m, 10)))
				}
			}
		}
		lines = append(lines, b.String())
	}
	title := st.T("tui.title.suspects")
	if cols < n || rows < n {
		title += " · " + st.Lang.F("tui.mx.window", s.Nodes[first].ID.String(), s.Nodes[min(first+rows, n)-1].ID.String(),
			s.Nodes[c0].ID.String(), s.Nodes[c0+cols-1].ID.String(), n)
	}
	return box(st, title, lines, p.w, p.h, p.focused)
}

// pad left-aligns s in w cells (s is plain text).
func pad(s string, w int) string {
	n := len([]rune(s))
	if n >= w {
		return s
	}
	return s + strings.Repeat(" ", w-n)
}
