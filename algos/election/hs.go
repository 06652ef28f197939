package election

import (
	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// msgReply is the tournament's answer: a probe reached the end of its horizon
// without meeting a larger id, and comes back to its origin.
const msgReply = "REPLY"

// The tournament's states.
const (
	hsAsleep    = iota // no election seen yet
	hsCandidate        // competing in the current phase
	hsDefeated         // met a larger id: relays only
	hsDone             // knows the leader
)

// HS is the tournament ring election of D. S. Hirschberg and J. B. Sinclair,
// "Decentralized extrema-finding in circular configurations of processors", CACM
// 23(11), 1980, as the course notes 002 sketch it ("Eleição em anel por torneio":
// the horizon doubles in every turn, the competitors halve, log n turns, n log n
// messages). The ring is env.Peers() in order, bidirectional; the successor is to
// the right. The highest id wins.
//
//   - A candidate in phase k (k = 0, 1, …) sends PROBE(own id, k, hop 1) both ways.
//   - A process that receives PROBE(j, k, d) from j ≠ itself:
//   - if j < own id, swallows it: j cannot win, this process beats it;
//   - if j > own id and d < 2^k, is defeated (if it was a candidate) and forwards
//     PROBE(j, k, d+1) in the same direction;
//   - if j > own id and d = 2^k, is defeated and sends REPLY(j, k) back the way
//     the probe came.
//   - A REPLY for another process is passed on in its direction. A candidate that
//     gets the REPLY of its phase from both sides has beaten everyone within 2^k
//     hops on both sides: it begins phase k+1.
//   - A candidate whose own PROBE comes back to it has gone all the way round:
//     nobody on the ring is larger. It is the leader and sends ELECTED to its
//     successor, which goes round once.
//
// The leader's probes reach itself in the first phase k with 2^k ≥ N, so it runs
// phases 0 … ⌈log₂N⌉: ⌈log₂N⌉+1 phases. A candidate survives phase k−1 only if no
// larger id lies within 2^(k−1) hops of it, so two survivors are more than 2^(k−1)
// apart and at most ⌊N/(2^(k−1)+1)⌋ processes start phase k; each one's probes
// and replies cost at most 4·2^k messages. Every phase therefore costs at most
// 4N (phase 0) or 8N messages, and the whole election at most 8N(⌈log₂N⌉+1)
// PROBE and REPLY, plus N ELECTED: O(N log N).
//
// Messages:
//   - PROBE: ID = the origin, Term = the phase k, Stamp = the hops travelled so far
//     (1 on the first link), Flag = the direction (true: towards the successor).
//   - REPLY: ID = the origin, Term = the phase, Flag = the direction it travels.
//   - ELECTED: ID = the leader.
//
// Departures from the notes and the paper:
//   - The notes give only the idea; the rules above are the paper's.
//   - A process that is not an initiator is woken by the first message it gets and
//     becomes a candidate in phase 0 (Santoro, "Design and Analysis of Distributed
//     Algorithms", ch. 3, wake-up), so the maximum of the whole ring wins whoever
//     started; with every process an initiator (the default) this is the paper.
//   - The message fields hold the origin, the phase, the hop count and the
//     direction, which leaves none for an epoch: there is one election per
//     incarnation. A request "election" wakes a process that is asleep and is
//     ignored by one that already took part. The algorithm tolerates no crash: a
//     recovered process knows nothing, takes part in nothing, and reports no leader.
type HS struct {
	self node.ID
	cfg  *hsConfig

	state   int
	phase   int64 // the current phase (0-based) while a candidate
	phases  int64 // phases started
	replies [2]bool
	leader  node.ID
	stopped bool // a recovered incarnation: sits out

	counters [2]node.Counter
}

type hsConfig struct {
	initiator func(node.ID) bool
}

// Indexes of HS.replies: the reply that came back from each side.
const (
	hsFromLeft  = 0
	hsFromRight = 1
)

// Step reacts to one event.
func (h *HS) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start:
		if h.cfg.initiator(h.self) {
			h.wake(env)
		}
	case node.Recover:
		h.stopped = true
		env.Logf("hs: recovered; a tournament cannot be rejoined, this incarnation sits out")
	case node.Request:
		if ev.Name != Request || h.stopped {
			return
		}
		if h.state != hsAsleep {
			env.Logf("hs: already took part in this run's election; request ignored")
			return
		}
		h.wake(env)
	case node.Deliver:
		if h.stopped {
			return
		}
		m := ev.Msg
		switch m.Type {
		case msgProbe:
			if h.state == hsAsleep {
				h.wake(env)
			}
			h.probe(env, m)
		case msgReply:
			if h.state == hsAsleep {
				h.wake(env)
			}
			h.reply(env, m)
		case msgElected:
			h.elected(env, m)
		}
	}
}

// wake makes this process a candidate in phase 0.
func (h *HS) wake(env *node.Env) {
	h.state = hsCandidate
	h.phase = -1
	h.next(env)
}

// next begins the next phase: probes both ways.
func (h *HS) next(env *node.Env) {
	h.phase++
	h.phases++
	h.replies = [2]bool{}
	left, right := ringNeighbours(env, h.self)
	env.Send(right, node.Message{Type: msgProbe, ID: h.self, Term: h.phase, Stamp: 1, Flag: frDirRight})
	env.Send(left, node.Message{Type: msgProbe, ID: h.self, Term: h.phase, Stamp: 1, Flag: frDirLeft})
}

func (h *HS) probe(env *node.Env, m node.Message) {
	switch {
	case m.ID == h.self:
		if h.state != hsCandidate {
			return // the second of the last phase's probes, after ELECTED left
		}
		h.state, h.leader = hsDone, h.self
		env.Logf("hs: own probe went round in phase %d: leader", h.phase)
		_, right := ringNeighbours(env, h.self)
		env.Send(right, node.Message{Type: msgElected, ID: h.self})
	case m.ID < h.self:
		// swallowed: this process beats it
	default:
		if h.state == hsCandidate {
			h.state = hsDefeated
			env.Logf("hs: defeated by %v in its phase %d", m.ID, m.Term)
		}
		left, right := ringNeighbours(env, h.self)
		if m.Stamp < 1<<m.Term {
			m.Stamp++
			env.Send(hsToward(left, right, m.Flag), m)
			return
		}
		// The end of the horizon: the reply goes back the way the probe came.
		back := !m.Flag
		env.Send(hsToward(left, right, back), node.Message{Type: msgReply, ID: m.ID, Term: m.Term, Flag: back})
	}
}

func (h *HS) reply(env *node.Env, m node.Message) {
	if m.ID != h.self {
		left, right := ringNeighbours(env, h.self)
		env.Send(hsToward(left, right, m.Flag), m)
		return
	}
	if h.state != hsCandidate || m.Term != h.phase {
		return // late, duplicated, or for a candidate that has since lost
	}
	side := hsFromRight // a reply travelling left came from the right
	if m.Flag == frDirRight {
		side = hsFromLeft
	}
	h.replies[side] = true
	if h.replies[hsFromLeft] && h.replies[hsFromRight] {
		h.next(env)
	}
}

func (h *HS) elected(env *node.Env, m node.Message) {
	if h.state == hsDone && h.leader == m.ID {
		return // back at the leader, or a duplicate
	}
	h.state, h.leader = hsDone, m.ID
	if m.ID != h.self {
		_, right := ringNeighbours(env, h.self)
		env.Send(right, m)
	}
}

// hsTheory: at most 8N(⌈log₂N⌉+1) PROBE and REPLY, plus exactly N ELECTED.
func hsTheory(c algos.TheoryConfig) []algos.Theory {
	n := len(c.IDs)
	const src = "Hirschberg & Sinclair 1980"
	return []algos.Theory{
		{Metric: "sent.total", Value: float64(8*n*(log2Ceil(n)+1) + n), Bound: algos.AtMost, Formula: "8N(⌈log₂N⌉+1)+N", Label: "messages: PROBE and REPLY, then N ELECTED", Source: src},
		{Metric: "sent.ELECTED", Value: float64(n), Formula: "N", Label: "ELECTED messages", Source: src},
	}
}

// hsToward picks the neighbour in direction dir (true: the successor).
func hsToward(left, right node.ID, dir bool) node.ID {
	if dir == frDirRight {
		return right
	}
	return left
}

// Status reports the role ("asleep", "candidate", "defeated", then "leader" or
// "follower"), the believed leader, and the counters phase (the current or last
// phase, 0-based) and phases (how many this process started).
func (h *HS) Status() node.Status {
	role := "asleep"
	switch h.state {
	case hsCandidate:
		role = "candidate"
	case hsDefeated:
		role = "defeated"
	case hsDone:
		role = "follower"
	}
	h.counters[0] = node.Counter{Name: "phase", Value: max(h.phase, 0)}
	h.counters[1] = node.Counter{Name: "phases", Value: h.phases}
	return node.Status{Role: roleFor(h.self, h.leader, role), Leader: h.leader, Counters: h.counters[:]}
}

func init() {
	algos.Register(algos.Spec{
		Name:        "hs",
		Family:      algos.Election,
		Ring:        true,
		Description: "Hirschberg-Sinclair tournament on a bidirectional ring: phase k probes 2^k hops both ways; a candidate survives only if it beats everyone within its horizon",
		Source:      `Hirschberg & Sinclair 1980 (CACM 23(11)); course notes 002, "Eleição em anel por torneio"`,
		Messages:    []string{msgProbe, msgReply, msgElected},
		Theory:      hsTheory,
		Params: []algos.Param{
			initiatorsParam("all", "by default every process starts at time 0; a process that is not an initiator is woken by the first message and competes too"),
		},
		Build: func(c algos.Config) (node.Factory, error) {
			cfg := &hsConfig{}
			var err error
			if cfg.initiator, err = initiatorSet(c); err != nil {
				return nil, err
			}
			return func(id node.ID) node.Algorithm { return &HS{self: id, cfg: cfg} }, nil
		},
	})
}
