package mutex

import (
	"fmt"
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Central server and majority quorums share one state machine: a participant sends
// REQUEST to n coordinators, enters once m of them sent GRANT, and sends RELEASE to
// all n when it leaves; each coordinator grants to one participant at a time and
// queues the others in FIFO order. The central server of the course notes (notes 002,
// "algoritmo do servidor central"; notes 003, "Coordenador") is the case n = m = 1;
// the quorum algorithm of notes 003 ("Quórum") has n coordinators and m > n/2.
//
// Messages (all carry the participant's request number in Stamp, so that a
// coordinator never confuses two requests of one process, as notes 003 advise in
// footnote [^id]):
//   - REQUEST  participant → coordinator. Stamp: the request number.
//   - GRANT    coordinator → participant. Stamp: the request number granted.
//   - RELEASE  participant → coordinator. Stamp: the request number released. Sent to
//     every coordinator, including those that did not grant, so they drop it from
//     their queue (notes 003, coordinator step 3).
//
// A coordinator that is also a participant talks to itself by local delivery: no
// network message, so a coordinator's own entry costs nothing.
//
// Whom a participant asks (quorum's ask):
//   - "all" (the default): every request goes to all n coordinators, and every
//     free one grants it, so a holder usually holds more than m grants; a second
//     quorum then needs more of them forgotten than the notes count.
//   - "m", the notes' model for P_v: each request goes to m coordinators drawn at
//     random (from the participant's seeded source) for that request, and the
//     RELEASE to the same m. A holder holds exactly m grants, and a second quorum
//     is possible as soon as 2m−n of them are forgotten. With timeout, a retry
//     draws a new set.
//
// Options, both off by default:
//   - lease (central): the coordinator takes a grant back after that long, assuming
//     the holder crashed (notes 003, "Lidando com Falhas"). A holder that was only
//     slow is still inside, so two processes hold the critical section; the late
//     RELEASE of the reclaimed grant is recognised by its number and ignored. The
//     lease applies to the coordinator's own grant too.
//   - timeout (quorum): the notes ask "E se cada participante obtiver o ok de um
//     coordenador?" — concurrent requests can split the grants so that nobody has m,
//     forever. With timeout, a participant still waiting after that long sends
//     RELEASE to every coordinator and asks again, with a new request number, after a
//     random backoff in (0, timeout] drawn from its seeded source. Not in the notes'
//     pseudocode; it is the "temporizador para quebrar o deadlock" they suggest.
//
// Request numbers live in stable storage (they are the participant's, not the
// coordinator's); grants and queues live in volatile memory only, so a coordinator
// that crashes and recovers forgets what it granted. That is the amnesia of notes
// 003 ("Perda de memória") and what quorum-amnesia shows.
type coordinated struct {
	w    workload
	lb   loopback
	self node.ID

	coords  []node.ID // the n coordinators
	m       int       // grants needed
	askM    bool      // ask m coordinators drawn at random, not all n
	lease   time.Duration
	timeout time.Duration // quorum's timeout: give up and retry; 0 = wait forever
	coord   bool          // this process is a coordinator

	// participant
	seq    int64     // number of the current (or last) request
	asking bool      // request seq is outstanding: neither released nor given up
	grants []node.ID // coordinators that granted request seq
	asked  []node.ID // coordinators asked for request seq

	// coordinator
	q grantQueue
}

// Timer names of the coordinated algorithms.
const (
	timerLease   = "central.lease"   // the coordinator reclaims its grant
	timerTimeout = "quorum.timeout"  // the participant gives up waiting
	timerRetry   = "quorum.retry"    // the participant asks again
	seqKey       = "mutex.request_n" // stable storage: last request number
)

func (a *coordinated) Step(env *node.Env, ev node.Event) {
	if !a.w.handle(env, ev, a) {
		switch ev.Kind {
		case node.Start, node.Recover:
			a.self = env.Self()
			if v, ok := env.Load(seqKey); ok {
				a.seq = v
			}
		case node.Deliver:
			a.receive(env, ev.From, ev.Msg)
		case node.Timer:
			a.timer(env, ev.Name)
		}
	}
	a.lb.drain(env, a.receive)
}

func (a *coordinated) acquire(env *node.Env) {
	a.seq++
	env.Store(seqKey, a.seq)
	a.grants = a.grants[:0]
	a.asking = true
	a.asked = append(a.asked[:0], a.coords...)
	if a.askM {
		// m drawn at random for this request: the first m of a partial shuffle,
		// asked in id order.
		r := env.Rand()
		for i := range a.m {
			j := i + r.IntN(len(a.asked)-i)
			a.asked[i], a.asked[j] = a.asked[j], a.asked[i]
		}
		a.asked = a.asked[:a.m]
		slices.Sort(a.asked)
	}
	for _, c := range a.asked {
		a.lb.send(env, c, node.Message{Type: "REQUEST", Stamp: a.seq})
	}
	if a.timeout > 0 {
		env.After(a.timeout, timerTimeout)
	}
}

func (a *coordinated) exit(env *node.Env) {
	a.releaseAll(env)
}

func (a *coordinated) releaseAll(env *node.Env) {
	a.grants = a.grants[:0]
	a.asking = false
	for _, c := range a.asked {
		a.lb.send(env, c, node.Message{Type: "RELEASE", Stamp: a.seq})
	}
}

func (a *coordinated) receive(env *node.Env, from node.ID, m node.Message) {
	t := ticket{from, m.Stamp}
	switch m.Type {
	case "REQUEST":
		if a.coord && a.q.request(t) {
			a.grantNext(env)
		}
	case "RELEASE":
		if a.coord && a.q.release(t) {
			env.Cancel(timerLease)
			a.grantNext(env)
		}
	case "GRANT":
		if m.Stamp != a.seq || !a.asking {
			return // a grant of a request already released: our RELEASE frees it
		}
		a.grants = addID(a.grants, from)
		if a.w.wanted() && len(a.grants) >= a.m {
			env.Cancel(timerTimeout)
			a.w.enter(env)
		}
	}
}

func (a *coordinated) grantNext(env *node.Env) {
	t, ok := a.q.next()
	if !ok {
		return
	}
	if a.lease > 0 {
		env.After(a.lease, timerLease)
	}
	a.lb.send(env, t.p, node.Message{Type: "GRANT", Stamp: t.seq})
}

func (a *coordinated) timer(env *node.Env, name string) {
	switch name {
	case timerLease:
		// The holder has had the grant for lease: assume it crashed and take the
		// grant back (notes 003, "Lidando com Falhas"). If it was only slow, two
		// processes now hold the critical section.
		if a.q.reclaim() {
			a.grantNext(env)
		}
	case timerTimeout:
		if !a.w.wanted() {
			return
		}
		// Give up: return every grant and leave every queue, then ask again after
		// a random backoff, so that competing participants do not collide forever
		// (notes 003, "Temporizador para quebrar o deadlock?").
		a.releaseAll(env)
		backoff := time.Duration(env.Rand().Int64N(int64(a.timeout)) + 1)
		env.After(backoff, timerRetry)
	case timerRetry:
		if a.w.wanted() {
			a.acquire(env)
		}
	}
}

func (a *coordinated) Status() node.Status {
	s := node.Status{CS: a.w.cs, Role: "participant"}
	var more []node.Counter
	if a.m > 1 || len(a.coords) > 1 {
		more = append(more, node.Counter{Name: "grants", Value: int64(len(a.grants))})
	}
	if a.coord {
		s.Role = "coordinator"
		more = append(more,
			node.Counter{Name: "granted_to", Value: int64(a.q.holder.p)},
			node.Counter{Name: "queue", Value: int64(len(a.q.queue))})
	}
	s.Counters = a.w.counters(more...)
	return s
}

// ticket is one request of one participant.
type ticket struct {
	p   node.ID
	seq int64
}

// grantQueue is a coordinator's state: whom it granted, who waits (FIFO), and the
// last request number each participant released, so that a request overtaken by
// its own release (links need not be FIFO) is not granted later.
type grantQueue struct {
	holder   ticket // holder.p == node.None: free
	queue    []ticket
	released []ticket // per participant, the highest released request number
}

// request queues t and reports whether the coordinator is free to grant.
func (g *grantQueue) request(t ticket) bool {
	if t.seq <= g.releasedSeq(t.p) || t == g.holder || slices.Contains(g.queue, t) {
		return false // stale or duplicate
	}
	g.queue = append(g.queue, t)
	return g.holder.p == node.None
}

// release handles the release of t and reports whether it freed the coordinator.
func (g *grantQueue) release(t ticket) bool {
	if i := slices.IndexFunc(g.released, func(r ticket) bool { return r.p == t.p }); i >= 0 {
		g.released[i].seq = max(g.released[i].seq, t.seq)
	} else {
		g.released = append(g.released, t)
	}
	if g.holder == t {
		g.holder = ticket{}
		return true
	}
	if i := slices.Index(g.queue, t); i >= 0 {
		g.queue = slices.Delete(g.queue, i, i+1)
	}
	return false
}

// reclaim takes the grant back from the holder (lease expiry) and reports whether
// there is someone to grant to.
func (g *grantQueue) reclaim() bool {
	if g.holder.p == node.None {
		return false
	}
	g.holder = ticket{}
	return len(g.queue) > 0
}

// next grants to the head of the queue if free.
func (g *grantQueue) next() (ticket, bool) {
	if g.holder.p != node.None || len(g.queue) == 0 {
		return ticket{}, false
	}
	g.holder = g.queue[0]
	g.queue = g.queue[1:]
	return g.holder, true
}

func (g *grantQueue) releasedSeq(p node.ID) int64 {
	for _, r := range g.released {
		if r.p == p {
			return r.seq
		}
	}
	return 0
}

func init() {
	algos.Register(algos.Spec{
		Name:   "central",
		Family: algos.Mutex,
		Theory: centralTheory,
		Description: "central server: one coordinator grants the critical section in FIFO order; " +
			"an optional lease reclaims the grant from a slow holder",
		Source:   `course notes 002, "Algoritmo do servidor central"; course notes 003, "Coordenador", "Lidando com Falhas"`,
		Messages: []string{"REQUEST", "GRANT", "RELEASE"},
		Params: withWorkload(
			algos.Param{Name: "coordinator", Default: "", Doc: "the coordinator, such as \"n1\"; empty means the lowest id"},
			algos.Param{Name: "lease", Default: "0s", Doc: "the coordinator reclaims a grant held this long (0s = never); a slow holder then shares the critical section"},
		),
		Build: buildCentral,
	})
	algos.Register(algos.Spec{
		Name:   "quorum",
		Family: algos.Mutex,
		Theory: quorumTheory,
		Description: "majority quorum: a participant needs GRANT from m > n/2 of n coordinators, " +
			"which keep grants in volatile memory only and forget them when they crash",
		Source:   srcQuorum,
		Messages: []string{"REQUEST", "GRANT", "RELEASE"},
		Params: withWorkload(
			algos.Param{Name: "coordinators", Default: "all", Doc: "the n coordinators: \"all\", a list such as [\"n1\", \"n2\", \"n3\"], or a number k, the first k processes"},
			algos.Param{Name: "m", Default: "0", Doc: "grants needed; 0 means the majority floor(n/2)+1; must be > n/2 and <= n"},
			algos.Param{Name: "timeout", Default: "0s", Doc: "a participant that waited this long without m grants returns them and retries after a random backoff (0s = wait forever)"},
			algos.Param{Name: "ask", Default: "all", Doc: "whom a participant asks: \"all\" n coordinators, or \"m\" of them drawn at random for each request (the notes' model, in which P_v holds)"},
			algos.Param{Name: "participants", Default: "all", Doc: "the processes whose generator makes requests (cs_rate): \"all\" or a list such as [\"n4\", \"n5\"]; a scripted request works anywhere"},
		),
		Build: buildQuorum,
	})
}

func buildCentral(c algos.Config) (node.Factory, error) {
	wl, err := readWorkload(c.Params)
	if err != nil {
		return nil, err
	}
	coord, err := c.Params.Node("coordinator", c.IDs)
	if err != nil {
		return nil, err
	}
	if coord == node.None {
		coord = slices.Min(c.IDs)
	}
	lease, err := c.Params.Duration("lease")
	if err != nil {
		return nil, err
	}
	coords := []node.ID{coord}
	return func(id node.ID) node.Algorithm {
		return &coordinated{w: newWorkload(wl), coords: coords, m: 1, lease: lease, coord: id == coord}
	}, nil
}

// quorumSize reads the n coordinators (sorted, each once) and m, the grants needed
// (0: the majority). coordinators is "all", a list, or a number k: the first k
// processes in id order, so that a sweep can make n an axis.
func quorumSize(p algos.Params, ids []node.ID) ([]node.ID, int, error) {
	var coords []node.ID
	if k, err := p.Int("coordinators"); err == nil {
		if k < 1 || k > len(ids) {
			return nil, 0, &algos.ParamError{Name: "coordinators", Msg: fmt.Sprintf("found %d, expected 1 to %d (the first k processes), \"all\" or a list such as [\"n1\", \"n2\", \"n3\"]", k, len(ids))}
		}
		coords = slices.Sorted(slices.Values(ids))[:k]
	} else if coords, err = p.Nodes("coordinators", ids); err != nil {
		return nil, 0, err
	}
	if len(coords) == 0 {
		return nil, 0, &algos.ParamError{Name: "coordinators", Msg: "found none, expected at least one coordinator"}
	}
	coords = slices.Compact(slices.Sorted(slices.Values(coords)))
	n := len(coords)
	m, err := p.Int("m")
	if err != nil {
		return nil, 0, err
	}
	if m == 0 {
		m = n/2 + 1
	}
	if 2*m <= n || m > n {
		return nil, 0, &algos.ParamError{Name: "m", Msg: fmt.Sprintf("found %d, expected a majority of the %d coordinators: %d to %d", m, n, n/2+1, n)}
	}
	return coords, m, nil
}

func buildQuorum(c algos.Config) (node.Factory, error) {
	wl, err := readWorkload(c.Params)
	if err != nil {
		return nil, err
	}
	coords, m, err := quorumSize(c.Params, c.IDs)
	if err != nil {
		return nil, err
	}
	timeout, err := c.Params.Duration("timeout")
	if err != nil {
		return nil, err
	}
	ask, err := c.Params.String("ask", "all", "m")
	if err != nil {
		return nil, err
	}
	parts, err := c.Params.Nodes("participants", c.IDs)
	if err != nil {
		return nil, err
	}
	return func(id node.ID) node.Algorithm {
		own := wl
		if !hasID(parts, id) {
			own.rate = 0 // not a participant: its generator stays off
		}
		return &coordinated{w: newWorkload(own), coords: coords, m: m, askM: ask == "m", timeout: timeout, coord: hasID(coords, id)}
	}, nil
}
