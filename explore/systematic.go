package explore

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// Systematic mode explores the orders in which each process receives its events.
// The default order is the world's: by time, as the network's latencies make it. A
// schedule departs from it at chosen points, each departure one action of the
// grammar, so that a schedule is a script and replays:
//
//   - delay #m D, taken when message m is due at its receiver r: m comes after r's
//     next event, or after its next two or three (D is just long enough);
//   - deliver #m, taken when an event is due at r: message m, already sent to r
//     and due after it, comes first;
//   - crash nX, at an event of nX, and recover nX after its next events (or, in a
//     liveness search, when the faults stop).
//
// Each departure costs one, and so does a crash with its recovery; the search is
// by iterative deepening over the cost (delay bounding, Emmi, Qadeer and
// Rakamarić, POPL 2011), so the first schedule that breaks a property is a
// cheapest one. A schedule's departures come in time order, each at or after the
// one before, so that no set of departures is explored twice; a schedule's
// children depart from its own run, which is the parent's run up to the new
// departure, so the messages keep their ids.

// reorderDepth is how many of the receiver's next events a delayed message may be
// moved past.
const reorderDepth = 3

// crashAfter are how many of a crashed node's events, in the run it would have had,
// its recovery waits for.
var crashAfter = []int{1, 4}

// schedule is one point of the search: its departures and its cost.
type schedule struct {
	acts    []netsim.Timed
	delays  int
	crashes int
}

// ev is what the search notes of an event of a run: when, at which process, and
// for a delivery, which message.
type ev struct {
	t    time.Duration
	at   node.ID
	mid  uint64 // a delivery's message, else 0
	sent time.Duration
}

// runLog collects a run's events for the next level of the search.
type runLog struct {
	sent   map[uint64]time.Duration
	events []ev
}

func (l *runLog) Record(e *trace.Event) {
	t := time.Duration(e.T) * time.Microsecond
	switch e.Ev {
	case trace.Send:
		l.sent[e.MID] = t
	case trace.Deliver:
		if !e.Local {
			l.events = append(l.events, ev{t: t, at: e.To, mid: e.MID, sent: l.sent[e.MID]})
		}
	case trace.TimerEv, trace.Request:
		l.events = append(l.events, ev{t: t, at: e.Node})
	}
}

// children are the schedules one departure costlier than sc, departing from its
// run (log) at or after its last departure.
func (s *search) children(sc schedule, log *runLog) []schedule {
	from := time.Duration(0)
	if n := len(sc.acts); n > 0 {
		from = sc.acts[n-1].At
	}
	byNode := map[node.ID][]ev{}
	for _, e := range log.events {
		if e.t >= from && e.t <= s.horizon {
			byNode[e.at] = append(byNode[e.at], e)
		}
	}
	var out []schedule
	add := func(t time.Duration, a netsim.Action, crash bool) {
		c := schedule{acts: append(slices.Clone(sc.acts), netsim.Timed{At: t, Action: a}), delays: sc.delays, crashes: sc.crashes}
		if crash {
			c.crashes++
		} else {
			c.delays++
		}
		out = append(out, c)
	}
	for _, id := range s.b.IDs {
		evs := byNode[id]
		for i, e := range evs {
			if sc.delays < s.o.Delays {
				if e.mid != 0 {
					// m after the next k events of its receiver.
					for k := 1; k <= reorderDepth && i+k < len(evs); k++ {
						next := evs[i+k]
						if k > 1 && next.t == evs[i+k-1].t {
							continue // the same place as k-1
						}
						d := next.t - e.t + time.Microsecond
						if e.t+d <= s.horizon {
							add(e.t, netsim.Action{Verb: "delay", MID: e.mid, For: d}, false)
						}
					}
				}
				// A later message, already sent, before e.
				for j := i + 1; j < len(evs) && j <= i+reorderDepth; j++ {
					if m := evs[j]; m.mid != 0 && m.sent < e.t && m.t > e.t {
						add(e.t, netsim.Action{Verb: "deliver", MID: m.mid}, false)
					}
				}
			}
			if sc.crashes < s.o.Crashes && s.faults.crash && (i == 0 || evs[i-1].t != e.t) {
				for _, k := range crashAfter {
					crash := netsim.Action{Verb: "crash", Node: id}
					if s.props.liveness {
						add(e.t, crash, true)
						break
					}
					if i+k < len(evs) {
						c := schedule{acts: append(slices.Clone(sc.acts), netsim.Timed{At: e.t, Action: crash},
							netsim.Timed{At: evs[i+k].t, Action: netsim.Action{Verb: "recover", Node: id}}), delays: sc.delays, crashes: sc.crashes + 1}
						out = append(out, c)
					}
				}
			}
		}
	}
	// In time order, so that the first finding of a level is its earliest.
	slices.SortStableFunc(out, func(a, b schedule) int {
		x, y := a.acts[len(a.acts)-1].At, b.acts[len(b.acts)-1].At
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return out
}

// variantOf is the base scenario's run with the schedule's departures.
func (s *search) variantOf(sc schedule, base []netsim.Timed) *Variant {
	v := &Variant{Seed: s.b.Config.Seed, Until: s.until}
	v.Actions = append(slices.Clone(base), sc.acts...)
	sortTimed(v.Actions)
	if s.props.liveness {
		v.End = &s.horizon
	}
	return v
}

// systematic explores the schedules by increasing cost, o.Jobs runs at once,
// until one breaks a property, every schedule within the bounds was run, or the
// time is up. Each level is a depth-first walk of the tree of schedules: the
// schedules of lower cost are run again to find their children (a small part of
// the work, as the tree widens at every level), and those of the level's cost,
// its leaves, are run and checked.
func (s *search) systematic() (*Result, error) {
	base, err := s.b.baseActions(s.b.Config.Seed)
	if err != nil {
		return nil, err
	}
	res := &Result{Mode: ModeSystematic}
	var explored atomic.Int64
	stopProgress := s.progress(func() Progress { return Progress{Runs: int(explored.Load())} })
	defer stopProgress()
	before := 0 // the schedules of the levels done
	for cost := 0; cost <= s.o.Delays+s.o.Crashes; cost++ {
		res.Bound = fmt.Sprintf("%d departures", cost)
		if cost == 1 {
			res.Bound = "1 departure"
		}
		type leaf struct {
			i  int
			sc schedule
		}
		leaves := make(chan leaf, 4*s.o.Jobs)
		var (
			mu     sync.Mutex
			found  = -1
			hitV   *Variant
			hitX   Violation
			hitS   schedule
			runErr error
			n      int
			wg     sync.WaitGroup
		)
		stopped := func() bool {
			mu.Lock()
			defer mu.Unlock()
			return found >= 0 || runErr != nil || s.expired()
		}
		go func() {
			defer close(leaves)
			err := s.walk(schedule{}, cost, base, stopped, func(sc schedule) {
				leaves <- leaf{n, sc}
				n++
			})
			if err != nil {
				mu.Lock()
				runErr = err
				mu.Unlock()
			}
		}()
		for range s.o.Jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for l := range leaves {
					mu.Lock()
					skip := (found >= 0 && l.i > found) || runErr != nil
					mu.Unlock()
					if skip {
						continue
					}
					v := s.variantOf(l.sc, base)
					out, err := s.run(v)
					if out.cut {
						continue
					}
					explored.Add(1)
					mu.Lock()
					switch {
					case err != nil:
						runErr = err
					case out.x != nil && (found < 0 || l.i < found):
						found, hitV, hitX, hitS = l.i, v, *out.x, l.sc
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if runErr != nil {
			return nil, runErr
		}
		if found >= 0 {
			res.Runs, res.Stopped = before+found+1, "findings"
			res.Findings = []*Finding{{Run: before + found, Seed: hitV.Seed, Schedule: hitS.acts, Found: hitV, FoundWhat: hitX}}
			return res, nil
		}
		before += n
		res.Runs = before
		if s.expired() {
			res.Stopped = "time"
			if s.ctx.Err() != nil {
				res.Stopped = "interrupted"
			}
			return res, nil
		}
		if n == 0 {
			break // no schedule of this cost: none of any higher
		}
	}
	res.Stopped = "exhausted"
	return res, nil
}

// walk calls leaf with every schedule of cost depth more than sc's below it, in
// order, running sc and the schedules between to find their children. It stops
// early when stop says so.
func (s *search) walk(sc schedule, depth int, base []netsim.Timed, stop func() bool, leaf func(schedule)) error {
	if stop() {
		return nil
	}
	if depth == 0 {
		leaf(sc)
		return nil
	}
	log := &runLog{sent: map[uint64]time.Duration{}}
	if _, err := s.runInto(s.variantOf(sc, base), log); err != nil {
		return err
	}
	for _, c := range s.children(sc, log) {
		if err := s.walk(c, depth-1, base, stop, leaf); err != nil {
			return err
		}
		if stop() {
			return nil
		}
	}
	return nil
}
