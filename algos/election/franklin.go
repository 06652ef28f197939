package election

import (
	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// msgProbe is Franklin's message: an active process's id on its way to the nearest
// active process in one direction.
const msgProbe = "PROBE"

// Franklin's states.
const (
	frAsleep = iota // not yet woken: no election seen in this epoch
	frActive        // a candidate in the current round
	frRelay         // defeated: passes messages through
	frDone          // knows the leader
)

// PROBE.Flag is the direction a probe travels.
const (
	frDirRight = true  // towards the successor (clockwise)
	frDirLeft  = false // towards the predecessor
)

// Indexes of Franklin.got: the id that came from each side.
const (
	frFromLeft  = 0
	frFromRight = 1
)

// Franklin is Franklin's election on a bidirectional ring (W. R. Franklin, "On an
// improved algorithm for decentralized extrema-finding in circular configurations
// of processors", CACM 25(5), 1982), as the course notes 003 give it ("Algoritmo de
// Franklin") and as N. Santoro, "Design and Analysis of Distributed Algorithms"
// (Wiley 2007), ch. 3, presents it (protocol Stages). The ring is env.Peers() in
// order; the successor is to the right. The highest id wins.
//
//   - In each round, every active process sends PROBE(own id, round) both ways.
//   - It waits for the round's PROBE from the left and from the right: the ids of
//     the nearest active processes on each side.
//   - If it receives its own id, it went round the ring: this process is the only
//     active one left, the leader. It sends ELECTED to its successor, which goes
//     round once; every process records the leader.
//   - If its id is larger than both, it stays active for the next round.
//   - If either is larger, it becomes a relay.
//   - A relay passes every message on in the direction it was going.
//
// In every round at least half of the active processes become relays (of two
// neighbouring actives, the smaller loses), so there are at most ⌈log₂N⌉+1 rounds,
// the last one being the winner's id going round. In every round each active id
// travels to the nearest active process on each side, so the hops of one direction
// add up to N: exactly 2N PROBE per round, 2N·rounds in all, plus N ELECTED:
// O(N log N).
//
// Messages:
//   - PROBE: ID = the active process's id, Term = the round, Stamp = the epoch,
//     Flag = the direction (true: towards the successor).
//   - ELECTED: ID = the leader, Stamp = the epoch.
//
// A PROBE of a round the process has not reached yet (its neighbour finished the
// round first, or a relay's message overtook an earlier one) is buffered until it
// gets there; a process that becomes a relay passes its buffered messages on.
//
// Departures:
//   - Notes 003 have a process that becomes inactive send −p both ways; Franklin's
//     paper and Santoro do not, and neither does this process.
//   - A process that is not an initiator is woken by the first PROBE it receives:
//     it starts as an active process in round 1 (Santoro's wake-up), so the highest
//     id of the whole ring wins whoever started.
//   - Elections have an epoch number (kept in stable storage, in Stamp): starting
//     one, by being an initiator or by a user request, opens the next epoch; a
//     message of a newer epoch makes a process drop what it was doing and join, one
//     of an older epoch is dropped. This lets a user run the election again.
//
// The algorithm tolerates no crash: a message to a crashed process is lost and the
// election stalls until someone starts a new one (request nX election). A
// recovered process has lost its round and its buffers, so it sits out the epoch
// it was in (asleep, knowing no leader) and joins the next one; it starts nothing
// itself, since a number it would pick could be one the others are still using.
type Franklin struct {
	self node.ID
	cfg  *franklinConfig

	epochs
	state     int
	round     int64
	got       [2]node.ID // the current round's ids from the left and the right
	pending   []node.Message
	leader    node.ID
	elections int64

	counters [2]node.Counter
}

type franklinConfig struct {
	initiator func(node.ID) bool
}

// Step reacts to one event.
func (f *Franklin) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start:
		if f.cfg.initiator(f.self) {
			f.start(env)
		}
	case node.Recover:
		// Whatever this process knew of its epoch died with it: it sits the epoch
		// out, asleep, and joins the next one.
		f.recover(env)
	case node.Request:
		if ev.Name == Request {
			f.start(env)
		}
	case node.Deliver:
		m := ev.Msg
		if m.Type != msgProbe && m.Type != msgElected {
			return
		}
		if f.stale(m.Stamp) {
			return // an older election, or the one this incarnation sits out
		}
		if m.Stamp > f.epoch {
			f.join(env, m.Stamp)
		}
		if m.Type == msgElected {
			f.elected(env, m)
			return
		}
		if f.state == frAsleep {
			f.wake(env)
		}
		f.probe(env, m)
	}
}

// start opens a new epoch with this process as an initiator.
func (f *Franklin) start(env *node.Env) {
	f.join(env, f.epoch+1)
	f.elections++
	env.Logf("franklin: start election %d", f.epoch)
	f.wake(env)
}

// join enters epoch e, asleep.
func (f *Franklin) join(env *node.Env, e int64) {
	f.enter(env, e)
	f.state, f.round = frAsleep, 0
	f.pending = f.pending[:0]
}

// wake makes this process active in round 1.
func (f *Franklin) wake(env *node.Env) {
	f.state = frActive
	f.round = 0
	f.next(env)
}

// next starts the next round: send the own id both ways, then take the buffered
// messages of that round.
func (f *Franklin) next(env *node.Env) {
	f.round++
	f.got = [2]node.ID{}
	left, right := f.neighbours(env)
	env.Send(right, node.Message{Type: msgProbe, ID: f.self, Term: f.round, Stamp: f.epoch, Flag: frDirRight})
	env.Send(left, node.Message{Type: msgProbe, ID: f.self, Term: f.round, Stamp: f.epoch, Flag: frDirLeft})
	kept := f.pending[:0]
	var now []node.Message
	for _, m := range f.pending {
		if m.Term == f.round {
			now = append(now, m)
		} else {
			kept = append(kept, m)
		}
	}
	f.pending = kept
	for _, m := range now {
		f.probe(env, m)
		if f.state != frActive {
			return
		}
	}
}

func (f *Franklin) probe(env *node.Env, m node.Message) {
	switch f.state {
	case frRelay:
		f.pass(env, m)
		return
	case frDone:
		return // a leftover of a finished election
	}
	switch {
	case m.Term > f.round:
		f.pending = append(f.pending, m)
		return
	case m.Term < f.round:
		return
	}
	side := frFromLeft
	if m.Flag == frDirLeft {
		side = frFromRight
	}
	if f.got[side] != node.None {
		return // a duplicate
	}
	f.got[side] = m.ID
	l, r := f.got[frFromLeft], f.got[frFromRight]
	if l == node.None || r == node.None {
		return
	}
	switch {
	case l == f.self || r == f.self:
		f.state, f.leader = frDone, f.self
		env.Logf("franklin: own id went round: leader after %d rounds", f.round)
		_, right := f.neighbours(env)
		env.Send(right, node.Message{Type: msgElected, ID: f.self, Stamp: f.epoch})
	case l > f.self || r > f.self:
		f.state = frRelay
		env.Logf("franklin: relay after round %d (left %v, right %v)", f.round, l, r)
		buffered := f.pending
		f.pending = nil
		for _, b := range buffered {
			f.pass(env, b)
		}
	default:
		f.next(env)
	}
}

// pass forwards a PROBE in the direction it was going.
func (f *Franklin) pass(env *node.Env, m node.Message) {
	left, right := f.neighbours(env)
	to := right
	if m.Flag == frDirLeft {
		to = left
	}
	env.Send(to, m)
}

func (f *Franklin) elected(env *node.Env, m node.Message) {
	if f.state == frDone && f.leader == m.ID {
		return // back at the leader, or a duplicate
	}
	f.state, f.leader = frDone, m.ID
	f.pending = f.pending[:0]
	if m.ID != f.self {
		_, right := f.neighbours(env)
		env.Send(right, m)
	}
}

// neighbours are the predecessor (left) and the successor (right) in ring order.
func (f *Franklin) neighbours(env *node.Env) (left, right node.ID) {
	return ringNeighbours(env, f.self)
}

// Status reports the role ("asleep", "candidate" while active, "relay", then
// "leader" or "follower"), the believed leader, the epoch as Term, and the counters
// elections and round (the round this process is in, or was in when it stopped
// being active).
func (f *Franklin) Status() node.Status {
	role := "asleep"
	switch f.state {
	case frActive:
		role = "candidate"
	case frRelay:
		role = "relay"
	case frDone:
		role = "follower"
	}
	f.counters[0] = node.Counter{Name: "elections", Value: f.elections}
	f.counters[1] = node.Counter{Name: "round", Value: f.round}
	return node.Status{Role: roleFor(f.self, f.leader, role), Leader: f.leader, Term: f.epoch, Counters: f.counters[:]}
}

func init() {
	algos.Register(algos.Spec{
		Name:        "franklin",
		Family:      algos.Election,
		Ring:        true,
		Theory:      franklinTheory,
		Description: "Franklin's bidirectional ring: in rounds, an active id survives only if larger than the nearest active ids on both sides",
		Source:      `Franklin 1982 (CACM 25(5)); Santoro, Design and Analysis of Distributed Algorithms, ch. 3 (Stages); course notes 003, "Algoritmo de Franklin"`,
		Messages:    []string{msgProbe, msgElected},
		Params: []algos.Param{
			initiatorsParam("all", "by default every process starts at time 0; a process that is not an initiator is woken by the first PROBE and competes too"),
		},
		Build: func(c algos.Config) (node.Factory, error) {
			cfg := &franklinConfig{}
			var err error
			if cfg.initiator, err = initiatorSet(c); err != nil {
				return nil, err
			}
			return func(id node.ID) node.Algorithm { return &Franklin{self: id, cfg: cfg} }, nil
		},
	})
}
