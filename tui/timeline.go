package tui

import (
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// mark is something the dashboard noticed between snapshots that the trace's recent
// events do not carry, such as a change of leader (status events are not kept in
// Snapshot.Recent). Seq is the snapshot's Seq when it was noticed.
type mark struct {
	Seq  uint64
	T    int64
	Node node.ID // the node concerned (a new leader…), or None for a whole-row mark
	Text string
	// Glyph marks the node's lifeline; ★ if zero.
	Glyph rune
}

// maxMarks bounds the marks the dashboard keeps.
const maxMarks = 256

// timelinePane is a live sequence diagram: one lifeline per node (as many as fit),
// an arrow per message, ✗ for drops, and marks for crashes, recoveries, partitions,
// GST and leader changes. It follows time unless scrolled back.
type timelinePane struct {
	st      *Styles
	w, h    int
	focused bool
	hideHB  bool
	anchor  uint64 // Seq of the newest row shown when scrolled back; 0 follows
	// drawn is the rows of the last frame, newest first, for the mouse
	drawn []tlRow
}

func (p *timelinePane) SetSize(w, h int) { p.w, p.h = w, h }

// tlRow is one row of the diagram: an event from the trace or a mark.
type tlRow struct {
	e *trace.Event
	m *mark
}

func (r tlRow) seq() uint64 {
	if r.e != nil {
		return r.e.Seq
	}
	return r.m.Seq
}

func (p *timelinePane) shown(e *trace.Event) bool {
	switch e.Ev {
	case trace.Deliver:
		if e.Local || e.From == e.To {
			return false
		}
		return !(p.hideHB && e.Msg != nil && isHeartbeat(e.Msg.Type))
	case trace.Drop:
		return !(p.hideHB && e.Msg != nil && isHeartbeat(e.Msg.Type))
	case trace.Crash, trace.Recover, trace.Partition, trace.Isolate, trace.Cut, trace.Heal,
		trace.GST, trace.Marker, trace.Alert, trace.Request, trace.Detect:
		return true
	case trace.Knob:
		return true
	}
	return false
}

// rows merges the recent events and the marks in order.
func (p *timelinePane) rows(s *trace.Snapshot, marks []mark) []tlRow {
	out := make([]tlRow, 0, len(s.Recent)+len(marks))
	mi := 0
	var first uint64
	if len(s.Recent) > 0 {
		first = s.Recent[0].Seq
	}
	for mi < len(marks) && marks[mi].Seq < first {
		mi++ // older than the oldest event kept
	}
	for i := range s.Recent {
		e := &s.Recent[i]
		for mi < len(marks) && marks[mi].Seq < e.Seq {
			out = append(out, tlRow{m: &marks[mi]})
			mi++
		}
		if p.shown(e) {
			out = append(out, tlRow{e: e})
		}
	}
	for ; mi < len(marks); mi++ {
		out = append(out, tlRow{m: &marks[mi]})
	}
	return out
}

func (p *timelinePane) scroll(s *trace.Snapshot, marks []mark, k int) {
	rows := p.rows(s, marks)
	seqs := make([]uint64, len(rows))
	for i, r := range rows {
		seqs[i] = r.seq()
	}
	p.anchor = scrollAnchor(seqs, p.anchor, k)
}

// cell classes, rendered with one style each
const (
	clBlank uint8 = iota
	clLane
	clArrow
	clDrop
	clEvent
	clText
	clLead
	clDown
)

type tlCanvas struct {
	r []rune
	c []uint8
}

func (cv *tlCanvas) set(x int, r rune, c uint8) {
	if x >= 0 && x < len(cv.r) {
		cv.r[x], cv.c[x] = r, c
	}
}

func (cv *tlCanvas) text(x int, s string, c uint8) {
	for _, r := range s {
		if x >= len(cv.r) {
			return
		}
		cv.set(x, r, c)
		x++
	}
}

// View renders the pane.
func (p *timelinePane) View(s *trace.Snapshot, marks []mark) string {
	st := p.st
	p.drawn = nil
	iw, ih := p.w-2, p.h-2
	// the time column widens as time grows, so the lanes never shift
	timeW := max(9, len(fmtT(s.T))+1)
	aw := iw - timeW
	title := st.T("tui.title.timeline")
	if p.anchor != 0 {
		title += " · " + st.T("tui.scrolled")
	} else if p.hideHB {
		title += " · " + st.T("tui.hbhidden")
	}
	if aw < 3 || ih < 2 || len(s.Nodes) == 0 {
		return box(st, title, nil, p.w, p.h, p.focused)
	}
	n := len(s.Nodes)
	idW := 2
	for _, nv := range s.Nodes {
		idW = max(idW, len(nv.ID.String()))
	}
	k := min(n, aw/(idW+1))
	if k == 0 {
		return box(st, title, nil, p.w, p.h, p.focused)
	}
	colW := min(aw/k, 18)
	col := make(map[node.ID]int, k)
	down := make([]bool, k)
	for i := 0; i < k; i++ {
		col[s.Nodes[i].ID] = i*colW + colW/2
		down[i] = !s.Nodes[i].Up
	}
	pn := st.pens()
	styles := [...]pen{
		clBlank: {},
		clLane:  pn.lane,
		clArrow: pn.arrow,
		clDrop:  pn.dropped,
		clEvent: pn.event,
		clText:  pn.marker,
		clLead:  pn.lead,
		clDown:  pn.down,
	}
	render := func(cv *tlCanvas) string {
		var b strings.Builder
		start := 0
		for i := 1; i <= len(cv.r); i++ {
			if i == len(cv.r) || cv.c[i] != cv.c[start] {
				seg := string(cv.r[start:i])
				if cv.c[start] == clBlank {
					b.WriteString(seg)
				} else {
					b.WriteString(styles[cv.c[start]].paint(seg))
				}
				start = i
			}
		}
		return b.String()
	}
	newCanvas := func() *tlCanvas {
		cv := &tlCanvas{r: make([]rune, aw), c: make([]uint8, aw)}
		for i := range cv.r {
			cv.r[i] = ' '
		}
		for i := 0; i < k; i++ {
			if down[i] {
				cv.set(i*colW+colW/2, '┊', clLane)
			} else {
				cv.set(i*colW+colW/2, '│', clLane)
			}
		}
		return cv
	}
	// header: node ids over their lifelines
	hdr := &tlCanvas{r: make([]rune, aw), c: make([]uint8, aw)}
	for i := range hdr.r {
		hdr.r[i] = ' '
	}
	for i := 0; i < k; i++ {
		id := s.Nodes[i].ID.String()
		c := uint8(clText)
		if down[i] {
			c = clDown
		}
		hdr.text(i*colW+colW/2-(len(id)-1)/2, id, c)
	}
	lines := []string{pn.muted.paint(pad(st.T("tui.tl.time"), timeW)) + render(hdr)}
	if k < n {
		title += " · " + st.Lang.F("tui.tl.kofn", k, n)
	}
	rows := p.rows(s, marks)
	end := len(rows)
	if p.anchor != 0 {
		for end > 0 && rows[end-1].seq() > p.anchor {
			end--
		}
	}
	room := ih - 1
	// walk back from end, skipping rows about nodes without a lifeline
	var picked []tlRow
	for i := end - 1; i >= 0 && len(picked) < room; i-- {
		if p.fits(rows[i], col) {
			picked = append(picked, rows[i])
		}
	}
	p.drawn = picked
	for i := len(picked) - 1; i >= 0; i-- {
		r := picked[i]
		cv := newCanvas()
		t := int64(0)
		if r.e != nil {
			t = r.e.T
			p.draw(cv, r.e, col, s)
		} else {
			t = r.m.T
			if x, ok := col[r.m.Node]; ok && r.m.Node != node.None {
				g := r.m.Glyph
				if g == 0 {
					g = '★'
				}
				cv.set(x, g, clLead)
				cv.text(x+2, r.m.Text, clLead)
			} else {
				cv.text(1, "┄ "+r.m.Text+" ┄", clLead)
			}
		}
		lines = append(lines, pn.muted.paint(leftPad(fmtT(t), timeW-1)+" ")+render(cv))
	}
	return box(st, title, lines, p.w, p.h, p.focused)
}

// fits reports whether a row can be drawn: events about nodes without a lifeline
// are left out.
func (p *timelinePane) fits(r tlRow, col map[node.ID]int) bool {
	if r.m != nil {
		return true
	}
	e := r.e
	switch e.Ev {
	case trace.Deliver, trace.Drop:
		_, a := col[e.From]
		_, b := col[e.To]
		return a && b
	case trace.Crash, trace.Recover, trace.Isolate, trace.Request:
		_, ok := col[e.Node]
		return ok
	case trace.Knob:
		if e.Name == "slow" {
			_, ok := col[e.Node]
			return ok
		}
	}
	return true
}

// draw puts event e on the canvas.
func (p *timelinePane) draw(cv *tlCanvas, e *trace.Event, col map[node.ID]int, s *trace.Snapshot) {
	switch e.Ev {
	case trace.Deliver, trace.Drop:
		a, b := col[e.From], col[e.To]
		cl := uint8(clArrow)
		head := '▶'
		step := 1
		if b < a {
			head, step = '◀', -1
		}
		if e.Ev == trace.Drop {
			cl, head = clDrop, '✗'
		}
		cv.set(a, '•', cl)
		for x := a + step; x != b-step && x != b; x += step {
			cv.set(x, '─', cl)
		}
		cv.set(b-step, head, cl)
		// the type (and why it was dropped) in the middle of the arrow, if it fits
		label := ""
		if e.Msg != nil {
			label = e.Msg.Type
			if n := e.Msg.Size(); n > 0 {
				label += "[" + strconv.Itoa(n) + "]" // its size in ids: COLLECT[5]
			}
		}
		if e.Ev == trace.Drop {
			label += " " + p.st.Lang.Word(e.Reason)
		}
		span := abs(b-a) - 3
		if span >= len(label)+2 && label != "" {
			lo := min(a, b)
			x := lo + 1 + (abs(b-a)-1-len(label))/2
			cv.text(x, label, cl)
		} else if short := shortLabel(s.Info.Algorithm, e.Msg, s.Types, span-2); span >= 3 && short != "" {
			lo := min(a, b)
			cv.text(lo+2, short, cl)
		}
	case trace.Crash:
		x := col[e.Node]
		cv.set(x, '✖', clDown)
		cv.text(x+2, p.st.T("tui.tl.crash"), clDown)
	case trace.Recover:
		x := col[e.Node]
		cv.set(x, '↻', clEvent)
		cv.text(x+2, p.st.T("tui.tl.recover")+" #"+strconv.FormatInt(e.Inc, 10), clEvent)
	case trace.Isolate:
		x := col[e.Node]
		cv.set(x, '◌', clEvent)
		cv.text(x+2, p.st.T("tui.node.isolated"), clEvent)
	case trace.Request:
		x := col[e.Node]
		cv.set(x, '?', clEvent)
		cv.text(x+2, e.Name, clEvent)
	case trace.Partition:
		parts := make([]string, len(e.Groups))
		for i, g := range e.Groups {
			parts[i] = idList(g)
		}
		cv.text(1, "┄ "+p.st.T("tui.part.partition")+" "+strings.Join(parts, " | ")+" ┄", clEvent)
	case trace.Cut:
		cv.text(1, "┄ "+p.st.T("tui.tl.cut")+" "+e.From.String()+"↛"+e.To.String()+" ┄", clEvent)
	case trace.Heal:
		cv.text(1, "┄ "+p.st.T("tui.tl.heal")+" ┄", clEvent)
	case trace.GST:
		cv.text(1, "┄ "+p.st.T("tui.tl.gst")+" ┄", clEvent)
	case trace.Marker:
		cv.text(1, "❝ "+p.st.Lang.Marker(e.Text), clText)
	case trace.Alert:
		cv.text(1, "⚠ "+p.st.Lang.AlertKindIn(e.Kind)+": "+p.st.Lang.Text(e.Text), clDrop)
	case trace.Detect:
		cv.text(1, "◎ "+p.st.Lang.F("tui.tl.detect", e.Node.String(), e.Value), clEvent)
	case trace.Knob:
		if e.Name == "slow" {
			x := col[e.Node]
			cv.set(x, '◐', clEvent)
			cv.text(x+2, p.st.T("tui.node.slow")+"×"+e.Value, clEvent)
		} else {
			cv.text(1, "┄ set "+e.Name+" "+e.Value+" ┄", clEvent)
		}
	}
}

// shortLabel is a message's label in n cells where its whole type does not fit:
// the short name its algorithm registers with the type (HB for HEARTBEAT), or for
// a type with none an abbreviation of at most four letters, or nothing when that
// does not fit either. A type is never shown cut at the lane's edge (HEARTBE).
func shortLabel(algo string, msg *node.Message, types []trace.TypeCount, n int) string {
	if msg == nil || n < 1 {
		return ""
	}
	short := algos.Short(algo, msg.Type)
	if short == "" {
		short = abbrev(msg, types, min(n, 4))
	}
	if len([]rune(short)) > n {
		return ""
	}
	return short
}

// abbrev shortens a message's type to n characters, distinct from every other type
// of the run: in four columns ELECTION and ELECTED become ELIN and ELED, not
// both ELEC.
func abbrev(msg *node.Message, types []trace.TypeCount, n int) string {
	if msg == nil {
		return ""
	}
	typ := msg.Type
	if len(typ) <= n {
		return typ
	}
	short := typ[:n]
	// the first position where typ differs from another type sharing its prefix
	diff := -1
	for _, t := range types {
		o := t.Type
		if o == typ || len(o) < n || o[:n] != short {
			continue
		}
		i := 0
		for i < len(typ) && i < len(o) && typ[i] == o[i] {
			i++
		}
		diff = max(diff, i)
	}
	if diff < 0 || n < 2 {
		return short
	}
	// keep the front, then the distinguishing letter and the last one
	if diff >= len(typ)-1 {
		return typ[:n-1] + typ[len(typ)-1:]
	}
	return typ[:n-2] + typ[diff:diff+1] + typ[len(typ)-1:]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
