package netsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// The event-storm guard. An algorithm that answers every message with several (a
// Bully that restarts its election on every ELECTION) or a generator asked for 10¹²
// requests per second fills the queue faster than time passes, until memory runs
// out. The world bounds the events it holds (Config.MaxPending) and stops the run
// with an error that says when and what flooded, instead of going on.

// Err is why the run stopped early, or nil. Once set, RunUntil and Step do nothing.
func (w *World) Err() error { return w.err }

// Pending is the number of events waiting: messages in flight, timers, requests.
func (w *World) Pending() int {
	n := w.heldN
	for i := range w.shards {
		n += w.shards[i].tq.len()
		if !w.ins.on {
			n += w.shards[i].q.len()
		}
	}
	if w.ins.on {
		n += w.ins.n
	}
	return n
}

// full reports whether one more event would break the limit, raising the storm
// the first time. Events pushed after that are dropped: the run is over.
func (w *World) full() bool {
	if w.err != nil {
		return true
	}
	if w.Pending() < w.limit {
		return false
	}
	w.finishInserter() // the queue must hold everything to be looked over
	shares := map[string]int{}
	for i := range w.shards {
		q := &w.shards[i].q
		q.each(func(e *pev) {
			switch e.kind {
			case qDeliver:
				shares[q.typeOf(e)]++
			default:
				shares["other events"]++
			}
		})
		if n := w.shards[i].tq.len(); n > 0 {
			shares["timers"] += n
		}
	}
	w.storm(w.Pending(), "pending", shares)
	return true
}

// budgetFloor keeps a tiny limit (in tests) from starving a window: the Runners
// look at the budget every few hundred outcomes.
const budgetFloor = 1024

// overflowed checks whether the window ran out of budget (its processes made far
// more than may be pending, before any of it reached the queue) and raises the
// storm if so, naming what the processes were handling.
func (w *World) overflowed(active []*proc) bool {
	over := false
	for _, p := range active {
		over = over || p.batch.Overflow
	}
	if !over {
		return false
	}
	shares := map[string]int{}
	made := 0
	for _, p := range active {
		made += p.batch.Made()
		for i := range p.batch.Out {
			o := &p.batch.Out[i]
			it := p.batch.ItemOf(o)
			switch it.Ev.Kind {
			case node.Deliver:
				shares[it.Ev.Msg.Type]++
			case node.Timer:
				shares["timer "+it.Ev.Name]++
			default:
				shares[it.Ev.Kind.String()]++
			}
			w.now = max(w.now, o.At)
		}
	}
	w.storm(made, fmt.Sprintf("made within %v", w.lookahead), shares)
	return true
}

// storm sets the run's error: "event storm: 4,000,000 events pending at t=0.021s;
// ELECTION 97%, ANSWER 3%".
func (w *World) storm(n int, what string, shares map[string]int) {
	type share struct {
		name string
		n    int
	}
	var list []share
	total := 0
	for name, c := range shares {
		list = append(list, share{name, c})
		total += c
	}
	slices.SortFunc(list, func(a, b share) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.name, b.name)
	})
	var parts []string
	for i, s := range list {
		pct := 100 * s.n / max(total, 1)
		if i == 3 || (i > 0 && pct == 0) {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d%%", s.name, pct))
	}
	msg := fmt.Sprintf("event storm: %s events %s at t=%ss", thousands(n), what, seconds(w.now))
	if len(parts) > 0 {
		msg += "; " + strings.Join(parts, ", ")
	}
	w.err = &StormError{fmt.Sprintf("%s (the limit is %s pending events; --max-pending raises it)", msg, thousands(w.limit))}
}

// StormError is the error of a run stopped by the event-storm guard: a limit
// reached, as when memory runs out, rather than a scenario that is wrong.
type StormError struct{ msg string }

func (e *StormError) Error() string { return e.msg }

// seconds renders a virtual time in seconds, to the microsecond, without trailing
// zeros: 0.021, 12, 1.000005.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(float64(node.Micros(d))/1e6, 'f', -1, 64)
}
