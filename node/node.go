// Package node holds the process runtime of clusterlab: the Algorithm interface that
// every distributed algorithm implements, the Env through which it acts, the events it
// reacts to, the Status it reports, stable storage, and the Runner goroutine that
// hosts one incarnation of a process.
//
// An algorithm is a pure state machine: it never reads the clock, the global random
// source or map iteration order, never sleeps, never starts a goroutine and does no I/O.
// Everything it does goes through its Env, which records the effects for the world
// (netsim) to apply in a deterministic order.
//
// # Public API
//
// A student's own algorithm is written against this package: Algorithm, Factory,
// ID, Event and its Kinds, Message, Status (with CSState, Counter, Deadline and
// Deadliner), IDList, and Env's methods for algorithms (Self, Peers, Index,
// PeerIndex, Neighbors, Now, Rand, Send, Broadcast, Fanout, After, At, Deadline,
// Cancel, Store, Load, Logf). They are stable across minor versions: a minor
// release may add a field, a method or an event kind an algorithm can ignore,
// never remove or change one. What an algorithm may rely on:
//   - Step is called with one event at a time, never concurrently for one
//     process; a crash discards the instance and its timers, a revival makes a
//     new one (Factory) that receives Recover and keeps only what Store wrote;
//   - messages are values: what a process receives is a copy;
//   - Env is valid only during Step, and Peers and Neighbors must not be changed;
//   - the same events in the same order give the same effects in the same order,
//     as long as the algorithm keeps to the rules above (check tests them).
//
// The rest (Runner, Effect, NewEnv, Apply and the Env methods the world calls:
// SetLookup, SetIndex, SetSlow, TakeEffects, …) serves the lab and may change.
package node

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ID is a process identifier. Processes are shown as "n<id>".
type ID int

// None is the zero ID: "no process", e.g. no known leader.
const None ID = 0

// String renders the id as the lab names it ("n3"); None renders as "-".
func (id ID) String() string {
	if id == None {
		return "-"
	}
	return "n" + strconv.Itoa(int(id))
}

// ParseID reads "n3" (or "3") into an ID.
func ParseID(s string) (ID, bool) {
	s = strings.TrimPrefix(s, "n")
	v, err := strconv.Atoi(s)
	if err != nil || v <= 0 {
		return None, false
	}
	return ID(v), true
}

// Algorithm is one process's state machine. Step reacts to exactly one event; it may
// act only through env. Status reports what the dashboard and monitors see. A fresh
// instance is made for every incarnation, so volatile state dies with a crash.
type Algorithm interface {
	Step(env *Env, ev Event)
	Status() Status
}

// Factory makes the algorithm instance for one incarnation of process id.
type Factory func(id ID) Algorithm

// Kind is what happened to a process.
type Kind uint8

// The event kinds an algorithm reacts to.
const (
	Start   Kind = iota + 1 // first incarnation begins
	Recover                 // a later incarnation begins after a crash; stable storage survives
	Deliver                 // a message arrived
	Timer                   // a timer set with Env.After fired
	Request                 // a user request, such as "election" or "cs"
)

var kindNames = [...]string{"?", "start", "recover", "deliver", "timer", "request"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Event is one input to Algorithm.Step.
type Event struct {
	Kind Kind
	From ID      // Deliver: the sender
	Msg  Message // Deliver: the message (a copy)
	Name string  // Timer: the timer's name; Request: what is requested
}

// Message is the body of a network message. It is a plain value with no pointers, so a
// message handed from one process to another is always a copy: no process can change
// another's data. Each algorithm documents what the generic fields mean for its types.
type Message struct {
	Type  string `json:"type"`
	ID    ID     `json:"id,omitempty"`   // an id carried in the body: candidate, origin, token owner…
	Term  int64  `json:"term,omitempty"` // term, round, phase or incarnation
	Stamp int64  `json:"ts,omitempty"`   // a logical timestamp or sequence number
	Flag  bool   `json:"flag,omitempty"` // a yes/no answer or a direction
	List  IDList `json:"list,omitempty"` // ids collected on the way (collect-ring); its length is the message's size
}

// Size is the message's size in ids beyond its fixed fields: the length of List.
func (m Message) Size() int { return m.List.Len() }

// CSState is a process's critical-section state.
type CSState uint8

// Critical-section states, as in Ricart and Agrawala.
const (
	CSNone     CSState = iota // the algorithm has no critical section
	CSReleased                // not interested
	CSWanted                  // requested, waiting
	CSHeld                    // inside
)

var csNames = [...]string{"", "released", "wanted", "held"}

func (c CSState) String() string {
	if int(c) < len(csNames) {
		return csNames[c]
	}
	return "?"
}

// Counter is one named figure an algorithm reports, such as "timeout_ms" or "entries".
type Counter struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// Status is what a process reports about itself after each step. Leader is the
// process it believes leads (None if unknown); a process leads when Leader == itself.
type Status struct {
	Role     string    `json:"role,omitempty"`
	Leader   ID        `json:"leader,omitempty"`
	Suspects []ID      `json:"suspects,omitempty"`
	Term     int64     `json:"term,omitempty"`
	Inc      int64     `json:"inc,omitempty"` // the algorithm's own incarnation number, if it keeps one
	CS       CSState   `json:"cs,omitempty"`
	Counters []Counter `json:"counters,omitempty"`
	// Deadline is the process's main timer (see Deadliner), filled in by a live
	// session for the dashboard's timeout bar. It is not recorded (a trace stays
	// the same bytes) and Equal ignores it: a timer re-armed by every heartbeat
	// would otherwise make a status event of every heartbeat. A recording
	// replayed has none.
	Deadline Deadline `json:"-"`
}

// Deadline is a process's main timer as the dashboard draws it, a bar running
// down: what runs out when it fires (For: "leader" for a leader's silence,
// "election", "suspicion"), when it fires (At, virtual time) and its full length
// (Len). The zero Deadline means no such timer is running.
type Deadline struct {
	For     string
	At, Len time.Duration
}

// Running reports whether a timer is running.
func (d Deadline) Running() bool { return d.At > 0 }

// Deadliner is implemented by algorithms with a main timer: the election timeout
// of bully or raft, a failure detector's next suspicion. due reports when one of
// the process's timers fires, if it is armed; the world answers from its timer
// queue, so an algorithm keeps no copy of its deadlines and pays nothing per
// event. It is asked only when a live dashboard draws, between steps.
type Deadliner interface {
	Deadline(due func(timer string) (time.Duration, bool)) Deadline
}

// Equal reports whether two statuses show the same thing.
func (s Status) Equal(o Status) bool {
	if s.Role != o.Role || s.Leader != o.Leader || s.Term != o.Term || s.Inc != o.Inc || s.CS != o.CS {
		return false
	}
	if len(s.Suspects) != len(o.Suspects) || len(s.Counters) != len(o.Counters) {
		return false
	}
	for i := range s.Suspects {
		if s.Suspects[i] != o.Suspects[i] {
			return false
		}
	}
	for i := range s.Counters {
		if s.Counters[i] != o.Counters[i] {
			return false
		}
	}
	return true
}

// Clone returns a copy that shares no slices with s.
func (s Status) Clone() Status {
	if s.Suspects != nil {
		s.Suspects = append([]ID(nil), s.Suspects...)
	}
	if s.Counters != nil {
		s.Counters = append([]Counter(nil), s.Counters...)
	}
	return s
}

// Counter returns the value of the named counter, and whether it is there.
func (s Status) Counter(name string) (int64, bool) {
	for _, c := range s.Counters {
		if c.Name == name {
			return c.Value, true
		}
	}
	return 0, false
}

// Suspects reports whether s lists p as suspected.
func (s Status) Suspect(p ID) bool {
	for _, q := range s.Suspects {
		if q == p {
			return true
		}
	}
	return false
}

// Micros renders a virtual duration as whole microseconds, the unit of traces.
func Micros(d time.Duration) int64 { return int64(d / time.Microsecond) }

// MarshalText renders the id as "n3" in traces and JSON.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText reads "n3" ("-" is None).
func (id *ID) UnmarshalText(b []byte) error {
	if string(b) == "-" || len(b) == 0 {
		*id = None
		return nil
	}
	v, ok := ParseID(string(b))
	if !ok {
		return fmt.Errorf("bad node id %q, expected n<number>", b)
	}
	*id = v
	return nil
}

// MarshalText renders the state as a word.
func (c CSState) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads the word back.
func (c *CSState) UnmarshalText(b []byte) error {
	for i, n := range csNames {
		if n == string(b) {
			*c = CSState(i)
			return nil
		}
	}
	return fmt.Errorf("bad critical-section state %q", b)
}
