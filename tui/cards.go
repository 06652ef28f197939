package tui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// cardFacts are what the cards of one snapshot share: which rows they have, so
// that a row means the same thing on every card and the rows line up.
type cardFacts struct {
	family string
	now    int64
	ldr    bool     // a row for the leader a node follows
	sus    bool     // a row for its suspects
	timer  bool     // a row for its main timer running down
	counts []string // counters with a row of their own, in order of first report
}

func newCardFacts(s *trace.Snapshot) cardFacts {
	f := cardFacts{family: s.Info.Family, now: s.T}
	// an election's output is its leader; a detector's its suspects, and a leader
	// only where it elects one (Ω)
	f.ldr = f.family == "election"
	f.sus = f.family == "detector"
	for _, n := range s.Nodes {
		if !n.Up {
			continue
		}
		if f.family != "mutex" && (n.Status.Leader != node.None || n.Status.Term > 0) {
			f.ldr = true
		}
		if len(n.Status.Suspects) > 0 {
			f.sus = true
		}
		if n.Status.Deadline.Running() {
			f.timer = true
		}
		if f.family == "mutex" {
			continue // its counters are read by name (queueText)
		}
		for _, c := range n.Status.Counters {
			if !slices.Contains(f.counts, c.Name) {
				f.counts = append(f.counts, c.Name)
			}
		}
	}
	return f
}

// rows are the three lines of a full card under its state line. A down node shows
// only when it went down and its incarnation; a mutual-exclusion card its critical
// section with how long, its queue or votes, and its entries; any other its leader,
// suspects and counters, each on the row every card gives it.
func (p *nodesPane) rows(n trace.NodeView, f *cardFacts) [3]string {
	st := p.st
	inc := st.T("tui.node.inc") + " " + strconv.FormatInt(n.Inc, 10)
	switch {
	case !n.Up:
		p.used |= lgDownSince | lgInc
		return [3]string{"↓ " + fmtT(n.DownSince), "", inc}
	case f.family == "mutex":
		last := ""
		if v, ok := n.Status.Counter("entries"); ok {
			last = st.Lang.Or("counter.entries", "entries") + " " + strconv.FormatInt(v, 10)
			p.used |= lgEntries
		}
		if tt := p.termText(n); tt != "" {
			last = strings.TrimSpace(last + " " + tt)
		}
		if _, voter := n.Status.Counter("votes"); voter {
			// a voter's queue (Maekawa's requests waiting for its vote) on the
			// entries row: its votes row is full with what it got and gave
			last = strings.TrimSpace(last + " " + p.queueCount(n))
		}
		return [3]string{p.csText(n, f), p.queueText(n), last}
	}
	var rows []string
	if f.ldr {
		l := st.T("tui.card.ldr") + " " + n.Status.Leader.String()
		if tt := p.termText(n); tt != "" {
			l += " " + tt
		}
		rows = append(rows, l)
		p.used |= lgLdr
	}
	if f.sus {
		l := st.T("tui.card.sus") + " –"
		if len(n.Status.Suspects) > 0 {
			l = st.T("tui.card.sus") + " " + idList(n.Status.Suspects)
		}
		rows = append(rows, l)
		p.used |= lgSus
	}
	// a detector's timer shares the row of its timeout (timeout_ms)
	if f.timer && !slices.Contains(f.counts, "timeout_ms") {
		rows = append(rows, p.timerText(n, f.now, 5))
	}
	for _, name := range f.counts {
		if len(rows) >= 3 {
			break
		}
		v, ok := n.Status.Counter(name)
		switch {
		case !ok:
			rows = append(rows, "")
		case name == "timeout_ms":
			l := "to " + strconv.FormatInt(v, 10) + "ms"
			if bar, _, ok := timerBar(st, n, f.now, 4); ok {
				l += " " + bar
				p.used |= lgTimer
			}
			rows = append(rows, l)
			p.used |= lgTimeout
		default:
			rows = append(rows, st.Lang.Or("counter."+name, name)+" "+strconv.FormatInt(v, 10))
		}
	}
	if len(rows) < 3 {
		rows = append(rows, inc)
		p.used |= lgInc
	}
	var out [3]string
	copy(out[:], rows)
	return out
}

// csText is a node's critical section and how long it has been in that state:
// "cs held 120ms", "cs wanted 1.2s" (the wait), "cs –".
func (p *nodesPane) csText(n trace.NodeView, f *cardFacts) string {
	st := p.st
	if !n.Up {
		return ""
	}
	p.used |= lgCS
	cs := st.T("tui.node.cs") + " "
	if justLeft(p.left, n) {
		// a section just left is drawn for its display hold, never as held
		p.used |= lgLeft
		t := "◇ " + st.T("tui.node.left")
		if d := p.left[n.ID]; d >= 0 {
			t += ", " + st.Lang.Word("held") + " " + fmtDur(d)
		}
		return cs + st.Left.Render(t)
	}
	switch n.Status.CS {
	case node.CSHeld:
		cs += st.Lead.Render(st.Lang.Word("held"))
		if n.HeldSince >= 0 && f.now >= n.HeldSince {
			cs += " " + fmtDur(f.now-n.HeldSince)
		}
	case node.CSWanted:
		cs += st.Warn.Render(st.Lang.Word("wanted"))
		if n.WantedSince >= 0 && f.now >= n.WantedSince {
			cs += " " + fmtDur(f.now-n.WantedSince)
		}
	default:
		cs += "–"
	}
	return cs
}

// queueText is what a mutual-exclusion node knows of the others' requests, from
// what its algorithm reports: the token (◉), the queue it keeps (when not empty),
// the votes, replies or grants it has, whom its vote or grant went to (→), its request's stamp.
func (p *nodesPane) queueText(n trace.NodeView) string {
	st := p.st
	var parts []string
	if n.Status.Role == "holder" {
		parts = append(parts, st.Lead.Render("◉ "+st.T("tui.card.token")))
		p.used |= lgToken
	}
	s := n.Status
	if _, voter := s.Counter("votes"); !voter {
		if q := p.queueCount(n); q != "" {
			parts = append(parts, q)
		}
	}
	// what it got of what it needs: maekawa's votes of its set, ricart's replies
	for _, g := range [...]struct {
		got, of, key string
		item         legendItem
	}{{"votes", "set_size", "tui.card.votes", lgVotes}, {"replies", "needed", "tui.card.replies", lgReplies}} {
		if v, ok := s.Counter(g.got); ok {
			t := st.T(g.key) + " " + strconv.FormatInt(v, 10)
			if k, ok := s.Counter(g.of); ok {
				t += "/" + strconv.FormatInt(k, 10)
			}
			parts = append(parts, t)
			p.used |= g.item
		}
	}
	if v, ok := s.Counter("grants"); ok {
		parts = append(parts, st.T("tui.card.grants")+" "+strconv.FormatInt(v, 10))
		p.used |= lgGrants
	}
	for _, name := range []string{"voted_for", "granted_to"} {
		if v, ok := s.Counter(name); ok && v > 0 {
			parts = append(parts, "⇢"+node.ID(v).String())
			p.used |= lgGiven
		}
	}
	if v, ok := s.Counter("req_ts"); ok && v > 0 {
		parts = append(parts, "ts "+strconv.FormatInt(v, 10))
		p.used |= lgStamp
	}
	return strings.Join(parts, " ")
}

// queueCount is the queue a node keeps, "queue 2", or "" when it keeps none or
// it is empty.
func (p *nodesPane) queueCount(n trace.NodeView) string {
	v, ok := n.Status.Counter("queue")
	if !ok || v <= 0 {
		return ""
	}
	p.used |= lgQueue
	return p.st.T("tui.card.queue") + " " + strconv.FormatInt(v, 10)
}

// timerText is a node's main timer as a bar of k cells running down, and the time
// left: "▰▰▰▱▱ 120ms"; "" when none runs.
func (p *nodesPane) timerText(n trace.NodeView, now int64, k int) string {
	bar, left, ok := timerBar(p.st, n, now, k)
	if !ok {
		return ""
	}
	p.used |= lgTimer
	if left == 0 {
		return bar + " 0s"
	}
	return bar + " " + fmtDur(left)
}

// timerBar is the bar of k cells of a node's main timer at virtual time now (µs),
// the time left (µs), and whether a timer runs. The bar is warm when under a
// quarter is left.
func timerBar(st *Styles, n trace.NodeView, now int64, k int) (string, int64, bool) {
	d := n.Status.Deadline
	if !n.Up || !d.Running() || k <= 0 {
		return "", 0, false
	}
	left := max(d.At.Microseconds()-now, 0)
	full := max(d.Len.Microseconds(), 1)
	frac := min(float64(left)/float64(full), 1)
	on := int(frac*float64(k) + 0.999)
	bar := strings.Repeat("▰", on) + strings.Repeat("▱", k-on)
	if frac < 0.25 {
		return st.Warn.Render(bar), left, true
	}
	return st.Up.Render(bar), left, true
}
