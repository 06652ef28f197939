package tui

import (
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// Heartbeat is the message type `H` hides.
const Heartbeat = "HEARTBEAT"

// feedFilter selects feed lines: heartbeats hidden or not, and words that must all
// match (a node id matches sender or receiver; anything else a type prefix).
type feedFilter struct {
	hideHB bool
	words  []string
}

func parseFilter(s string) []string { return strings.Fields(s) }

// isHeartbeat reports whether a message type is a heartbeat.
func isHeartbeat(typ string) bool { return strings.EqualFold(typ, Heartbeat) }

func (f feedFilter) match(e *trace.Event) bool {
	if e.Msg == nil {
		return len(f.words) == 0
	}
	if f.hideHB && isHeartbeat(e.Msg.Type) {
		return false
	}
	for _, w := range f.words {
		if id, ok := node.ParseID(w); ok && (strings.HasPrefix(w, "n") || strings.HasPrefix(w, "N")) {
			if e.From != id && e.To != id {
				return false
			}
			continue
		}
		if !strings.HasPrefix(strings.ToUpper(e.Msg.Type), strings.ToUpper(w)) {
			return false
		}
	}
	return true
}

// isFeed reports whether e is a feed line: a message's fate.
func isFeed(e *trace.Event) bool {
	return (e.Ev == trace.Deliver && !e.Local) || e.Ev == trace.Drop
}

// trafficPane is the live feed, the counts by type and fate, and a msgs/s sparkline.
type trafficPane struct {
	st      *Styles
	w, h    int
	focused bool

	filter    feedFilter
	filtering bool
	input     textinput.Model
	// anchor is the Seq of the newest line shown when scrolled back; 0 follows.
	anchor uint64
	idW    int // widest node id, for the feed's columns
}

func newTrafficPane(st *Styles) *trafficPane {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = st.T("tui.traffic.filter")
	in.SetVirtualCursor(true)
	return &trafficPane{st: st, input: in}
}

func (p *trafficPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.input.SetWidth(max(1, w-4))
}

// feed lists the feed events that pass the filter, oldest first.
func (p *trafficPane) feed(s *trace.Snapshot) []*trace.Event {
	out := make([]*trace.Event, 0, len(s.Recent))
	for i := range s.Recent {
		e := &s.Recent[i]
		if isFeed(e) && p.filter.match(e) {
			out = append(out, e)
		}
	}
	return out
}

// scroll moves the feed back (k > 0) or forward (k < 0) by k lines.
func (p *trafficPane) scroll(s *trace.Snapshot, k int) {
	p.anchor = scrollAnchor(p.feedSeqs(s), p.anchor, k)
}

func (p *trafficPane) feedSeqs(s *trace.Snapshot) []uint64 {
	f := p.feed(s)
	seqs := make([]uint64, len(f))
	for i, e := range f {
		seqs[i] = e.Seq
	}
	return seqs
}

// scrollAnchor moves an anchor (the Seq of the newest row shown; 0 follows) over
// rows numbered by seqs, oldest first.
func scrollAnchor(seqs []uint64, anchor uint64, k int) uint64 {
	if len(seqs) == 0 {
		return 0
	}
	bottom := len(seqs) - 1
	if anchor != 0 {
		for bottom > 0 && seqs[bottom] > anchor {
			bottom--
		}
	}
	bottom -= k
	if bottom >= len(seqs)-1 {
		return 0
	}
	return seqs[max(bottom, 0)]
}

// View renders the pane.
func (p *trafficPane) View(s *trace.Snapshot) string {
	st := p.st
	iw, ih := p.w-2, p.h-2
	var lines []string
	// counts by type and fate
	var types []trace.TypeCount
	for _, t := range s.Types {
		if !(p.filter.hideHB && isHeartbeat(t.Type)) {
			types = append(types, t)
		}
	}
	maxTypes := max(1, ih/4)
	count := func(name string, t trace.TypeCount) string {
		return pad(name+" ", 11) + st.Muted.Render(st.T("tui.traffic.sent")+" ") + strconv.Itoa(t.Sent) +
			st.Good.Render(" ✓"+strconv.Itoa(t.Delivered)) + st.Bad.Render(" ✗"+strconv.Itoa(t.Dropped))
	}
	if len(types) > maxTypes {
		// the busiest types, then the rest summed
		var all trace.TypeCount
		for _, t := range types {
			all.Sent += t.Sent
			all.Delivered += t.Delivered
			all.Dropped += t.Dropped
		}
		for _, t := range types[:maxTypes-1] {
			lines = append(lines, count(t.Type, t))
		}
		lines = append(lines, count(st.Lang.F("tui.traffic.all", len(types)), all))
	} else {
		for _, t := range types {
			lines = append(lines, count(t.Type, t))
		}
	}
	if len(types) == 0 {
		lines = append(lines, st.Muted.Render(st.T("tui.traffic.none")))
	}
	// msgs/s sparkline
	if ih >= 6 {
		sh := 1
		if ih >= 14 {
			sh = 2
		}
		cur := 0.0
		if len(s.Rate) >= 2 {
			cur = s.Rate[len(s.Rate)-2]
		} else if len(s.Rate) == 1 {
			cur = s.Rate[0]
		}
		label := pad(strconv.Itoa(int(cur))+" msg/s", 11)
		sw := max(1, iw-len(label))
		data := s.Rate
		if len(data) > sw {
			data = data[len(data)-sw:]
		}
		for i, l := range sparkline(st, data, sw, sh) {
			if i == sh-1 {
				lines = append(lines, label+l)
			} else {
				lines = append(lines, strings.Repeat(" ", len(label))+l)
			}
		}
	}
	// status of the filter
	var status []string
	if p.filter.hideHB {
		status = append(status, st.T("tui.hbhidden"))
	}
	if len(p.filter.words) > 0 {
		status = append(status, st.T("tui.traffic.filterlabel")+" "+strings.Join(p.filter.words, " "))
	}
	if p.anchor != 0 {
		status = append(status, st.T("tui.scrolled"))
	}
	if len(status) > 0 {
		lines = append(lines, st.Warn.Render(strings.Join(status, " · ")))
	}
	room := ih - len(lines)
	if p.filtering {
		room--
	}
	feed := p.feed(s)
	p.idW = 2
	for _, nv := range s.Nodes {
		p.idW = max(p.idW, len(nv.ID.String()))
	}
	end := len(feed)
	if p.anchor != 0 {
		for end > 0 && feed[end-1].Seq > p.anchor {
			end--
		}
	}
	start := max(0, end-max(room, 0))
	for _, e := range feed[start:end] {
		lines = append(lines, p.feedLine(e))
	}
	for len(lines) < ih-1 && p.filtering {
		lines = append(lines, "")
	}
	if p.filtering {
		lines = append(lines, p.input.View())
	}
	return box(st, st.T("tui.title.traffic"), lines, p.w, p.h, p.focused)
}

// sparkline draws data as columns of block elements, w cells wide and h lines
// tall, the newest value at the right edge and the largest at the top: a column
// of height v·h/max in eighths of a cell.
func sparkline(st *Styles, data []float64, w, h int) []string {
	top := 1.0
	for _, v := range data {
		top = max(top, v)
	}
	rows := make([][]rune, h)
	for y := range rows {
		rows[y] = []rune(strings.Repeat(" ", w))
	}
	off := w - len(data)
	for i, v := range data {
		eighths := int(math.Round(max(v, 0) / top * float64(h) * 8))
		for y := 0; y < h && eighths > 0; y++ {
			rows[h-1-y][off+i] = blocks[min(eighths, 8)]
			eighths -= 8
		}
	}
	out := make([]string, h)
	pn := st.pens().spark
	for y, r := range rows {
		out[y] = pn.paint(string(r))
	}
	return out
}

// blocks are the lower block elements by eighths.
var blocks = [9]rune{' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}

// feedLine is "  3.214s n1 → n3 HEARTBEAT ✓" or "… ✗ loss".
func (p *trafficPane) feedLine(e *trace.Event) string {
	st := p.st
	var b strings.Builder
	b.WriteString(st.Muted.Render(leftPad(fmtT(e.T), 9)))
	b.WriteString(" ")
	b.WriteString(leftPad(e.From.String(), p.idW))
	b.WriteString("→")
	b.WriteString(pad(e.To.String(), p.idW+1))
	typ := "?"
	if e.Msg != nil {
		typ = e.Msg.Type
	}
	b.WriteString(pad(typ, 10))
	if e.Ev == trace.Drop {
		b.WriteString(st.Bad.Render(" ✗ " + st.Lang.Word(e.Reason)))
	} else {
		b.WriteString(st.Good.Render(" ✓"))
	}
	if e.Dup {
		b.WriteString(st.Warn.Render(" dup"))
	}
	return b.String()
}

// leftPad right-aligns s in w cells.
func leftPad(s string, w int) string {
	n := len([]rune(s))
	if n >= w {
		return s
	}
	return strings.Repeat(" ", w-n) + s
}
