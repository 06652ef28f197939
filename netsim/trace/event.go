// Package trace is clusterlab's recording: a JSONL file whose first line is a Header
// (format, version, program, the fully resolved scenario with its seed; never a
// wall-clock time), whose next lines are Events, one per thing that happened, in the
// world's order, and whose last line is the End record (how many events, their hash,
// when and why the recording stopped). The recorder flushes often, so a killed session
// keeps all but its last partial line; the reader tolerates that line and says so,
// and a recording without its End record is incomplete. Fold turns events back into
// the state the dashboard shows, which is how replay works.
package trace

import (
	"encoding/json"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Format and Version name the file format in the header.
const (
	Format = "clusterlab-trace"
	// Version 2: alert-cleared events and bully's storm fix. Version 3: the header
	// holds only the scenario (seed inside), the format and the program; the seed
	// and Info beside it are gone, and an end record closes the file. Version 4:
	// heartbeat-dp watches every peer's deadline with one timer, "fd.check", instead
	// of a timer "fd.timeout.nX" per peer: the same suspicions at the same times,
	// other timer events. Version 5: ricart reports the requests it defers (queue)
	// and, while it waits, the replies it has of those it needs (replies, needed),
	// so its status events are more and longer. Version 6: a user action may
	// carry "before", its place inside its instant (the live dashboard stops inside
	// an instant of a million messages for a key); the events are those of
	// version 5, whose files are read as well (OldestVersion).
	Version = 6
	// OldestVersion is the oldest version whose recordings this program still
	// re-runs to the same events.
	OldestVersion = 5
)

// Event kinds.
const (
	Send      = "send"      // From sends Msg to To (message id MID)
	Deliver   = "deliver"   // To receives message MID
	Drop      = "drop"      // message MID is lost; Reason says why
	TimerEv   = "timer"     // timer Name fired at Node
	Crash     = "crash"     // Node crashed
	Recover   = "recover"   // Node was revived as incarnation Inc
	Partition = "partition" // the network is split into Groups
	Cut       = "cut"       // the link From->To is cut one way
	Isolate   = "isolate"   // Node is cut off from all others
	Heal      = "heal"      // partitions and cuts are undone
	GST       = "gst"       // global stabilisation time is reached
	Knob      = "knob"      // network knob Name is set to Value (slow: Node's factor)
	StatusEv  = "status"    // Node's status changed
	Alert     = "alert"     // a monitor raised alert Kind with Text
	// AlertCleared closes the alert whose line number (Seq) is Ref: the condition
	// that raised it no longer holds. Text says how it ended.
	AlertCleared = "alert-cleared"
	Action       = "action"  // a user or script action Text, By "user", "script" or "swizzle" (a swizzle's steps)
	Marker       = "marker"  // a marker Text
	Log          = "log"     // Node logged Text
	Request      = "request" // Node received the user request Name
	Expect       = "expect"  // expectation Text checked: OK
	Detect       = "detect"  // every live process now suspects crashed Node; Value is the latency
)

// Drop reasons.
const (
	ReasonLoss      = "loss"
	ReasonPartition = "partition"
	ReasonCut       = "cut"
	ReasonDown      = "down"
	ReasonTopology  = "topology"
	ReasonAction    = "action" // dropped by an action: drop #SEQ
)

// Event is one line of a trace. T is virtual time in microseconds; Seq numbers the
// lines from 1.
type Event struct {
	Seq    uint64        `json:"seq"`
	T      int64         `json:"t"`
	Ev     string        `json:"ev"`
	Node   node.ID       `json:"node,omitempty"`
	From   node.ID       `json:"from,omitempty"`
	To     node.ID       `json:"to,omitempty"`
	MID    uint64        `json:"mid,omitempty"`
	Msg    *node.Message `json:"msg,omitempty"`
	Dup    bool          `json:"dup,omitempty"`
	Local  bool          `json:"local,omitempty"`
	Reason string        `json:"reason,omitempty"`
	Name   string        `json:"name,omitempty"`
	Value  string        `json:"value,omitempty"`
	Inc    int64         `json:"inc,omitempty"`
	Groups [][]node.ID   `json:"groups,omitempty"`
	Status *node.Status  `json:"status,omitempty"`
	Kind   string        `json:"kind,omitempty"`
	Text   string        `json:"text,omitempty"`
	By     string        `json:"by,omitempty"`
	// Before is a user action's place inside its instant: it came before the
	// world's event so numbered (netsim.Timed.Before); 0 before all of them.
	Before uint64 `json:"before,omitempty"`
	OK     *bool  `json:"ok,omitempty"`
	Ref    uint64 `json:"ref,omitempty"` // alert-cleared: the Seq of the alert it closes
}

// kinds are the event kinds a reader accepts.
var kinds = map[string]bool{Send: true, Deliver: true, Drop: true, TimerEv: true, Crash: true, Recover: true,
	Partition: true, Cut: true, Isolate: true, Heal: true, GST: true, Knob: true, StatusEv: true, Alert: true,
	AlertCleared: true, Action: true, Marker: true, Log: true, Request: true, Expect: true, Detect: true}

// knownKind reports whether a reader accepts the event kind: the kinds of nearly
// every line are told apart without a map (which was an eighth of opening a big
// recording's replay).
func knownKind(ev string) bool {
	switch ev {
	case Send, Deliver, Drop, TimerEv, StatusEv:
		return true
	}
	return kinds[ev]
}

// IsMessage reports whether e is about a message (send, deliver or drop).
func (e *Event) IsMessage() bool { return e.Ev == Send || e.Ev == Deliver || e.Ev == Drop }

// Header is the first line of a trace. It holds exactly what a re-run uses, the
// scenario with every parameter resolved (the seed inside it), and the program that
// wrote it, for information only. Seed and Info are derived from the scenario when a
// trace is read (see Resolver), never written: a copy beside the scenario could be
// edited without the re-run noticing.
type Header struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Program  string          `json:"program"`
	Scenario json.RawMessage `json:"scenario"`
	// Code names the algorithm's code when it is not one of the lab's own (a
	// student's module, see algos.Origin): verify refuses the recording in a
	// program whose algorithm of that name is other code. It is absent for a
	// built-in, whose recordings keep their bytes.
	Code *Code `json:"code,omitempty"`
	// Until is the run's end in µs when the command that recorded it gave another
	// than the scenario's (sim --until), 0 otherwise: a recording cut short
	// without its end record may then hold times up to it (see RunUntil).
	Until int64 `json:"until_us,omitempty"`

	Seed uint64 `json:"-"`
	Info Info   `json:"-"`
}

// Code is the code of an algorithm that is not a built-in: the package that
// registered it, its module and version as the build recorded them, and the
// SHA-256 of the package's Go files ("" when they could not be read).
type Code struct {
	Package string `json:"package"`
	Module  string `json:"module"`
	Version string `json:"version"`
	Source  string `json:"source"`
}

// RunUntil is the time the recorded run was to end at, µs: Until when set, else the
// scenario's.
func (h *Header) RunUntil() int64 {
	if h.Until > 0 {
		return h.Until
	}
	return h.Info.Until
}

// EndEv is the kind of the end record, the last line of a whole recording.
const EndEv = "end"

// End reasons: the run reached its end, the dashboard was quit, or a signal stopped it.
const (
	EndUntil       = "until"
	EndQuit        = "quit"
	EndInterrupted = "interrupted"
)

// End is the last line of a whole recording: how many events precede it, their hash
// (see Hasher), the virtual time the recording stopped at, and why it stopped. A
// file without it is incomplete.
type End struct {
	Ev     string `json:"ev"`
	Events uint64 `json:"events"`
	Hash   string `json:"hash"`
	T      int64  `json:"t"`
	Reason string `json:"reason"`
}

// Info is what the dashboard needs from the scenario, typed, so that a reader need not
// understand the scenario format to fold a trace.
type Info struct {
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	Algorithm   string    `json:"algorithm"`
	Family      string    `json:"family"`
	IDs         []node.ID `json:"ids"`
	Topology    string    `json:"topology"`
	Latency     string    `json:"latency"`
	Loss        float64   `json:"loss"`
	Dup         float64   `json:"dup"`
	Delta       int64     `json:"delta_us"`
	GST         int64     `json:"gst_us"` // -1: never
	Until       int64     `json:"until_us"`
	PreLatency  string    `json:"pre_gst_latency,omitempty"`
	PreLoss     float64   `json:"pre_gst_loss,omitempty"`
	// Edges is the links of a ring or graph topology (nil for a mesh), derived from
	// the scenario for the dashboard's topology view; never written.
	Edges [][2]node.ID `json:"-"`
	// Theory is the algorithm's textbook figures for this run, from the registry
	// (the same ones sweeps compare with); derived, never written.
	Theory []Figure `json:"-"`
}

// Figure is one textbook figure (see algos.Theory): what it measures, its value,
// kind and unit, the formula, what it counts, and where it comes from.
type Figure = algos.Theory
