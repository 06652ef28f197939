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
	// pal is the palette the styles were made from, if any
	pal palette
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

// palette is the colours of the dashboard, by the role they play: xterm-256 colours
// above 15 (the first sixteen are the terminal's own, and vary), chosen so that
// text reads at 4.5:1 or more and lines at 3:1 or more against the background
// they are meant for (TestPaletteContrast measures every role against two
// backgrounds of each kind). Colour never carries a meaning alone: a glyph or a
// letter says it too, so NO_COLOR loses nothing.
type palette struct {
	fg, title, muted, line                string // text, pane titles, secondary text, borders and lifelines
	hdrBg, hdrFg, hdrValue, hdrBrand      string // the header line
	running, paused, recording            string // the header's run state (on hdrBg)
	focus                                 string // the focused border and title, keys, prompts
	up, down, slow, lead, left, good, bad string
	flash, marker, arrow                  string
	bannerFg, bannerBg, overFg, overBg    string
	sideFg, sideBg                        string
	helpKey, helpDesc, helpSep            string
	groups                                []string
}

// darkPalette is for a dark terminal (measured against black and #262626).
var darkPalette = palette{
	fg: "252", title: "250", muted: "246", line: "243",
	hdrBg: "236", hdrFg: "252", hdrValue: "255", hdrBrand: "212",
	running: "42", paused: "214", recording: "210",
	focus: "212",
	up:    "42", down: "203", slow: "214", lead: "220", left: "180", good: "42", bad: "203",
	flash: "81", marker: "183", arrow: "75",
	bannerFg: "231", bannerBg: "160", overFg: "16", overBg: "42",
	sideFg: "16", sideBg: "81",
	helpKey: "250", helpDesc: "246", helpSep: "243",
	groups: []string{"81", "213", "149", "215", "141", "43"},
}

// lightPalette is for a light terminal (measured against white and #eeeeee).
var lightPalette = palette{
	fg: "235", title: "237", muted: "240", line: "244",
	hdrBg: "254", hdrFg: "235", hdrValue: "232", hdrBrand: "125",
	running: "22", paused: "58", recording: "124",
	focus: "125",
	up:    "22", down: "160", slow: "58", lead: "94", left: "61", good: "22", bad: "160",
	flash: "25", marker: "90", arrow: "25",
	bannerFg: "231", bannerBg: "124", overFg: "231", overBg: "22",
	sideFg: "231", sideBg: "25",
	helpKey: "237", helpDesc: "240", helpSep: "244",
	groups: []string{"25", "127", "22", "23", "55", "89"},
}

// DefaultStyles is the dashboard's palette for a dark terminal, which the
// dashboard starts with; the program downsamples it to what the terminal
// supports.
func DefaultStyles() *Styles { return paletteStyles(darkPalette) }

// LightStyles is the palette for a light terminal: the dashboard switches to it
// when the terminal says its background is light.
func LightStyles() *Styles { return paletteStyles(lightPalette) }

func paletteStyles(p palette) *Styles {
	c := lipgloss.Color
	fg := func(x string) lipgloss.Style { return lipgloss.NewStyle().Foreground(c(x)) }
	hdr := func(x string) lipgloss.Style { return fg(x).Background(c(p.hdrBg)) }
	s := &Styles{
		Header:      hdr(p.hdrFg),
		Brand:       hdr(p.hdrBrand).Bold(true),
		HeaderValue: hdr(p.hdrValue).Bold(true),
		Running:     hdr(p.running).Bold(true),
		Paused:      hdr(p.paused).Bold(true),
		Recording:   hdr(p.recording).Bold(true),

		Border:        fg(p.line),
		BorderFocused: fg(p.focus),
		Title:         fg(p.title).Bold(true),
		TitleFocused:  fg(p.focus).Bold(true),

		Muted: fg(p.muted),
		Up:    fg(p.up),
		Down:  fg(p.down).Bold(true),
		Slow:  fg(p.slow),
		Lead:  fg(p.lead).Bold(true),
		Left:  fg(p.left).Italic(true),
		Warn:  fg(p.slow),
		Bad:   fg(p.bad),
		Good:  fg(p.good),
		Key:   fg(p.focus).Bold(true),

		Selected: lipgloss.NewStyle().Reverse(true).Bold(true),
		SideA:    fg(p.sideFg).Background(c(p.sideBg)).Bold(true),

		Banner:  fg(p.bannerFg).Background(c(p.bannerBg)).Bold(true),
		Over:    fg(p.overFg).Background(c(p.overBg)).Bold(true),
		Prompt:  fg(p.focus).Bold(true),
		Error:   fg(p.bad),
		Flash:   fg(p.flash),
		Story:   fg(p.fg),
		Marker:  fg(p.marker).Italic(true),
		Lane:    fg(p.line),
		Arrow:   fg(p.arrow),
		Dropped: fg(p.bad),
		Event:   fg(p.lead).Bold(true),

		Spark: fg(p.arrow),

		Help: help.Styles{
			ShortKey: fg(p.helpKey).Bold(true), ShortDesc: fg(p.helpDesc), ShortSeparator: fg(p.helpSep),
			Ellipsis: fg(p.helpSep), FullKey: fg(p.helpKey).Bold(true), FullDesc: fg(p.helpDesc), FullSeparator: fg(p.helpSep),
		},
		pal: p,
	}
	for _, g := range p.groups {
		s.Groups = append(s.Groups, c(g))
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
