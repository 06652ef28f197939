package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// legendItem is one glyph or abbreviation the nodes pane can show; a set of them
// is what the legend under the pane explains.
type legendItem uint32

// The items, in the order the legend lists them: glyphs first.
const (
	lgUp legendItem = 1 << iota
	lgLeader
	lgDown
	lgHeld
	lgToken
	lgSlow
	lgIsolated
	lgLeft
	lgTimer
	lgArrow
	lgLdr
	lgTerm
	lgAlgoInc
	lgRevival
	lgSus
	lgSusN
	lgTimeout
	lgCS
	lgQueue
	lgVotes
	lgReplies
	lgGrants
	lgGiven
	lgStamp
	lgEntries
	lgDownSince
	lgInc
	lgEnd
)

// legendKeys are the items' texts in the catalog, in legendItem order.
var legendKeys = [...]string{
	"tui.legend.up", "tui.legend.leader", "tui.legend.down", "tui.legend.held",
	"tui.legend.token", "tui.legend.slow", "tui.legend.isolated", "tui.legend.left", "tui.legend.timer",
	"tui.legend.arrow", "tui.legend.ldr", "tui.legend.term", "tui.legend.algoinc",
	"tui.legend.revival", "tui.legend.sus", "tui.legend.susn", "tui.legend.timeout",
	"tui.legend.cs", "tui.legend.queue", "tui.legend.votes", "tui.legend.replies", "tui.legend.grants",
	"tui.legend.given", "tui.legend.stamp", "tui.legend.entries", "tui.legend.downsince",
	"tui.legend.inc",
}

// legendTexts are the texts of the items in set, in order.
func legendTexts(st *Styles, set legendItem) []string {
	var out []string
	for i, k := range legendKeys {
		if set&(1<<i) != 0 {
			out = append(out, st.T(k))
		}
	}
	return out
}

// legendLine is the one-line legend under the nodes pane: the items its cards
// show, as many whole ones as fit in w cells.
func legendLine(st *Styles, set legendItem, w int) string {
	var b strings.Builder
	n := 0
	for _, t := range legendTexts(st, set) {
		sep := ""
		if n > 0 {
			sep = "  "
		}
		if n+len(sep)+ansi.StringWidth(t) > w {
			break
		}
		b.WriteString(sep + t)
		n += len(sep) + ansi.StringWidth(t)
	}
	return st.Muted.Render(b.String())
}

// glyphHelp is every glyph and abbreviation the dashboard's cards use, wrapped to
// w cells, for the full help.
func glyphHelp(st *Styles, w int) []string {
	var lines []string
	line := st.T("tui.legend.title")
	for _, t := range legendTexts(st, lgEnd-1) {
		if ansi.StringWidth(line)+2+ansi.StringWidth(t) > w {
			lines = append(lines, line)
			line = " "
		}
		line += "  " + t
	}
	lines = append(lines, line)
	for i := range lines {
		lines[i] = st.Muted.Render(lines[i])
	}
	return lines
}
