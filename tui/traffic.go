package tui

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

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
func isHeartbeat(typ string) bool { return trace.IsHeartbeat(typ) }

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
// Focused, it scrolls the feed.
type trafficPane struct {
	b       *board
	w, h    int
	focused bool
	keys    scrollKeys

	filter    feedFilter
	filtering bool
	input     textinput.Model
	// scroll holds the Seq of the newest line shown when scrolled back
	scroll anchorScroll
	idW    int // widest node id, for the feed's columns
}

func newTrafficPane(b *board) *trafficPane {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = b.st.T("tui.traffic.filter")
	in.SetVirtualCursor(true)
	in.CharLimit = lineLimit
	return &trafficPane{b: b, input: in, keys: newScrollKeys(b.keys)}
}

func (p *trafficPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.input.SetWidth(max(1, w-4))
}

func (p *trafficPane) setFocused(f bool)         { p.focused = f }
func (p *trafficPane) ShortHelp() []key.Binding  { return p.keys.short() }
func (p *trafficPane) FullHelp() [][]key.Binding { return [][]key.Binding{p.keys.full()} }

// Update scrolls the feed back and forward; end (or esc) follows it again.
func (p *trafficPane) Update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || p.b.snap == nil {
		return false, nil
	}
	mv, ok := p.keys.move(k, p.h)
	if ok {
		p.scroll.apply(mv, p.feedSeqs(p.b.snap))
	}
	return ok, nil
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

func (p *trafficPane) feedSeqs(s *trace.Snapshot) []uint64 {
	f := p.feed(s)
	seqs := make([]uint64, len(f))
	for i, e := range f {
		seqs[i] = e.Seq
	}
	return seqs
}

// View renders the pane.
func (p *trafficPane) View() string {
	s := p.b.snap
	st := p.b.st
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
		// heartbeats hidden do not count: the rate is of the messages shown
		rate := s.Rate
		if p.filter.hideHB && len(s.BeatRate) > 0 {
			rate = slices.Clone(s.Rate)
			for i := range min(len(rate), len(s.BeatRate)) {
				rate[i] -= s.BeatRate[i]
			}
		}
		cur := 0.0
		if len(rate) >= 2 {
			cur = rate[len(rate)-2]
		} else if len(rate) == 1 {
			cur = rate[0]
		}
		label := pad(strconv.Itoa(int(cur))+" msg/s", 11)
		sw := max(1, iw-len(label))
		data := rate
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
	if p.scroll.anchor != 0 {
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
	end := p.scroll.end(func(i int) uint64 { return feed[i].Seq }, len(feed), max(room, 0))
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
	st := p.b.st
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

// filterKey edits the feed's filter after `/`: enter applies it, esc clears it;
// done says the filter line is closed.
func (p *trafficPane) filterKey(msg tea.KeyPressMsg) (done bool, cmd tea.Cmd) {
	switch msg.String() {
	case "enter":
		p.filter.words = parseFilter(p.input.Value())
	case "esc":
		p.filter.words = nil
	default:
		p.input, cmd = p.input.Update(msg)
		return false, cmd
	}
	p.filtering = false
	p.input.Blur()
	return true, nil
}

// openFilter opens the feed's filter line on the words in use.
func (p *trafficPane) openFilter() tea.Cmd {
	p.filtering = true
	p.input.SetValue(strings.Join(p.filter.words, " "))
	p.input.CursorEnd()
	return p.input.Focus()
}
