package mutex

import (
	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// ricart is Ricart and Agrawala's algorithm (G. Ricart, A. K. Agrawala, "An optimal
// algorithm for mutual exclusion in computer networks", CACM 24(1), 1981), as the
// course notes 002 give it in pseudocode: states RELEASED, WANTED and HELD; a process
// that wants the critical section multicasts a timestamped REQUEST and enters once
// all N−1 others replied; a process defers its REPLY while it is HELD, or WANTED with
// a smaller (timestamp, id) than the request; on exit it replies to every deferred
// request. 2(N−1) messages per entry.
//
// Timestamps are Lamport's (L. Lamport, "Time, clocks, and the ordering of events in
// a distributed system", CACM 21(7), 1978) as the paper uses them: a request takes
// one more than the highest timestamp seen in any REQUEST. Entries therefore happen
// in (timestamp, id) order, which the order monitor checks through the req_ts
// counter.
//
// Messages:
//   - REQUEST  to every other process. Stamp: the request's Lamport timestamp.
//   - REPLY    to the requester. Stamp: the timestamp of the request it answers, so
//     that a late or duplicated reply never counts for a later request (the paper
//     assumes exactly-once delivery; the lab's network can duplicate).
//
// Options:
//   - initial_clock = "n1=40 n2=33" starts those processes' Lamport clocks at the
//     given values, so that their next requests carry 41 and 34 as in the notes'
//     example.
//   - order = "priority" is the variant the notes 002 warn against ("Poderíamos
//     pensar que uma alternativa seria basear este algoritmo em prioridades em vez
//     de timestamps, mas isto não funciona!"): a WANTED process defers a request
//     only if its own fixed priority (its id: the higher, the stronger) beats the
//     requester's. A process that asked first but has the lower priority replies
//     to a later, stronger request while a reply it got earlier from that process
//     still counts: both collect N−1 replies and both enter, which the mutex
//     monitor catches.
//
// Departure: the clock is kept in stable storage, so a recovered process never
// reuses a timestamp. The algorithm tolerates no crash (notes 002: "nenhum processo
// pode falhar"): a crashed process never replies and everyone waits for it.
type ricart struct {
	cfg      *ricartConfig
	w        workload
	clock    clock
	ts       int64     // timestamp of the current request, while WANTED or HELD
	reps     []node.ID // who replied to it
	need     int       // how many replies it needs: N−1
	deferred []stamp   // requests deferred until exit
}

type ricartConfig struct {
	priority bool              // order = "priority"
	initial  map[node.ID]int64 // initial_clock; looked up, never ranged over
}

// defers reports whether a WANTED process with request mine defers request r.
func (a *ricart) defers(mine, r stamp) bool {
	if a.cfg.priority {
		return mine.id > r.id
	}
	return mine.less(r)
}

func (a *ricart) Step(env *node.Env, ev node.Event) {
	if a.w.handle(env, ev, a) {
		return
	}
	switch ev.Kind {
	case node.Start:
		a.clock.highest = a.cfg.initial[env.Self()]
	case node.Recover:
		a.clock.load(env)
	case node.Deliver:
		m := ev.Msg
		switch m.Type {
		case "REQUEST":
			a.clock.witness(m.Stamp)
			r := stamp{m.Stamp, ev.From}
			mine := stamp{a.ts, env.Self()}
			if a.w.held() || (a.w.wanted() && a.defers(mine, r)) {
				for _, d := range a.deferred {
					if d == r {
						return // duplicate
					}
				}
				a.deferred = append(a.deferred, r)
				return
			}
			env.Send(ev.From, node.Message{Type: "REPLY", Stamp: m.Stamp})
		case "REPLY":
			if !a.w.wanted() || m.Stamp != a.ts {
				return
			}
			a.reps = addID(a.reps, ev.From)
			a.check(env)
		}
	}
}

func (a *ricart) acquire(env *node.Env) {
	a.ts = a.clock.next(env)
	a.reps = a.reps[:0]
	a.need = len(env.Peers()) - 1
	env.Broadcast(node.Message{Type: "REQUEST", Stamp: a.ts})
	a.check(env)
}

func (a *ricart) check(env *node.Env) {
	if a.w.wanted() && len(a.reps) == a.need {
		a.w.enter(env)
	}
}

func (a *ricart) exit(env *node.Env) {
	for _, d := range a.deferred {
		env.Send(d.id, node.Message{Type: "REPLY", Stamp: d.ts})
	}
	a.deferred = a.deferred[:0]
}

// Status reports, besides the critical section and the request's stamp, the
// requests it defers (queue: who gets a REPLY when it leaves) and, while it waits,
// the replies it has of the N−1 it needs, which is what a card shows of it.
func (a *ricart) Status() node.Status {
	var ts int64
	if a.w.cs != node.CSReleased {
		ts = a.ts
	}
	c := a.w.counters(node.Counter{Name: "req_ts", Value: ts}, node.Counter{Name: "queue", Value: int64(len(a.deferred))})
	if a.w.wanted() {
		c = append(c, node.Counter{Name: "replies", Value: int64(len(a.reps))}, node.Counter{Name: "needed", Value: int64(a.need)})
	}
	return node.Status{CS: a.w.cs, Counters: c}
}

func init() {
	algos.Register(algos.Spec{
		Name:        "ricart",
		Family:      algos.Mutex,
		Theory:      ricartTheory,
		Description: "Ricart-Agrawala: multicast a timestamped REQUEST, enter after N−1 REPLYs; replies deferred by (timestamp, id)",
		Source:      `Ricart & Agrawala 1981 (CACM 24(1)); Lamport 1978 timestamps; course notes 002, "Algoritmo de Ricart and Agrawala"`,
		Messages:    []string{"REQUEST", "REPLY"},
		Params: withWorkload(
			algos.Param{Name: "order", Default: "timestamp", Doc: `"timestamp": (Lamport timestamp, id), the paper; "priority": fixed priorities (the id), the variant the notes show letting two processes in`},
			algos.Param{Name: "initial_clock", Default: "", Doc: `Lamport clocks to start from, such as "n1=40 n2=33" (the others start at 0)`},
		),
		Build: func(c algos.Config) (node.Factory, error) {
			wl, err := readWorkload(c.Params)
			if err != nil {
				return nil, err
			}
			cfg := &ricartConfig{}
			order, err := c.Params.String("order", "timestamp", "priority")
			if err != nil {
				return nil, err
			}
			cfg.priority = order == "priority"
			if cfg.initial, err = c.Params.NodeInts("initial_clock", c.IDs, 0); err != nil {
				return nil, err
			}
			return func(node.ID) node.Algorithm { return &ricart{cfg: cfg, w: newWorkload(wl)} }, nil
		},
	})
}
