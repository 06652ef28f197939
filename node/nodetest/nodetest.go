// Package nodetest drives algorithms without a world, so that a unit test checks
// exactly what they send and which timers they arm in reaction to each message,
// timer and request:
//   - Harness hosts one process, driven event by event from Go;
//   - RunScript runs a data-driven script (see script.go): a small cluster of one
//     registered algorithm, whose messages the script delivers, drops and whose
//     time it lets pass, with each command's expected output written inline.
//
// Public API: Harness, New, IDs, Sends, Types, Targets, Sent, RunScript, Cluster,
// NewCluster, FormatMessage and FormatStatus are what a student's module may use
// (`clusterlab new` writes a test with RunScript), and they are stable across
// minor versions: a minor release may add commands to the scripts and methods to
// the types, never remove or change one. What a script prints for a step is part
// of that promise, so that a student's expected outputs stay right.
package nodetest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// Harness hosts one process. Timers do not fire by themselves: the test fires them
// with Fire or FireNext, which move virtual time to their deadline.
type Harness struct {
	ID      node.ID
	Factory node.Factory
	Alg     node.Algorithm
	Env     *node.Env
	Store   *node.Storage
	Now     time.Duration

	timers []armed
	peers  []node.ID
	nbrs   []node.ID
	rng    *rand.Rand
}

type armed struct {
	name string
	at   time.Duration
	gen  uint32
}

// New makes a harness for process self among peers (self included, in ring order),
// on a full mesh, with a random source seeded by seed.
func New(f node.Factory, self node.ID, peers []node.ID, seed uint64) *Harness {
	var nbrs []node.ID
	for _, p := range peers {
		if p != self {
			nbrs = append(nbrs, p)
		}
	}
	h := &Harness{ID: self, Factory: f, Store: &node.Storage{}, peers: peers, nbrs: nbrs,
		rng: rand.New(rand.NewPCG(seed, uint64(self)))}
	h.fresh()
	return h
}

// IDs returns n1..nN.
func IDs(n int) []node.ID {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	return ids
}

// SetNeighbors replaces the topology neighbours (for graph algorithms).
func (h *Harness) SetNeighbors(nbrs []node.ID) {
	h.nbrs = nbrs
	h.fresh()
}

func (h *Harness) fresh() {
	h.Alg = h.Factory(h.ID)
	h.Env = node.NewEnv(h.ID, h.peers, h.nbrs, h.rng, h.Store)
	h.timers = nil
}

// Start delivers the Start event.
func (h *Harness) Start() []node.Effect { return h.step(node.Event{Kind: node.Start}, 0) }

// Crash drops the instance and its timers; stable storage survives.
func (h *Harness) Crash() { h.fresh() }

// Recover crashes the instance, makes a new one and delivers Recover.
func (h *Harness) Recover() []node.Effect {
	h.fresh()
	return h.step(node.Event{Kind: node.Recover}, 0)
}

// Deliver hands msg from another process.
func (h *Harness) Deliver(from node.ID, msg node.Message) []node.Effect {
	return h.step(node.Event{Kind: node.Deliver, From: from, Msg: msg}, 0)
}

// Request hands a user request ("election", "cs").
func (h *Harness) Request(what string) []node.Effect {
	return h.step(node.Event{Kind: node.Request, Name: what}, 0)
}

// Advance moves virtual time forward without firing anything.
func (h *Harness) Advance(d time.Duration) { h.Now += d }

// Armed reports the deadline of the timer called name.
func (h *Harness) Armed(name string) (time.Duration, bool) {
	for _, t := range h.timers {
		if t.name == name {
			return t.at, true
		}
	}
	return 0, false
}

// Fire moves time to the deadline of the timer called name and fires it. It panics if
// the timer is not armed: a test that expects a timer should fail loudly without one.
func (h *Harness) Fire(name string) []node.Effect {
	for i, t := range h.timers {
		if t.name == name {
			h.timers = append(h.timers[:i], h.timers[i+1:]...)
			if t.at > h.Now {
				h.Now = t.at
			}
			return h.step(node.Event{Kind: node.Timer, Name: name}, t.gen)
		}
	}
	panic(fmt.Sprintf("nodetest: timer %q is not armed (armed: %v)", name, h.TimerNames()))
}

// FireNext fires the earliest armed timer (ties by name) and returns its name.
func (h *Harness) FireNext() (string, []node.Effect) {
	if len(h.timers) == 0 {
		panic("nodetest: no timer armed")
	}
	best := 0
	for i, t := range h.timers {
		if t.at < h.timers[best].at || (t.at == h.timers[best].at && t.name < h.timers[best].name) {
			best = i
		}
	}
	name := h.timers[best].name
	return name, h.Fire(name)
}

// TimerNames lists the armed timers.
func (h *Harness) TimerNames() []string {
	var out []string
	for _, t := range h.timers {
		out = append(out, t.name)
	}
	return out
}

// Status is the instance's current status.
func (h *Harness) Status() node.Status { return h.Alg.Status() }

func (h *Harness) step(ev node.Event, gen uint32) []node.Effect {
	h.Env.Apply(h.Alg, h.Now, ev, gen)
	effs := h.Env.TakeEffects()
	for _, e := range effs {
		if e.Kind != node.EffTimer {
			continue
		}
		h.disarm(e.Name)
		h.timers = append(h.timers, armed{e.Name, h.Now + e.Delay, e.Gen})
	}
	h.dropCancelled()
	return effs
}

func (h *Harness) disarm(name string) {
	for i, t := range h.timers {
		if t.name == name {
			h.timers = append(h.timers[:i], h.timers[i+1:]...)
			return
		}
	}
}

// dropCancelled forgets timers that Env.Cancel disarmed, asking the Env whether each
// firing would still run.
func (h *Harness) dropCancelled() {
	kept := h.timers[:0]
	for _, t := range h.timers {
		if h.Env.Armed(t.name, t.gen) {
			kept = append(kept, t)
		}
	}
	h.timers = kept
}

// Sent is one message an effect list sends.
type Sent struct {
	To  node.ID
	Msg node.Message
}

// Sends lists the messages in effs, in order.
func Sends(effs []node.Effect) []Sent {
	var out []Sent
	for _, e := range effs {
		if e.Kind == node.EffSend {
			out = append(out, Sent{e.To, e.Msg})
		}
	}
	return out
}

// Types lists the message types sent in effs, in order.
func Types(effs []node.Effect) []string {
	var out []string
	for _, s := range Sends(effs) {
		out = append(out, s.Msg.Type)
	}
	return out
}

// Targets lists where messages of type typ go in effs, in order.
func Targets(effs []node.Effect, typ string) []node.ID {
	var out []node.ID
	for _, s := range Sends(effs) {
		if s.Msg.Type == typ {
			out = append(out, s.To)
		}
	}
	return out
}
