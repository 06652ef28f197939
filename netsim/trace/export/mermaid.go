package export

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// MermaidMaxText is Mermaid's default maxTextSize, in characters (UTF-16 code
// units, as JavaScript counts them): a default renderer (GitHub, mermaid.live)
// refuses a larger diagram, so no export writes one.
const MermaidMaxText = 50000

// Mermaid writes a sequenceDiagram of the window (see mmWriter). A diagram over
// MermaidMaxText is refused as soon as it passes the limit, with the ways to make
// it smaller: the rest of the trace is not read.
func Mermaid(out io.Writer, src Source, w Window) error {
	h := src.Header()
	f := newMMFold(newSlots(h.Info.IDs))
	m := newMMWriter(f, w, w.IDs(h.Info.IDs))
	header := m.headerLen(h, w, 1)
	var kept bool
	tail, err := each(src, func(e *trace.Event) (bool, error) {
		if malformed(e) {
			return false, nil
		}
		if w.past(e.T, e.Seq) {
			return true, nil
		}
		c := f.look(e)
		if w.Keep(e) {
			kept = true
			m.b = m.draw(m.b, e, c)
			if m.n+header > MermaidMaxText {
				return true, &RefusedError{fmt.Sprintf("the Mermaid diagram of %s passes Mermaid's limit of %d characters at %s: "+
					"narrow it with --from/--to or --nodes, or write numbered diagrams with --split", windowName(w), MermaidMaxText, fmtT(e.T))}
			}
		}
		f.fold(e, c)
		return false, nil
	})
	if err != nil {
		return err
	}
	if !kept {
		return &RefusedError{"no events " + emptyText(tail, w)}
	}
	d := m.finish(m.header(nil, h, w, 1), m.b)
	if n := jsLen(string(d)); n > MermaidMaxText {
		return tooBig(n, w)
	}
	_, err = out.Write(d)
	return err
}

// windowName is the window for a refusal: "the whole trace", "this window (…)".
func windowName(w Window) string {
	if w.Whole() {
		return "the whole trace"
	}
	return "this window (" + w.Describe() + ")"
}

// tooBig is the refusal of a diagram of n characters.
func tooBig(n int, w Window) error {
	return &RefusedError{fmt.Sprintf("the Mermaid diagram of %s is %d characters, over Mermaid's limit of %d: "+
		"narrow it with --from/--to or --nodes, or write numbered diagrams with --split", windowName(w), n, MermaidMaxText)}
}

// PartSink takes the parts of a diagram cut to Mermaid's size, in order.
type PartSink interface {
	// Part takes part i (from 0).
	Part(i int, text string) error
	// Restart discards the parts taken so far: the diagram is cut again, from its
	// first part, with more room for what a part repeats.
	Restart() error
}

// MermaidParts is the window's diagram cut into consecutive diagrams (see
// MermaidSplit), in memory.
func MermaidParts(src Source, w Window) ([]string, error) {
	var p partList
	if _, err := MermaidSplit(src, w, &p); err != nil {
		return nil, err
	}
	return p, nil
}

type partList []string

func (p *partList) Part(i int, text string) error { *p = append(*p, text); return nil }
func (p *partList) Restart() error                { *p = nil; return nil }

// MermaidSplit cuts the window's diagram into consecutive diagrams in time order,
// each at most MermaidMaxText characters, handed to sink as they are made, and
// returns how many. A diagram within the limit is one part, the diagram itself.
// Each part is a whole diagram: its participants, a comment naming the events it
// covers, numbering that goes on from the part before (autonumber N), and, when
// it starts inside a partition, the partition shaded from its first line.
//
// The parts are chosen from the whole diagram's lines: each takes the events
// whose lines fit in the limit less the whole diagram's header (up to its first
// event's lines) and some room for what the part repeats (its header, a
// partition carried over). Should a part still come out too big, the diagram is
// cut again from the start with twice the room.
func MermaidSplit(src Source, w Window, sink PartSink) (int, error) {
	return splitFrom(src, w, sink, nil)
}

// splitFrom is MermaidSplit whose first cutting, when s is not nil, is s, fed
// by its caller's reading (the md report's).
func splitFrom(src Source, w Window, sink PartSink, s *splitter) (int, error) {
	for room := 2000; room < MermaidMaxText/2; room *= 2 {
		if s == nil {
			s = newSplitter(src.Header(), w, room, sink)
			tail, err := each(src, func(e *trace.Event) (bool, error) { return s.see(e) })
			if err != nil && err != errRoom {
				return 0, err
			}
			s.tail, s.err = tail, err
		}
		n, err := s.end()
		if err != errRoom {
			return n, err
		}
		if err := sink.Restart(); err != nil {
			return 0, err
		}
		s = nil
	}
	return 0, &RefusedError{fmt.Sprintf("the Mermaid diagram of %s cannot be cut into parts under Mermaid's limit of %d characters: "+
		"one event's lines, with a part's header, are over it: narrow it with --nodes", windowName(w), MermaidMaxText)}
}

// errRoom: a part came out too big for the room left for its header.
var errRoom = errors.New("part too big")

// splitter is one cutting of MermaidSplit's, fed one event at a time, with room
// characters left for what a part repeats; errRoom if that is too few.
type splitter struct {
	h         *trace.Header
	w         Window
	sink      PartSink
	room      int
	f         *mmFold
	whole     *mmWriter // the whole diagram
	part      *mmWriter // the part being cut
	header    int       // the whole diagram's header, in characters
	wholeText bool      // the whole diagram's lines are kept: it may fit
	budget    int       // for a part's events' lines, once the first event is drawn
	partLen   int       // characters of the part's events' lines, as the whole diagram has them
	partFirst uint64
	partLast  uint64
	held      []string // parts cut while the whole diagram may still fit
	parts     int
	first     int // the number of the part's first arrow
	kept      bool
	scratch   []byte
	tail      Tail
	err       error // what stopped the reading
}

func newSplitter(h *trace.Header, w Window, room int, sink PartSink) *splitter {
	ids := w.IDs(h.Info.IDs)
	f := newMMFold(newSlots(h.Info.IDs))
	s := &splitter{h: h, w: w, sink: sink, room: room, f: f, whole: newMMWriter(f, w, ids), part: newMMWriter(f, w, ids),
		wholeText: true, budget: -1, first: 1}
	s.header = s.whole.headerLen(h, w, 1)
	return s
}

func (s *splitter) emit(text string) error {
	if s.wholeText {
		s.held = append(s.held, text)
		return nil
	}
	s.parts++
	return s.sink.Part(s.parts-1, text)
}

func (s *splitter) closePart() error {
	pw := s.w
	pw.FirstSeq, pw.LastSeq = s.partFirst, s.partLast
	text := string(s.part.finish(s.part.header(nil, s.h, pw, s.first), s.part.b))
	if jsLen(text) > MermaidMaxText {
		return errRoom
	}
	s.first += s.part.arrows
	return s.emit(text)
}

// see takes the next event of the trace; stop is true past the window.
func (s *splitter) see(e *trace.Event) (stop bool, err error) {
	if malformed(e) {
		return false, nil
	}
	if s.w.past(e.T, e.Seq) {
		return true, nil
	}
	c := s.f.look(e)
	if s.w.Keep(e) {
		s.kept = true
		whole, part := s.whole, s.part
		before := whole.state()
		s.scratch = whole.draw(s.scratch[:0], e, c)
		size := whole.n - before.n
		if s.wholeText {
			whole.b = append(whole.b, s.scratch...)
			if s.header+whole.n > MermaidMaxText {
				// Parts, then: those cut so far go out.
				s.wholeText, whole.b = false, nil
				for _, p := range s.held {
					s.parts++
					if err := s.sink.Part(s.parts-1, p); err != nil {
						return true, err
					}
				}
				s.held = nil
			}
		}
		switch {
		case size == 0: // nothing drawn: no part's business
		case s.budget < 0: // the first lines: the first part begins
			s.budget = MermaidMaxText - (s.header + size) - s.room
			if size > s.budget {
				return true, errRoom
			}
			part.b = part.draw(part.b, e, c)
			s.partLen, s.partFirst = size, e.Seq
		case size > s.budget:
			return true, errRoom
		case s.partLen+size <= s.budget:
			part.add(s.scratch, before, whole.state())
			s.partLen += size
		default:
			if err := s.closePart(); err != nil {
				return true, err
			}
			part.restart()
			part.b = part.draw(part.b, e, c)
			s.partLen, s.partFirst = size, e.Seq
		}
		if size > 0 {
			s.partLast = e.Seq
		}
	}
	s.f.fold(e, c)
	return false, nil
}

// end ends the cutting, after the reading (s.tail, s.err), and returns how many
// parts there are.
func (s *splitter) end() (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if !s.kept {
		return 0, &RefusedError{"no events " + emptyText(s.tail, s.w)}
	}
	if s.wholeText || s.budget < 0 {
		text := string(s.whole.finish(s.whole.header(nil, s.h, s.w, 1), s.whole.b))
		if n := jsLen(text); n > MermaidMaxText {
			return 0, tooBig(n, s.w)
		}
		return 1, s.sink.Part(0, text)
	}
	if err := s.closePart(); err != nil {
		return 0, err
	}
	return s.parts, nil
}

// jsLen is the length of s as JavaScript counts it (UTF-16 code units), which is
// what Mermaid compares with maxTextSize.
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// mmFold is what a diagram folds from the start of the trace, drawn or not: the
// leader each node named last and its critical-section state (a note marks a
// change), and the partition in force (a diagram that starts inside one shades it
// from its first line).
type mmFold struct {
	text     func(*trace.Event) string // a fault for people (faultText)
	slots    *slots
	leader   []node.ID
	cs       []node.CSState
	parted   string // the partition in force, described, or ""
	partedAt int64
}

func newMMFold(s *slots) *mmFold { return &mmFold{slots: s, text: faultText} }

// mmChange is what the fold says of an event before folding it: a leader change
// (see leaders.see) and the node's critical-section state before it.
type mmChange struct {
	oldLeader node.ID
	changed   bool
	oldCS     node.CSState
}

// look is what e changes, without folding it.
func (f *mmFold) look(e *trace.Event) mmChange {
	var c mmChange
	if e.Node == node.None {
		return c
	}
	i := f.slot(e.Node)
	c.oldCS = f.cs[i]
	if e.Ev == trace.StatusEv && e.Status.Leader != node.None && f.leader[i] != e.Status.Leader {
		c.oldLeader, c.changed = f.leader[i], true
	}
	return c
}

func (f *mmFold) slot(id node.ID) int {
	i := f.slots.of(id)
	if i >= len(f.leader) {
		f.leader, f.cs = grow(f.leader, f.slots), grow(f.cs, f.slots)
	}
	return i
}

// fold folds e, of which look said c.
func (f *mmFold) fold(e *trace.Event, c mmChange) {
	switch e.Ev {
	case trace.StatusEv:
		i := f.slot(e.Node)
		f.cs[i] = e.Status.CS
		if c.changed {
			f.leader[i] = e.Status.Leader
		}
	case trace.Partition, trace.Isolate:
		f.parted, f.partedAt = f.text(e), e.T
	case trace.Heal:
		f.parted = ""
	}
}

// copyTo makes dst the same fold as f.
func (f *mmFold) copyTo(dst *mmFold) {
	dst.slots, dst.text = f.slots, f.text
	dst.leader = append(dst.leader[:0], f.leader...)
	dst.cs = append(dst.cs[:0], f.cs...)
	dst.parted, dst.partedAt = f.parted, f.partedAt
}

// mmWriter draws a diagram's lines, one kept event at a time.
//
// The diagram has one participant per node (those selected, in id order),
// autonumbered arrows at each message's delivery (->>) or drop (-x) time, notes
// for crash, recover, GST, leader changes, critical sections, cuts, slow nodes,
// detections, markers and alerts, and partitions shaded with rect from partition
// (or isolate) to heal. Sends and timers are not drawn: an arrow is drawn when its
// fate is known.
type mmWriter struct {
	f       *mmFold
	w       Window
	ids     []node.ID // the participants
	all     string    // a note over every participant: "n1,n5"
	b       []byte    // the lines drawn, after the header
	n       int       // their characters, as jsLen counts them
	rect    bool      // a partition is shaded
	started bool      // the first kept event is drawn
	arrows  int
	seen    func(node.ID) // when set, told each node a line is about
	about   map[node.ID]bool
	l       lang.Lang // the notes' language: the md report's; English elsewhere
	// alertCap, when not 0, is how many alerts of each kind get a note (the md
	// report's excerpt); the others are counted in hidden, and noteHidden says
	// how many.
	alertCap int
	shown    map[string]int // alerts drawn, by kind
	hidden   int
}

func newMMWriter(f *mmFold, w Window, ids []node.ID) *mmWriter {
	m := &mmWriter{f: f, w: w, l: lang.En}
	m.setIDs(ids)
	return m
}

func (m *mmWriter) setIDs(ids []node.ID) {
	m.ids = ids
	if len(ids) > 0 {
		m.all = ids[0].String()
		if len(ids) > 1 {
			m.all += "," + ids[len(ids)-1].String()
		}
	}
}

// mmState is what drawing changes in a writer.
type mmState struct {
	rect, started bool
	arrows, n     int
}

func (m *mmWriter) state() mmState { return mmState{m.rect, m.started, m.arrows, m.n} }

// restart begins a new part: the lines drawn so far are gone.
func (m *mmWriter) restart() {
	m.b, m.n = m.b[:0], 0
	m.rect, m.started, m.arrows = false, false, 0
}

// add appends lines that another writer, in the same state, drew from before to
// after.
func (m *mmWriter) add(lines []byte, before, after mmState) {
	m.b = append(m.b, lines...)
	m.n += after.n - before.n
	m.arrows += after.arrows - before.arrows
	m.rect, m.started = after.rect, after.started
}

// headerLen is the length of the header of a diagram of w.
func (m *mmWriter) headerLen(h *trace.Header, w Window, first int) int {
	return jsLen(string(m.header(nil, h, w, first)))
}

// header appends the diagram's first lines: its kind, a comment saying what it
// shows, the numbering and the participants.
func (m *mmWriter) header(b []byte, h *trace.Header, w Window, first int) []byte {
	info := &h.Info
	b = append(b, "sequenceDiagram\n"...)
	b = fmt.Appendf(b, "    %%%% clusterlab: %s (%s, seed %d), %s\n", oneLine(info.Name), oneLine(info.Algorithm), h.Seed, w.Describe())
	if first > 1 {
		b = fmt.Appendf(b, "    autonumber %d\n", first)
	} else {
		b = append(b, "    autonumber\n"...)
	}
	for _, id := range m.ids {
		b = append(b, "    participant "...)
		b = append(b, id.String()...)
		b = append(b, '\n')
	}
	return b
}

// finish appends lines, then the line that closes a shaded partition if one is
// open, to b.
func (m *mmWriter) finish(b, lines []byte) []byte {
	b = append(b, lines...)
	if m.rect {
		b = append(b, "    end\n"...)
		m.rect = false
	}
	return b
}

// draw appends the lines of e, an event the window keeps, of which the fold said
// c, and counts them.
func (m *mmWriter) draw(b []byte, e *trace.Event, c mmChange) []byte {
	if len(m.ids) == 0 {
		return b
	}
	start := len(b)
	ind := "    "
	if m.rect {
		ind = "        "
	}
	open := func() {
		b = append(b, "    rect rgba(255, 99, 71, 0.15)\n"...)
		m.rect, ind = true, "        "
	}
	closeRect := func() {
		if m.rect {
			b = append(b, "    end\n"...)
			m.rect, ind = false, "    "
		}
	}
	note := func(who, text string) {
		b = append(b, ind...)
		b = append(b, "Note over "...)
		b = append(b, who...)
		b = append(b, ": "...)
		b = append(b, mmText(text)...)
		b = append(b, '\n')
	}
	over := func(id node.ID) string {
		if m.seen != nil {
			m.seen(id)
		}
		return id.String()
	}
	if !m.started {
		m.started = true
		if m.f.parted != "" {
			open()
			note(m.all, m.l.F("mm.since", m.f.parted, fmtT(m.f.partedAt)))
		}
	}
	arrow := func(from node.ID, op string, to node.ID, text string) {
		m.arrows++
		b = append(b, ind...)
		b = append(b, over(from)...)
		b = append(b, op...)
		b = append(b, over(to)...)
		b = append(b, ": "...)
		b = append(b, text...)
		b = append(b, '\n')
	}
	switch e.Ev {
	case trace.Deliver:
		if e.Local {
			break
		}
		text := mmText(msgLabel(e.Msg))
		if e.Dup {
			text += m.l.T("mm.duplicate")
		}
		arrow(e.From, "->>", e.To, text)
	case trace.Drop:
		arrow(e.From, "-x", e.To, mmText(m.l.F("mm.lost", msgLabel(e.Msg), m.l.Word(e.Reason))))
	case trace.Crash:
		note(over(e.Node), m.l.T("mm.crash"))
	case trace.Recover:
		note(over(e.Node), m.l.F("mm.recover", e.Inc))
	case trace.GST:
		note(m.all, m.l.T("mm.gst"))
	case trace.StatusEv:
		if c.changed {
			text := m.l.F("mm.leader", e.Status.Leader)
			if e.Status.Leader == e.Node {
				text = m.l.T("mm.leads")
			}
			if c.oldLeader != node.None {
				text += m.l.F("mm.was", c.oldLeader)
			}
			note(over(e.Node), text)
		}
		if e.Status.CS == node.CSHeld && c.oldCS != node.CSHeld {
			note(over(e.Node), m.l.T("mm.enters"))
		} else if c.oldCS == node.CSHeld && e.Status.CS != node.CSHeld {
			note(over(e.Node), m.l.T("mm.leaves"))
		}
	case trace.Partition:
		closeRect()
		open()
		note(m.all, m.f.text(e))
	case trace.Isolate:
		if !m.rect {
			open()
		}
		note(m.all, m.f.text(e))
	case trace.Heal:
		closeRect()
		note(m.all, m.l.T("mm.heal"))
	case trace.Cut:
		who := ""
		for _, id := range []node.ID{min(e.From, e.To), max(e.From, e.To)} {
			if m.w.Has(id) {
				if who != "" {
					who += ","
				}
				who += over(id)
			}
		}
		note(who, m.f.text(e))
	case trace.Knob:
		if e.Name == "slow" && e.Node != node.None {
			note(over(e.Node), m.f.text(e))
		}
	case trace.Detect:
		note(m.all, m.l.F("mm.detect", e.Node, e.Value))
	case trace.Alert:
		if m.alertCap > 0 {
			if m.shown[e.Kind] >= m.alertCap {
				m.hidden++
				break
			}
			m.shown[e.Kind]++
		}
		text := e.Text // English as the trace writes it
		if m.l != lang.En {
			text = m.l.Text(text)
		}
		note(m.all, m.l.F("mm.alert", m.l.AlertKindIn(e.Kind), text))
	case trace.Marker:
		note(m.all, m.l.F("mm.marker", m.l.Marker(e.Text)))
	}
	m.n += jsLen(string(b[start:]))
	return b
}

// noteHidden appends, when alerts went undrawn (see alertCap), a note over every
// participant that says how many and where they are listed.
func (m *mmWriter) noteHidden(b []byte) []byte {
	if m.hidden == 0 {
		return b
	}
	text := m.l.F("mm.alerts.more.many", m.hidden)
	if m.hidden == 1 {
		text = m.l.T("mm.alerts.more.one")
	}
	ind := "    "
	if m.rect {
		ind = "        "
	}
	return fmt.Appendf(b, "%sNote over %s: %s\n", ind, m.all, mmText(text))
}

// mmText escapes text for a Mermaid message or note: the characters that end a
// statement or start a comment (";", "#"), "%" (comments), "<", ">" and "&" (HTML)
// become entity codes such as #59;, and the first letter of the word "end" (and of
// "style" and "classDef", which Mermaid's entity pre-pass treats specially) is
// written as an entity code, so that "end" shows as end but cannot close a block;
// so is the first letter of a leading "wrap:" or "nowrap:" (a text directive).
func mmText(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '#' || r == ';' || r == '%' || r == '<' || r == '>' || r == '&':
			fmt.Fprintf(&b, "#%d;", r)
		case (r == 'e' || r == 'E') && wordAt(s, i, "end"),
			(r == 's' || r == 'S') && prefixFold(s[i:], "style"),
			(r == 'c' || r == 'C') && prefixFold(s[i:], "classdef"),
			i == 0 && (prefixFold(s, "wrap:") || prefixFold(s, "nowrap:")):
			fmt.Fprintf(&b, "#%d;", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func prefixFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

// wordAt reports whether s holds the word w (any case) at byte i, not inside a
// longer word.
func wordAt(s string, i int, w string) bool {
	if !prefixFold(s[i:], w) {
		return false
	}
	if i > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:i])
		if isWordRune(r) {
			return false
		}
	}
	if j := i + len(w); j < len(s) {
		r, _ := utf8.DecodeRuneInString(s[j:])
		if isWordRune(r) {
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
