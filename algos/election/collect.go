package election

import (
	"slices"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// msgCollect is the collecting ring's only message: the ids gathered so far.
const msgCollect = "COLLECT"

// Collect is "Algoritmo do Anel 2" of the course notes 003: processes that know
// their ids, on a unidirectional logical ring (env.Peers() in order, the successor
// to the right).
//
//	when p thinks the leader is dead:  send [p] to the right
//	when p receives l:  if p ∉ l: send [p:l] to the right
//	                    if p ∈ l: choose the smallest id in l as leader
//
// The list an initiator sends goes all the way round, growing by one id at every
// process, until it is back at its initiator, which finds itself in it: N messages
// of sizes 1, 2, …, N, and the initiator then knows every id. With k initiators that
// is kN messages; with every process starting at once, N² messages carrying
// N·N(N+1)/2 ids, the largest N ids long: the cost the notes give ("até n²
// mensagens … as mensagens crescem até o tamanho n"), and the reason Chang and
// Roberts preselect candidates. The lab measures the sizes: node.Message.Size, the
// `ids` and `max_ids` of each message type in the summary.
//
// As in the notes, only a process that finds itself in a list decides: an
// initiator. A process that only forwarded lists learns nothing and reports no
// leader (the notes ask, for Chang-Roberts, how to fix exactly this; ring's ELECTED
// is one answer).
//
// Messages: COLLECT: List = the ids collected, in ring order from the initiator;
// Stamp = the epoch.
//
// Departure from the notes: elections have an epoch (kept in stable storage, in
// Stamp), shared with ring, franklin and yoyo, so that a user request starts a
// fresh one and lists of an older election are dropped. The algorithm tolerates no
// crash: a list sent to a crashed process is lost.
type Collect struct {
	self node.ID
	cfg  *collectConfig

	epochs
	leader    node.ID
	started   bool // started an election in this epoch
	elections int64

	counters [1]node.Counter
}

type collectConfig struct {
	initiator func(node.ID) bool
}

// Step reacts to one event.
func (c *Collect) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start:
		if c.cfg.initiator(c.self) {
			c.start(env)
		}
	case node.Recover:
		c.recover(env)
	case node.Request:
		if ev.Name == Request {
			c.start(env)
		}
	case node.Deliver:
		m := ev.Msg
		if m.Type != msgCollect || c.stale(m.Stamp) {
			return
		}
		if m.Stamp > c.epoch {
			c.join(env, m.Stamp)
		}
		if !m.List.Contains(c.self) {
			m.List = m.List.Append(c.self)
			_, right := ringNeighbours(env, c.self)
			env.Send(right, m)
			return
		}
		c.leader = slices.Min(m.List.IDs())
		env.Logf("collect-ring: own list back with %d ids: leader %v, the smallest", m.List.Len(), c.leader)
	}
}

// start opens a new epoch and sends [self] to the right.
func (c *Collect) start(env *node.Env) {
	c.join(env, c.epoch+1)
	c.started = true
	c.elections++
	_, right := ringNeighbours(env, c.self)
	env.Send(right, node.Message{Type: msgCollect, List: node.ListOf(c.self), Stamp: c.epoch})
}

func (c *Collect) join(env *node.Env, e int64) {
	c.enter(env, e)
	c.leader, c.started = node.None, false
}

// Status reports the role ("leader", "follower" once it knows the leader,
// "collecting" while its own list is out, "idle" otherwise), the believed leader,
// the epoch as Term and the counter elections.
func (c *Collect) Status() node.Status {
	role := "idle"
	switch {
	case c.leader != node.None:
		role = "follower"
	case c.started:
		role = "collecting"
	}
	c.counters[0] = node.Counter{Name: "elections", Value: c.elections}
	return node.Status{Role: roleFor(c.self, c.leader, role), Leader: c.leader, Term: c.epoch, Counters: c.counters[:]}
}

// collectTheory: every initiator's list goes round once, k initiators cost kN.
func collectTheory(c algos.TheoryConfig) []algos.Theory {
	starters, err := c.Params.Nodes("initiators", c.IDs)
	if err != nil || len(c.Crashed) > 0 {
		return nil
	}
	n := len(c.IDs)
	return []algos.Theory{{Metric: "sent.COLLECT", Value: float64(len(starters) * n), Formula: "kN",
		Label: "COLLECT messages, k initiators (N² when all start)", Source: srcCollect}}
}

func init() {
	algos.Register(algos.Spec{
		Name:        "collect-ring",
		Family:      algos.Election,
		Description: "the notes' Anel 2: every process appends its id to the list and forwards it; the initiator, finding itself in it, picks the smallest id",
		Source:      srcCollect,
		Messages:    []string{msgCollect},
		Theory:      collectTheory,
		Params: []algos.Param{
			initiatorsParam("all", "only initiators decide; with all of them, N² messages of up to N ids"),
		},
		Build: func(c algos.Config) (node.Factory, error) {
			cfg := &collectConfig{}
			var err error
			if cfg.initiator, err = initiatorSet(c); err != nil {
				return nil, err
			}
			return func(id node.ID) node.Algorithm { return &Collect{self: id, cfg: cfg} }, nil
		},
	})
}
