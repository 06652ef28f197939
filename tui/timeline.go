package tui

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/internal/termtext"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// timelinePane is a live sequence diagram: one lifeline per node (as many as fit,
// around the selected node), an arrow per message, ✗ for drops, and rows for
// crashes, revivals, partitions, GST, alerts and leader changes. Its rows are the
// snapshot's (trace.Row: the fold keeps the latest, heartbeats apart), so a replay
// draws the same rows as the live run did, each stamped with its own time and
// drawn with the lanes of its own time. It follows time unless scrolled back.
type timelinePane struct {
	b       *board
	w, h    int
	focused bool
	hideHB  bool
	keys    scrollKeys
	scroll  anchorScroll
	// drawn is the rows of the last frame, newest first, for the mouse
	drawn []*trace.Row
	// flights says to draw the messages in flight at the foot (a live run,
	// paused), and feet is those the last frame drew there, top to bottom, for
	// a click to select one
	flights bool
	feet    []flight
	// mark is the first event where two runs part (the diff view): the first
	// row at or after it is marked ◆ in the time column; 0 marks none. label
	// goes before the title (A · , B · ).
	mark  uint64
	label string
	// groupPens are the partition groups' pens, made as they are needed
	groupPens []pen
}

func newTimelinePane(b *board) *timelinePane {
	return &timelinePane{b: b, keys: newScrollKeys(b.keys)}
}

func (p *timelinePane) SetSize(w, h int)         { p.w, p.h = w, h }
func (p *timelinePane) setFocused(f bool)        { p.focused = f }
func (p *timelinePane) ShortHelp() []key.Binding { return p.keys.short() }
func (p *timelinePane) FullHelp() [][]key.Binding {
	return [][]key.Binding{p.keys.full()}
}

// Update scrolls the timeline back and forward, to its oldest row kept, and back
// to following time.
func (p *timelinePane) Update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || p.b.snap == nil {
		return false, nil
	}
	mv, ok := p.keys.move(k, p.h)
	if !ok {
		return false, nil
	}
	p.scrollBy(mv)
	return true, nil
}

// scrollBy moves the rows shown.
func (p *timelinePane) scrollBy(mv scrollMove) {
	rows := p.rows(p.b.snap)
	keys := make([]uint64, len(rows))
	for i, r := range rows {
		keys[i] = rowKey(r)
	}
	p.scroll.apply(mv, keys)
}

// rowKey orders rows: a derived row comes after the event that made it.
func rowKey(r *trace.Row) uint64 { return r.Seq<<3 | uint64(r.Kind) }

// rows is the snapshot's rows, with the heartbeats' merged in when they are shown,
// oldest first.
func (p *timelinePane) rows(s *trace.Snapshot) []*trace.Row {
	n, hb := len(s.Rows), 0
	if !p.hideHB {
		hb = len(s.Beats)
	}
	out := make([]*trace.Row, 0, n+hb)
	i, j := 0, 0
	for i < n || j < hb {
		if j >= hb || i < n && s.Rows[i].Seq < s.Beats[j].Seq {
			out = append(out, &s.Rows[i])
			i++
		} else {
			out = append(out, &s.Beats[j])
			j++
		}
	}
	return out
}

// cell classes, rendered with one style each; a partition group's lane is
// clGroup + its group
const (
	clBlank uint8 = iota
	clLane
	clArrow
	clDrop
	clEvent
	clText
	clLead
	clDown
	clMuted
	clSel // the selected message in flight
	clGroup
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

// text writes s from cell x on; its control characters (a marker's or an alert's
// text comes from a file) are shown escaped, one cell each.
func (cv *tlCanvas) text(x int, s string, c uint8) {
	for _, r := range termtext.Line(s) {
		if x >= len(cv.r) {
			return
		}
		cv.set(x, r, c)
		x++
	}
}

// note writes s beside cell x: after it if it fits before the edge, else before
// it, so that a label is never cut at the pane's edge (★ leade).
func (cv *tlCanvas) note(x int, s string, c uint8) {
	s = termtext.Line(s)
	n := len([]rune(s))
	if x+2+n <= len(cv.r) || x-1-n < 0 {
		cv.text(x+2, s, c)
		return
	}
	cv.text(x-1-n, s, c)
}

// lanes is where the lifelines are: the first node shown, their columns by node
// index, and each one's column width.
type lanes struct {
	first, k, colW int
	col            map[node.ID]int
}

// laneLayout picks the lifelines for an area aw cells wide: all nodes if they fit,
// else as many as fit around the selected one.
func laneLayout(s *trace.Snapshot, sel, aw int) lanes {
	n := len(s.Nodes)
	idW := 2
	for _, nv := range s.Nodes {
		idW = max(idW, len(nv.ID.String()))
	}
	k := min(n, aw/(idW+1))
	if k <= 0 {
		return lanes{}
	}
	first := min(max(sel-k/2, 0), n-k)
	l := lanes{first: first, k: k, colW: min(aw/k, 18), col: make(map[node.ID]int, k)}
	for i := 0; i < k; i++ {
		l.col[s.Nodes[first+i].ID] = i*l.colW + l.colW/2
	}
	return l
}

// View renders the pane.
func (p *timelinePane) View() string {
	s := p.b.snap
	st := p.b.st
	p.drawn = nil
	iw, ih := p.w-2, p.h-2
	// the time column widens as time grows, so the lanes never shift
	timeW := max(9, len(fmtT(s.T))+1)
	aw := iw - timeW
	title := p.label + st.T("tui.title.timeline")
	if aw < 3 || ih < 2 || len(s.Nodes) == 0 {
		return box(st, title, nil, p.w, p.h, p.focused)
	}
	ln := laneLayout(s, p.b.sel, aw)
	if ln.k == 0 {
		return box(st, title, nil, p.w, p.h, p.focused)
	}
	pn := st.pens()
	styles := []pen{
		clBlank: {},
		clLane:  pn.lane,
		clArrow: pn.arrow,
		clDrop:  pn.dropped,
		clEvent: pn.event,
		clText:  pn.marker,
		clLead:  pn.lead,
		clDown:  pn.down,
		clMuted: pn.muted,
		clSel:   penOf(st.Selected),
	}
	rows := p.rows(s)
	room := ih - 1
	// the messages in flight at the foot, a line each
	p.feet = p.footFlights(s, room)
	room -= len(p.feet)
	end := p.scroll.end(func(i int) uint64 { return rowKey(rows[i]) }, len(rows), room)
	picked := rows[max(end-room, 0):end]
	for i := len(picked) - 1; i >= 0; i-- {
		p.drawn = append(p.drawn, picked[i])
	}
	// the groups the rows drawn have, for their lanes' colours
	for _, r := range picked {
		for _, l := range r.Lanes {
			for len(p.groupPens) <= l.Group {
				p.groupPens = append(p.groupPens, penOf(st.Group(len(p.groupPens))))
			}
		}
	}
	styles = append(styles, p.groupPens...)
	render := func(cv *tlCanvas) string {
		var b strings.Builder
		start := 0
		for i := 1; i <= len(cv.r); i++ {
			if i == len(cv.r) || cv.c[i] != cv.c[start] {
				b.WriteString(styles[cv.c[start]].paint(string(cv.r[start:i])))
				start = i
			}
		}
		return b.String()
	}
	blankCanvas := func() *tlCanvas {
		cv := &tlCanvas{r: make([]rune, aw), c: make([]uint8, aw)}
		for i := range cv.r {
			cv.r[i] = ' '
		}
		return cv
	}
	// each row's lifelines as they were then: down ┊, cut off ⋮, a partition
	// group's in its colour
	canvas := func(r *trace.Row) *tlCanvas {
		cv := blankCanvas()
		for i := 0; i < ln.k; i++ {
			x := i*ln.colW + ln.colW/2
			var l trace.Lane
			if ni := ln.first + i; ni < len(r.Lanes) {
				l = r.Lanes[ni]
			}
			switch {
			case l.Down:
				cv.set(x, '┊', clLane)
			case l.Isolated:
				cv.set(x, '⋮', clLane)
			case l.Group > 0:
				cv.set(x, '│', clGroup+uint8(l.Group))
			default:
				cv.set(x, '│', clLane)
			}
		}
		return cv
	}
	// header: node ids over their lifelines, with the partition group of the
	// newest row drawn (A, B…), so that groups read without colour
	var newest *trace.Row
	if len(picked) > 0 {
		newest = picked[len(picked)-1]
	}
	hdr := blankCanvas()
	for i := 0; i < ln.k; i++ {
		nv := s.Nodes[ln.first+i]
		id := nv.ID.String()
		c := uint8(clText)
		if !nv.Up {
			c = clDown
		}
		if newest != nil && ln.first+i < len(newest.Lanes) {
			if g := newest.Lanes[ln.first+i].Group; g > 0 && len(id)+2 < ln.colW {
				id += ":" + groupLetter(g)
			}
		}
		hdr.text(i*ln.colW+ln.colW/2-(len(nv.ID.String())-1)/2, id, c)
	}
	lines := []string{pn.muted.paint(pad(st.T("tui.tl.time"), timeW)) + render(hdr)}
	var parted *trace.Row // the row the runs part at, if marked
	if p.mark != 0 {
		if i := slices.IndexFunc(rows, func(r *trace.Row) bool { return r.Seq >= p.mark }); i >= 0 {
			parted = rows[i]
		}
	}
	for _, r := range picked {
		cv := canvas(r)
		p.draw(cv, r, ln, s)
		when := pn.muted.paint(leftPad(fmtT(r.T), timeW-1) + " ")
		if r == parted {
			when = penOf(st.Bad).paint("◆" + leftPad(fmtT(r.T), timeW-2) + " ")
		}
		lines = append(lines, when+render(cv))
	}
	for _, f := range p.feet {
		cv := blankCanvas()
		if newest != nil {
			cv = canvas(newest)
		}
		p.flying(cv, f, ln, s, f.mid == p.b.msg)
		when := "" // sent before the recent events: unknown
		if f.sent >= 0 {
			when = fmtT(f.sent)
		}
		lines = append(lines, pn.muted.paint(leftPad(when, timeW-1)+" ")+render(cv))
	}
	switch {
	case p.scroll.anchor != 0 && len(rows) > 0:
		title += " · " + st.Lang.F("tui.tl.back", len(rows)-end, len(rows), fmtT(rows[0].T))
	case p.hideHB:
		title += " · " + st.T("tui.hbhidden")
	}
	if ln.k < len(s.Nodes) {
		title += " · " + st.Lang.F("tui.tl.lanes", s.Nodes[ln.first].ID.String(), s.Nodes[ln.first+ln.k-1].ID.String(), len(s.Nodes))
	}
	return box(st, title, lines, p.w, p.h, p.focused)
}

// draw puts row r on the canvas. A row about a node without a lifeline is drawn as
// text across the lanes, so that a big cluster's timeline is never empty.
func (p *timelinePane) draw(cv *tlCanvas, r *trace.Row, ln lanes, s *trace.Snapshot) {
	st := p.b.st
	switch r.Kind {
	case trace.RowLeader:
		p.at(cv, ln, r.Node, '★', st.T("tui.mark.leader")+" "+r.Node.String(), clLead)
		return
	case trace.RowNoLeader:
		cv.text(1, "┄ "+st.T("tui.mark.noleader")+" ┄", clLead)
		return
	case trace.RowCSEnter:
		p.at(cv, ln, r.Node, '◆', st.T("tui.mark.enters"), clLead)
		return
	case trace.RowCSLeave:
		p.at(cv, ln, r.Node, '◇', st.T("tui.mark.leaves"), clEvent)
		return
	}
	e := r.Ext
	switch r.Ev {
	case trace.Deliver, trace.Drop:
		p.message(cv, r, ln, s)
	case trace.Crash:
		p.at(cv, ln, r.Node, '✖', st.T("tui.tl.crash"), clDown)
	case trace.Recover:
		p.at(cv, ln, r.Node, '↻', st.T("tui.tl.recover")+" #"+strconv.FormatInt(e.Inc, 10), clEvent)
	case trace.Isolate:
		p.at(cv, ln, r.Node, '◌', st.T("tui.node.isolated"), clEvent)
	case trace.Request:
		p.at(cv, ln, r.Node, '?', e.Name, clEvent)
	case trace.Partition:
		parts := make([]string, len(e.Groups))
		for i, g := range e.Groups {
			parts[i] = groupLetter(i+1) + "{" + idList(g) + "}"
		}
		cv.text(1, "┄ "+st.T("tui.part.partition")+" "+strings.Join(parts, " | ")+" ┄", clEvent)
	case trace.Cut:
		cv.text(1, "┄ "+st.T("tui.tl.cut")+" "+e.From.String()+"↛"+e.To.String()+" ┄", clEvent)
	case trace.Heal:
		cv.text(1, "┄ "+st.T("tui.tl.heal")+" ┄", clEvent)
	case trace.GST:
		cv.text(1, "┄ "+st.T("tui.tl.gst")+" ┄", clEvent)
	case trace.Marker:
		cv.text(1, "❝ "+st.Lang.Marker(e.Text), clText)
	case trace.Alert:
		cv.text(1, "⚠ "+st.Lang.AlertKindIn(e.Kind)+": "+st.Lang.Text(e.Text), clDrop)
	case trace.AlertCleared:
		cv.text(1, "✓ "+st.Lang.AlertKindIn(e.Kind)+" "+st.T("tui.alert.ended")+": "+st.Lang.Text(e.Text), clEvent)
	case trace.Detect:
		cv.text(1, "◎ "+st.Lang.F("tui.tl.detect", e.Node.String(), e.Value), clEvent)
	case trace.Knob:
		if e.Name == "slow" {
			p.at(cv, ln, r.Node, '◐', st.T("tui.node.slow")+"×"+e.Value, clEvent)
		} else {
			cv.text(1, "┄ set "+e.Name+" "+e.Value+" ┄", clEvent)
		}
	}
}

// at draws a node's glyph on its lifeline with a note beside it, or, for a node
// without a lifeline, the same as text across the lanes.
func (p *timelinePane) at(cv *tlCanvas, ln lanes, id node.ID, g rune, text string, c uint8) {
	if x, ok := ln.col[id]; ok {
		cv.set(x, g, c)
		cv.note(x, text, c)
		return
	}
	cv.text(1, string(g)+" "+id.String()+" "+text, c)
}

// message draws a delivery (an arrow) or a drop (an arrow ending in ✗ and why),
// labelled with the message's type: between its ends when it fits, else beside the
// arrow; as text when an end has no lifeline.
func (p *timelinePane) message(cv *tlCanvas, r *trace.Row, ln lanes, s *trace.Snapshot) {
	st := p.b.st
	cl := uint8(clArrow)
	if r.Ev == trace.Drop {
		cl = clDrop
	}
	label := ""
	msg := r.Message()
	if msg != nil {
		label = msg.Type
		if n := msg.Size(); n > 0 {
			label += "[" + strconv.Itoa(n) + "]" // its size in ids: COLLECT[5]
		}
	}
	why := ""
	if r.Ev == trace.Drop {
		why = " ✗ " + st.Lang.Word(r.Reason)
	}
	a, okA := ln.col[r.From]
	b, okB := ln.col[r.To]
	if !okA || !okB {
		fate := why
		if r.Ev == trace.Deliver {
			fate = " ✓"
		}
		cv.text(1, r.From.String()+"→"+r.To.String()+" "+label+fate, cl)
		return
	}
	head, step := '▶', 1
	if b < a {
		head, step = '◀', -1
	}
	if r.Ev == trace.Drop {
		head = '✗'
	}
	cv.set(a, '•', cl)
	for x := a + step; x != b-step && x != b; x += step {
		cv.set(x, '─', cl)
	}
	cv.set(b-step, head, cl)
	lo, hi := min(a, b), max(a, b)
	span := hi - lo - 3
	full := label + why
	n := len([]rune(full))
	switch {
	case full == "":
	case span >= n+2:
		cv.text(lo+1+(hi-lo-1-n)/2, full, cl)
	case hi+2+n <= len(cv.r):
		// beside the arrow, whole, where it does not fit between its ends
		cv.text(hi+2, full, cl)
	case lo-1-n >= 0:
		cv.text(lo-1-n, full, cl)
	default:
		if short := shortLabel(s.Info.Algorithm, msg, s.Types, span-2); short != "" {
			cv.text(lo+2, short, cl)
		}
	}
}

// footFlights are the messages in flight the timeline's foot shows, in the
// order they were sent, when it follows time: the selected one always, and,
// in a paused live run, those the recent events show (heartbeats only when
// shown), the latest of them, in a third of the room at most.
func (p *timelinePane) footFlights(s *trace.Snapshot, room int) []flight {
	if p.scroll.anchor != 0 {
		return nil
	}
	sel, selOK := p.b.selFlight(s)
	keep := room / 3
	var out []flight
	if p.flights {
		for _, f := range inFlight(s) {
			if f.mid == sel.mid || !p.hideHB || !trace.IsHeartbeat(f.typ) {
				out = append(out, f)
			}
		}
		out = out[max(len(out)-keep, 0):]
	}
	if selOK && !slices.ContainsFunc(out, func(f flight) bool { return f.mid == sel.mid }) {
		if len(out) > 0 && len(out) >= keep {
			out = out[1:]
		}
		out = append(out, sel)
		slices.SortFunc(out, func(a, b flight) int { return cmp.Compare(a.mid, b.mid) })
	}
	return out
}

// flying draws a message in flight, sent and not yet landed: its arrow dotted
// (•┈┈▷) with its id and type, in the selection's style when it is selected.
func (p *timelinePane) flying(cv *tlCanvas, f flight, ln lanes, s *trace.Snapshot, selected bool) {
	r := trace.Row{Ev: trace.Send, From: f.from, To: f.to, Msg: node.Message{Type: "#" + strconv.FormatUint(f.mid, 10) + " " + f.typ}}
	p.message(cv, &r, ln, s)
	for i, c := range cv.c {
		if c != clArrow {
			continue
		}
		switch cv.r[i] {
		case '─':
			cv.r[i] = '┈'
		case '▶':
			cv.r[i] = '▷'
		case '◀':
			cv.r[i] = '◁'
		}
		if selected {
			cv.c[i] = clSel
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
