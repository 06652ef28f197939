package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// bannerFor is how long (virtual µs) an alert stays in the banner after it is
// raised. A split brain stays there as long as two live nodes lead.
const bannerFor = 5_000_000

// alertsPane lists every alert with its time.
type alertsPane struct {
	st   *Styles
	w, h int
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
	for _, a := range s.Alerts[from:] {
		lines = append(lines, st.Muted.Render(leftPad(fmtT(a.T), 9))+" "+st.Bad.Render(a.Kind)+" "+a.Text)
	}
	if len(s.Alerts) == 0 {
		lines = append(lines, st.Good.Render("no alerts"))
	}
	title := "Alerts"
	if len(s.Alerts) > 0 {
		title += " (" + strconv.Itoa(len(s.Alerts)) + ")"
	}
	return box(st, title, lines, p.w, p.h, false)
}

// banner is the alert line shown under the header while an alert is fresh, or "".
func banner(st *Styles, s *trace.Snapshot, w int) string {
	var active []trace.Event
	seen := map[string]bool{}
	for i := len(s.Alerts) - 1; i >= 0; i-- {
		a := s.Alerts[i]
		fresh := s.T-a.T <= bannerFor
		if a.Kind == "split-brain" && len(s.Leaders()) > 1 {
			fresh = true
		}
		if fresh && !seen[a.Kind] {
			seen[a.Kind] = true
			active = append(active, a)
		}
	}
	if len(active) == 0 || w <= 0 {
		return ""
	}
	parts := make([]string, len(active))
	for i, a := range active {
		parts[i] = strings.ToUpper(strings.ReplaceAll(a.Kind, "-", " ")) + " at " + fmtT(a.T) + ": " + a.Text
	}
	text := " ⚠ " + strings.Join(parts, "  ·  ")
	if ansi.StringWidth(text) > w {
		text = ansi.Truncate(text, w, "…")
	}
	return st.Banner.Render(fit(text, w))
}
