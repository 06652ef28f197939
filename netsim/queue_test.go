package netsim

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// refQueue is the queue's specification: every event, sorted by (time, sequence).
type refQueue []qev

func (r *refQueue) pop() qev {
	i := 0
	for j := range *r {
		a, b := &(*r)[j], &(*r)[i]
		if a.at < b.at || (a.at == b.at && a.seq < b.seq) {
			i = j
		}
	}
	e := (*r)[i]
	*r = slices.Delete(*r, i, i+1)
	return e
}

// TestQueueOrder drives the queue the way the world does (times at or after the
// last one taken, most within the wheel's span, some far ahead, some before its
// cursor, some not on a whole microsecond, sequence numbers rising) and checks that
// it gives back every event, intact, in (time, sequence) order, through
// compactions and a GST that brings deliveries forward.
func TestQueueOrder(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		// The queue takes its memory from the pools, where a queue released
		// full of events has just left its wheel and pages (from even seeds on:
		// the odd ones start with what the pools hold, if anything).
		if seed%2 == 0 {
			releaseFull(r)
		}
		var q queue
		q.pooled()
		var ref refQueue
		var seq uint64
		now := time.Duration(0)
		types := []string{"PING", "ACK", "ELECTION"}
		push := func(at time.Duration) {
			seq++
			e := qev{at: at, seq: seq, kind: qDeliver, to: int32(r.IntN(50)), from: int32(r.IntN(50)), inc: uint32(r.IntN(3)), mid: seq,
				msg: node.Message{Type: types[r.IntN(len(types))], ID: node.ID(r.IntN(9)), Term: r.Int64N(5), Stamp: r.Int64N(5), Flag: r.IntN(2) == 1}}
			switch r.IntN(10) {
			case 0:
				e.kind, e.name, e.msg = qRequest, "cs", node.Message{}
			case 1:
				e.msg.List = node.IDList("1,2,3")[:1+2*r.IntN(2)]
			case 2:
				e.local = true
			case 3:
				// A broadcast: one message to several processes in a row, at
				// several times, so that their deliveries share its body.
				for k := r.IntN(6); k > 0; k-- {
					b := e
					b.to, b.at = int32(r.IntN(50)), e.at+time.Duration(r.IntN(3000))*time.Microsecond
					q.push(b)
					ref = append(ref, b)
					seq++
					e.seq, e.mid = seq, seq
				}
			}
			q.push(e)
			ref = append(ref, e)
		}
		for step := 0; step < 20_000; step++ {
			switch k := r.IntN(100); {
			case k < 45:
				d := time.Duration(r.IntN(20_000)) * time.Microsecond
				switch r.IntN(20) {
				case 0:
					d = time.Duration(r.IntN(300)) * time.Millisecond // past the wheel
				case 1:
					d += time.Duration(r.IntN(1000)) // not a whole microsecond
				case 2:
					d = 0
				}
				push(now + d)
			case k < 50 && step%3000 == 0:
				// GST: every network delivery arrives within Δ from now.
				limit := now + 5*time.Millisecond
				q.deliverBy(limit)
				for i := range ref {
					if ref[i].kind == qDeliver && !ref[i].local && ref[i].at > limit {
						ref[i].at = limit
					}
				}
			default:
				if len(ref) == 0 {
					continue
				}
				if q.len() != len(ref) {
					t.Fatalf("seed %d: queue holds %d, want %d", seed, q.len(), len(ref))
				}
				want := ref.pop()
				if h := q.headKey(); h.at != want.at || h.seq != want.seq {
					t.Fatalf("seed %d step %d: head is (%v, %d), want (%v, %d)", seed, step, h.at, h.seq, want.at, want.seq)
				}
				if got := q.pop(); got != want {
					t.Fatalf("seed %d step %d: popped %+v, want %+v", seed, step, got, want)
				}
				now = want.at
				if r.IntN(4) == 0 {
					q.advance(now)
				}
			}
		}
		for len(ref) > 0 {
			if got, want := q.pop(), ref.pop(); got != want {
				t.Fatalf("seed %d, draining: popped %+v, want %+v", seed, got, want)
			}
		}
		if q.len() != 0 {
			t.Fatalf("seed %d: %d left in an empty queue", seed, q.len())
		}
		if live := int(q.bodies.n) - len(q.bodies.free); live != 0 {
			t.Fatalf("seed %d: %d message bodies still held by an empty queue", seed, live)
		}
		if live := int(q.lists.n) - len(q.lists.free); live != 0 {
			t.Fatalf("seed %d: %d lists still held by an empty queue", seed, live)
		}
	}
}

// releaseFull fills a pooled queue with events on its wheel and beyond, and
// releases it: its wheel arrays and pages go back to the pools as they are.
func releaseFull(r *rand.Rand) {
	var q queue
	q.pooled()
	for i := range 10_000 {
		at := time.Duration(r.IntN(200_000)) * time.Microsecond
		q.push(qev{at: at, seq: uint64(i + 1), kind: qDeliver, to: int32(r.IntN(50)), mid: uint64(i + 1), msg: node.Message{Type: "JUNK", Term: int64(i)}})
	}
	q.release()
	if q.len() != 0 || q.wheel.head != nil || len(q.pages) != 0 {
		panic("a released queue still holds memory")
	}
}

// TestQueueSharesABroadcastsBody: the deliveries of one broadcast hold one body
// between them, and a different message after it gets its own.
func TestQueueSharesABroadcastsBody(t *testing.T) {
	var q queue
	m := node.Message{Type: "HEARTBEAT", Stamp: 7}
	for i := range 1000 {
		q.push(qev{at: time.Duration(i) * time.Microsecond, seq: uint64(i + 1), kind: qDeliver, to: int32(i), msg: m})
	}
	q.push(qev{at: time.Millisecond, seq: 1001, kind: qDeliver, msg: node.Message{Type: "HEARTBEAT", Stamp: 8}})
	if live := int(q.bodies.n) - len(q.bodies.free); live != 2 {
		t.Fatalf("1,000 deliveries of one message and one of another hold %d bodies, want 2", live)
	}
	for i := range 1000 {
		if got := q.pop(); got.msg != m || got.to != int32(i) {
			t.Fatalf("delivery %d: %+v", i, got)
		}
	}
	if live := int(q.bodies.n) - len(q.bodies.free); live != 1 {
		t.Fatalf("after the broadcast's deliveries, %d bodies held, want 1", live)
	}
}

// TestQueueGivesBackABurst: after a burst, a queue that stays small for a second of
// virtual time lets go of the burst's memory.
func TestQueueGivesBackABurst(t *testing.T) {
	var q queue
	seq := uint64(0)
	for i := 0; i < 4*compactAbove; i++ {
		seq++
		q.push(qev{at: time.Duration(i%1000) * time.Microsecond, seq: seq, kind: qStart})
	}
	big := q.room()
	now := time.Duration(0)
	for q.len() > 0 {
		now = q.pop().at
	}
	for i := 0; i < 3000; i++ {
		seq++
		q.push(qev{at: now + time.Millisecond, seq: seq, kind: qStart})
		now = q.pop().at
	}
	if c := q.room(); c >= big/4 {
		t.Fatalf("the slab still holds room for %d events after a burst of %d", c, big)
	}
}

// TestQueueKeepsABucketTogether pushes 16 events into each of 1,000 buckets, one
// bucket after another round after round, as a mesh's broadcasts fill the wheel,
// and checks that taking them in order reads them a chunk at a time: the slot of
// the next event is in the chunk of the last one nearly always. Stored wherever a
// slot was free, consecutive events would lie 1,000 slots apart.
func TestQueueKeepsABucketTogether(t *testing.T) {
	var q queue
	seq := uint64(0)
	for round := 0; round < 16; round++ {
		for b := 0; b < 1000; b++ {
			seq++
			q.push(qev{at: time.Duration(b) * time.Microsecond, seq: seq, kind: qStart})
		}
	}
	jumps, last := 0, int32(-1)
	for q.len() > 0 {
		s := q.headKey().slot
		if last < 0 || s>>chunkBits != last>>chunkBits {
			jumps++
		}
		last = s
		q.pop()
	}
	// Each bucket: its first event among the shared first events' chunks, then
	// 15 events in two chunks of its own.
	if want := 1000 * 3; jumps > want {
		t.Fatalf("%d changes of chunk taking 16,000 events in order, want at most %d", jumps, want)
	}
}
