package election

import (
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Raft message types.
const (
	MsgRequestVote = "REQUEST_VOTE"
	MsgVote        = "VOTE"
)

// Raft timers.
const (
	timerElection = "election" // a follower's or candidate's randomized election timeout
	timerRaftBeat = "beat"     // the leader's heartbeat period
)

// Stable-storage keys: Raft's persistent state (Figure 2 of the paper), less the log.
const (
	keyTerm = "term"
	keyVote = "voted_for"
)

// Raft is the leader election of Raft (Ongaro & Ousterhout, "In Search of an
// Understandable Consensus Algorithm", 2014, §5.2), with no log: terms, one vote per
// term, randomized election timeouts and a majority of all processes to lead.
//
//   - A follower that hears no HEARTBEAT from a leader within its election timeout
//     (drawn from [election_min, election_max] with the process's own random source)
//     becomes a candidate: it increments its term, votes for itself and sends
//     REQUEST_VOTE (Term = its term) to every other process.
//   - A process grants its vote (VOTE with Flag = true, Term = its term) to the first
//     candidate that asks in a term, and refuses (Flag = false) any other.
//   - A candidate with votes from a majority of all processes becomes leader and
//     sends HEARTBEAT (Term) every `heartbeat`. Votes are counted per voter, not
//     per VOTE message: the lab's network can duplicate messages.
//   - A message from an older term is dropped; a newer term makes any process adopt
//     it and step down to follower.
//   - The request "election" makes a follower or candidate campaign at once, as if
//     its timeout had fired; a leader ignores it (it already won its term).
//
// The spread of the timeouts scales with N by default. The paper's 150–300ms works
// because the first process to time out usually has its REQUEST_VOTE delivered
// before a second one times out; with N processes drawing from a spread S, about
// N·d/S others time out within a one-way delay d of the first, and each splits the
// vote. At N = 256 with the paper's 150ms spread and 5–20ms delays, that made 204
// candidacies before one won. So election_max defaults to "auto":
// election_min + 150ms·⌈N/16⌉, which is the paper's 300ms up to 16 processes (small
// runs are unchanged) and 2.55s at 256, where a leader is elected within a couple
// of candidacies (TestRaftScaledTimeouts). A given election_max is used as it is.
//
// Term and vote live in stable storage, so a process that crashes and recovers cannot
// vote twice in one term. On the minority side of a partition no candidate can
// gather a majority, so it never elects. Without a log every candidate is "up to
// date", so the vote rule has no log check. A leader that loses its majority keeps
// believing it leads (the paper adds no lease for it); it steps down on the first
// message of a newer term.
//
// Option weights = "n1=3 n2=1 …" gives each process a number of votes (those left
// out have 1): a candidate leads once the votes it holds weigh more than half of
// the total weight, the notes 003's defence against split brain ("atribuir um
// peso para cada processo e só aceitar que um líder seja declarado se … seus votos
// carregarem mais da metade do peso do sistema"). Any two sets of voters that each
// weigh more than half share a voter, so two leaders still never share a term; a
// heavy process can make a side of a partition that holds few processes the one
// that elects.
type Raft struct {
	self     node.ID
	cfg      *raftConfig
	term     int64
	votedFor node.ID
	role     string
	leader   node.ID
	votes    []node.ID // who granted this candidacy its vote (itself included)
	elects   int64
	counters [1]node.Counter
	timeout  time.Duration // the election timeout last drawn, for Deadline
}

type raftConfig struct {
	min, max, heartbeat time.Duration
	initiator           func(node.ID) bool
	weights             map[node.ID]int64 // weights; looked up, never ranged over
	total               int64             // the weight of all processes
}

// weight is how many votes p's vote counts for.
func (c *raftConfig) weight(p node.ID) int64 {
	if w, ok := c.weights[p]; ok {
		return w
	}
	return 1
}

// Step reacts to one event.
func (r *Raft) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start, node.Recover:
		t, _ := env.Load(keyTerm)
		v, _ := env.Load(keyVote)
		r.term, r.votedFor, r.role = t, node.ID(v), "follower"
		if ev.Kind == node.Start && r.cfg.initiator(r.self) {
			r.campaign(env)
			return
		}
		r.resetTimeout(env)
	case node.Request:
		if ev.Name == Request && r.role != "leader" {
			r.campaign(env)
		}
	case node.Timer:
		switch ev.Name {
		case timerElection:
			r.campaign(env)
		case timerRaftBeat:
			if r.role == "leader" {
				env.Broadcast(node.Message{Type: MsgHeartbeat, Term: r.term})
				env.After(r.cfg.heartbeat, timerRaftBeat)
			}
		}
	case node.Deliver:
		r.deliver(env, ev.From, ev.Msg)
	}
}

func (r *Raft) deliver(env *node.Env, from node.ID, m node.Message) {
	if m.Term < r.term {
		return // from an older term: dropped
	}
	if m.Term > r.term {
		r.adopt(env, m.Term)
	}
	switch m.Type {
	case MsgRequestVote:
		grant := r.votedFor == node.None || r.votedFor == from
		if grant {
			r.votedFor = from
			env.Store(keyVote, int64(from))
			r.resetTimeout(env)
		}
		env.Send(from, node.Message{Type: MsgVote, Term: r.term, Flag: grant})
	case MsgVote:
		// Counted per voter: the network can duplicate a VOTE, and a voter asked
		// twice in a term grants twice.
		if r.role == "candidate" && m.Flag && !slices.Contains(r.votes, from) {
			r.votes = append(r.votes, from)
			r.checkMajority(env)
		}
	case MsgHeartbeat:
		r.role, r.leader = "follower", from
		r.resetTimeout(env)
	}
}

// adopt moves to a newer term as a follower with no vote cast in it.
func (r *Raft) adopt(env *node.Env, term int64) {
	r.term, r.votedFor = term, node.None
	env.Store(keyTerm, term)
	env.Store(keyVote, 0)
	if r.role == "leader" {
		env.Cancel(timerRaftBeat)
	}
	r.role, r.leader = "follower", node.None
	r.resetTimeout(env)
}

func (r *Raft) campaign(env *node.Env) {
	r.term++
	r.votedFor = r.self
	env.Store(keyTerm, r.term)
	env.Store(keyVote, int64(r.self))
	r.role, r.leader, r.votes = "candidate", node.None, append(r.votes[:0], r.self)
	r.elects++
	env.Broadcast(node.Message{Type: MsgRequestVote, Term: r.term})
	r.resetTimeout(env)
	r.checkMajority(env)
}

func (r *Raft) checkMajority(env *node.Env) {
	var held int64
	for _, v := range r.votes {
		held += r.cfg.weight(v)
	}
	if held*2 <= r.cfg.total {
		return
	}
	r.role, r.leader = "leader", r.self
	env.Cancel(timerElection)
	env.Broadcast(node.Message{Type: MsgHeartbeat, Term: r.term})
	env.After(r.cfg.heartbeat, timerRaftBeat)
}

func (r *Raft) resetTimeout(env *node.Env) {
	d := r.cfg.min
	if span := r.cfg.max - r.cfg.min; span > 0 {
		d += time.Duration(env.Rand().Int64N(int64(span)))
	}
	r.timeout = d
	env.After(d, timerElection)
}

// Deadline is the election timeout of a follower or a candidate, drawn over the
// randomized length it was last given; a leader has none.
func (r *Raft) Deadline(due func(string) (time.Duration, bool)) node.Deadline {
	if at, ok := due(timerElection); ok {
		return node.Deadline{For: "election", At: at, Len: r.timeout}
	}
	return node.Deadline{}
}

// autoElectionMax is election_max's default for n processes: a spread of 150ms per
// 16 processes (rounded up) above election_min.
func autoElectionMax(min time.Duration, n int) time.Duration {
	return min + 150*time.Millisecond*time.Duration(max(1, (n+15)/16))
}

// Status reports the role, the known leader of the current term, the term and the
// elections this process started.
func (r *Raft) Status() node.Status {
	r.counters[0] = node.Counter{Name: "elections", Value: r.elects}
	return node.Status{Role: r.role, Leader: r.leader, Term: r.term, Counters: r.counters[:]}
}

func init() {
	algos.Register(algos.Spec{
		Name:        "raft",
		Family:      algos.Election,
		Description: "Raft-style terms: randomized timeouts, one vote per term, a majority (or more than half the weight) to lead",
		Source:      "Ongaro & Ousterhout 2014 (§5.2, election only, no log)",
		Messages:    []string{MsgRequestVote, MsgVote, MsgHeartbeat},
		Terms:       true,
		Params: []algos.Param{
			{Name: "election_min", Default: "150ms", Doc: "shortest election timeout", Min: "1µs"},
			{Name: "election_max", Default: "auto", Doc: "longest election timeout; auto is election_min + 150ms·⌈N/16⌉ (300ms up to 16 processes, 2.55s at 256), so that split votes stay rare as N grows"},
			{Name: "heartbeat", Default: "50ms", Doc: "how often the leader sends HEARTBEAT", Min: "1µs"},
			initiatorsParam("none", "by default randomized timeouts decide who campaigns first, as in Raft"),
			{Name: "weights", Default: "", Doc: `votes per process, such as "n1=3 n2=1" (the others have 1): a leader needs more than half of the total weight (notes 003, split brain)`},
		},
		Build: func(c algos.Config) (node.Factory, error) {
			cfg := &raftConfig{}
			var err error
			for _, f := range []struct {
				name string
				d    *time.Duration
			}{{"election_min", &cfg.min}, {"election_max", &cfg.max}, {"heartbeat", &cfg.heartbeat}} {
				if s, serr := c.Params.String(f.name); f.name == "election_max" && serr == nil && s == "auto" {
					cfg.max = autoElectionMax(cfg.min, len(c.IDs))
					continue
				}
				if *f.d, err = c.Params.Duration(f.name); err != nil {
					return nil, err
				}
			}
			if cfg.max < cfg.min {
				return nil, &algos.ParamError{Name: "election_max", Msg: "found a value below election_min, expected election_min <= election_max"}
			}
			if cfg.initiator, err = initiatorSet(c); err != nil {
				return nil, err
			}
			if cfg.weights, err = c.Params.NodeInts("weights", c.IDs, 0); err != nil {
				return nil, err
			}
			for _, id := range c.IDs {
				cfg.total += cfg.weight(id)
			}
			if cfg.total == 0 {
				return nil, &algos.ParamError{Name: "weights", Msg: "found a total weight of 0, expected at least one process with a weight > 0"}
			}
			return func(id node.ID) node.Algorithm { return &Raft{self: id, cfg: cfg} }, nil
		},
	})
}
