package export

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// peek is what a first reading takes from an event line without decoding it
// whole: its kind, time and the fields that say who and which message.
type peek struct {
	seq              uint64
	t                int64
	ev               string
	node, from, to   node.ID
	mid              uint64
	dup, local       bool
	reason           string
	hasMsg, hasState bool // the line has "msg" / "status" (malformed without)
}

// peekLine reads p from a line as the recorder writes it (trace.AppendLine):
// seq, t and ev first, then node, from, to, mid, msg, dup, local and reason in
// that order. A line written otherwise (by hand, or a version to come) is decoded
// whole instead; ok is false only for a line that is not an event at all, which
// the writing pass reports with its place.
func peekLine(line []byte, p *peek, e *trace.Event) (ok bool) {
	*p = peek{}
	r := lineReader{b: line}
	if r.lit(`{"seq":`) && r.uint(&p.seq) && r.lit(`,"t":`) && r.int(&p.t) && r.lit(`,"ev":"`) && r.word(&p.ev) {
		r.id(`,"node":"n`, &p.node)
		r.id(`,"from":"n`, &p.from)
		r.id(`,"to":"n`, &p.to)
		if r.lit(`,"mid":`) && !r.uint(&p.mid) {
			return peekDecoded(line, p, e)
		}
		if r.lit(`,"msg":`) {
			if !r.skipObject() {
				return peekDecoded(line, p, e)
			}
			p.hasMsg = true
		}
		p.dup = r.lit(`,"dup":true`)
		p.local = r.lit(`,"local":true`)
		if r.lit(`,"reason":"`) && !r.word(&p.reason) {
			return peekDecoded(line, p, e)
		}
		// What a first reading needs of the other fields is in kinds that are
		// decoded whole (alerts, statuses); "status" is looked for only to tell a
		// malformed status event, which the writing pass skips.
		if p.ev == trace.StatusEv {
			p.hasState = bytes.Contains(r.b[r.i:], []byte(`"status":{`))
		}
		// A field out of the recorder's order is missed above: decode the line.
		switch p.ev {
		case trace.Send, trace.Deliver, trace.Drop:
			if p.mid != 0 && p.from != 0 && p.to != 0 && p.hasMsg {
				return true
			}
		case trace.TimerEv, trace.Crash, trace.Recover, trace.Isolate, trace.Request, trace.Log, trace.StatusEv:
			if p.node != 0 {
				return true
			}
		default:
			return true
		}
	}
	return peekDecoded(line, p, e)
}

// malformed is the malformed of the event p was read from.
func (p *peek) malformed() bool {
	return isMessageKind(p.ev) && !p.hasMsg || p.ev == trace.StatusEv && !p.hasState
}

// peekDecoded fills p from the line decoded whole.
func peekDecoded(line []byte, p *peek, e *trace.Event) bool {
	*e = trace.Event{}
	if json.Unmarshal(line, e) != nil {
		return false
	}
	peekOf(e, p)
	return true
}

// peekOf is the peek of a decoded event.
func peekOf(e *trace.Event, p *peek) {
	*p = peek{seq: e.Seq, t: e.T, ev: e.Ev, node: e.Node, from: e.From, to: e.To, mid: e.MID, dup: e.Dup, local: e.Local,
		reason: e.Reason, hasMsg: e.Msg != nil, hasState: e.Status != nil}
}

// lineReader reads the fixed parts of a recorder's line.
type lineReader struct {
	b []byte
	i int
}

// lit reads s if the line goes on with it.
func (r *lineReader) lit(s string) bool {
	if len(r.b)-r.i >= len(s) && string(r.b[r.i:r.i+len(s)]) == s {
		r.i += len(s)
		return true
	}
	return false
}

func (r *lineReader) digits() []byte {
	j := r.i
	for j < len(r.b) && r.b[j] >= '0' && r.b[j] <= '9' {
		j++
	}
	d := r.b[r.i:j]
	r.i = j
	return d
}

func (r *lineReader) uint(x *uint64) bool {
	d := r.digits()
	v, err := strconv.ParseUint(string(d), 10, 64)
	*x = v
	return err == nil
}

func (r *lineReader) int(x *int64) bool {
	neg := r.lit("-")
	d := r.digits()
	v, err := strconv.ParseInt(string(d), 10, 64)
	if neg {
		v = -v
	}
	*x = v
	return err == nil
}

// word reads a string's rest up to its closing quote; one with an escape is not
// a word.
func (r *lineReader) word(s *string) bool {
	j := bytes.IndexByte(r.b[r.i:], '"')
	if j < 0 || bytes.IndexByte(r.b[r.i:r.i+j], '\\') >= 0 {
		return false
	}
	*s = internWord(r.b[r.i : r.i+j])
	r.i += j + 1
	return true
}

// id reads a node id written as key followed by its number and a quote.
func (r *lineReader) id(key string, x *node.ID) {
	if !r.lit(key) {
		return
	}
	var v uint64
	if r.uint(&v) && r.lit(`"`) {
		*x = node.ID(v)
	}
}

// skipObject reads past a JSON object that holds no object, only strings,
// numbers, booleans and arrays of them (a message).
func (r *lineReader) skipObject() bool {
	if !r.lit("{") {
		return false
	}
	for r.i < len(r.b) {
		switch c := r.b[r.i]; c {
		case '"':
			r.i++
			for r.i < len(r.b) && r.b[r.i] != '"' {
				if r.b[r.i] == '\\' {
					r.i++
				}
				r.i++
			}
			r.i++
		case '}':
			r.i++
			return true
		case '{':
			return false
		default:
			r.i++
		}
	}
	return false
}

// internWord gives the kinds and drop reasons as the constants, without a new
// string per line.
func internWord(b []byte) string {
	switch string(b) {
	case trace.Send:
		return trace.Send
	case trace.Deliver:
		return trace.Deliver
	case trace.Drop:
		return trace.Drop
	case trace.TimerEv:
		return trace.TimerEv
	case trace.StatusEv:
		return trace.StatusEv
	case trace.ReasonLoss:
		return trace.ReasonLoss
	case trace.ReasonDown:
		return trace.ReasonDown
	case trace.ReasonPartition:
		return trace.ReasonPartition
	}
	return string(b)
}

// isMessageKind is trace.Event.IsMessage for a kind.
func isMessageKind(ev string) bool {
	return ev == trace.Send || ev == trace.Deliver || ev == trace.Drop
}

// fates counts, for each message, how many of its copies reach an end (a
// delivery or a drop): one, for nearly every message, so only the others are
// kept, those still in flight at the end of the recording (0) and those
// duplicated (2). A writing pass asks it whether a message it has seen the end of
// may still have another.
type fates struct {
	n       map[uint64]int32
	open    midMap[struct{}] // while scanning: sent, and no end yet
	maxSent uint64           // the highest message id sent so far
}

func newFates() *fates { return &fates{n: map[uint64]int32{}} }

// see counts p during the scan. An end whose message was never sent (a hand-made
// trace's) is not counted: its id is higher than any sent so far (ids are
// given in the order sent).
func (f *fates) see(p *peek) {
	switch p.ev {
	case trace.Send:
		f.open.put(p.mid, struct{}{})
		f.maxSent = max(f.maxSent, p.mid)
	case trace.Deliver, trace.Drop:
		if p.mid == 0 || p.mid > f.maxSent {
			return
		}
		if _, ok := f.open.get(p.mid); ok {
			f.open.del(p.mid)
		} else if n, ok := f.n[p.mid]; ok {
			f.n[p.mid] = n + 1
		} else {
			f.n[p.mid] = 2
		}
	}
}

// done ends the scan.
func (f *fates) done() {
	f.open.each(func(mid uint64, _ struct{}) { f.n[mid] = 0 })
	f.open = midMap[struct{}]{}
}

// of is how many ends message mid has in the whole recording.
func (f *fates) of(mid uint64) int {
	if n, ok := f.n[mid]; ok {
		return int(n)
	}
	return 1
}

// scan reads src's lines once, without decoding them, and hands each line's
// peek to f; when decode says so for its kind, the event decoded whole as well
// (nil otherwise). It returns the recording's tail.
func scan(src Source, decode func(ev string) bool, f func(p *peek, e *trace.Event)) (Tail, error) {
	st, err := src.Open()
	if err != nil {
		return Tail{}, err
	}
	defer st.Close()
	var p peek
	var e trace.Event
	var last int64
	for {
		line, err := st.NextLine()
		if err == io.EOF {
			t := st.Tail()
			t.Last = last
			return t, nil
		}
		if err != nil {
			return Tail{}, err
		}
		if !peekLine(line, &p, &e) {
			continue // not an event: the writing pass says where
		}
		last = p.t
		var full *trace.Event
		if decode != nil && decode(p.ev) {
			e = trace.Event{}
			if json.Unmarshal(line, &e) != nil {
				continue
			}
			full = &e
		}
		f(&p, full)
	}
}

// midMap maps message ids to values for the messages on their way. Ids are given
// in the order sent and most messages arrive soon, so it is a window of slots from
// the oldest id still in it to the newest, not a hash map; an id far outside the
// window (a hand-made trace's) goes to a map beside it.
type midMap[V any] struct {
	base uint64 // the id of slot 0
	vals []V
	has  []bool
	n    int // ids in the window
	far  map[uint64]V
}

// farSlots is how far past its newest id the window grows for a new one.
const farSlots = 1 << 20

func (m *midMap[V]) slot(mid uint64) (int, bool) {
	if m.n == 0 && len(m.far) == 0 {
		m.base, m.vals, m.has = mid, m.vals[:0], m.has[:0]
	}
	if mid < m.base || mid-m.base >= uint64(len(m.vals))+farSlots {
		return 0, false
	}
	return int(mid - m.base), true
}

// put sets mid's value.
func (m *midMap[V]) put(mid uint64, v V) {
	i, ok := m.slot(mid)
	if !ok {
		if m.far == nil {
			m.far = map[uint64]V{}
		}
		m.far[mid] = v
		return
	}
	for len(m.vals) <= i {
		var zero V
		m.vals, m.has = append(m.vals, zero), append(m.has, false)
	}
	if !m.has[i] {
		m.n++
	}
	m.vals[i], m.has[i] = v, true
}

// get is mid's value.
func (m *midMap[V]) get(mid uint64) (V, bool) {
	if mid >= m.base && mid-m.base < uint64(len(m.vals)) && m.has[mid-m.base] {
		return m.vals[mid-m.base], true
	}
	v, ok := m.far[mid]
	return v, ok
}

// del removes mid, and the window's slots before its oldest id.
func (m *midMap[V]) del(mid uint64) {
	if mid >= m.base && mid-m.base < uint64(len(m.vals)) && m.has[mid-m.base] {
		i := mid - m.base
		var zero V
		m.vals[i], m.has[i] = zero, false
		m.n--
		k := 0
		for k < len(m.has) && !m.has[k] {
			k++
		}
		if k > 0 {
			m.vals, m.has, m.base = m.vals[k:], m.has[k:], m.base+uint64(k)
		}
		return
	}
	delete(m.far, mid)
}

// each hands every id and value to f.
func (m *midMap[V]) each(f func(mid uint64, v V)) {
	for i, ok := range m.has {
		if ok {
			f(m.base+uint64(i), m.vals[i])
		}
	}
	for mid, v := range m.far {
		f(mid, v)
	}
}

// size is how many ids it holds.
func (m *midMap[V]) size() int { return m.n + len(m.far) }
