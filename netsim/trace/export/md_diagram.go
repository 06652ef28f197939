package export

import (
	"bytes"
	"maps"
	"math"
	"slices"

	"github.com/clusterlab/clusterlab/lang"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// excerpt finds and draws the report's diagram as the events go by: the
// DiagramMessages messages around the first alert or fault in the window (a
// quarter before it, the rest after), or the busiest DiagramMessages in a row (the
// shortest span of virtual time) if there is neither; the whole window when it
// has no more messages than that. It keeps the events since the oldest message
// that may begin the diagram and the diagram's fold before them, so it holds a
// few dozen messages' worth of events, whatever the trace's size.
type excerpt struct {
	h    *trace.Header
	w    Window
	ids  []node.ID
	fold bool // beyond FoldAbove nodes: draw only the nodes the diagram is about, and fold lists of ids
	msgs int  // the window's messages so far
	l    lang.Lang

	f     *mmFold   // the fold, for whole
	whole *mmWriter // the window's whole diagram, while it may be the one shown

	q     []qEvent // the events since the oldest message that may begin the diagram
	qFold *mmFold  // the fold before q's first event
	qMsgs int      // messages in q

	anchor   *trace.Event // the window's first fault or alert
	anchorAt int          // messages before it

	best     int64 // the busiest span of DiagramMessages messages so far
	bestQ    []qEvent
	bestFold *mmFold

	drawing     string // the diagram, once drawn
	first, last int64  // the times of its first and last messages
	drawn       bool
}

// drawn reports whether an event of e's kind may draw a line or change what the
// diagram folds: the others (sends, timers, logs, requests, actions, checks) are
// not kept for an excerpt, which begins with a message.
func drawn(e *trace.Event) bool {
	switch e.Ev {
	case trace.Send, trace.TimerEv, trace.Log, trace.Request, trace.Action, trace.Expect, trace.AlertCleared:
		return false
	case trace.Knob:
		return e.Name == "slow"
	}
	return true
}

// qEvent is an event kept for a diagram, and whether it is one of its messages.
type qEvent struct {
	e   trace.Event
	msg bool
}

func newExcerpt(h *trace.Header, w Window, fold bool, l lang.Lang) *excerpt {
	s := newSlots(h.Info.IDs)
	x := &excerpt{h: h, w: w, ids: w.IDs(h.Info.IDs), fold: fold, l: l, f: newMMFold(s), qFold: newMMFold(s), bestFold: newMMFold(s), best: math.MaxInt64}
	if fold || l != lang.En {
		list := idList(plainIDs)
		if fold {
			list = foldedIDs(l)
		}
		text := func(e *trace.Event) string { return faultTextIn(l, e, list) }
		x.f.text, x.qFold.text, x.bestFold.text = text, text, text
	}
	x.whole = x.writer(x.f, w)
	return x
}

// allMark stands for the note over every participant while they are not known.
const allMark = "\x00all\x00"

// excerptAlerts is how many alerts of each kind the excerpt draws a note for. A
// few show what the alerts say and whom they are about; in a storm (a ◊P run of
// 300 nodes before GST raises hundreds between two of the excerpt's 40 messages)
// the rest would bury the messages under notes that say the same thing, so they
// are counted in one note at the end, which points to the Alerts section.
const excerptAlerts = 3

// writer is a diagram writer of w from fold f; beyond FoldAbove nodes it notes
// the participants its lines are about, and draws notes over all of them as
// allMark until they are known (text).
func (x *excerpt) writer(f *mmFold, w Window) *mmWriter {
	m := newMMWriter(f, w, x.ids)
	m.l = x.l // the notes speak the report's language
	m.alertCap, m.shown = excerptAlerts, map[string]int{}
	if x.fold {
		m.about = map[node.ID]bool{}
		m.seen = func(id node.ID) { m.about[id] = true }
		m.all = allMark
	}
	return m
}

// text is the diagram m drew: its header, with only the participants its lines
// are about when it noted them (the window's first node if none), and its lines.
func (x *excerpt) text(m *mmWriter, w Window) string {
	b := m.finish(nil, m.noteHidden(m.b))
	if m.about != nil {
		ids := slices.Sorted(maps.Keys(m.about))
		if len(ids) == 0 && len(x.ids) > 0 {
			ids = x.ids[:1]
		}
		m.setIDs(ids)
		b = bytes.ReplaceAll(b, []byte(allMark), []byte(m.all))
	}
	return string(m.header(nil, x.h, w, 1)) + string(b)
}

// see takes the next event of the trace, up to the window's end.
func (x *excerpt) see(e *trace.Event) {
	if malformed(e) || x.w.past(e.T, e.Seq) {
		return
	}
	keep := x.w.Keep(e)
	msg := keep && (e.Ev == trace.Deliver && !e.Local || e.Ev == trace.Drop)
	if msg {
		x.msgs++
	}
	if x.whole != nil {
		if x.msgs > DiagramMessages {
			x.whole, x.f = nil, nil
		} else {
			c := x.f.look(e)
			if keep {
				x.whole.b = x.whole.draw(x.whole.b, e, c)
			}
			x.f.fold(e, c)
		}
	}
	if x.drawn {
		return
	}
	if drawn(e) {
		x.q = append(x.q, qEvent{*e, msg})
		if msg {
			x.qMsgs++
		}
	}
	if x.anchor == nil {
		// Only the last DiagramMessages messages may begin the diagram: fold
		// what comes before them.
		for len(x.q) > 0 && (!x.q[0].msg || x.qMsgs > DiagramMessages) {
			if x.q[0].msg {
				x.qMsgs--
			}
			x.qFold.see(&x.q[0].e)
			x.q = x.q[1:] // not cleared: bestQ may share it
		}
		if msg && x.qMsgs == DiagramMessages {
			if span := e.T - x.q[0].e.T; span < x.best {
				x.best, x.bestQ = span, x.q
				x.qFold.copyTo(x.bestFold)
			}
		}
		if keep && (isFault(e) || e.Ev == trace.Alert) {
			a := *e
			x.anchor, x.anchorAt = &a, x.msgs
			x.bestQ = nil
		}
		return
	}
	// Around the anchor: a quarter of the messages before it, the rest after,
	// once there are enough.
	if lo := max(x.anchorAt-DiagramMessages/4, 0); x.msgs >= lo+DiagramMessages {
		x.draw(x.qFold, x.q, lo-(x.msgs-x.qMsgs))
	}
}

// draw draws the diagram of the DiagramMessages messages from q's skip-th on,
// folding q's events from fold on.
func (x *excerpt) draw(fold *mmFold, q []qEvent, skip int) {
	var first, last *trace.Event
	n := 0
	for i := range q {
		if !q[i].msg {
			continue
		}
		if n == skip {
			first = &q[i].e
		}
		if n == skip+DiagramMessages-1 {
			last = &q[i].e
			break
		}
		n++
	}
	dw := x.w
	dw.FirstSeq, dw.LastSeq = first.Seq, last.Seq
	f := newMMFold(fold.slots)
	fold.copyTo(f)
	m := x.writer(f, dw)
	for i := range q {
		e := &q[i].e
		if dw.past(e.T, e.Seq) {
			break
		}
		c := f.look(e)
		if dw.Keep(e) {
			m.b = m.draw(m.b, e, c)
		}
		f.fold(e, c)
	}
	x.drawing = x.text(m, dw)
	x.first, x.last = first.T, last.T
	x.drawn = true
	x.q, x.qFold, x.bestQ, x.bestFold = nil, nil, nil, nil
}

// see folds e.
func (f *mmFold) see(e *trace.Event) { f.fold(e, f.look(e)) }

// diagram is the report's diagram and the sentence that says what it shows.
func (r *report) diagram() (string, string) {
	x := r.dia
	if x.msgs <= DiagramMessages {
		return x.text(x.whole, x.w), r.F("md.dw.all", x.msgs, mdText(x.w.describeIn(r.l, r.list)))
	}
	var what string
	if a := x.anchor; a != nil {
		if !x.drawn {
			lo := min(max(x.anchorAt-DiagramMessages/4, 0), x.msgs-DiagramMessages)
			x.draw(x.qFold, x.q, lo-(x.msgs-x.qMsgs))
		}
		name := faultTextIn(r.l, a, r.list)
		if a.Ev == trace.Alert {
			name = r.F("md.dw.alert", r.alertName(a.Kind))
		}
		what = r.F("md.dw.around", DiagramMessages, mdText(name), fmtT(a.T))
	} else {
		x.draw(x.bestFold, x.bestQ, 0)
		what = r.F("md.dw.busiest", DiagramMessages)
	}
	return x.drawing, r.F("md.dw.window", what, fmtT(x.first), fmtT(x.last), x.msgs)
}
