// Package detector holds the failure detectors of the course notes (chapter 5):
// ◊P by test request (Alg. 5.1) and by heartbeats, Ω on top of ◊P (Alg. 5.2) and
// crash-recovery Ω with incarnation numbers (Alg. 5.3).
package detector

import "github.com/clusterlab/clusterlab/node"

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
