// Package detector holds the failure detectors of the course notes (chapter 5):
// ◊P by test request (Alg. 5.1) and by heartbeats, Ω on top of ◊P (Alg. 5.2) and
// crash-recovery Ω with incarnation numbers (Alg. 5.3).
//
// The two ◊P detectors are both an FD (so that a host algorithm can compose them)
// and a node.Algorithm (so that they run on their own as "pull-dp" and
// "heartbeat-dp"). Ω ("omega") composes one of them through the FD interface;
// crash-recovery Ω ("omega-cr") has its own heartbeat protocol, as in the notes.
package detector

import (
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// FD is a ◊P failure detector that another algorithm composes rather than copies:
// omega builds on it, and the ring election's skip_suspected option uses it.
// Its message types are TEST_REQ, TEST_REP and HEARTBEAT; its timer names start
// with "fd.", so they never clash with the host algorithm's.
type FD interface {
	// Start begins monitoring; the host calls it on Start and on Recover.
	Start(env *node.Env)
	// Handle reacts to ev if it is one of the detector's messages or timers, and
	// reports whether it was. The host passes every event through it first.
	Handle(env *node.Env, ev node.Event) bool
	// Suspects lists the suspected processes in id order. The slice is the
	// detector's own: do not modify it.
	Suspects() []node.ID
	// Suspected reports whether p is suspected.
	Suspected(p node.ID) bool
}

// Adaptive is implemented by the detectors whose timeouts grow after each false
// suspicion (both ◊P detectors of this package). A host reports these figures in its
// Status counters, and the suspect-matrix pane shows the per-peer timeouts. It is a
// separate interface so that a test double of FD need not implement it.
type Adaptive interface {
	// Timeout is the current timeout towards p (0 if p is not monitored).
	Timeout(p node.ID) time.Duration
	// MaxTimeout is the largest current timeout over all monitored processes.
	MaxTimeout() time.Duration
	// PeerTimeouts lists the current timeout towards every monitored process, in
	// the order of env.Peers(). The slice is the detector's own: do not modify it.
	PeerTimeouts() []PeerTimeout
	// Mistakes counts the false suspicions corrected so far.
	Mistakes() int64
}

// PeerTimeout is the current timeout a detector uses towards one process.
type PeerTimeout struct {
	Peer    node.ID
	Timeout time.Duration
}

// The message types of this package.
const (
	MsgTestReq   = "TEST_REQ"  // pull-dp: "are you alive?"; Stamp is the round number
	MsgTestRep   = "TEST_REP"  // pull-dp: "yes"; Stamp echoes the request's round
	MsgHeartbeat = "HEARTBEAT" // heartbeat-dp: Stamp is a sequence number; omega-cr: Term is the incarnation
)

// Status counter names shared by the detectors.
const (
	CounterTimeout       = "timeout_ms"     // current timeout (heartbeat-dp: max over peers; omega-cr: the heartbeat interval)
	CounterMistakes      = "mistakes"       // false suspicions corrected so far
	CounterLeaderChanges = "leader_changes" // omega, omega-cr: how many times Leader changed (⊥ → p included)
)
