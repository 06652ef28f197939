package export

import (
	"io"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// pfSends follows the window's sends whose deliveries draw a flow arrow from
// them, and numbers the flows in the order their deliveries are read.
type pfSends struct {
	fates *fates
	open  midMap[pfSend] // sends kept, with ends still to come
	flows uint64         // the last flow's id
}

type pfSend struct {
	t    int64 // when it was sent
	left int32 // its deliveries and drops still to come
}

// see follows e, an event of the window's time and of nodes the header names;
// keep is whether the window keeps it. For a delivery that draws a flow it
// returns the flow's id and when its message was sent; otherwise id 0.
func (s *pfSends) see(e *trace.Event, keep bool) (id uint64, sent int64) {
	switch e.Ev {
	case trace.Send:
		if n := s.fates.of(e.MID); keep && n > 0 {
			s.open.put(e.MID, pfSend{t: e.T, left: int32(n)})
		}
	case trace.Deliver, trace.Drop:
		sa, ok := s.open.get(e.MID)
		if !ok {
			return 0, 0
		}
		if keep && e.Ev == trace.Deliver && !e.Local {
			s.flows++
			id, sent = s.flows, sa.t
		}
		if sa.left--; sa.left <= 0 {
			s.open.del(e.MID)
		} else {
			s.open.put(e.MID, sa)
		}
	}
	return id, sent
}

// pfAhead reads the trace ahead of the writing, in a reading of its own, to give
// a send the ids of the flows its deliveries will draw, so that the writing makes
// a flow's start with its send rather than with its delivery (up to 2 s of virtual
// time later before GST): the writing then holds nothing back for a message on its
// way, where it held everything made since its send (about a kilobyte a message
// on the way: 2.2 GB for a 300-node mesh before GST). Each reading keeps some 17
// bytes a message on the way (pfSends), and this one 9 more until the writing
// reaches the send (first).
type pfAhead struct {
	ahead // done also at the end of the window
	w     Window
	known func(e *trace.Event) bool // the header names its nodes
	sends pfSends
	first midMap[uint64]      // a send's first flow that starts before its delivery's time
	more  map[uint64][]uint64 // its others (a duplicated message's)
}

func newPfAhead(src Source, w Window, f *fates, known func(e *trace.Event) bool) *pfAhead {
	return &pfAhead{ahead: ahead{src: src}, w: w, known: known, sends: pfSends{fates: f}, more: map[uint64][]uint64{}}
}

// flowsOf reads on past event pos (counted from 1) and every end of message mid
// (sent at pos), and hands f the ids of the flows it draws whose deliveries come
// after its send's time, in order; the flows of a delivery at the send's own time
// are made with the delivery, where they come in order.
func (a *pfAhead) flowsOf(pos int, mid uint64, f func(id uint64)) error {
	for !a.done {
		if a.read >= pos {
			if _, open := a.sends.open.get(mid); !open {
				break
			}
		}
		e, err := a.next()
		if e == nil {
			if err != nil {
				return err
			}
			break
		}
		if malformed(e) {
			continue
		}
		if a.w.past(e.T, e.Seq) {
			a.done = true
			break
		}
		if !a.known(e) {
			continue
		}
		if id, sent := a.sends.see(e, a.w.Keep(e)); id != 0 && sent != e.T {
			if _, ok := a.first.get(e.MID); ok {
				a.more[e.MID] = append(a.more[e.MID], id)
			} else {
				a.first.put(e.MID, id)
			}
		}
	}
	if id, ok := a.first.get(mid); ok {
		a.first.del(mid)
		f(id)
		for _, id := range a.more[mid] {
			f(id)
		}
		delete(a.more, mid)
	}
	return nil
}

// ahead is a reading of a trace ahead of an export's writing, opened when first
// read.
type ahead struct {
	src  Source
	st   Stream
	read int  // events read
	done bool // at the end of the trace (or where its reader stopped)
}

// next reads the next event, as Stream.Scan does; nil at the end.
func (a *ahead) next() (*trace.Event, error) {
	if a.st == nil && !a.done {
		st, err := a.src.Open()
		if err != nil {
			a.done = true
			return nil, &ReadError{err}
		}
		a.st = st
	}
	if a.done {
		return nil, nil
	}
	e, err := a.st.Scan()
	if err == io.EOF {
		a.done = true
		return nil, nil
	}
	if err != nil {
		return nil, &ReadError{err}
	}
	a.read++
	return e, nil
}

func (a *ahead) close() {
	if a.st != nil {
		a.st.Close()
	}
}
