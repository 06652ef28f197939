package detector

import (
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Pull is the eventually perfect failure detector ◊P "by test request" of the course
// notes, Alg. 5.1 (the classic pull implementation; Chandra & Toueg, "Unreliable
// failure detectors for reliable distributed systems", JACM 1996). It is registered
// as "pull-dp" and can be composed by a host through FD.
//
// Every monitoring interval (timer "fd.test"):
//
//	if Correct ∩ Suspects ≠ ∅ { interval ← interval + Δ }   // a mistake was made
//	for each p: if p ∉ Correct ∧ p ∉ Suspects { suspect p }
//	            else if p ∈ Correct ∧ p ∈ Suspects { trust p again }
//	            send TEST_REQ to p
//	Correct ← ∅
//
// and TEST_REQ is answered with TEST_REP, whose arrival (whatever round it answers)
// puts the sender in Correct. One interval serves every peer, so Δ is added once per
// round however many mistakes the round reveals; the "mistakes" counter counts the
// processes trusted again.
//
// Departures from the pseudocode, and why:
//   - The periodic task also runs once at Start (time 0). Since Init sets
//     Correct ← Π, that first round suspects no one and only sends the first
//     TEST_REQs, so the first test is not delayed by a whole idle interval.
//   - A process does not test itself (the notes loop over all of Π): its own test
//     would be a local delivery that always answers, and "self never suspects
//     itself" is then true by construction.
//   - "Notify: p suspected/correct" becomes a trace line (env.Logf); a host such as
//     Ω reads Suspects after every event instead of receiving callbacks, which
//     gives the same result as Alg. 5.2's "upon notification".
//   - TEST_REQ carries its round number in Stamp and TEST_REP echoes it, only so
//     that traces and sequence diagrams show which test a reply answers.
//
// In the crash model only a false suspicion can be followed by a reply. In a
// crash-recovery run a recovered process answers again, and that is counted (and
// paid for with Δ) as a mistake too: this detector knows nothing of recoveries.
type Pull struct {
	interval time.Duration // current monitoring interval, the detector's timeout
	delta    time.Duration

	peers    []node.ID // monitored processes, env.Peers() order, self excluded
	correct  idSet
	suspects idSet
	round    int64
	mistakes int64

	timeouts []PeerTimeout
}

// The timer of Pull's monitoring interval.
const TimerTest = "fd.test"

// NewPull makes a pull detector with the initial monitoring interval and Δ.
func NewPull(interval, delta time.Duration) *Pull {
	return &Pull{interval: interval, delta: delta}
}

// Start initialises the detector (Init: Correct ← Π, Suspects ← ∅) and runs the
// first round.
func (d *Pull) Start(env *node.Env) {
	d.peers = others(env)
	d.correct = nil
	for _, p := range d.peers {
		d.correct.add(p)
	}
	d.suspects = nil
	d.monitor(env)
}

// Handle answers tests, records replies and runs a round when the interval ends.
func (d *Pull) Handle(env *node.Env, ev node.Event) bool {
	switch ev.Kind {
	case node.Deliver:
		switch ev.Msg.Type {
		case MsgTestReq:
			env.Send(ev.From, node.Message{Type: MsgTestRep, Stamp: ev.Msg.Stamp})
			return true
		case MsgTestRep:
			if slices.Index(d.peers, ev.From) >= 0 {
				d.correct.add(ev.From)
			}
			return true
		}
	case node.Timer:
		if ev.Name == TimerTest {
			d.monitor(env)
			return true
		}
	}
	return false
}

// monitor is the body of "repeat periodically every IntervaloMonit".
func (d *Pull) monitor(env *node.Env) {
	for _, p := range d.correct {
		if d.suspects.has(p) { // Correct ∩ Suspects ≠ ∅: a mistake
			d.interval += d.delta
			env.Logf("fd: mistake, monitoring interval now %v", d.interval)
			break
		}
	}
	d.round++
	for _, p := range d.peers {
		inC, inS := d.correct.has(p), d.suspects.has(p)
		switch {
		case !inC && !inS:
			d.suspects.add(p)
			env.Logf("fd: suspect %v", p)
		case inC && inS:
			d.suspects.remove(p)
			d.mistakes++
			env.Logf("fd: trust %v again", p)
		}
		env.Send(p, node.Message{Type: MsgTestReq, Stamp: d.round})
	}
	d.correct = d.correct[:0]
	env.After(d.interval, TimerTest)
}

// Suspects lists the suspected processes in id order.
func (d *Pull) Suspects() []node.ID { return d.suspects }

// Deadline is the end of the monitoring interval, when every peer that has not
// replied is suspected.
func (d *Pull) Deadline(due func(string) (time.Duration, bool)) node.Deadline {
	if at, ok := due(TimerTest); ok {
		return node.Deadline{For: "suspicion", At: at, Len: d.interval}
	}
	return node.Deadline{}
}

// Suspected reports whether p is suspected.
func (d *Pull) Suspected(p node.ID) bool { return d.suspects.has(p) }

// Interval is the current monitoring interval.
func (d *Pull) Interval() time.Duration { return d.interval }

// Timeout is the monitoring interval, the same for every monitored p.
func (d *Pull) Timeout(p node.ID) time.Duration {
	if slices.Index(d.peers, p) < 0 {
		return 0
	}
	return d.interval
}

// MaxTimeout is the monitoring interval.
func (d *Pull) MaxTimeout() time.Duration { return d.interval }

// PeerTimeouts lists the (shared) interval for every monitored process.
func (d *Pull) PeerTimeouts() []PeerTimeout {
	d.timeouts = d.timeouts[:0]
	for _, p := range d.peers {
		d.timeouts = append(d.timeouts, PeerTimeout{p, d.interval})
	}
	return d.timeouts
}

// Mistakes counts the processes trusted again after a false suspicion.
func (d *Pull) Mistakes() int64 { return d.mistakes }

func init() {
	algos.Register(algos.Spec{
		Name:        "pull-dp",
		Family:      algos.Detector,
		Description: "◊P by test request and reply: one monitoring interval that grows by Δ after each mistake",
		Source:      `course notes 000, "Algoritmo 5.1"; Chandra & Toueg 1996`,
		Messages:    []string{MsgTestReq, MsgTestRep},
		Params: []algos.Param{
			{Name: "interval", Default: "100ms", Doc: "initial monitoring interval (the timeout for every test)", Min: "1µs"},
			{Name: "delta", Default: "50ms", Doc: "Δ: growth of the interval after a round that reveals a false suspicion"},
		},
		Build: func(c algos.Config) (node.Factory, error) {
			interval, err := c.Params.Duration("interval")
			if err != nil {
				return nil, err
			}
			delta, err := c.Params.Duration("delta")
			if err != nil {
				return nil, err
			}
			return func(node.ID) node.Algorithm { return &Monitor{FD: NewPull(interval, delta)} }, nil
		},
	})
}
