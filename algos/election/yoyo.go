package election

import (
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Yo-Yo message types (ELECTED is shared with ring and franklin).
const (
	msgYoyoID = "ID"
	msgYes    = "YES"
	msgNo     = "NO"
	msgPrune  = "PRUNE"
)

// Yo-Yo's phases.
const (
	yyAsleep = iota // not yet woken in this epoch
	yySetup         // exchanging ids with the neighbours to orient the links
	yyDown          // YO-: waiting for a value from every in-neighbour
	yyUp            // -YO: waiting for a vote from every out-neighbour
	yyPruned        // every link pruned: out of the election, waiting for ELECTED
	yyDone          // knows the leader
)

// Yoyo is the Yo-Yo election on any connected topology (N. Santoro, "Design and
// Analysis of Distributed Algorithms", Wiley 2007, ch. 3, protocol Yo-Yo), as the
// course notes 003 give it ("Algoritmo do YoYo"). The links are env.Neighbors();
// scenarios use topology = "graph". The smallest id wins.
//
// Setup (the notes' "fase 1"): every process sends its id (ID, Term 0) to every
// neighbour and orients each link from the smaller id to the larger. A process with
// only outgoing links is a source (a candidate), one with only incoming links a
// sink, any other internal. The orientation is acyclic.
//
// Then iterations (Term = 1, 2, …) of two phases:
//   - YO-: a source sends its id on every outgoing link. An internal process waits
//     for a value on every incoming link, and sends the smallest on every outgoing
//     link. A sink waits for a value on every incoming link.
//   - -YO: a sink votes YES on the links that brought the smallest value it
//     received and NO on the others. An internal process waits for a vote on every
//     outgoing link; if all were YES it votes YES on the links that brought its
//     smallest value and NO on the others, and if any was NO it votes NO on every
//     incoming link. A source that receives a NO is no longer a candidate.
//   - Every link that carried a NO is flipped, so a defeated source is no longer a
//     source; no new source ever appears.
//
// This process prunes, as Santoro does, and that is how the winner knows it won:
//   - a sink with a single incoming link (a leaf) asks its in-neighbour to prune it
//     and leaves the election (role "pruned");
//   - a process that received its smallest value on several incoming links keeps
//     the first (in neighbour order) and asks the others to prune theirs.
//
// The request to prune travels with the vote, as Santoro piggybacks it: a PRUNE
// message is a vote (Flag true = YES, false = NO) that also removes its link at both
// ends. Pruning keeps the remaining graph connected, so the last source ends up with
// no link at all: it is the only process left, the minimum. It then announces itself
// with ELECTED, flooded over the original links: every process forwards the first
// ELECTED it gets to every neighbour but the sender, 2|E| − (N−1) messages.
//
// How many iterations. Santoro's bound is on the candidates: each iteration at least
// halves the sources (of two sources whose values meet at a sink, one gets a NO), so
// after at most ⌈log₂N⌉+1 iterations one source is left. It is not a bound on when
// the winner knows: that takes pruning the graph down to the winner alone, and an
// iteration prunes only the current leaf sinks and duplicate links. On a path whose
// ids grow from one end, n1 is the single source from the start, yet each iteration
// prunes one leaf: N−1 iterations. So iterations until ELECTED are at most N−1,
// Θ(N) in the worst case, each costing O(|E|): O(N·|E|) messages, not O(|E| log N).
// Measured on random graphs of degree 3 (seed 1): 6 iterations at N = 10, 12 at
// 50, 16 at 100, 17 at 200, where ⌈log₂N⌉+1 is 5, 7, 8 and 9; the sources are down
// to one within the log bound, the rest is pruning. This package does not cascade
// termination (which would need messages the notes and Santoro's protocol do not
// have); the test TestYoyoIterationsBound pins the path's N−1.
// The theory hook therefore sets ⌈log₂N⌉+1 against source_rounds, the iteration by
// which one source is left (measured by sweeps from the role "source" each process
// reports), never against the iteration counter.
//
// Messages carry the epoch in Stamp:
//   - ID: ID = the value (the sender's own id during setup), Term = the iteration
//     (0 for setup).
//   - YES, NO: Term = the iteration.
//   - PRUNE: Term = the iteration, Flag = the vote.
//   - ELECTED: ID = the leader.
//
// A value of an iteration the process has not reached yet (its neighbour finished
// the previous one first, or a message overtook an earlier one) is buffered until it
// gets there.
//
// Departures:
//   - Notes 003 have an internal process vote YES towards its minimum when it
//     received "some" YES; Santoro (and the notes' own source) require all YES,
//     which is what this process does: a NO anywhere below means the minimum lost at
//     some sink.
//   - A process that is not an initiator is woken by the first message it receives
//     and joins the setup.
//   - Elections have an epoch number (kept in stable storage): starting one, by being
//     an initiator or by a user request, opens the next epoch with a new setup on
//     the original links; a message of a newer epoch makes a process drop what it
//     was doing and join, one of an older epoch is dropped.
//
// The algorithm tolerates no crash, loss or duplication (Santoro's total
// reliability): a lost message stalls the election until someone starts a new one
// (request nX election). A link cut before the setup stalls it in the setup: both
// ends wait for each other's id for ever.
//
// link_timeout (0 = off, Santoro's and the notes' protocol) is an assumption of
// this lab, not of the protocol: a process that has not heard a neighbour's id
// within link_timeout of entering the setup takes that link for absent and
// orients the others without it (each end decides alone; the link stays out for
// the rest of the epoch, and ELECTED is still flooded on every original link). With
// the bridge of a graph cut, the two sides then elect a leader each: the notes'
// "duas eleições concorrentes", the split brain they describe. An id that arrives
// after its link was given up is ignored. A recovered process has lost its links' orientation and
// its votes, so it sits out the epoch it was in (asleep, knowing no leader) and
// joins the next one; it starts nothing itself, since a number it would pick could
// be one the others are still using.
type Yoyo struct {
	self node.ID
	cfg  *yoyoConfig

	ready bool
	nbrs  []node.ID // env.Neighbors()
	live  []bool    // link i not pruned
	out   []bool    // link i oriented self → nbrs[i]

	epochs
	phase   int
	iter    int64
	source  bool      // a source in this iteration
	vals    []node.ID // value from in-neighbour i in this iteration (setup: its id)
	votes   []int8    // vote from out-neighbour i in this iteration: +1 YES, −1 NO
	pruned  []bool    // out-neighbour i asked to prune its link
	min     node.ID   // smallest value received (a source: its own id)
	pending []yoyoMsg // values of a later iteration

	leader    node.ID
	elections int64
	counters  [2]node.Counter
}

type yoyoMsg struct {
	from node.ID
	m    node.Message
}

type yoyoConfig struct {
	initiator   func(node.ID) bool
	linkTimeout time.Duration // 0: wait for every neighbour's id for ever
}

// timerLink is the setup's wait for the neighbours' ids (link_timeout).
const timerLink = "yoyo.link"

// Step reacts to one event.
func (y *Yoyo) Step(env *node.Env, ev node.Event) {
	if !y.ready {
		y.ready = true
		y.nbrs = env.Neighbors()
		n := len(y.nbrs)
		y.live, y.out = make([]bool, n), make([]bool, n)
		y.vals, y.votes, y.pruned = make([]node.ID, n), make([]int8, n), make([]bool, n)
	}
	switch ev.Kind {
	case node.Start:
		if y.cfg.initiator(y.self) {
			y.start(env)
		}
	case node.Recover:
		// Whatever this process knew of its epoch died with it: it sits the epoch
		// out, asleep, and joins the next one.
		y.recover(env)
	case node.Request:
		if ev.Name == Request {
			y.start(env)
		}
	case node.Timer:
		if ev.Name == timerLink && y.phase == yySetup {
			y.giveUp(env)
		}
	case node.Deliver:
		m := ev.Msg
		switch m.Type {
		case msgYoyoID, msgYes, msgNo, msgPrune, msgElected:
		default:
			return
		}
		if y.stale(m.Stamp) {
			return // an older election, or the one this incarnation sits out
		}
		if m.Stamp > y.epoch {
			y.join(env, m.Stamp)
		}
		if m.Type == msgElected {
			y.elected(env, ev.From, m)
			return
		}
		if y.phase == yyAsleep {
			y.setup(env)
		}
		y.handle(env, ev.From, m)
	}
}

// start opens a new epoch with this process as an initiator.
func (y *Yoyo) start(env *node.Env) {
	y.join(env, y.epoch+1)
	y.elections++
	env.Logf("yoyo: start election %d", y.epoch)
	y.setup(env)
}

// join enters epoch e, asleep, with every original link back.
func (y *Yoyo) join(env *node.Env, e int64) {
	y.enter(env, e)
	y.phase, y.iter, y.source = yyAsleep, 0, false
	y.pending = y.pending[:0]
	for i := range y.nbrs {
		y.live[i], y.out[i] = true, false
		y.vals[i], y.votes[i], y.pruned[i] = node.None, 0, false
	}
}

// setup sends the own id to every neighbour.
func (y *Yoyo) setup(env *node.Env) {
	y.phase = yySetup
	for _, q := range y.nbrs {
		env.Send(q, node.Message{Type: msgYoyoID, ID: y.self, Stamp: y.epoch})
	}
	if y.cfg.linkTimeout > 0 {
		env.After(y.cfg.linkTimeout, timerLink)
	}
	y.setupDone(env)
}

func (y *Yoyo) setupDone(env *node.Env) {
	for i := range y.nbrs {
		if y.live[i] && y.vals[i] == node.None {
			return
		}
	}
	env.Cancel(timerLink)
	for i := range y.nbrs {
		y.out[i] = y.live[i] && y.vals[i] > y.self // from the smaller id to the larger
	}
	y.begin(env)
}

// giveUp ends a setup that waited link_timeout: every neighbour whose id has not
// come is dropped from this process's view of the graph.
func (y *Yoyo) giveUp(env *node.Env) {
	for i, q := range y.nbrs {
		if y.live[i] && y.vals[i] == node.None {
			y.live[i] = false
			env.Logf("yoyo: no id from %v within link_timeout: link dropped", q)
		}
	}
	y.setupDone(env)
}

// begin starts the next iteration.
func (y *Yoyo) begin(env *node.Env) {
	y.iter++
	in := 0
	for i := range y.nbrs {
		y.vals[i], y.votes[i], y.pruned[i] = node.None, 0, false
		if y.live[i] && !y.out[i] {
			in++
		}
	}
	y.source = in == 0
	if y.source {
		y.min = y.self
		y.phase = yyUp
		for i, q := range y.nbrs {
			if y.live[i] && y.out[i] {
				env.Send(q, node.Message{Type: msgYoyoID, ID: y.self, Term: y.iter, Stamp: y.epoch})
			}
		}
		y.checkVotes(env) // a source with no link left has won
		return
	}
	y.phase = yyDown
	var now []yoyoMsg
	kept := y.pending[:0]
	for _, p := range y.pending {
		if p.m.Term == y.iter {
			now = append(now, p)
		} else {
			kept = append(kept, p)
		}
	}
	y.pending = kept
	for _, p := range now {
		y.handle(env, p.from, p.m)
	}
}

func (y *Yoyo) handle(env *node.Env, from node.ID, m node.Message) {
	i := slices.Index(y.nbrs, from)
	if i < 0 {
		return
	}
	if m.Type == msgYoyoID {
		switch {
		case m.Term > y.iter:
			y.pending = append(y.pending, yoyoMsg{from, m})
		case m.Term < y.iter || y.vals[i] != node.None:
			// stale, or a duplicate
		case y.phase == yySetup && y.live[i]:
			y.vals[i] = m.ID
			y.setupDone(env)
		case y.phase == yyDown && y.live[i] && !y.out[i]:
			y.vals[i] = m.ID
			y.checkValues(env)
		}
		return
	}
	// a vote: YES, NO or PRUNE
	if m.Term != y.iter || y.phase != yyUp || !y.live[i] || !y.out[i] || y.votes[i] != 0 {
		return
	}
	yes := m.Type == msgYes || (m.Type == msgPrune && m.Flag)
	y.votes[i] = -1
	if yes {
		y.votes[i] = 1
	}
	y.pruned[i] = m.Type == msgPrune
	y.checkVotes(env)
}

// checkValues ends YO- once every in-neighbour sent its value.
func (y *Yoyo) checkValues(env *node.Env) {
	y.min = node.None
	outs := 0
	for i := range y.nbrs {
		if !y.live[i] {
			continue
		}
		if y.out[i] {
			outs++
			continue
		}
		if y.vals[i] == node.None {
			return
		}
		if y.min == node.None || y.vals[i] < y.min {
			y.min = y.vals[i]
		}
	}
	if outs == 0 {
		y.vote(env, true) // a sink
		return
	}
	y.phase = yyUp
	for i, q := range y.nbrs {
		if y.live[i] && y.out[i] {
			env.Send(q, node.Message{Type: msgYoyoID, ID: y.min, Term: y.iter, Stamp: y.epoch})
		}
	}
}

// checkVotes ends -YO below this process once every out-neighbour voted.
func (y *Yoyo) checkVotes(env *node.Env) {
	allYes := true
	for i := range y.nbrs {
		if y.live[i] && y.out[i] {
			if y.votes[i] == 0 {
				return
			}
			allYes = allYes && y.votes[i] > 0
		}
	}
	for i := range y.nbrs {
		switch {
		case y.votes[i] == 0:
		case y.pruned[i]:
			y.live[i] = false
		case y.votes[i] < 0:
			y.out[i] = false // a NO flips the link
		}
	}
	if !y.source {
		y.vote(env, allYes)
		return
	}
	if !allYes {
		env.Logf("yoyo: iteration %d: a NO came back, no longer a source", y.iter)
	}
	if y.links() == 0 {
		y.phase, y.leader = yyDone, y.self
		env.Logf("yoyo: every link pruned after %d iterations: leader", y.iter)
		for _, q := range y.nbrs {
			env.Send(q, node.Message{Type: msgElected, ID: y.self, Stamp: y.epoch})
		}
		return
	}
	y.begin(env)
}

// vote sends the -YO votes to the in-neighbours of this iteration (those that sent
// a value) and the pruning requests with them.
func (y *Yoyo) vote(env *node.Env, allYes bool) {
	keep, ins := -1, 0
	sink := true // no out-neighbour voted: a sink in this iteration
	for i := range y.nbrs {
		if y.vals[i] != node.None {
			ins++
			if keep < 0 && y.vals[i] == y.min {
				keep = i
			}
		}
		if y.votes[i] != 0 {
			sink = false
		}
	}
	leaf := sink && ins == 1
	for i, q := range y.nbrs {
		if y.vals[i] == node.None {
			continue
		}
		m := node.Message{Type: msgNo, Term: y.iter, Stamp: y.epoch}
		switch {
		case y.vals[i] == y.min && i == keep && !leaf:
			if allYes {
				m.Type = msgYes
			} else {
				y.out[i] = true
			}
		case y.vals[i] == y.min:
			m.Type, m.Flag = msgPrune, allYes
			y.live[i] = false
		default:
			y.out[i] = true // a NO flips the link: now self → q
		}
		env.Send(q, m)
	}
	if y.links() == 0 {
		y.phase = yyPruned
		env.Logf("yoyo: pruned in iteration %d", y.iter)
		return
	}
	y.begin(env)
}

func (y *Yoyo) links() int {
	n := 0
	for _, l := range y.live {
		if l {
			n++
		}
	}
	return n
}

func (y *Yoyo) elected(env *node.Env, from node.ID, m node.Message) {
	if y.phase == yyDone && y.leader == m.ID {
		return // already known
	}
	y.phase, y.leader = yyDone, m.ID
	y.pending = y.pending[:0]
	for _, q := range y.nbrs {
		if q != from {
			env.Send(q, m)
		}
	}
}

// Status reports the role ("asleep", "setup", then "source", "internal" or "sink"
// in each iteration, "pruned", and finally "leader" or "follower"), the believed
// leader, the epoch as Term, and the counters elections and iteration.
func (y *Yoyo) Status() node.Status {
	role := "asleep"
	switch y.phase {
	case yySetup:
		role = "setup"
	case yyDown, yyUp:
		role = "internal"
		switch {
		case y.source:
			role = "source"
		case y.phase == yyDown && !y.hasOut():
			role = "sink"
		}
	case yyPruned:
		role = "pruned"
	case yyDone:
		role = "follower"
	}
	y.counters[0] = node.Counter{Name: "elections", Value: y.elections}
	y.counters[1] = node.Counter{Name: "iteration", Value: y.iter}
	return node.Status{Role: roleFor(y.self, y.leader, role), Leader: y.leader, Term: y.epoch, Counters: y.counters[:]}
}

func (y *Yoyo) hasOut() bool {
	for i := range y.nbrs {
		if y.live[i] && y.out[i] {
			return true
		}
	}
	return false
}

func init() {
	algos.Register(algos.Spec{
		Name:        "yoyo",
		Family:      algos.Election,
		Theory:      yoyoTheory,
		Description: "Yo-Yo on any connected graph: sources push ids down, sinks vote YES/NO up, NO flips links; pruning leaves one source, the minimum",
		Source:      `Santoro, Design and Analysis of Distributed Algorithms (2007), ch. 3 (Yo-Yo); course notes 003, "Algoritmo do YoYo"`,
		Messages:    []string{msgYoyoID, msgYes, msgNo, msgPrune, msgElected},
		Params: []algos.Param{
			initiatorsParam("all", "by default every process starts at time 0; a process that is not an initiator is woken by the first message and joins the setup"),
			{Name: "link_timeout", Default: "0s", Doc: "a neighbour whose id has not come this long after the setup began is dropped from the process's view of the graph (0s = wait for ever, as the protocol does); an assumption of the lab that lets a cut bridge elect two leaders"},
		},
		Build: func(c algos.Config) (node.Factory, error) {
			cfg := &yoyoConfig{}
			var err error
			if cfg.initiator, err = initiatorSet(c); err != nil {
				return nil, err
			}
			if cfg.linkTimeout, err = c.Params.Duration("link_timeout"); err != nil {
				return nil, err
			}
			return func(id node.ID) node.Algorithm { return &Yoyo{self: id, cfg: cfg} }, nil
		},
	})
}
