package detector

import (
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// AdaptiveFD is a ◊P detector whose timeouts can be shown: both of this package.
type AdaptiveFD interface {
	FD
	Adaptive
}

// Monitor runs a detector as an algorithm of its own (pull-dp, heartbeat-dp,
// perfect): it starts the detector on Start and on Recover, hands it every other
// event, and reports role "monitor", the suspects and, for an adaptive detector,
// the counters timeout_ms (the largest current timeout; the detector's
// PeerTimeouts has them all) and mistakes.
type Monitor struct {
	FD       FD
	counters [2]node.Counter
}

// Step reacts to one event.
func (m *Monitor) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start, node.Recover:
		m.FD.Start(env)
	default:
		m.FD.Handle(env, ev)
	}
}

// Status reports what the detector currently believes.
func (m *Monitor) Status() node.Status {
	st := node.Status{Role: "monitor", Suspects: m.FD.Suspects()}
	if a, ok := m.FD.(Adaptive); ok {
		m.counters = [2]node.Counter{{Name: CounterTimeout, Value: ms(a.MaxTimeout())}, {Name: CounterMistakes, Value: a.Mistakes()}}
		st.Counters = m.counters[:]
	}
	return st
}

// Deadline is the detector's next suspicion, if it tells.
func (m *Monitor) Deadline(due func(string) (time.Duration, bool)) node.Deadline {
	return fdDeadline(m.FD, due)
}

// fdDeadline is fd's next suspicion if fd is a node.Deadliner (both ◊P detectors
// of this package are).
func fdDeadline(fd FD, due func(string) (time.Duration, bool)) node.Deadline {
	if d, ok := fd.(node.Deadliner); ok {
		return d.Deadline(due)
	}
	return node.Deadline{}
}
