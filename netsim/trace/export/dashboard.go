package export

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// TextDashboard is a plain dashboard without styling: a header, one line per node,
// the network, message counts, the latest alerts and the latest events. It is what
// casts use when no other renderer is given, and what the tests replay against.
// Every line is at most w cells and there are at most h lines.
func TextDashboard(s *trace.Snapshot, w, h int) string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	gst := "asynchronous until GST"
	if s.Synchronous {
		gst = "synchronous"
	} else if s.GSTAt < 0 {
		gst = "asynchronous, no GST"
	}
	add(" clusterlab | %s | %s (%s) | %d nodes | t=%s | %s", s.Info.Name, s.Info.Algorithm, s.Info.Family, len(s.Nodes), fmtT(s.T), gst)
	add("%s", strings.Repeat("-", w))
	add(" %-5s %-5s %-4s %-12s %-7s %-6s %-9s %s", "node", "state", "inc", "role", "leader", "term", "cs", "suspects")
	for _, n := range s.Nodes {
		state := "up"
		if !n.Up {
			state = "down"
		}
		if n.Slow > 1 {
			state += "/" + strconv.Itoa(n.Slow)
		}
		term := ""
		if n.Status.Term != 0 {
			term = strconv.FormatInt(n.Status.Term, 10)
		}
		group := ""
		if n.Group > 0 {
			group = " group " + strconv.Itoa(n.Group)
		}
		if n.Isolated {
			group += " isolated"
		}
		add(" %-5v %-5s %-4d %-12s %-7v %-6s %-9s %s%s", n.ID, state, n.Inc, n.Status.Role, n.Status.Leader, term, n.Status.CS,
			joinIDs(n.Status.Suspects, " "), group)
	}
	add("%s", strings.Repeat("-", w))
	net := fmt.Sprintf(" network: %s, loss %g, in flight %d", s.Latency, s.Loss, s.InFlight)
	if len(s.Groups) > 0 {
		net += ", partition " + groupsText(s.Groups, plainIDs)
	}
	for _, c := range s.Cuts {
		net += fmt.Sprintf(", cut %v->%v", c[0], c[1])
	}
	add("%s", net)
	msgs := " messages:"
	for _, c := range s.Types {
		msgs += fmt.Sprintf(" %s %d/%d/%d", c.Type, c.Sent, c.Delivered, c.Dropped)
	}
	add("%s (sent/delivered/dropped)", msgs)
	if len(s.Drops) > 0 {
		var rs []string
		for r := range s.Drops {
			rs = append(rs, r)
		}
		sort.Strings(rs)
		drops := " drops:"
		for _, r := range rs {
			drops += fmt.Sprintf(" %s %d", r, s.Drops[r])
		}
		add("%s", drops)
	}
	add(" alerts: %d", s.AlertCount) // s.Alerts keeps only the latest
	for _, a := range s.Alerts[max(0, len(s.Alerts)-3):] {
		add("   %10s  %s: %s", fmtT(a.T), a.Kind, oneLine(a.Text))
	}
	add("%s", strings.Repeat("-", w))
	// The latest events fill the rest of the screen, newest last.
	room := h - len(lines)
	var recent []string
	for j := len(s.Recent) - 1; j >= 0 && len(recent) < room; j-- {
		if l := recentText(&s.Recent[j]); l != "" {
			recent = append(recent, l)
		}
	}
	for j := len(recent) - 1; j >= 0; j-- {
		lines = append(lines, recent[j])
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for j, l := range lines {
		if r := []rune(l); len(r) > w {
			lines[j] = string(r[:w])
		}
	}
	return strings.Join(lines, "\n")
}

// recentText is one line of the event feed, or "" for events it leaves out.
func recentText(e *trace.Event) string {
	at := fmt.Sprintf(" %12s  ", fmtT(e.T))
	switch e.Ev {
	case trace.Deliver:
		if e.Local {
			return ""
		}
		return at + fmt.Sprintf("%v -> %v  %s", e.From, e.To, msgLabel(e.Msg))
	case trace.Drop:
		return at + fmt.Sprintf("%v -x %v  %s (%s)", e.From, e.To, msgLabel(e.Msg), e.Reason)
	case trace.Alert:
		return at + "alert " + e.Kind + ": " + oneLine(e.Text)
	case trace.Marker:
		return at + "marker: " + oneLine(e.Text)
	case trace.Detect:
		return at + fmt.Sprintf("every live node suspects %v (%s)", e.Node, e.Value)
	}
	if isFault(e) {
		return at + faultText(e)
	}
	return ""
}
