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
//   - for each process q, a timer "fd.timeout.<q>" is (re)armed with q's timeout
//     at Start and at every heartbeat from q; when it fires, suspect q;
//   - a heartbeat from a suspected q was a false suspicion: trust q again and grow
//     q's timeout by Δ (and count a mistake).
//
// Having one timeout per process (rather than the single monitoring interval of
// Alg. 5.1) means that one slow link does not slow down the detection of every other
// crash; the notes point out exactly this weakness of the single interval.
//
// In a crash-recovery run a recovered process's heartbeats are counted as a
// mistake too (and grow its timeout): in the crash model only a false suspicion can
// be followed by a heartbeat. The timeouts are volatile and restart from the initial
// value in a new incarnation.
type Heartbeat struct {
	interval time.Duration
	initial  time.Duration
	delta    time.Duration

	peers    []node.ID // monitored processes, env.Peers() order, self excluded
	timers   []string  // timer name per peer
	timeouts []PeerTimeout
	suspects idSet
	seq      int64
	mistakes int64
	longest  time.Duration // the largest of timeouts: they only grow
}

// The heartbeat detector's sending timer; its per-peer timers are
// TimerPeerTimeout(p).
const TimerHeartbeat = "fd.heartbeat"

// TimerPeerTimeout names the timer that suspects p when it fires.
func TimerPeerTimeout(p node.ID) string { return "fd.timeout." + p.String() }

// NewHeartbeat makes a heartbeat detector that sends every interval and starts with
// the given timeout towards every process.
func NewHeartbeat(interval, timeout, delta time.Duration) *Heartbeat {
	return &Heartbeat{interval: interval, initial: timeout, delta: delta}
}

// Start sends the first heartbeats and arms every timer.
func (d *Heartbeat) Start(env *node.Env) {
	d.peers = others(env)
	d.timers = d.timers[:0]
	d.timeouts = d.timeouts[:0]
	d.suspects = nil
	for _, p := range d.peers {
		d.timers = append(d.timers, TimerPeerTimeout(p))
		d.timeouts = append(d.timeouts, PeerTimeout{p, d.initial})
	}
	d.longest = 0
	if len(d.peers) > 0 {
		d.longest = d.initial
	}
	d.beat(env)
	for i := range d.peers {
		env.After(d.initial, d.timers[i])
	}
}

func (d *Heartbeat) beat(env *node.Env) {
	d.seq++
	for _, p := range d.peers {
		env.Send(p, node.Message{Type: MsgHeartbeat, Stamp: d.seq})
	}
	env.After(d.interval, TimerHeartbeat)
}

// Handle reacts to heartbeats and to the detector's timers.
func (d *Heartbeat) Handle(env *node.Env, ev node.Event) bool {
	switch ev.Kind {
	case node.Deliver:
		if ev.Msg.Type != MsgHeartbeat {
			return false
		}
		i := d.peerIndex(env, ev.From)
		if i < 0 {
			return true
		}
		if d.suspects.remove(ev.From) {
			d.timeouts[i].Timeout += d.delta
			d.grown(d.timeouts[i].Timeout)
			d.mistakes++
			env.Logf("fd: trust %v again, its timeout now %v", ev.From, d.timeouts[i].Timeout)
		}
		env.After(d.timeouts[i].Timeout, d.timers[i])
		return true
	case node.Timer:
		if ev.Name == TimerHeartbeat {
			d.beat(env)
			return true
		}
		for i, name := range d.timers {
			if name == ev.Name {
				if d.suspects.add(d.peers[i]) {
					env.Logf("fd: suspect %v", d.peers[i])
				}
				return true
			}
		}
	}
	return false
}

// peerIndex is p's position in d.peers (env.Peers() without self), or -1. The Env
// finds it in O(1): a scan would cost a thousand steps a heartbeat in a mesh of a
// thousand.
func (d *Heartbeat) peerIndex(env *node.Env, p node.ID) int {
	j, ok := env.PeerIndex(p)
	if !ok || p == env.Self() {
		return -1
	}
	if j > env.Index() {
		j--
	}
	if j < len(d.peers) && d.peers[j] == p {
		return j
	}
	return slices.Index(d.peers, p)
}

// Suspects lists the suspected processes in id order.
func (d *Heartbeat) Suspects() []node.ID { return d.suspects }

// Suspected reports whether p is suspected.
func (d *Heartbeat) Suspected(p node.ID) bool { return d.suspects.has(p) }

// Timeout is the current timeout towards p (0 if p is not monitored).
func (d *Heartbeat) Timeout(p node.ID) time.Duration {
	if i := slices.Index(d.peers, p); i >= 0 {
		return d.timeouts[i].Timeout
	}
	return 0
}

// MaxTimeout is the largest current timeout (0 before Start). It is kept as the
// timeouts change, not recomputed: a status is reported after every step.
func (d *Heartbeat) MaxTimeout() time.Duration { return d.longest }

// grown notes that one timeout changed to t.
func (d *Heartbeat) grown(t time.Duration) {
	if d.delta >= 0 {
		d.longest = max(d.longest, t)
		return
	}
	d.longest = 0 // a negative Δ shrinks timeouts: look at them all
	for _, p := range d.timeouts {
		d.longest = max(d.longest, p.Timeout)
	}
}

// PeerTimeouts lists the current timeout towards every monitored process, in
// env.Peers() order.
func (d *Heartbeat) PeerTimeouts() []PeerTimeout { return d.timeouts }

// Mistakes counts the false suspicions corrected so far.
func (d *Heartbeat) Mistakes() int64 { return d.mistakes }

func init() {
	algos.Register(algos.Spec{
		Name:        "heartbeat-dp",
		Family:      algos.Detector,
		Description: "◊P by heartbeats: one timeout per peer that grows by Δ after each false suspicion",
		Source:      "course notes, ch. 5 (push variant of Alg. 5.1); Chandra & Toueg 1996",
		Messages:    []string{MsgHeartbeat},
		Params: []algos.Param{
			{Name: "interval", Default: "100ms", Doc: "heartbeat period"},
			{Name: "timeout", Default: "250ms", Doc: "initial timeout per peer after its last heartbeat"},
			{Name: "delta", Default: "50ms", Doc: "Δ: growth of a peer's timeout after a false suspicion of it"},
		},
		Build: func(c algos.Config) (node.Factory, error) {
			interval, err := positive(c.Params, "interval")
			if err != nil {
				return nil, err
			}
			timeout, err := positive(c.Params, "timeout")
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
