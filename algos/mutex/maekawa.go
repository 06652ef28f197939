package mutex

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// maekawa is Maekawa's voting algorithm (M. Maekawa, "A √N algorithm for mutual
// exclusion in decentralized systems", ACM TOCS 3(2), 1985), following the pseudocode
// of the course notes 002: process p_i has a voting set V_i, with p_i ∈ V_i and every
// two sets intersecting; to enter, p_i sends REQUEST to V_i and waits for a VOTE from
// each member; each process votes for one request at a time and queues the others;
// on exit p_i sends RELEASE to V_i, and each voter votes for the next queued request.
// Without contention an entry costs 3·(|V_i|−1) messages: p_i's own vote is a local
// delivery.
//
// Voting sets (parameter sets):
//   - "grid" (default): the processes, in env.Peers() order, fill a grid of ⌈√N⌉
//     columns row by row; V_i is the row and the column of p_i (|V_i| ≈ 2√N; the last
//     row may be short, and any two sets still meet).
//   - "fpp": the lines of a finite projective plane of order q, for N = q²+q+1
//     processes (3, 7, 13, 21, 31: q = 1 … 5): V_i = {p_(i+d) mod N : d ∈ D} for a
//     perfect difference set D of size K = q+1 (Singer 1938), so every two sets
//     meet in exactly one process, every process is in K sets, and K ≈ √N: the
//     optimal sets of Maekawa's paper (M = K), next to the grid's ≈ 2√N. N = 7
//     gives K = 3 (the Fano plane), N = 13 gives K = 4.
//   - "triangle": the three-process example of the notes, V1 = {p1, p2},
//     V2 = {p2, p3}, V3 = {p3, p1}; needs exactly 3 processes.
//   - explicit sets, one per process in ring order, separated by ";", members by
//     spaces or commas: "n1 n2; n2 n3; n3 n1" is the triangle. Each V_i must contain
//     p_i and meet every other set; Build rejects sets that do not.
//
// As the notes show, this algorithm deadlocks: with the triangle sets and three
// simultaneous requests each process votes for itself and queues the others, and
// nobody enters. Option deadlock_free adds Maekawa's INQUIRE, RELINQUISH and FAILED:
// voters queue requests by (timestamp, id) (Lamport 1978 timestamps, as in
// Ricart-Agrawala), and a voter that voted for a later request than a new one asks
// for its vote back:
//   - a REQUEST that is not the earliest among the voter's vote and queue gets FAILED
//     (so does a queued request that a new, earlier one overtakes);
//   - a REQUEST earlier than everything the voter has gets INQUIRE sent to the
//     process it voted for (one INQUIRE outstanding at a time);
//   - a candidate that got INQUIRE gives the vote back with RELINQUISH if it has a
//     FAILED or has already given a vote back, and otherwise defers the INQUIRE until
//     one of those happens; once it holds every vote it ignores INQUIRE;
//   - on RELINQUISH the voter queues that request again and votes for the earliest.
//
// Messages (Stamp is always the timestamp of the request concerned; Term numbers a
// voter's votes, so that INQUIRE and RELINQUISH name the vote they are about):
//   - REQUEST    candidate → voter. Stamp: the request's Lamport timestamp.
//   - VOTE       voter → candidate. Stamp: the request voted for; Term: vote number.
//   - RELEASE    candidate → voter, on exit. Stamp: the request released.
//   - INQUIRE    voter → the candidate it voted for. Stamp, Term: that vote.
//   - RELINQUISH candidate → voter, giving the vote back. Stamp, Term: that vote.
//   - FAILED     voter → candidate. Stamp: the request that must wait.
//
// Departures: none in the basic algorithm (its queue is FIFO, as in the notes'
// pseudocode). In the deadlock-free variant:
//   - every queued request that is not the earliest gets FAILED once, including one
//     that loses its place at the head to a newer, earlier request. Descriptions
//     that send FAILED only to the newcomer leave cycles of deferred INQUIREs: this
//     package's property test finds such a deadlock within a hundred random
//     workloads when the rule is narrowed that way;
//   - the candidate pairs INQUIRE with the vote it names (Term), because links are
//     not FIFO and an INQUIRE may overtake its VOTE.
//
// Voters keep their vote in volatile memory: a voter that crashes and recovers may
// vote twice, and a crashed candidate keeps the votes it held; the algorithm
// tolerates no crash.
type maekawa struct {
	w     workload
	lb    loopback
	set   []node.ID // V_i
	free  bool      // deadlock_free
	clock clock
	ts    int64

	// candidate
	got      []ballot  // votes held for the current request
	failed   []node.ID // voters that answered FAILED and have not voted since
	yielded  []node.ID // voters whose vote was given back and not yet returned
	inquired []ballot  // INQUIREs not answered yet

	// voter
	voted     bool
	vote      stamp  // the request voted for
	voteN     int64  // its vote number
	votes     int64  // votes given so far
	inquiring bool   // an INQUIRE about the current vote is outstanding
	queue     []wait // requests waiting for this voter's vote
}

// ballot is one vote: who gave it and its number.
type ballot struct {
	from node.ID
	n    int64
}

// wait is a queued request and whether it was told FAILED.
type wait struct {
	stamp
	failed bool
}

func (a *maekawa) Step(env *node.Env, ev node.Event) {
	if !a.w.handle(env, ev, a) {
		switch ev.Kind {
		case node.Start, node.Recover:
			a.clock.load(env)
		case node.Deliver:
			a.receive(env, ev.From, ev.Msg)
		}
	}
	a.lb.drain(env, a.receive)
}

func (a *maekawa) acquire(env *node.Env) {
	a.ts = a.clock.next(env)
	a.got, a.failed, a.yielded, a.inquired = nil, nil, nil, nil
	for _, v := range a.set {
		a.lb.send(env, v, node.Message{Type: "REQUEST", Stamp: a.ts})
	}
}

func (a *maekawa) exit(env *node.Env) {
	a.got = nil
	for _, v := range a.set {
		a.lb.send(env, v, node.Message{Type: "RELEASE", Stamp: a.ts})
	}
}

func (a *maekawa) receive(env *node.Env, from node.ID, m node.Message) {
	switch m.Type {
	// voter side
	case "REQUEST":
		a.clock.witness(m.Stamp)
		a.request(env, stamp{m.Stamp, from})
	case "RELEASE":
		r := stamp{m.Stamp, from}
		if a.voted && a.vote == r {
			a.voted, a.inquiring = false, false
			a.grantNext(env)
			return
		}
		a.queue = slices.DeleteFunc(a.queue, func(w wait) bool { return w.stamp == r })
	case "RELINQUISH":
		r := stamp{m.Stamp, from}
		if !a.voted || a.vote != r || a.voteN != m.Term {
			return
		}
		a.voted, a.inquiring = false, false
		a.enqueue(wait{r, true}) // it knows it must wait: no FAILED
		a.grantNext(env)

	// candidate side
	case "VOTE":
		if !a.w.wanted() || m.Stamp != a.ts {
			if m.Stamp != a.ts {
				// A vote for a request already released (only a duplicated message
				// can do this): give it back so the voter is not stuck.
				a.lb.send(env, from, node.Message{Type: "RELEASE", Stamp: m.Stamp})
			}
			return
		}
		if i := slices.IndexFunc(a.got, func(b ballot) bool { return b.from == from }); i >= 0 {
			a.got[i].n = max(a.got[i].n, m.Term)
			return
		}
		a.got = append(a.got, ballot{from, m.Term})
		a.failed = removeID(a.failed, from)
		a.yielded = removeID(a.yielded, from)
		a.inquired = slices.DeleteFunc(a.inquired, func(b ballot) bool { return b.from == from && b.n < m.Term })
		if len(a.got) == len(a.set) {
			a.inquired, a.failed, a.yielded = nil, nil, nil
			a.w.enter(env)
			return
		}
		a.relinquish(env)
	case "FAILED":
		if !a.w.wanted() || m.Stamp != a.ts || slices.ContainsFunc(a.got, func(b ballot) bool { return b.from == from }) {
			return
		}
		a.failed = addID(a.failed, from)
		a.relinquish(env)
	case "INQUIRE":
		if !a.w.wanted() || m.Stamp != a.ts {
			return // stale, or we hold the critical section: RELEASE will answer
		}
		b := ballot{from, m.Term}
		if slices.ContainsFunc(a.got, func(g ballot) bool { return g.from == from && g.n > b.n }) || slices.Contains(a.inquired, b) {
			return
		}
		a.inquired = append(a.inquired, b)
		a.relinquish(env)
	}
}

// request is the voter's reaction to a REQUEST.
func (a *maekawa) request(env *node.Env, r stamp) {
	if (a.voted && a.vote == r) || slices.ContainsFunc(a.queue, func(w wait) bool { return w.stamp == r }) {
		return // duplicate
	}
	if !a.voted {
		a.grant(env, r)
		return
	}
	a.enqueue(wait{stamp: r})
	if !a.free {
		return
	}
	if r.less(a.vote) && a.queue[0].stamp == r && !a.inquiring {
		a.inquiring = true
		a.lb.send(env, a.vote.id, node.Message{Type: "INQUIRE", Stamp: a.vote.ts, Term: a.voteN})
	}
	a.failQueued(env)
}

func (a *maekawa) enqueue(w wait) {
	if !a.free {
		a.queue = append(a.queue, w)
		return
	}
	i, _ := slices.BinarySearchFunc(a.queue, w, func(x, y wait) int { return cmpStamp(x.stamp, y.stamp) })
	a.queue = slices.Insert(a.queue, i, w)
}

// failQueued sends FAILED to every queued request that is not the earliest of the
// voter's vote and queue and has not been told yet.
func (a *maekawa) failQueued(env *node.Env) {
	if !a.free {
		return
	}
	for i := range a.queue {
		w := &a.queue[i]
		if w.failed || (i == 0 && (!a.voted || w.less(a.vote))) {
			continue
		}
		w.failed = true
		a.lb.send(env, w.id, node.Message{Type: "FAILED", Stamp: w.ts})
	}
}

func (a *maekawa) grantNext(env *node.Env) {
	if len(a.queue) == 0 {
		return
	}
	next := a.queue[0].stamp
	a.queue = a.queue[1:]
	a.grant(env, next)
	a.failQueued(env)
}

func (a *maekawa) grant(env *node.Env, r stamp) {
	a.votes++
	a.voted, a.vote, a.voteN, a.inquiring = true, r, a.votes, false
	a.lb.send(env, r.id, node.Message{Type: "VOTE", Stamp: r.ts, Term: a.voteN})
}

// relinquish answers the deferred INQUIREs once the candidate knows it must wait.
func (a *maekawa) relinquish(env *node.Env) {
	if !a.free || !a.w.wanted() || len(a.failed)+len(a.yielded) == 0 {
		return
	}
	kept := a.inquired[:0]
	for _, b := range a.inquired {
		if i := slices.Index(a.got, b); i >= 0 {
			a.got = slices.Delete(a.got, i, i+1)
			a.yielded = addID(a.yielded, b.from)
			a.lb.send(env, b.from, node.Message{Type: "RELINQUISH", Stamp: a.ts, Term: b.n})
			continue
		}
		kept = append(kept, b)
	}
	a.inquired = kept
}

func (a *maekawa) Status() node.Status {
	var votedFor node.ID
	if a.voted {
		votedFor = a.vote.id
	}
	return node.Status{CS: a.w.cs, Counters: a.w.counters(
		node.Counter{Name: "votes", Value: int64(len(a.got))},
		node.Counter{Name: "queue", Value: int64(len(a.queue))},
		node.Counter{Name: "voted_for", Value: int64(votedFor)},
		node.Counter{Name: "set_size", Value: int64(len(a.set))})}
}

func init() {
	algos.Register(algos.Spec{
		Name:   "maekawa",
		Family: algos.Mutex,
		Theory: maekawaTheory,
		Description: "Maekawa's voting sets (row ∪ column of a √N grid): REQUEST, VOTE, RELEASE; " +
			"deadlocks unless deadlock_free adds INQUIRE, RELINQUISH, FAILED",
		Source:   `Maekawa 1985 (ACM TOCS 3(2)); course notes 002, "Algoritmo de Maekawa"`,
		Messages: []string{"REQUEST", "VOTE", "RELEASE", "INQUIRE", "RELINQUISH", "FAILED"},
		Params: withWorkload(
			algos.Param{Name: "deadlock_free", Default: "false", Doc: "add INQUIRE, RELINQUISH and FAILED, with queues ordered by (timestamp, id)"},
			algos.Param{Name: "sets", Default: "grid", Doc: "voting sets: \"grid\" (row and column in a ⌈√N⌉ grid), \"fpp\" (lines of a finite projective plane: N = 7, K = 3; N = 13, K = 4; also 3, 21, 31), \"triangle\" (V1={n1,n2}, V2={n2,n3}, V3={n3,n1}; 3 nodes), or one set per node such as \"n1 n2; n2 n3; n3 n1\""},
		),
		Build: buildMaekawa,
	})
}

func buildMaekawa(c algos.Config) (node.Factory, error) {
	wl, err := readWorkload(c.Params)
	if err != nil {
		return nil, err
	}
	free, err := c.Params.Bool("deadlock_free")
	if err != nil {
		return nil, err
	}
	sets, err := votingSets(c.Params, c.IDs)
	if err != nil {
		return nil, err
	}
	return func(id node.ID) node.Algorithm {
		return &maekawa{w: newWorkload(wl), free: free, set: sets[slices.Index(c.IDs, id)]}
	}, nil
}

// gridSets gives each process the row and the column of its cell in a grid of ⌈√N⌉
// columns filled row by row, in ids order. Each set lists its members in ids order.
func gridSets(ids []node.ID) [][]node.ID {
	n := len(ids)
	cols := 1
	for cols*cols < n {
		cols++
	}
	sets := make([][]node.ID, n)
	for i := range ids {
		for j, q := range ids {
			if j/cols == i/cols || j%cols == i%cols {
				sets[i] = append(sets[i], q)
			}
		}
	}
	return sets
}

// singer holds a perfect difference set modulo N = q²+q+1 for each supported N:
// every nonzero residue is the difference of exactly one ordered pair of it.
var singer = map[int][]int{3: {0, 1}, 7: {0, 1, 3}, 13: {0, 1, 3, 9}, 21: {0, 1, 4, 14, 16}, 31: {0, 1, 3, 8, 12, 18}}

// fppSets gives process i the line {i+d mod N : d ∈ diff} of the projective plane,
// which contains i since 0 ∈ diff. Each set lists its members in ids order.
func fppSets(ids []node.ID, diff []int) [][]node.ID {
	n := len(ids)
	sets := make([][]node.ID, n)
	for i := range ids {
		for j := range ids {
			if slices.Contains(diff, ((j-i)%n+n)%n) {
				sets[i] = append(sets[i], ids[j])
			}
		}
	}
	return sets
}

// votingSets reads parameter sets.
func votingSets(p algos.Params, ids []node.ID) ([][]node.ID, error) {
	bad := func(format string, args ...any) error {
		return &algos.ParamError{Name: "sets", Msg: fmt.Sprintf(format, args...)}
	}
	raw, err := p.String("sets")
	if err != nil {
		return nil, bad("expected \"grid\", \"fpp\", \"triangle\", or one set per node such as \"n1 n2; n2 n3; n3 n1\"")
	}
	switch raw {
	case "grid":
		return gridSets(ids), nil
	case "fpp":
		d, ok := singer[len(ids)]
		if !ok {
			return nil, bad("found \"fpp\" with %d nodes, expected N = q²+q+1 for a plane this package knows: 3, 7, 13, 21 or 31", len(ids))
		}
		return fppSets(ids, d), nil
	case "triangle":
		if len(ids) != 3 {
			return nil, bad("found \"triangle\" with %d nodes, expected exactly 3 nodes", len(ids))
		}
		return [][]node.ID{{ids[0], ids[1]}, {ids[1], ids[2]}, {ids[2], ids[0]}}, nil
	}
	var groups [][]string
	for _, g := range strings.Split(raw, ";") {
		groups = append(groups, strings.FieldsFunc(g, func(r rune) bool { return r == ',' || r == ' ' }))
	}
	if len(groups) != len(ids) {
		return nil, bad("found %d sets, expected one per node (%d), in node order", len(groups), len(ids))
	}
	sets := make([][]node.ID, len(ids))
	for i, g := range groups {
		for _, name := range g {
			id, ok := node.ParseID(strings.TrimSpace(name))
			if !ok || !slices.Contains(ids, id) {
				return nil, bad("found %q in the set of %v, expected one of the scenario's nodes", name, ids[i])
			}
			sets[i] = addID(sets[i], id)
		}
		if !slices.Contains(sets[i], ids[i]) {
			return nil, bad("the set of %v does not contain %v; Maekawa needs p_i ∈ V_i", ids[i], ids[i])
		}
	}
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			if !slices.ContainsFunc(sets[i], func(q node.ID) bool { return slices.Contains(sets[j], q) }) {
				return nil, bad("the sets of %v and %v do not intersect, so both could enter at once", ids[i], ids[j])
			}
		}
	}
	return sets, nil
}
