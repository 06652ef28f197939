package tui

import (
	"github.com/clusterlab/clusterlab/lang"
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// T is the dashboard's text for key in its language.
func (st *Styles) T(key string) string { return st.Lang.T(key) }

// Styles holds every style the dashboard uses, in one place (soft-serve's pattern):
// panes never build their own colours.
type Styles struct {
	// Lang is the language of the dashboard's texts (Options.Lang sets it).
	Lang lang.Lang

	Header      lipgloss.Style // the whole header line
	Brand       lipgloss.Style // "clusterlab"
	HeaderValue lipgloss.Style // values in the header
	Running     lipgloss.Style
	Paused      lipgloss.Style
	Recording   lipgloss.Style

	Border        lipgloss.Style // pane borders
	BorderFocused lipgloss.Style
	Title         lipgloss.Style // pane titles
	TitleFocused  lipgloss.Style

	Muted lipgloss.Style // secondary text
	Up    lipgloss.Style
	Down  lipgloss.Style
	Slow  lipgloss.Style
	Lead  lipgloss.Style // the leader mark
	Left  lipgloss.Style // a critical section just left, drawn for its display hold
	Warn  lipgloss.Style
	Bad   lipgloss.Style
	Good  lipgloss.Style
	Key   lipgloss.Style // key names in prompts

	Selected lipgloss.Style // the selected node in compact views
	SideA    lipgloss.Style // nodes put into side A in partition mode

	Banner  lipgloss.Style // the alert banner
	Over    lipgloss.Style // the banner saying an alert is over
	Prompt  lipgloss.Style // the command line prompt
	Error   lipgloss.Style // an inline parse error
	Flash   lipgloss.Style // a short-lived status message
	Story   lipgloss.Style // the narration
	Marker  lipgloss.Style // marker texts
	Lane    lipgloss.Style // timeline lifelines
	Arrow   lipgloss.Style // a delivered message
	Dropped lipgloss.Style // a dropped message
	Event   lipgloss.Style // crash, recover, partition… in the timeline

	Spark lipgloss.Style // the msgs/s sparkline

	// Groups colour partition groups 1, 2, …; group 0 (a whole network) is plain.
	Groups []color.Color

	Help help.Styles

	// pensOf is the pens of the styles drawn most, made on first use
	pensOf *stylePens
}

// stylePens are the pens of the styles drawn most: borders, titles and the
// timeline's cells.
type stylePens struct {
	border, borderFocused, title, titleFocused pen
	muted, lane, arrow, dropped, event, marker pen
	lead, down, spark                          pen
}

// pens are the styles' pens. A model owns its Styles (New copies them), and draws
// from one goroutine.
func (st *Styles) pens() *stylePens {
	if st.pensOf == nil {
		st.pensOf = &stylePens{
			border: penOf(st.Border), borderFocused: penOf(st.BorderFocused),
			title: penOf(st.Title), titleFocused: penOf(st.TitleFocused),
			muted: penOf(st.Muted), lane: penOf(st.Lane), arrow: penOf(st.Arrow),
			dropped: penOf(st.Dropped), event: penOf(st.Event), marker: penOf(st.Marker),
			lead: penOf(st.Lead), down: penOf(st.Down), spark: penOf(st.Spark),
		}
	}
	return st.pensOf
}

// DefaultStyles is the dashboard's palette, chosen to read on dark and light
// terminals; the program downsamples it to what the terminal supports.
func DefaultStyles() *Styles {
	c := lipgloss.Color
	s := &Styles{
		Header:      lipgloss.NewStyle().Foreground(c("252")).Background(c("236")),
		Brand:       lipgloss.NewStyle().Bold(true).Foreground(c("212")).Background(c("236")),
		HeaderValue: lipgloss.NewStyle().Bold(true).Foreground(c("255")).Background(c("236")),
		Running:     lipgloss.NewStyle().Bold(true).Foreground(c("42")).Background(c("236")),
		Paused:      lipgloss.NewStyle().Bold(true).Foreground(c("214")).Background(c("236")),
		Recording:   lipgloss.NewStyle().Bold(true).Foreground(c("196")).Background(c("236")),

		Border:        lipgloss.NewStyle().Foreground(c("240")),
		BorderFocused: lipgloss.NewStyle().Foreground(c("212")),
		Title:         lipgloss.NewStyle().Bold(true).Foreground(c("250")),
		TitleFocused:  lipgloss.NewStyle().Bold(true).Foreground(c("212")),

		Muted: lipgloss.NewStyle().Foreground(c("244")),
		Up:    lipgloss.NewStyle().Foreground(c("42")),
		Down:  lipgloss.NewStyle().Bold(true).Foreground(c("196")),
		Slow:  lipgloss.NewStyle().Foreground(c("214")),
		Lead:  lipgloss.NewStyle().Bold(true).Foreground(c("220")),
		Left:  lipgloss.NewStyle().Italic(true).Foreground(c("180")),
		Warn:  lipgloss.NewStyle().Foreground(c("214")),
		Bad:   lipgloss.NewStyle().Foreground(c("203")),
		Good:  lipgloss.NewStyle().Foreground(c("42")),
		Key:   lipgloss.NewStyle().Bold(true).Foreground(c("212")),

		Selected: lipgloss.NewStyle().Reverse(true).Bold(true),
		SideA:    lipgloss.NewStyle().Bold(true).Foreground(c("0")).Background(c("81")),

		Banner:  lipgloss.NewStyle().Bold(true).Foreground(c("231")).Background(c("160")),
		Over:    lipgloss.NewStyle().Bold(true).Foreground(c("16")).Background(c("42")),
		Prompt:  lipgloss.NewStyle().Bold(true).Foreground(c("212")),
		Error:   lipgloss.NewStyle().Foreground(c("203")),
		Flash:   lipgloss.NewStyle().Foreground(c("81")),
		Story:   lipgloss.NewStyle().Foreground(c("252")),
		Marker:  lipgloss.NewStyle().Italic(true).Foreground(c("183")),
		Lane:    lipgloss.NewStyle().Foreground(c("238")),
		Arrow:   lipgloss.NewStyle().Foreground(c("75")),
		Dropped: lipgloss.NewStyle().Foreground(c("203")),
		Event:   lipgloss.NewStyle().Bold(true).Foreground(c("220")),

		Spark: lipgloss.NewStyle().Foreground(c("75")),

		Groups: []color.Color{c("81"), c("213"), c("149"), c("215"), c("141"), c("43")},
		Help:   help.DefaultDarkStyles(),
	}
	return s
}

// Group is the style of partition group g (0: none).
func (s *Styles) Group(g int) lipgloss.Style {
	if g <= 0 || len(s.Groups) == 0 {
		return lipgloss.NewStyle()
	}
	return lipgloss.NewStyle().Foreground(s.Groups[(g-1)%len(s.Groups)])
}

// groupLetter names partition group g as the dashboard shows it: A, B, …
func groupLetter(g int) string {
	if g <= 0 {
		return ""
	}
	return string(rune('A' + (g-1)%26))
}

// fit pads or truncates a (possibly styled) line to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// box draws a pane: a rounded border with the title in the top edge, and the lines
// fitted into exactly w×h cells (borders included).
func box(st *Styles, title string, lines []string, w, h int, focused bool) string {
	return boxWithFooter(st, title, "", lines, w, h, focused)
}

// boxWithFooter is box with a (styled) footer in the bottom edge, such as a legend;
// a footer too wide for the edge is cut.
func boxWithFooter(st *Styles, title, footer string, lines []string, w, h int, focused bool) string {
	if w < 2 || h < 2 {
		return blank(w, h)
	}
	bs, ts := st.pens().border, st.pens().title
	if focused {
		// marked, not only coloured: a monochrome terminal shows it too
		bs, ts, title = st.pens().borderFocused, st.pens().titleFocused, "▸ "+title
	}
	inner := w - 2
	var b strings.Builder
	b.Grow((w + 8) * h * 2)
	top := "─"
	if title != "" && inner > 4 {
		t := ansi.Truncate(" "+title+" ", inner-1, "…")
		tw := ansi.StringWidth(t)
		b.WriteString(bs.paint("╭─"))
		b.WriteString(ts.paint(t))
		b.WriteString(bs.paint(strings.Repeat(top, max(0, inner-1-tw)) + "╮"))
	} else {
		b.WriteString(bs.paint("╭" + strings.Repeat(top, inner) + "╮"))
	}
	side := bs.paint("│")
	for i := 0; i < h-2; i++ {
		b.WriteByte('\n')
		b.WriteString(side)
		if i < len(lines) {
			b.WriteString(fit(lines[i], inner))
		} else {
			b.WriteString(strings.Repeat(" ", inner))
		}
		b.WriteString(side)
	}
	b.WriteByte('\n')
	if fw := ansi.StringWidth(footer); fw > 0 && inner > 4 {
		f := ansi.Truncate(" "+footer+" ", inner-1, "…")
		b.WriteString(bs.paint("╰─"))
		b.WriteString(f)
		b.WriteString(bs.paint(strings.Repeat("─", max(0, inner-1-ansi.StringWidth(f))) + "╯"))
	} else {
		b.WriteString(bs.paint("╰" + strings.Repeat("─", inner) + "╯"))
	}
	return b.String()
}

// blank is w×h spaces.
func blank(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	line := strings.Repeat(" ", w)
	lines := make([]string, h)
	for i := range lines {
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// pen is a style reduced to the escape sequences it puts around a run of text:
// painting with it is two string joins, where lipgloss's Render measures, pads and
// wraps its text anew on every call (a third of a frame, drawing the timeline and
// the borders a segment at a time). Only for styles that set colours and
// attributes, never a width, padding, margin or border, and only for text without
// a newline or a tab: then pen(s).paint(t) is s.Render(t) (TestPens).
type pen struct{ pre, post string }

func penOf(s lipgloss.Style) pen {
	r := s.Render("x")
	i := strings.IndexByte(r, 'x')
	if i < 0 {
		return pen{}
	}
	return pen{r[:i], r[i+1:]}
}

// paint is text in the pen's style.
func (p pen) paint(text string) string {
	if p.pre == "" || text == "" {
		return text
	}
	return p.pre + text + p.post
}
