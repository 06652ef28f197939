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

// glyphSections are the help's glyph sections after the cards': each a catalog
// key whose text lists a pane's glyphs, two spaces apart.
var glyphSections = []string{"tui.glyph.timeline", "tui.glyph.traffic", "tui.glyph.suspects", "tui.glyph.topology",
	"tui.glyph.history", "tui.glyph.replay", "tui.glyph.header", "tui.glyph.message"}

// glyphHelp is every glyph and abbreviation the dashboard draws, by pane, wrapped
// to w cells, for the full help: the cards' (the legend's), then each pane's, and
// a line on colours. Each glyph has one meaning wherever it is drawn.
func glyphHelp(st *Styles, w int) []string {
	var lines []string
	section := func(title string, items []string) {
		line := title
		for _, t := range items {
			if ansi.StringWidth(line)+2+ansi.StringWidth(t) > w {
				lines = append(lines, line)
				line = " "
			}
			line += "  " + t
		}
		lines = append(lines, line)
	}
	section(st.T("tui.legend.title"), legendTexts(st, lgEnd-1))
	for _, k := range glyphSections {
		title, items, _ := strings.Cut(st.T(k), ":")
		section(title+":", strings.Split(strings.TrimSpace(items), "  "))
	}
	section(st.T("tui.help.colours"), nil)
	for i := range lines {
		lines[i] = st.Muted.Render(lines[i])
	}
	return lines
}
