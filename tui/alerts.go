package tui

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/internal/termtext"
	"github.com/clusterlab/clusterlab/lang"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// severity orders alert kinds for the banner, most severe first: a broken safety
// property before a liveness one, and a detector's mistake last. Kinds not listed
// come after these.
var severity = []string{"mutex", "split-brain", "starvation", "no-leader", "false-suspicion"}

func rank(kind string) int {
	if i := slices.Index(severity, kind); i >= 0 {
		return i
	}
	return len(severity)
}

// kindName is an alert kind as words: "split brain".
func kindName(l lang.Lang, kind string) string {
	return l.AlertKind(kind)
}

// alertsPane lists the latest alerts as intervals: when each was raised and when
// it cleared, or that it still holds, newest last. Focused, it scrolls back
// through every alert kept and shows each one's text whole, wrapped.
type alertsPane struct{ linePane }

func newAlertsPane(b *board) *alertsPane {
	p := &alertsPane{newLinePane(b, true)}
	p.all = p.lines
	return p
}

// alertsHeight is the box height the list wants.
func alertsHeight(s *trace.Snapshot) int { return min(max(len(s.Alerts), 1), 6) + 2 }

// View renders the pane.
func (p *alertsPane) View() string {
	st := p.b.st
	s := p.b.snap
	lines := p.lines(s)
	from, to := p.scroll.window(len(lines), p.h-2)
	title := st.T("tui.title.alerts")
	if s.AlertCount > 0 {
		title += " (" + strconv.Itoa(s.AlertCount) + ")"
		if k := len(s.Open); k > 0 {
			title += " · " + strconv.Itoa(k) + " " + st.T("tui.alert.openn")
		}
	}
	if from > 0 || to < len(lines) {
		title += " · " + st.Lang.F("tui.lines", from+1, to, len(lines))
	}
	return box(st, title, lines[from:to], p.w, p.h, p.focused)
}

// lines are every alert kept, one line each, or, focused, each wrapped whole.
func (p *alertsPane) lines(s *trace.Snapshot) []string {
	st := p.b.st
	var lines []string
	for i := range s.Alerts {
		a := &s.Alerts[i]
		end := st.Bad.Render(st.T("tui.alert.open"))
		if !a.Open() {
			end = st.Muted.Render(fmtT(a.Cleared))
		}
		kind := st.Bad.Render("⚠ " + termtext.Line(a.Kind))
		if !a.Open() {
			kind = st.Warn.Render("✓ " + termtext.Line(a.Kind))
		}
		head := st.Muted.Render(leftPad(fmtT(a.T), 9)+"–") + end + " " + kind + " "
		room := p.w - 2 - ansi.StringWidth(head)
		text := termtext.Line(st.Lang.Text(a.Text))
		if !p.focused || room < 8 {
			lines = append(lines, head+alertText(text, room))
			continue
		}
		for j, l := range strings.Split(ansi.Wrap(text, room, ""), "\n") {
			if j == 0 {
				lines = append(lines, head+l)
			} else {
				lines = append(lines, strings.Repeat(" ", ansi.StringWidth(head))+l)
			}
		}
	}
	if len(s.Alerts) == 0 {
		lines = append(lines, st.Good.Render(st.T("tui.alert.none")))
	}
	return lines
}

// alertText fits an alert's text into w cells: when it is too long, the words
// before its last colon go first, so that the nodes it names stay in view.
func alertText(text string, w int) string {
	if ansi.StringWidth(text) <= w {
		return text
	}
	if i := strings.LastIndex(text, ": "); i >= 0 {
		return "…" + text[i+1:]
	}
	return text
}

// worstOpen is the most severe open alert (the latest of its kind), if any.
func worstOpen(s *trace.Snapshot) (trace.AlertView, bool) {
	best := -1
	for i := range s.Open {
		if best < 0 || rank(s.Open[i].Kind) <= rank(s.Open[best].Kind) {
			best = i
		}
	}
	if best < 0 {
		return trace.AlertView{}, false
	}
	return s.Open[best], true
}

// bannerLine is the line under the header: the most severe open alert, or for a
// few seconds after an alert ended, that it is over and how (when it is at
// least as severe as any still open), or nothing.
func (m *Model) bannerLine() string {
	var ended *trace.AlertView
	if time.Now().Before(m.endedUntil) {
		ended = &m.ended
	}
	return banner(m.st, m.snap, m.w, ended)
}

// banner is the alert line: the most severe alert that still holds, unless ended
// (an alert that just ended) is at least as severe, in which case it says that
// ended is over, when and how; "" when there is neither.
func banner(st *Styles, s *trace.Snapshot, w int, ended *trace.AlertView) string {
	if w <= 0 {
		return ""
	}
	text, style := "", st.Banner
	a, open := worstOpen(s)
	if ended != nil && (!open || rank(ended.Kind) <= rank(a.Kind)) {
		c := ended
		text, style = " ✓ "+kindName(st.Lang, c.Kind)+" "+st.T("tui.alert.ended"), st.Over
		if c.T >= 0 {
			text += " " + st.Lang.F("tui.alert.after", secs(c.Cleared-c.T))
		}
		if s.T-c.Cleared >= 1_000_000 {
			// an end a while ago in virtual time (a fast run) says when
			text += " " + st.Lang.F("tui.alert.at", fmtT(c.Cleared))
		}
		how := c.How
		if i := strings.Index(how, " over after "); i >= 0 {
			// the monitors' whole line ("no leader over after 1.70 s: every live
			// node follows n5") says what the banner says already: keep its end
			_, how, _ = strings.Cut(how[i:], ": ")
		}
		if how != "" {
			text += ": " + termtext.Line(st.Lang.Text(how))
		}
		if open {
			text += "  " + st.Lang.F("tui.alert.stillopen", len(s.Open))
		}
	} else if open {
		text = " ⚠ " + strings.ToUpper(kindName(st.Lang, a.Kind)) + " " + st.T("tui.alert.since") + " " + fmtT(a.T) + ": " + termtext.Line(st.Lang.Text(a.Text))
		if k := len(s.Open) - 1; k > 0 {
			text += "  " + st.Lang.F("tui.alert.more", k)
		}
	}
	if text == "" {
		return ""
	}
	if ansi.StringWidth(text) > w {
		text = ansi.Truncate(text, w, "…")
	}
	return style.Render(fit(text, w))
}

// secs renders a duration (µs) in seconds with two decimals: "4.61 s".
func secs(us int64) string {
	return strconv.FormatFloat(float64(us)/1e6, 'f', 2, 64) + " s"
}
