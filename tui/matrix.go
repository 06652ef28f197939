package tui

import (
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// matrixPane is the suspect matrix of a failure detector: rows are observers,
// columns targets, and a cell shows whether the observer suspects the target. The
// observers' current timeouts are on the right.
type matrixPane struct {
	st      *Styles
	w, h    int
	focused bool
}

func (p *matrixPane) SetSize(w, h int) { p.w, p.h = w, h }

// matrixHeight is the box height the matrix wants for n nodes.
func matrixHeight(n int) int { return n + 3 }

// View renders the pane.
func (p *matrixPane) View(s *trace.Snapshot, sel int) string {
	st := p.st
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
	}
	rows := min(n, ih-1)
	var lines []string
	var hdr strings.Builder
	hdr.WriteString(strings.Repeat(" ", label+1))
	for j := 0; j < cols; j++ {
		hdr.WriteString(st.Muted.Render(pad(s.Nodes[j].ID.String(), cell)))
	}
	if cols < n {
		hdr.WriteString(st.Muted.Render("…"))
	}
	if right > 0 {
		hdr.WriteString(st.Muted.Render(" " + st.T("tui.mx.timeout")))
	}
	lines = append(lines, hdr.String())
	first := 0
	if sel >= rows {
		first = sel - rows + 1
	}
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
		for j := 0; j < cols; j++ {
			t := s.Nodes[j]
			var c string
			switch {
			case !o.Up:
				c = st.Muted.Render(pad("·", cell))
			case t.ID == o.ID:
				c = st.Muted.Render(pad("╲", cell))
			case susp[t.ID]:
				if t.Up {
					c = st.Warn.Render(pad("◆", cell)) // a mistake: suspects a live node
				} else {
					c = st.Bad.Render(pad("◆", cell))
				}
			default:
				c = st.Good.Render(pad("○", cell))
			}
			b.WriteString(c)
		}
		if cols < n {
			b.WriteString(" ")
		}
		if right > 0 {
			if !o.Up {
				b.WriteString(st.Down.Render(" " + st.T("tui.node.down")))
			} else if v, ok := counter(o.Status, "timeout_ms"); ok {
				b.WriteString(" " + strconv.FormatInt(v, 10) + "ms")
				if m, ok := counter(o.Status, "mistakes"); ok && m > 0 {
					b.WriteString(st.Warn.Render(" ✗" + strconv.FormatInt(m, 10)))
				}
			}
		}
		lines = append(lines, b.String())
	}
	title := st.T("tui.title.suspects")
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
