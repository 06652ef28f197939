package netsim

import (
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// The message-level actions act on messages in flight: one message by its id (the
// mid the trace gives its send, delivery and drop), or every message of a link.
//
//   - hold a->b queues the link's messages, those in flight and those sent from
//     then on, and release a->b delivers them in the order they were sent, each at
//     the release or at its own delivery time if that is later: the link's messages
//     come after those of other links sent later (turmoil's hold). heal releases
//     every held link.
//   - drop #SEQ loses every copy of the message still in flight (reason action);
//     delay #SEQ D delivers them D later; deliver #SEQ delivers the first copy
//     now, at once, before any other event pending at this instant; dup #SEQ delivers the
//     first copy twice. A message no longer in flight is left alone: the action is
//     recorded and does nothing.
//   - swizzle D clogs links (holds them) one at a time over the first half of D,
//     in an order and a number drawn from the seed and the instant, and unclogs
//     them in another order over the second half (FoundationDB's swizzle-clogging).
//
// Every one of them is deterministic: a recording that holds them re-runs to the
// same trace, which is what lets a search's counterexample replay.

// heldLink is a held link and the messages it keeps, in the order they were sent.
type heldLink struct {
	from, to int32
	msgs     []qev
}

// ReasonAction is a drop reason: the message was dropped by an action (drop #SEQ).
const ReasonAction = trace.ReasonAction

// applyMessage carries out a message-level action or a swizzle now.
func (w *World) applyMessage(a Action) {
	switch a.Verb {
	case "hold":
		w.hold(w.proc(a.Node).idx, w.proc(a.To).idx)
	case "release":
		w.release(w.proc(a.Node).idx, w.proc(a.To).idx)
	case "drop":
		for _, e := range w.takeMessage(a.MID, true) {
			w.counts.drop(e.msg.Type, ReasonAction)
			if !w.untraced() {
				ev := w.message(trace.Drop, w.cfg.IDs[e.from], w.cfg.IDs[e.to], e.mid, &e.msg)
				ev.Reason, ev.Dup = ReasonAction, e.dup
				w.filled(ev)
			}
		}
	case "delay":
		for _, e := range w.takeMessage(a.MID, false) {
			e.at += a.For
			w.push(e)
		}
	case "deliver":
		ms := w.takeMessage(a.MID, true)
		if len(ms) == 0 {
			return
		}
		first := ms[0]
		for _, e := range ms[1:] {
			w.requeue(e) // a duplicate keeps its place
		}
		// Before everything pending at this instant: numbered just below the next
		// event or check when that one is now, and handled at once, alone, as part
		// of the action. Left in the queue, its number would come before the place
		// of the action itself, and a user action taken after it would be recorded
		// at a place that sorts before it.
		first.at = w.now
		if k, ok := w.nextKey(); ok && k.at == w.now {
			first.seq = max(k.seq, 1) - 1
		} else {
			w.seq++
			first.seq = w.seq
		}
		if !w.full() {
			w.shardOf(first.to).q.push(first)
			w.window(w.now, w.now, true, endOfTime)
		}
	case "dup":
		ms := w.takeMessage(a.MID, false)
		for _, e := range ms {
			w.requeue(e)
		}
		if len(ms) > 0 {
			c := ms[0]
			c.dup = true
			w.push(c)
		}
	case "swizzle":
		w.swizzle(a.For)
	}
}

// requeue puts an event taken out of the queue back with its number.
func (w *World) requeue(e qev) {
	if !w.full() {
		w.shardOf(e.to).q.push(e)
	}
}

// isMessage reports whether the queued event is a network delivery of message mid.
func isMessage(p *pev, mid uint64) bool { return p.kind == qDeliver && !p.local && p.mid == mid }

// takeMessage takes every copy of message mid out of the queue, and when held is
// set out of the held links too, in delivery order (held ones last, as they would
// come on release).
func (w *World) takeMessage(mid uint64, held bool) []qev {
	out := w.removeQueued(func(p *pev) bool { return isMessage(p, mid) })
	if !held {
		return out
	}
	for i := range w.held {
		h := &w.held[i]
		h.msgs = slices.DeleteFunc(h.msgs, func(e qev) bool {
			if e.mid == mid {
				out = append(out, e)
				w.heldN--
				return true
			}
			return false
		})
	}
	return out
}

// heldAt is the index of link (a, b) in the held links, or -1.
func (w *World) heldAt(a, b int32) int {
	for i := range w.held {
		if w.held[i].from == a && w.held[i].to == b {
			return i
		}
	}
	return -1
}

// hold starts holding link a->b, taking what it has in flight off the network.
func (w *World) hold(a, b int) {
	if w.heldAt(int32(a), int32(b)) >= 0 {
		return
	}
	msgs := w.removeQueued(func(p *pev) bool {
		return p.kind == qDeliver && !p.local && p.from == int32(a) && p.to == int32(b)
	})
	w.heldN += len(msgs)
	w.held = append(w.held, heldLink{from: int32(a), to: int32(b), msgs: msgs})
}

// release delivers what link a->b holds and stops holding it.
func (w *World) release(a, b int) {
	i := w.heldAt(int32(a), int32(b))
	if i < 0 {
		return
	}
	h := w.held[i]
	w.held = slices.Delete(w.held, i, i+1)
	w.heldN -= len(h.msgs)
	last := w.now
	for _, e := range h.msgs {
		// In the order they were sent: none before the one sent before it.
		e.at = max(e.at, last)
		last = e.at
		w.push(e)
	}
}

// releaseAll releases every held link, in the order they were held.
func (w *World) releaseAll() {
	for len(w.held) > 0 {
		w.release(int(w.held[0].from), int(w.held[0].to))
	}
}

// holding keeps e if its link is held, and reports whether it did. It numbers e
// as push would have, so that holding a link changes no other event's number.
func (w *World) holding(e *qev) bool {
	i := w.heldAt(e.from, e.to)
	if i < 0 {
		return false
	}
	w.seq++
	if !w.full() {
		e.seq = w.seq
		w.held[i].msgs = append(w.held[i].msgs, *e)
		w.heldN++
	}
	return true
}

// swizzle clogs a random set of links one at a time over the first half of d and
// unclogs them in another random order over the second half, by scheduling holds
// and releases.
func (w *World) swizzle(d time.Duration) {
	w.swizzles++
	r := rand.New(rand.NewPCG(w.cfg.Seed^uint64(w.now), 0x73776973<<32|w.swizzles)) // "swis"
	var links [][2]int
	for a := range w.procs {
		for b := range w.procs {
			if a != b && w.linked(a, b) {
				links = append(links, [2]int{a, b})
			}
		}
	}
	if len(links) == 0 {
		return
	}
	r.Shuffle(len(links), func(i, j int) { links[i], links[j] = links[j], links[i] })
	links = links[:1+r.IntN(len(links))]
	k := time.Duration(len(links))
	half := (d / 2).Truncate(time.Microsecond)
	for i, l := range links {
		at := w.now + (half * time.Duration(i) / k).Truncate(time.Microsecond)
		w.insertScheduled(at, Action{Verb: "hold", Node: w.cfg.IDs[l[0]], To: w.cfg.IDs[l[1]]})
	}
	r.Shuffle(len(links), func(i, j int) { links[i], links[j] = links[j], links[i] })
	for i, l := range links {
		at := w.now + half + ((d - half) * time.Duration(i+1) / k).Truncate(time.Microsecond)
		w.insertScheduled(at, Action{Verb: "release", Node: w.cfg.IDs[l[0]], To: w.cfg.IDs[l[1]]})
	}
}

// insertScheduled schedules an action the world takes itself (a swizzle's steps),
// recorded with by "swizzle": after what is already scheduled at its instant. A
// step due now is taken at once, as part of the action that made it: scheduled, it
// would come before the user actions of this instant that follow, which were taken
// after it.
func (w *World) insertScheduled(at time.Duration, a Action) {
	if at <= w.now {
		w.apply(a, bySwizzle, 0)
		return
	}
	s := scheduled{at: at, action: &a, by: bySwizzle}
	rest := w.sched[w.next:]
	i := sort.Search(len(rest), func(k int) bool { return s.precedes(&rest[k]) })
	w.sched = slices.Insert(w.sched, w.next+i, s)
}

// bySwizzle marks the actions a swizzle takes, in the trace.
const bySwizzle = "swizzle"

// removeQueued takes the queued events that match out of every shard's queue and
// returns them in (time, sequence) order.
func (w *World) removeQueued(match func(*pev) bool) []qev {
	var out []qev
	for i := range w.shards {
		out = append(out, w.shards[i].q.remove(match)...)
	}
	if len(w.shards) > 1 {
		sortQueued(out)
	}
	return out
}

// sortQueued sorts events in (time, sequence) order.
func sortQueued(evs []qev) {
	slices.SortFunc(evs, func(a, b qev) int {
		switch {
		case earlier(a.at, a.seq, b.at, b.seq):
			return -1
		case earlier(b.at, b.seq, a.at, a.seq):
			return 1
		}
		return 0
	})
}

// remove takes the queued events that match out of the queue and returns them in
// (time, sequence) order. It looks at every event: for actions, not for the
// world's own steps.
func (q *queue) remove(match func(*pev) bool) []qev {
	var out []qev
	q.each(func(p *pev) {
		if match(p) {
			out = append(out, q.unpack(p))
			p.kind = 0 // left out by rebuild
		}
	})
	if len(out) == 0 {
		return nil
	}
	q.rebuild(func(*pev) {})
	sortQueued(out)
	return out
}

// Flights lists the messages in flight, in the order they were sent (by id):
// every message with a delivery queued or kept by a held link, once (a
// duplicate's copies are one message), whenever it was sent.
func (w *World) Flights() []trace.Flight {
	at := map[uint64]int{}
	var out []trace.Flight
	add := func(f trace.Flight) {
		if i, ok := at[f.MID]; ok {
			out[i].Due = min(out[i].Due, f.Due)
			return
		}
		at[f.MID] = len(out)
		out = append(out, f)
	}
	for i := range w.shards {
		q := &w.shards[i].q
		q.each(func(p *pev) {
			if p.kind == qDeliver && !p.local {
				add(trace.Flight{MID: p.mid, From: w.cfg.IDs[p.from], To: w.cfg.IDs[p.to], Type: q.typeOf(p), Due: p.at.Microseconds()})
			}
		})
	}
	for _, h := range w.held {
		for _, e := range h.msgs {
			add(trace.Flight{MID: e.mid, From: w.cfg.IDs[e.from], To: w.cfg.IDs[e.to], Type: e.msg.Type, Due: e.at.Microseconds(), Held: true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].MID < out[j].MID })
	return out
}
