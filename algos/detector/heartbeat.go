package detector

import (
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Heartbeat is the eventually perfect failure detector ◊P by heartbeats (push), with
// one adaptive timeout per monitored process: the push counterpart of the course
// notes' Alg. 5.1, as in Chandra & Toueg, "Unreliable failure detectors for reliable
// distributed systems" (JACM 1996), whose ◊P implementation keeps a timeout per
// process and increases it after each false suspicion. It is registered as
// "heartbeat-dp" and is the default detector composed by omega.
//
//   - every interval (timer "fd.heartbeat"), send HEARTBEAT to every other process;
//   - for each process q, a deadline lastHeard(q) + timeout(q), set at Start and at
//     every heartbeat from q; when it passes, suspect q;
//   - a heartbeat from a suspected q was a false suspicion: trust q again and grow
//     q's timeout by Δ (and count a mistake).
//
// Having one timeout per process (rather than the single monitoring interval of
// Alg. 5.1) means that one slow link does not slow down the detection of every other
// crash; the notes point out exactly this weakness of the single interval.
//
// Departure from Chandra & Toueg, and why: they give each process q a timer of its
// own, restarted by every heartbeat from q. Here the deadlines live in a slice
// indexed by process and ONE timer (TimerCheck) is armed at the earliest of them;
// when it fires it suspects every process whose deadline has passed and is armed
// again at the next earliest. In an all-to-all mesh of N processes the per-process
// timers are N² queued timers, restarted N² times per interval: 17 million at
// 4,096 processes, more memory than the rest of the run, and at 1,000 processes
// about half the CPU time (the mesh delivers twice as many heartbeats per CPU
// second without them). One timer is N queued timers, and a
// heartbeat only writes a deadline. Each deadline is computed with Env.Deadline,
// exactly where q's own timer would have fired (a slow process's timeouts are
// stretched the same way), so every suspicion happens at the same virtual time as
// with a timer per process: at lastHeard(q) + timeout(q). A heartbeat from q that
// arrives at that very instant finds q suspected first, as it found q's own timer
// fired first whenever the heartbeat took less than the timeout to arrive.
//
// In a crash-recovery run a recovered process's heartbeats are counted as a
// mistake too (and grow its timeout): in the crash model only a false suspicion can
// be followed by a heartbeat. The timeouts are volatile and restart from the initial
// value in a new incarnation.
type Heartbeat struct {
	interval time.Duration
	initial  time.Duration
	delta    time.Duration

	procs []node.ID // env.Peers(), self included; the world's slice, shared, not copied
	self  int       // self's index in procs
	// deadline[i] is when procs[i] is suspected unless heard from before;
	// unwatched (-1) marks self and the suspected processes.
	deadline []time.Duration
	// timeout[i] is procs[i]'s current timeout, or nil while every timeout is still
	// the initial one (a run without false suspicions never pays for it).
	timeout  []time.Duration
	check    time.Duration // when TimerCheck is armed; -1 when it is not
	suspects idSet
	seq      int64
	mistakes int64
	longest  time.Duration // the largest of the timeouts
	shown    []PeerTimeout // PeerTimeouts' answer, rebuilt on demand
}

// The heartbeat detector's timers: the sending period, and the one timer that
// watches every deadline.
const (
	TimerHeartbeat = "fd.heartbeat"
	TimerCheck     = "fd.check"
)

// unwatched marks a deadline nobody watches: self's, or a suspected process's.
const unwatched time.Duration = -1

// NewHeartbeat makes a heartbeat detector that sends every interval and starts with
// the given timeout towards every process.
func NewHeartbeat(interval, timeout, delta time.Duration) *Heartbeat {
	return &Heartbeat{interval: interval, initial: timeout, delta: delta}
}

// Start sends the first heartbeats and sets every deadline.
func (d *Heartbeat) Start(env *node.Env) {
	d.procs = env.Peers()
	d.self = env.Index()
	d.deadline = slices.Grow(d.deadline[:0], len(d.procs))[:len(d.procs)]
	d.timeout = nil
	d.suspects = nil
	d.check = unwatched
	d.longest = 0
	if len(d.procs) > 1 || len(d.procs) == 1 && d.self < 0 {
		d.longest = d.initial
	}
	d.beat(env)
	first := env.Deadline(d.initial)
	for i := range d.deadline {
		d.deadline[i] = first
	}
	if d.self >= 0 {
		d.deadline[d.self] = unwatched
	}
	d.watch(env, first)
}

func (d *Heartbeat) beat(env *node.Env) {
	d.seq++
	env.Broadcast(node.Message{Type: MsgHeartbeat, Stamp: d.seq})
	env.After(d.interval, TimerHeartbeat)
}

// Handle reacts to heartbeats and to the detector's timers.
func (d *Heartbeat) Handle(env *node.Env, ev node.Event) bool {
	switch ev.Kind {
	case node.Deliver:
		if ev.Msg.Type != MsgHeartbeat {
			return false
		}
		d.heard(env, ev.From)
		return true
	case node.Timer:
		switch ev.Name {
		case TimerHeartbeat:
			d.beat(env)
			return true
		case TimerCheck:
			d.check = unwatched
			d.expire(env)
			return true
		}
	}
	return false
}

// Deadline is the next suspicion: the earliest deadline of a process not yet
// suspected, drawn over that process's current timeout. (TimerCheck may be armed
// earlier, at a deadline a heartbeat has since pushed back.)
func (d *Heartbeat) Deadline(func(string) (time.Duration, bool)) node.Deadline {
	var next node.Deadline
	for i, dl := range d.deadline {
		if dl != unwatched && (!next.Running() || dl < next.At) {
			next = node.Deadline{For: "suspicion", At: dl, Len: d.timeoutOf(i)}
		}
	}
	return next
}

// heard handles a heartbeat from p.
func (d *Heartbeat) heard(env *node.Env, p node.ID) {
	i, ok := env.PeerIndex(p)
	if !ok || i == d.self || i >= len(d.deadline) || d.procs[i] != p {
		return // a stranger, or self
	}
	if dl := d.deadline[i]; dl != unwatched && dl <= env.Now() {
		// p's deadline is now and TimerCheck, due now too, has not run yet: p's
		// own timer would have fired before this heartbeat, so suspect p first.
		d.suspect(env, i)
	}
	if d.deadline[i] == unwatched { // suspected: it was a mistake
		d.suspects.remove(p)
		t := d.timeoutOf(i) + d.delta
		d.setTimeout(i, t)
		d.mistakes++
		env.Logf("fd: trust %v again, its timeout now %v", p, t)
	}
	dl := env.Deadline(d.timeoutOf(i))
	d.deadline[i] = dl
	if d.check == unwatched || dl < d.check {
		d.watch(env, dl)
	}
}

// expire suspects every process whose deadline has passed, and watches the next.
func (d *Heartbeat) expire(env *node.Env) {
	now, next := env.Now(), unwatched
	for i, dl := range d.deadline {
		switch {
		case dl == unwatched:
		case dl <= now:
			d.suspect(env, i)
		case next == unwatched || dl < next:
			next = dl
		}
	}
	if next != unwatched {
		d.watch(env, next)
	}
}

func (d *Heartbeat) suspect(env *node.Env, i int) {
	d.deadline[i] = unwatched
	if d.suspects.add(d.procs[i]) {
		env.Logf("fd: suspect %v", d.procs[i])
	}
}

// watch arms TimerCheck at t, the earliest deadline.
func (d *Heartbeat) watch(env *node.Env, t time.Duration) {
	d.check = t
	env.At(t, TimerCheck)
}

func (d *Heartbeat) timeoutOf(i int) time.Duration {
	if d.timeout == nil {
		return d.initial
	}
	return d.timeout[i]
}

// setTimeout changes procs[i]'s timeout to t.
func (d *Heartbeat) setTimeout(i int, t time.Duration) {
	if d.timeout == nil {
		d.timeout = make([]time.Duration, len(d.procs))
		for j := range d.timeout {
			d.timeout[j] = d.initial
		}
	}
	d.timeout[i] = t
	if d.delta >= 0 {
		d.longest = max(d.longest, t)
		return
	}
	d.longest = 0 // a negative Δ shrinks timeouts: look at them all
	for j, t := range d.timeout {
		if j != d.self {
			d.longest = max(d.longest, t)
		}
	}
}

// Suspects lists the suspected processes in id order.
func (d *Heartbeat) Suspects() []node.ID { return d.suspects }

// Suspected reports whether p is suspected.
func (d *Heartbeat) Suspected(p node.ID) bool { return d.suspects.has(p) }

// Timeout is the current timeout towards p (0 if p is not monitored).
func (d *Heartbeat) Timeout(p node.ID) time.Duration {
	if i := slices.Index(d.procs, p); i >= 0 && i != d.self {
		return d.timeoutOf(i)
	}
	return 0
}

// MaxTimeout is the largest current timeout (0 before Start). It is kept as the
// timeouts change, not recomputed: a status is reported after every step.
func (d *Heartbeat) MaxTimeout() time.Duration { return d.longest }

// PeerTimeouts lists the current timeout towards every monitored process, in
// env.Peers() order. It is built when asked: only a display asks.
func (d *Heartbeat) PeerTimeouts() []PeerTimeout {
	d.shown = d.shown[:0]
	for i, p := range d.procs {
		if i != d.self {
			d.shown = append(d.shown, PeerTimeout{p, d.timeoutOf(i)})
		}
	}
	return d.shown
}

// Mistakes counts the false suspicions corrected so far.
func (d *Heartbeat) Mistakes() int64 { return d.mistakes }

func init() {
	algos.Register(algos.Spec{
		Name:        "heartbeat-dp",
		Family:      algos.Detector,
		Description: "◊P by heartbeats: one timeout per peer that grows by Δ after each false suspicion",
		Source:      `course notes 000, "Algoritmo 5.1" (its push variant); Chandra & Toueg 1996`,
		Messages:    []string{MsgHeartbeat},
		Params: []algos.Param{
			{Name: "interval", Default: "100ms", Doc: "heartbeat period", Min: "1µs"},
			{Name: "timeout", Default: "250ms", Doc: "initial timeout per peer after its last heartbeat", Min: "1µs"},
			{Name: "delta", Default: "50ms", Doc: "Δ: growth of a peer's timeout after a false suspicion of it"},
		},
		Build: func(c algos.Config) (node.Factory, error) {
			interval, err := c.Params.Duration("interval")
			if err != nil {
				return nil, err
			}
			timeout, err := c.Params.Duration("timeout")
			if err != nil {
				return nil, err
			}
			delta, err := c.Params.Duration("delta")
			if err != nil {
				return nil, err
			}
			return func(node.ID) node.Algorithm { return &Monitor{FD: NewHeartbeat(interval, timeout, delta)} }, nil
		},
	})
}
