package export

import (
	"io"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

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

// see counts e during the first reading. An end whose message was never sent (a
// hand-made trace's) is not counted: its id is higher than any sent so far (ids
// are given in the order sent).
func (f *fates) see(e *trace.Event) {
	if malformed(e) {
		return
	}
	switch e.Ev {
	case trace.Send:
		f.open.put(e.MID, struct{}{})
		f.maxSent = max(f.maxSent, e.MID)
	case trace.Deliver, trace.Drop:
		if e.MID == 0 || e.MID > f.maxSent {
			return
		}
		if _, ok := f.open.get(e.MID); ok {
			f.open.del(e.MID)
		} else if n, ok := f.n[e.MID]; ok {
			f.n[e.MID] = n + 1
		} else {
			f.n[e.MID] = 2
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

// scan reads src once, to know what comes later, handing every event to f,
// which keeps nothing of it (see Stream.Scan); it returns the recording's tail.
// The events are checked as the writing reading checks them, so a bad line is
// found at its place.
func scan(src Source, f func(e *trace.Event)) (Tail, error) {
	st, err := src.Open()
	if err != nil {
		return Tail{}, &ReadError{err}
	}
	defer st.Close()
	var last int64
	for {
		e, err := st.Scan()
		if err == io.EOF {
			t := st.Tail()
			t.Last = last
			return t, nil
		}
		if err != nil {
			return Tail{}, &ReadError{err}
		}
		last = e.T
		f(e)
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
