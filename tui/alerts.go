package tui

import (
	"github.com/clusterlab/clusterlab/lang"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

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
// it cleared, or that it still holds.
type alertsPane struct {
	st      *Styles
	w, h    int
	focused bool
}

func (p *alertsPane) SetSize(w, h int) { p.w, p.h = w, h }

// alertsHeight is the box height the list wants.
func alertsHeight(s *trace.Snapshot) int { return min(max(len(s.Alerts), 1), 6) + 2 }

// View renders the pane, newest last.
func (p *alertsPane) View(s *trace.Snapshot) string {
	st := p.st
	ih := p.h - 2
	var lines []string
	from := max(0, len(s.Alerts)-ih)
	for i := range s.Alerts[from:] {
		a := &s.Alerts[from+i]
		end := st.Bad.Render(st.T("tui.alert.open"))
		if !a.Open() {
			end = st.Muted.Render(fmtT(a.Cleared))
		}
		kind := st.Bad.Render(a.Kind)
		if !a.Open() {
			kind = st.Warn.Render(a.Kind)
		}
		head := st.Muted.Render(leftPad(fmtT(a.T), 9)+"–") + end + " " + kind + " "
		lines = append(lines, head+alertText(p.st.Lang.Text(a.Text), p.w-2-ansi.StringWidth(head)))
	}
	if len(s.Alerts) == 0 {
		lines = append(lines, st.Good.Render(st.T("tui.alert.none")))
	}
	title := st.T("tui.title.alerts")
	if s.AlertCount > 0 {
		title += " (" + strconv.Itoa(s.AlertCount) + ")"
		if k := len(s.Open); k > 0 {
			title += " · " + strconv.Itoa(k) + " " + st.T("tui.alert.openn")
		}
	}
	return box(st, title, lines, p.w, p.h, p.focused)
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

// banner is the alert line shown under the header: the most severe alert that
// still holds, or, when cleared is set, that the last one is over; "" when there
// is neither.
func banner(st *Styles, s *trace.Snapshot, w int, cleared bool) string {
	if w <= 0 {
		return ""
	}
	text, style := "", st.Banner
	if a, ok := worstOpen(s); ok {
		text = " ⚠ " + strings.ToUpper(kindName(st.Lang, a.Kind)) + " " + st.T("tui.alert.since") + " " + fmtT(a.T) + ": " + st.Lang.Text(a.Text)
		if k := len(s.Open) - 1; k > 0 {
			text += "  " + st.Lang.F("tui.alert.more", k)
		}
	} else if c := s.LastCleared; cleared && c.Seq != 0 {
		text, style = " ✓ "+kindName(st.Lang, c.Kind)+" "+st.T("tui.alert.over")+" "+secs(c.Cleared-c.T), st.Over
		how := c.How
		if i := strings.Index(how, " over after "); i >= 0 {
			// the monitors' whole line ("no leader over after 1.70 s: every live
			// node follows n5") says what the banner says already: keep its end
			_, how, _ = strings.Cut(how[i:], ": ")
		}
		if how != "" {
			text += ": " + st.Lang.Text(how)
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
