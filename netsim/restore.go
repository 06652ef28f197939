package netsim

import (
	"slices"
	"time"
)

// restoreVerb names the step that ends every fault at Config.FaultsEnd. It is not
// in the action grammar: it belongs to the scenario (faults.end), which verify and
// replay run again, never to a script or the `:` line. The trace records it as an
// action "restore" by "end", followed by what it did.
const restoreVerb = "restore"

// byEnd marks the restore in the trace.
const byEnd = "end"

// restoreAction is the one restore; scheduled entries point at their action.
var restoreAction = Action{Verb: restoreVerb}

// restore ends every fault, from the world's state as it is: a swizzle under way
// stops (its steps still to come are dropped) and every cut, partition, isolation
// and held link heals; every node down recovers, in id order; every slow node runs
// at speed, in id order; loss and duplication return to the scenario's values; and
// GST comes if it has not. Each of these is done only where it changes something,
// in that order, as the actions heal, recover, slow nX 1, set loss, set dup and gst
// would do it (their effects recorded, not the actions).
func (w *World) restore() {
	swizzling := false
	rest := w.sched[w.next:]
	for _, s := range rest {
		swizzling = swizzling || s.by == bySwizzle
	}
	if swizzling {
		w.sched = append(w.sched[:w.next], slices.DeleteFunc(rest, func(s scheduled) bool { return s.by == bySwizzle })...)
	}
	broken := swizzling || len(w.cuts) > 0 || len(w.held) > 0
	for _, p := range w.procs {
		broken = broken || p.group != 0 || p.isolated
	}
	if broken {
		w.effect(Action{Verb: "heal"})
	}
	byID := slices.Clone(w.procs)
	slices.SortFunc(byID, func(a, b *proc) int { return int(a.id) - int(b.id) })
	for _, p := range byID {
		if !p.up {
			w.effect(Action{Verb: "recover", Node: p.id})
		}
	}
	for _, p := range byID {
		if p.slow > 1 {
			w.effect(Action{Verb: "slow", Node: p.id, Factor: 1})
		}
	}
	if w.net.Loss != w.cfg.Net.Loss {
		w.effect(Action{Verb: "set", Knob: "loss", Value: w.cfg.Net.Loss})
	}
	if w.net.Dup != w.cfg.Net.Dup {
		w.effect(Action{Verb: "set", Knob: "dup", Value: w.cfg.Net.Dup})
	}
	if !w.sync {
		w.effect(Action{Verb: "gst"})
	}
}

// Restore is the action a scenario's faults.end schedules, for tests and tools
// that show it: its String is "restore".
func Restore(at time.Duration) Timed { return Timed{At: at, Action: restoreAction} }
