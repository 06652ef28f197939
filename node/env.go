package node

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// EffectKind says what an algorithm asked for.
type EffectKind uint8

// The effects an algorithm can have on the world.
const (
	EffSend  EffectKind = iota + 1 // send Msg to To
	EffTimer                       // fire timer Name after Delay
	EffLog                         // a line of text for the trace
)

// Effect is one thing a step asked the world to do. The Runner fills Outcome for
// timers and self-deliveries it handled inside the current window (see Runner).
type Effect struct {
	Kind  EffectKind
	To    ID
	Msg   Message
	Name  string        // timer name, or log text
	Delay time.Duration // timer delay, already stretched for a slow process
	Gen   uint32        // timer generation: a re-armed or cancelled timer's old firings are ignored

	// Local is set by the Runner when it handled this effect itself, inside the
	// window; Outcome is then the index of the resulting outcome, or -1 if the
	// timer was stale by the time it fired.
	Local   bool
	Outcome int
}

// Env is everything an algorithm may touch. It is valid only during Step.
type Env struct {
	self      ID
	peers     []ID
	neighbors []ID
	now       time.Duration
	rng       *rand.Rand
	store     *Storage
	slow      int

	effects []Effect
	timers  map[string]uint32 // generation of each timer name; looked up, never iterated
}

// Self is this process's id.
func (e *Env) Self() ID { return e.self }

// Peers lists every process of the cluster, this one included, in the scenario's id
// order, which is also the logical ring order. Do not modify it.
func (e *Env) Peers() []ID { return e.peers }

// Neighbors lists the processes this one has a direct link to in the topology (all
// others on a full mesh), in id order. Do not modify it.
func (e *Env) Neighbors() []ID { return e.neighbors }

// Now is the virtual time.
func (e *Env) Now() time.Duration { return e.now }

// Rand is this process's own seeded random source. It outlives crashes, so a
// recovered process does not replay its earlier draws.
func (e *Env) Rand() *rand.Rand { return e.rng }

// Send sends m to process to. Sending to oneself is a local delivery: it arrives
// at once and is not a network message.
func (e *Env) Send(to ID, m Message) {
	e.effects = append(e.effects, Effect{Kind: EffSend, To: to, Msg: m})
}

// Broadcast sends m to every other process, in id order.
func (e *Env) Broadcast(m Message) {
	for _, p := range e.peers {
		if p != e.self {
			e.Send(p, m)
		}
	}
}

// After arms the timer called name to fire after d. Arming a timer that is already
// armed replaces it.
func (e *Env) After(d time.Duration, name string) {
	if d < 0 {
		d = 0
	}
	// Virtual time ticks in microseconds, the unit of traces. A positive delay never
	// rounds down to zero: a periodic timer of a nanosecond must still let time pass.
	if d > 0 && d < time.Microsecond {
		d = time.Microsecond
	}
	d = d.Truncate(time.Microsecond)
	gen := e.bump(name)
	if e.slow > 1 {
		d *= time.Duration(e.slow)
	}
	e.effects = append(e.effects, Effect{Kind: EffTimer, To: e.self, Name: name, Delay: d, Gen: gen})
}

// Cancel disarms the timer called name, if armed.
func (e *Env) Cancel(name string) { e.bump(name) }

func (e *Env) bump(name string) uint32 {
	if e.timers == nil {
		e.timers = map[string]uint32{}
	}
	g := e.timers[name] + 1
	e.timers[name] = g
	return g
}

// current reports whether a timer firing of generation gen is the armed one.
func (e *Env) current(name string, gen uint32) bool {
	g, ok := e.timers[name]
	return ok && g == gen
}

// Store writes v under key in stable storage, which survives crashes.
func (e *Env) Store(key string, v int64) { e.store.Set(key, v) }

// Load reads key from stable storage.
func (e *Env) Load(key string) (int64, bool) { return e.store.Get(key) }

// Logf writes a line to the trace.
func (e *Env) Logf(format string, args ...any) {
	e.effects = append(e.effects, Effect{Kind: EffLog, Name: fmt.Sprintf(format, args...)})
}

// Storage is a process's stable storage: a few named integers that survive crashes.
// Keys keep their first-write order, so nothing depends on map iteration.
type Storage struct {
	keys []string
	vals []int64
}

// Set writes v under key.
func (s *Storage) Set(key string, v int64) {
	for i, k := range s.keys {
		if k == key {
			s.vals[i] = v
			return
		}
	}
	s.keys = append(s.keys, key)
	s.vals = append(s.vals, v)
}

// Get reads key.
func (s *Storage) Get(key string) (int64, bool) {
	for i, k := range s.keys {
		if k == key {
			return s.vals[i], true
		}
	}
	return 0, false
}

// NewEnv makes the Env of one process. The Runner and the nodetest harness use it;
// an algorithm never does.
func NewEnv(self ID, peers, neighbors []ID, rng *rand.Rand, store *Storage) *Env {
	if store == nil {
		store = &Storage{}
	}
	return &Env{self: self, peers: peers, neighbors: neighbors, rng: rng, store: store, slow: 1}
}

// SetSlow sets the factor by which this process's timers are stretched.
func (e *Env) SetSlow(f int) { e.slow = max(f, 1) }

// Apply hands ev to alg at virtual time now, unless ev is the firing of a timer that
// has since been re-armed or cancelled (gen is the firing's generation). It returns
// whether the step ran; the step's effects are appended to the Env's effect list.
func (e *Env) Apply(alg Algorithm, now time.Duration, ev Event, gen uint32) bool {
	if ev.Kind == Timer && !e.current(ev.Name, gen) {
		return false
	}
	e.now = now
	alg.Step(e, ev)
	return true
}

// Effects is the list of effects recorded so far. TakeEffects clears it.
func (e *Env) Effects() []Effect { return e.effects }

// TakeEffects returns the recorded effects and starts a new list.
func (e *Env) TakeEffects() []Effect {
	out := e.effects
	e.effects = nil
	return out
}

// ClearEffects empties the list of recorded effects, keeping its memory: a caller
// that is done with Effects() calls it before the next step.
func (e *Env) ClearEffects() { e.effects = e.effects[:0] }

// ResetTimers forgets every armed timer, as a crash does.
func (e *Env) ResetTimers() { clear(e.timers) }

// Armed reports whether a firing of timer name with generation gen would still run.
func (e *Env) Armed(name string, gen uint32) bool { return e.current(name, gen) }
