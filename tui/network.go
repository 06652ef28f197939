package tui

import (
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// networkPane shows the network's knobs and faults. Focused, it scrolls: a
// thousand nodes down fill more lines than it has.
type networkPane struct{ linePane }

func newNetworkPane(b *board) *networkPane {
	p := &networkPane{newLinePane(b, false)}
	p.all = p.lines
	return p
}

// networkHeight is the box height the pane wants.
const networkHeight = 8

// View renders the pane.
func (p *networkPane) View() string {
	st := p.b.st
	lines := p.lines(p.b.snap)
	title := st.T("tui.title.network")
	from, to := p.scroll.window(len(lines), p.h-2)
	if from > 0 || to < len(lines) {
		title += " · " + st.Lang.F("tui.lines", from+1, to, len(lines))
	}
	return box(st, title, lines[from:to], p.w, p.h, p.focused)
}

// lines are the pane's lines, all of them: the knobs, the groups, each fault (a
// line of them, wrapped) and what is in flight or dropped.
func (p *networkPane) lines(s *trace.Snapshot) []string {
	st := p.b.st
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
	lines := []string{
		st.Muted.Render(st.T("tui.net.latency")+" ") + st.Lang.Latency(s.Latency),
		st.Muted.Render(st.T("tui.net.loss")+" ") + f(s.Loss) + st.Muted.Render("  "+st.T("tui.net.dup")+" ") + f(s.Dup) +
			st.Muted.Render("  Δ ") + fmtDur(s.Delta),
		st.Muted.Render("GST ") + gstText(st.Lang, s),
	}
	// partition groups, coloured
	if len(s.Groups) > 0 {
		var b strings.Builder
		b.WriteString(st.Muted.Render(st.T("tui.net.groups") + " "))
		for g, members := range s.Groups {
			if g > 0 {
				b.WriteString(" ")
			}
			b.WriteString(st.Group(g + 1).Bold(true).Render(groupLetter(g+1) + "{" + idList(members) + "}"))
		}
		lines = append(lines, b.String())
	} else {
		lines = append(lines, st.Muted.Render(st.T("tui.net.groups")+" ")+st.T("tui.net.whole"))
	}
	var faults []string
	for _, n := range s.Nodes {
		if !n.Up {
			faults = append(faults, st.Down.Render(n.ID.String()+" "+st.T("tui.node.down")))
		}
	}
	for _, n := range s.Nodes {
		if n.Isolated {
			faults = append(faults, st.Slow.Render(n.ID.String()+" "+st.T("tui.node.isolated")))
		}
	}
	for _, c := range s.Cuts {
		faults = append(faults, st.Bad.Render(c[0].String()+"↛"+c[1].String()))
	}
	for _, n := range s.Nodes {
		if n.Slow > 1 {
			faults = append(faults, st.Slow.Render(n.ID.String()+"×"+strconv.Itoa(n.Slow)))
		}
	}
	if len(faults) > 0 {
		// wrapped, so that a scroll shows them all
		line, w := st.Muted.Render(st.T("tui.net.faults")+" "), ansi.StringWidth(st.T("tui.net.faults")+" ")
		for i, f := range faults {
			fw := ansi.StringWidth(f)
			if i > 0 && w+1+fw > p.w-2 {
				lines = append(lines, line)
				line, w = "  ", 2
			} else if i > 0 {
				line += " "
				w++
			}
			line += f
			w += fw
		}
		lines = append(lines, line)
	} else {
		lines = append(lines, st.Muted.Render(st.T("tui.net.faults")+" ")+st.T("tui.net.none"))
	}
	// in flight and drops by reason
	var drops []string
	reasons := make([]string, 0, len(s.Drops))
	for r := range s.Drops {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		drops = append(drops, st.Lang.Word(r)+" "+strconv.Itoa(s.Drops[r]))
	}
	l := st.Muted.Render(st.T("tui.net.inflight")+" ") + strconv.Itoa(s.InFlight)
	if len(drops) > 0 {
		l += st.Muted.Render("  "+st.T("tui.net.dropped")+" ") + st.Bad.Render(strings.Join(drops, " "))
	}
	lines = append(lines, l)
	return lines
}
