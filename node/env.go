package node

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// EffectKind says what an algorithm asked for.
type EffectKind uint8

// The effects an algorithm can have on the world.
const (
	EffSend  EffectKind = iota + 1 // send Msg to To
	EffTimer                       // fire timer Name after Delay
	EffLog                         // a line of text for the trace
	// EffBroadcast sends Msg to every other process, in id order: what as many
	// EffSend effects would do, held as one. A process of a 4,096-node mesh that
	// broadcasts a heartbeat would otherwise hold 4,095 effects of 112 bytes until
	// the world merges its window; every process does so at once. Effects and
	// TakeEffects give it back as the sends it stands for.
	EffBroadcast
)

// Effect is one thing a step asked the world to do. The Runner fills Outcome for
// timers and self-deliveries it handled inside the current window (see Runner).
// The fields are ordered largest first, so that an Effect takes 112 bytes, not 128:
// a window may hold millions of them.
type Effect struct {
	Msg   Message
	Name  string // timer name, or log text
	To    ID
	Delay time.Duration // timer delay, already stretched for a slow process
	Gen   uint32        // timer generation: a re-armed or cancelled timer's old firings are ignored
	Timer int32         // the timer's small id in its Env (see Env.TimerID)

	// Local is set by the Runner when it handled this effect itself, inside the
	// window; Outcome is then the index of the resulting outcome, or -1 if the
	// timer was stale by the time it fired.
	Outcome int32
	Kind    EffectKind
	Local   bool
}

// Env is everything an algorithm may touch. It is valid only during Step.
type Env struct {
	self      ID
	index     int                  // self's position in peers, or -1 until known
	lookup    func(ID) (int, bool) // a process's position in peers, if the world gave one
	peers     []ID
	neighbors []ID
	now       time.Duration
	rng       *rand.Rand
	store     *Storage
	slow      int

	effects  []Effect
	expanded []Effect // Effects' buffer when broadcasts are given as sends
	// Timer names are interned: the first use of a name gives it the next small id,
	// which the Runner and the world use instead of the string. The ids outlive
	// incarnations (the Env does); only the generations are reset by a crash.
	timerIDs   map[string]int32 // looked up, never iterated
	timerNames []string         // by id
	timerGens  []uint32         // generation of each timer, by id; 0 is never armed
	// The timer last looked up: a process re-arms the same timer over and over
	// (a heartbeat detector on every message), and two equal strings from one
	// constant compare by pointer, where the map hashes the name every time.
	lastTimer   string
	lastTimerID int32
}

// Self is this process's id.
func (e *Env) Self() ID { return e.self }

// Peers lists every process of the cluster, this one included, in the scenario's id
// order, which is also the logical ring order. Do not modify it.
func (e *Env) Peers() []ID { return e.peers }

// Index is this process's position in Peers(): its place in the logical ring.
func (e *Env) Index() int {
	if e.index < 0 {
		e.index = slices.Index(e.peers, e.self)
	}
	return e.index
}

// PeerIndex is the position of process p in Peers(), and whether it is there.
func (e *Env) PeerIndex(p ID) (int, bool) {
	if e.lookup != nil {
		return e.lookup(p)
	}
	i := slices.Index(e.peers, p)
	return i, i >= 0
}

// SetLookup gives the Env the world's index of processes, shared by every Env of
// the run, so that PeerIndex costs O(1) instead of a scan of Peers().
func (e *Env) SetLookup(f func(ID) (int, bool)) { e.lookup = f }

// SetIndex tells the Env its process's position in Peers(), which the world knows:
// finding it in a ring of a million takes a million steps.
func (e *Env) SetIndex(i int) { e.index = i }

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

// Broadcast sends m to every other process, in id order: Send to each in turn, in
// one effect (EffBroadcast).
func (e *Env) Broadcast(m Message) {
	if len(e.peers) > 1 {
		e.effects = append(e.effects, Effect{Kind: EffBroadcast, Msg: m})
	}
}

// Fanout is how many messages a broadcast of this Env sends.
func (e *Env) Fanout() int { return max(len(e.peers)-1, 0) }

// After arms the timer called name to fire after d. Arming a timer that is already
// armed replaces it.
func (e *Env) After(d time.Duration, name string) { e.arm(e.stretch(d), name) }

// Deadline is the virtual time at which a timer armed now with After(d) would fire:
// d rounded as After rounds it and stretched for a slow process. An algorithm that
// keeps many deadlines under one timer computes them with it and arms the timer
// with At, so that each deadline falls exactly where its own timer would have.
func (e *Env) Deadline(d time.Duration) time.Duration { return e.now + e.stretch(d) }

// At arms the timer called name to fire at virtual time t (at once if t is past).
// t is not stretched again: it is a time computed with Deadline.
func (e *Env) At(t time.Duration, name string) { e.arm(max(t-e.now, 0), name) }

// stretch is the delay After(d) waits.
func (e *Env) stretch(d time.Duration) time.Duration {
	if d < 0 {
		d = 0
	}
	// Virtual time ticks in microseconds, the unit of traces. A positive delay never
	// rounds down to zero: a periodic timer of a nanosecond must still let time pass.
	if d > 0 && d < time.Microsecond {
		d = time.Microsecond
	}
	d = d.Truncate(time.Microsecond)
	if e.slow > 1 {
		d *= time.Duration(e.slow)
	}
	return d
}

// arm arms the timer called name to fire after d, already stretched.
func (e *Env) arm(d time.Duration, name string) {
	id := e.TimerID(name)
	e.timerGens[id]++
	e.effects = append(e.effects, Effect{Kind: EffTimer, To: e.self, Name: e.timerNames[id], Delay: d, Gen: e.timerGens[id], Timer: id})
}

// Cancel disarms the timer called name, if armed.
func (e *Env) Cancel(name string) {
	if id, ok := e.timerIDs[name]; ok {
		e.timerGens[id]++
	}
}

// TimerID is the small id of the timer called name, given at its first use.
func (e *Env) TimerID(name string) int32 {
	if name == e.lastTimer && e.timerIDs != nil {
		return e.lastTimerID
	}
	if id, ok := e.timerIDs[name]; ok {
		e.lastTimer, e.lastTimerID = name, id
		return id
	}
	if e.timerIDs == nil {
		e.timerIDs = map[string]int32{}
	}
	id := int32(len(e.timerNames))
	e.timerIDs[name] = id
	e.timerNames = append(e.timerNames, name)
	e.timerGens = append(e.timerGens, 0)
	return id
}

// LookupTimer is the id of the timer called name, if it was ever armed.
func (e *Env) LookupTimer(name string) (int32, bool) {
	id, ok := e.timerIDs[name]
	return id, ok
}

// TimerName is the name of the timer with the given id.
func (e *Env) TimerName(id int32) string { return e.timerNames[id] }

// armed reports whether a timer firing of generation gen is the armed one.
func (e *Env) armed(id int32, gen uint32) bool {
	return id >= 0 && int(id) < len(e.timerGens) && gen != 0 && e.timerGens[id] == gen
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
	return &Env{self: self, index: -1, peers: peers, neighbors: neighbors, rng: rng, store: store, slow: 1}
}

// SetSlow sets the factor by which this process's timers are stretched.
func (e *Env) SetSlow(f int) { e.slow = max(f, 1) }

// Apply hands ev to alg at virtual time now, unless ev is the firing of a timer that
// has since been re-armed or cancelled (gen is the firing's generation). It returns
// whether the step ran; the step's effects are appended to the Env's effect list.
func (e *Env) Apply(alg Algorithm, now time.Duration, ev Event, gen uint32) bool {
	id := int32(-1)
	if ev.Kind == Timer {
		var ok bool
		if id, ok = e.timerIDs[ev.Name]; !ok {
			return false
		}
	}
	return e.apply(alg, now, ev, id, gen)
}

// apply is Apply for a caller that knows the timer's id.
func (e *Env) apply(alg Algorithm, now time.Duration, ev Event, id int32, gen uint32) bool {
	if ev.Kind == Timer && !e.armed(id, gen) {
		return false
	}
	e.now = now
	alg.Step(e, ev)
	return true
}

// Effects is the list of effects recorded so far, each broadcast given as the sends
// it stands for (in a buffer the next call reuses). TakeEffects clears it.
func (e *Env) Effects() []Effect {
	if !slices.ContainsFunc(e.effects, isBroadcast) {
		return e.effects
	}
	e.expanded = e.expandFrom(e.effects, e.expanded[:0])
	return e.expanded
}

// TakeEffects returns the recorded effects, broadcasts given as sends, and starts a
// new list.
func (e *Env) TakeEffects() []Effect {
	out := e.effects
	e.effects = nil
	if slices.ContainsFunc(out, isBroadcast) {
		e.effects, out = out[:0], e.expandFrom(out, nil)
	}
	return out
}

func isBroadcast(f Effect) bool { return f.Kind == EffBroadcast }

// expandFrom appends effs to dst with each broadcast replaced by its sends.
func (e *Env) expandFrom(effs, dst []Effect) []Effect {
	for _, f := range effs {
		if f.Kind != EffBroadcast {
			dst = append(dst, f)
			continue
		}
		for _, p := range e.peers {
			if p != e.self {
				dst = append(dst, Effect{Kind: EffSend, To: p, Msg: f.Msg})
			}
		}
	}
	return dst
}

// ClearEffects empties the list of recorded effects, keeping its memory: a caller
// that is done with Effects() calls it before the next step.
func (e *Env) ClearEffects() { e.effects = e.effects[:0] }

// ResetTimers forgets every armed timer, as a crash does.
func (e *Env) ResetTimers() { clear(e.timerGens) }

// Armed reports whether a firing of timer name with generation gen would still run.
func (e *Env) Armed(name string, gen uint32) bool {
	id, ok := e.timerIDs[name]
	return ok && e.armed(id, gen)
}
