package election

import (
	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// The anonymous ring's messages, named as in the notes.
const (
	msgVote    = "VoteEmMim"
	msgHabemos = "HabemosLider"
)

// The anonymous ring's states, named as in the notes (C).
const (
	anSeguidor = iota
	anCandidato
	anEleito
	anEmpossado
)

var anRoles = [...]string{"seguidor", "candidato", "eleito", "empossado"}

// AnonRing is "Algoritmo do Anel 1" of the course notes 003: identical processes
// with no usable id on a unidirectional ring (env.Peers() in order; the lab knows
// their names, the algorithm never looks at them).
//
//	C ← Seguidor
//	when a process thinks the leader is dead:  C ← Candidato; send (VoteEmMim) right
//	on (VoteEmMim):     if C = Seguidor: send (VoteEmMim) right
//	                    if C = Candidato: C ← Eleito; send (HabemosLider) right
//	on (HabemosLider):  if C = Seguidor: send (HabemosLider) right
//	                    if C = Eleito: C ← Empossado
//
// With one candidate it works: its vote comes back round, it is Eleito, its
// announcement comes back, it is Empossado. With two candidates at once (the notes'
// second table, N = 2) each one's vote reaches the other while it is a Candidato,
// both become Eleito and then Empossado: nothing tells the two apart, so both see
// the same events, and uniqueness is lost. An Empossado process reports itself as
// leader, so the split-brain monitor raises the alarm. The notes leave a message a
// state does not mention (a vote at an Eleito, an announcement at a Candidato)
// without a rule: it is dropped. A Seguidor cannot name the leader, anonymous as it
// is, and reports none.
//
// With randomized = true it runs Itai and Rodeh's symmetry breaking instead (A.
// Itai, M. Rodeh, "Symmetry breaking in distributed networks", Information and
// Computation 88(1), 1990; as presented by W. Fokkink, "Distributed Algorithms: An
// Intuitive Approach", MIT Press 2013, §9.1): processes still have no ids but know
// the ring size N. A candidate draws a label in 1 … N from its own random source
// and sends VoteEmMim(label, round, hops = 1, unique = true). A Seguidor forwards a
// vote with hops + 1. A Candidato (label ℓ, round r) that gets (i, n, h, b):
// (n, i) > (r, ℓ): becomes a Seguidor and forwards it; (n, i) < (r, ℓ): drops it;
// the same and h < N: someone else drew the same label: forwards it with unique =
// false; the same and h = N: its own vote is back: if unique it is Eleito and sends
// HabemosLider round; else it starts round r+1 with a fresh label. Only the
// candidates holding the highest label of a round go on to the next, and each round
// leaves a single one with a probability bounded away from 0, so one leader is
// elected with probability 1 (Fokkink: at most e·N/(N−1) rounds expected).
// Like the paper it assumes FIFO links: give the ring a constant latency.
//
// Messages: VoteEmMim and HabemosLider carry nothing in the notes' algorithm. With
// randomized: VoteEmMim has ID = the drawn label (a number in 1 … N, not a
// process), Term = the round, Stamp = the hops, Flag = unique.
//
// Departure from the notes: a user request "election" makes the process a Candidato
// again, from any state, so the preset can play both of the notes' tables in one
// run. There are no epochs: a vote of an earlier election still in flight is taken
// as one of the current election. It tolerates no crash.
type AnonRing struct {
	self node.ID
	cfg  *anonConfig

	state int
	label node.ID // randomized: the drawn label
	round int64   // randomized: the round
	rank  int64   // number of times this process became a candidate

	counters [2]node.Counter
}

type anonConfig struct {
	randomized bool
	initiator  func(node.ID) bool
}

// Step reacts to one event.
func (a *AnonRing) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start:
		if a.cfg.initiator(a.self) {
			a.candidate(env)
		}
	case node.Request:
		if ev.Name == Request {
			a.candidate(env)
		}
	case node.Deliver:
		switch ev.Msg.Type {
		case msgVote:
			if a.cfg.randomized {
				a.voteIR(env, ev.Msg)
			} else {
				a.vote(env, ev.Msg)
			}
		case msgHabemos:
			a.habemos(env, ev.Msg)
		}
	}
}

// candidate: C ← Candidato, and the vote goes right (with a fresh label and
// round 1 when randomized).
func (a *AnonRing) candidate(env *node.Env) {
	a.state = anCandidato
	a.rank++
	if a.cfg.randomized {
		a.round = 0
		a.draw(env)
		return
	}
	a.send(env, node.Message{Type: msgVote})
}

// draw starts the next Itai-Rodeh round.
func (a *AnonRing) draw(env *node.Env) {
	a.round++
	a.label = node.ID(1 + env.Rand().IntN(len(env.Peers())))
	env.Logf("anon-ring: round %d, drew %d", a.round, a.label)
	a.send(env, node.Message{Type: msgVote, ID: a.label, Term: a.round, Stamp: 1, Flag: true})
}

func (a *AnonRing) send(env *node.Env, m node.Message) {
	_, right := ringNeighbours(env, a.self)
	env.Send(right, m)
}

// vote is the notes' rule.
func (a *AnonRing) vote(env *node.Env, m node.Message) {
	switch a.state {
	case anSeguidor:
		a.send(env, m)
	case anCandidato:
		a.state = anEleito
		a.send(env, node.Message{Type: msgHabemos})
	}
}

// voteIR is Itai and Rodeh's rule.
func (a *AnonRing) voteIR(env *node.Env, m node.Message) {
	if a.state != anCandidato {
		if a.state == anSeguidor {
			m.Stamp++
			a.send(env, m)
		}
		return
	}
	switch {
	case m.Term > a.round || m.Term == a.round && m.ID > a.label:
		a.state = anSeguidor
		m.Stamp++
		a.send(env, m)
	case m.Term < a.round || m.ID < a.label:
		// a weaker vote: dropped
	case m.Stamp < int64(len(env.Peers())):
		m.Stamp++
		m.Flag = false // someone else drew the same label in this round
		a.send(env, m)
	case m.Flag:
		a.state = anEleito
		env.Logf("anon-ring: own vote back unique after round %d", a.round)
		a.send(env, node.Message{Type: msgHabemos})
	default:
		a.draw(env)
	}
}

func (a *AnonRing) habemos(env *node.Env, m node.Message) {
	switch a.state {
	case anSeguidor:
		a.send(env, m)
	case anEleito:
		a.state = anEmpossado
	}
}

// Status reports the notes' state as the role; an Empossado process leads. The
// counters are elections (candidacies) and, when randomized, round.
func (a *AnonRing) Status() node.Status {
	st := node.Status{Role: anRoles[a.state]}
	if a.state == anEmpossado {
		st.Leader = a.self
	}
	a.counters = [2]node.Counter{{Name: "elections", Value: a.rank}, {Name: "round", Value: a.round}}
	n := 1
	if a.cfg.randomized {
		n = 2
	}
	st.Counters = a.counters[:n]
	return st
}

func init() {
	algos.Register(algos.Spec{
		Name:        "anon-ring",
		Family:      algos.Election,
		Description: "the notes' Anel 1 on an anonymous ring: two simultaneous candidates both end Empossado; randomized = true breaks the symmetry (Itai-Rodeh)",
		Source:      `course notes 003, "Algoritmo do Anel 1"; Itai & Rodeh 1990 (randomized); Fokkink 2013, §9.1`,
		Messages:    []string{msgVote, msgHabemos},
		Params: []algos.Param{
			initiatorsParam("n1", "the notes' first table has one candidate; two at once lose uniqueness"),
			{Name: "randomized", Default: "false", Doc: "true: Itai-Rodeh, labels drawn at random in 1…N, rounds until one is unique; one leader with probability 1 (needs FIFO links: constant latency)"},
		},
		Build: func(c algos.Config) (node.Factory, error) {
			cfg := &anonConfig{}
			var err error
			if cfg.initiator, err = initiatorSet(c); err != nil {
				return nil, err
			}
			if cfg.randomized, err = c.Params.Bool("randomized"); err != nil {
				return nil, err
			}
			return func(id node.ID) node.Algorithm { return &AnonRing{self: id, cfg: cfg} }, nil
		},
	})
}
