package mutex

import (
	"slices"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// lamportMutex is the mutual-exclusion algorithm of L. Lamport, "Time, clocks, and
// the ordering of events in a distributed system" (CACM 21(7), 1978): every process
// keeps a queue of requests ordered by (timestamp, id). A process that wants the
// critical section puts its request in its own queue and sends REQUEST to all others,
// which queue it and answer ACK; it enters when its request heads its queue and every
// other process has acknowledged it; on exit it removes its request and sends RELEASE
// to all, which remove it too. 3(N−1) messages per entry. Entries happen in
// (timestamp, id) order, which the order monitor checks through the req_ts counter.
//
// Messages:
//   - REQUEST  to every other process. Stamp: the request's Lamport timestamp.
//   - ACK      to the requester. Stamp: the timestamp of the request acknowledged.
//     Term: the timestamp of the acknowledger's own pending request (WANTED or
//     HELD), 0 if none.
//   - RELEASE  to every other process. Stamp: the timestamp of the request released.
//
// Departures, because the lab's links are not FIFO while Lamport assumes they are:
//   - The paper's entry condition "a message timestamped later than my request from
//     every process" relies on FIFO links to know that no earlier request of that
//     process is still on its way. Here the ACK names the request it acknowledges
//     and carries the acknowledger's own pending request (Term), which the requester
//     queues as if its REQUEST had arrived: an earlier request can no longer hide
//     behind a later ACK.
//   - A RELEASE may overtake its REQUEST: each process remembers the last released
//     timestamp of every other and ignores a REQUEST that is not newer.
//
// The clock is kept in stable storage; the algorithm tolerates no crash.
type lamportMutex struct {
	w        workload
	clock    clock
	ts       int64     // timestamp of the current request, while WANTED or HELD
	queue    []stamp   // pending requests, ordered by (timestamp, id)
	acks     []node.ID // who acknowledged the current request
	released []stamp   // per process, the highest released timestamp
}

func (a *lamportMutex) Step(env *node.Env, ev node.Event) {
	if a.w.handle(env, ev, a) {
		return
	}
	switch ev.Kind {
	case node.Start, node.Recover:
		a.clock.load(env)
	case node.Deliver:
		m, from := ev.Msg, ev.From
		switch m.Type {
		case "REQUEST":
			a.clock.witness(m.Stamp)
			if !a.enqueue(stamp{m.Stamp, from}) {
				return // overtaken by its own RELEASE
			}
			ack := node.Message{Type: "ACK", Stamp: m.Stamp}
			if a.w.cs != node.CSReleased {
				ack.Term = a.ts
			}
			env.Send(from, ack)
		case "ACK":
			if m.Term > 0 {
				a.clock.witness(m.Term)
				a.enqueue(stamp{m.Term, from})
			}
			if a.w.wanted() && m.Stamp == a.ts {
				a.acks = addID(a.acks, from)
			}
		case "RELEASE":
			a.release(stamp{m.Stamp, from})
		}
		a.check(env)
	}
}

// enqueue inserts r in order unless it is there already or was released, and
// reports whether it is (now) queued.
func (a *lamportMutex) enqueue(r stamp) bool {
	if r.ts <= a.releasedTs(r.id) {
		return false
	}
	i, found := slices.BinarySearchFunc(a.queue, r, cmpStamp)
	if !found {
		a.queue = slices.Insert(a.queue, i, r)
	}
	return true
}

func (a *lamportMutex) release(r stamp) {
	if i := slices.IndexFunc(a.released, func(s stamp) bool { return s.id == r.id }); i >= 0 {
		a.released[i].ts = max(a.released[i].ts, r.ts)
	} else {
		a.released = append(a.released, r)
	}
	a.queue = slices.DeleteFunc(a.queue, func(s stamp) bool { return s.id == r.id && s.ts <= r.ts })
}

func (a *lamportMutex) releasedTs(p node.ID) int64 {
	for _, s := range a.released {
		if s.id == p {
			return s.ts
		}
	}
	return 0
}

func (a *lamportMutex) acquire(env *node.Env) {
	a.ts = a.clock.next(env)
	a.acks = a.acks[:0]
	a.enqueue(stamp{a.ts, env.Self()})
	env.Broadcast(node.Message{Type: "REQUEST", Stamp: a.ts})
	a.check(env)
}

func (a *lamportMutex) check(env *node.Env) {
	if a.w.wanted() && len(a.queue) > 0 && a.queue[0] == (stamp{a.ts, env.Self()}) &&
		len(a.acks) == len(env.Peers())-1 {
		a.w.enter(env)
	}
}

func (a *lamportMutex) exit(env *node.Env) {
	a.release(stamp{a.ts, env.Self()})
	env.Broadcast(node.Message{Type: "RELEASE", Stamp: a.ts})
}

func (a *lamportMutex) Status() node.Status {
	var ts int64
	if a.w.cs != node.CSReleased {
		ts = a.ts
	}
	return node.Status{CS: a.w.cs, Counters: a.w.counters(
		node.Counter{Name: "req_ts", Value: ts},
		node.Counter{Name: "queue", Value: int64(len(a.queue))})}
}

func cmpStamp(a, b stamp) int {
	switch {
	case a.less(b):
		return -1
	case b.less(a):
		return 1
	}
	return 0
}

func init() {
	algos.Register(algos.Spec{
		Name:        "lamport",
		Family:      algos.Mutex,
		Theory:      lamportTheory,
		Description: "Lamport's mutex: a request queue ordered by (timestamp, id) at every process; REQUEST, ACK, RELEASE",
		Source:      "Lamport 1978 (CACM 21(7)), section on mutual exclusion",
		Messages:    []string{"REQUEST", "ACK", "RELEASE"},
		Params:      withWorkload(),
		Build: func(c algos.Config) (node.Factory, error) {
			wl, err := readWorkload(c.Params)
			if err != nil {
				return nil, err
			}
			return func(node.ID) node.Algorithm { return &lamportMutex{w: newWorkload(wl)} }, nil
		},
	})
}
