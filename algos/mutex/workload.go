package mutex

import (
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Timer names of the workload. Every algorithm's own timers use other prefixes.
const (
	timerGenerate = "cs.gen"  // the generator's next request
	timerHold     = "cs.hold" // leave the critical section
)

// workloadParams are the parameters every mutex algorithm takes.
var workloadParams = []algos.Param{
	{Name: "cs_rate", Default: "0", Max: "10000", Unit: "per second", Doc: "requests per second per node made by the generator (exponential gaps from the node's seeded source); 0 turns the generator off"},
	{Name: "cs_hold", Default: "50ms", Doc: "how long a process stays in the critical section once it enters"},
}

// withWorkload appends the workload parameters to an algorithm's own.
func withWorkload(own ...algos.Param) []algos.Param {
	return append(own, workloadParams...)
}

// workloadConfig is the parsed workload of one scenario.
type workloadConfig struct {
	rate float64       // requests per second per node; 0 = no generator
	hold time.Duration // time spent in the critical section
}

func readWorkload(p algos.Params) (workloadConfig, error) {
	rate, err := p.Float("cs_rate")
	if err != nil {
		return workloadConfig{}, err
	}
	hold, err := p.Duration("cs_hold")
	if err != nil {
		return workloadConfig{}, err
	}
	return workloadConfig{rate: rate, hold: hold}, nil
}

// protocol is what an algorithm plugs into the workload: how to ask for the critical
// section and how to leave it.
type protocol interface {
	// acquire is called when the process starts wanting the critical section (the
	// workload's state is already CSWanted). The algorithm calls workload.enter once
	// it may enter, possibly at once.
	acquire(env *node.Env)
	// exit is called when the process leaves the critical section (the workload's
	// state is already CSReleased).
	exit(env *node.Env)
}

// workload is the part every mutex algorithm shares: it turns user requests ("cs")
// and the generator's timer into calls of protocol.acquire, keeps the
// critical-section state and the entry count, and leaves the critical section
// cs_hold after entering it. Algorithms embed it and hand it every event first.
//
// A request made while the process already wants or holds the critical section is
// ignored (not queued): a process has at most one outstanding request, as in all
// the textbook algorithms. The generator keeps drawing gaps meanwhile, so a busy
// process simply skips those requests.
type workload struct {
	cfg     workloadConfig
	cs      node.CSState
	entries int64
}

func newWorkload(cfg workloadConfig) workload {
	return workload{cfg: cfg, cs: node.CSReleased}
}

// handle reacts to the workload's own events and reports whether ev was one. On
// Start and Recover it arms the generator and reports false, so the algorithm can
// initialise too.
func (w *workload) handle(env *node.Env, ev node.Event, p protocol) bool {
	switch ev.Kind {
	case node.Start, node.Recover:
		w.arm(env)
		return false
	case node.Request:
		if ev.Name != "cs" {
			return false
		}
		w.request(env, p)
		return true
	case node.Timer:
		switch ev.Name {
		case timerGenerate:
			w.arm(env)
			w.request(env, p)
			return true
		case timerHold:
			if w.cs == node.CSHeld {
				w.cs = node.CSReleased
				p.exit(env)
			}
			return true
		}
	}
	return false
}

// arm schedules the generator's next request: exponential gaps of mean 1/rate.
func (w *workload) arm(env *node.Env) {
	if w.cfg.rate <= 0 {
		return
	}
	gap := time.Duration(env.Rand().ExpFloat64() / w.cfg.rate * float64(time.Second))
	env.After(gap, timerGenerate)
}

func (w *workload) request(env *node.Env, p protocol) {
	if w.cs != node.CSReleased {
		return
	}
	w.cs = node.CSWanted
	p.acquire(env)
}

// enter is called by the algorithm when it may enter: it holds the critical
// section for cs_hold.
func (w *workload) enter(env *node.Env) {
	if w.cs != node.CSWanted {
		return
	}
	w.cs = node.CSHeld
	w.entries++
	env.After(w.cfg.hold, timerHold)
}

func (w *workload) wanted() bool { return w.cs == node.CSWanted }
func (w *workload) held() bool   { return w.cs == node.CSHeld }

// counter lists the workload's counters, followed by the algorithm's.
func (w *workload) counters(more ...node.Counter) []node.Counter {
	return append([]node.Counter{{Name: "entries", Value: w.entries}}, more...)
}

// loopback carries the messages a process addresses to itself. The textbook
// algorithms let a process be its own coordinator or voter; sending to oneself is
// not a network message, so such messages are queued here and handled at the end
// of the same step, in order, and never reach the network or its counts.
type loopback struct {
	pending []node.Message
}

// send sends m to to, or queues it locally if to is this process.
func (l *loopback) send(env *node.Env, to node.ID, m node.Message) {
	if to == env.Self() {
		l.pending = append(l.pending, m)
		return
	}
	env.Send(to, m)
}

// drain hands every queued local message to receive, including any that receive
// queues in turn.
func (l *loopback) drain(env *node.Env, receive func(env *node.Env, from node.ID, m node.Message)) {
	for len(l.pending) > 0 {
		m := l.pending[0]
		l.pending = l.pending[1:]
		receive(env, env.Self(), m)
	}
	l.pending = nil
}

// stamp is a request's place in the total order of Lamport (1978): its timestamp,
// ties broken by process id.
type stamp struct {
	ts int64
	id node.ID
}

func (a stamp) less(b stamp) bool {
	if a.ts != b.ts {
		return a.ts < b.ts
	}
	return a.id < b.id
}

// clock is a Lamport clock as Ricart and Agrawala (1981) use it: it remembers the
// highest timestamp seen, and a new request takes the next one. It is kept in stable
// storage, so a recovered process never reuses a timestamp it already sent.
type clock struct {
	highest int64
}

const clockKey = "mutex.clock"

func (c *clock) load(env *node.Env) {
	if v, ok := env.Load(clockKey); ok {
		c.highest = v
	}
}

// witness takes a timestamp received in a message into account.
func (c *clock) witness(ts int64) {
	if ts > c.highest {
		c.highest = ts
	}
}

// next is the timestamp of a new request.
func (c *clock) next(env *node.Env) int64 {
	c.highest++
	env.Store(clockKey, c.highest)
	return c.highest
}

// hasID reports whether ids contains id.
func hasID(ids []node.ID, id node.ID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// addID adds id to ids if absent.
func addID(ids []node.ID, id node.ID) []node.ID {
	if hasID(ids, id) {
		return ids
	}
	return append(ids, id)
}

// removeID removes id from ids.
func removeID(ids []node.ID, id node.ID) []node.ID {
	for i, x := range ids {
		if x == id {
			return append(ids[:i], ids[i+1:]...)
		}
	}
	return ids
}

// others lists peers without self.
func others(peers []node.ID, self node.ID) []node.ID {
	var out []node.ID
	for _, p := range peers {
		if p != self {
			out = append(out, p)
		}
	}
	return out
}
