package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// pfEvent is one Chrome trace-event (the JSON that ui.perfetto.dev and
// chrome://tracing open). Ts and Dur are in µs of virtual time.
type pfEvent struct {
	Name  string         `json:"name"`
	Cat   string         `json:"cat,omitempty"`
	Ph    string         `json:"ph"`
	Ts    float64        `json:"ts"`
	Dur   *float64       `json:"dur,omitempty"`
	Pid   int            `json:"pid"`
	Tid   int            `json:"tid"`
	ID    uint64         `json:"id,omitempty"`
	BP    string         `json:"bp,omitempty"`
	Scope string         `json:"s,omitempty"`
	Args  map[string]any `json:"args,omitempty"`
}

// Offsets within a virtual microsecond. Every event of the trace is at a whole µs,
// so these keep slices properly nested on a track: a node's step at t is the slice
// [t, t+stepDur]; a message's flow leaves and arrives at t+flowAt, inside the step;
// a state that the step changes ends at t+endAt and begins at t+beginAt, after it.
// A down period ends, and a window opens the slices under way, at t+before: after
// anything of the µs before, and before the step at t.
// alertTids are the first track ids of the alert tracks, above any node's id.
const alertTids = 1 << 30

const (
	stepDur = 0.5
	flowAt  = 0.25
	endAt   = 0.6
	beginAt = 0.7
	before  = -0.2
)

// Perfetto writes the window as Chrome trace-event JSON
// ({"traceEvents":[…],"displayTimeUnit":"ns"}), with virtual µs as ts:
//   - one process (the scenario), one track (thread) per selected node, named by
//     metadata, and a "cluster" track (tid 0) for what happens to the whole cluster;
//   - on a node's track, a slice per step (the node's events at one instant: a
//     receive, the sends it causes, a timer, a status change), and slices for
//     leadership (the node names itself leader; a new term is a new slice),
//     critical-section holds and down periods (crash to recovery), nested properly;
//   - a flow arrow from each send to each of its deliveries (ids are integers);
//   - instant events for crashes, recoveries, isolation, cuts and slow nodes on the
//     node's track, and for partitions, heals, GST, knobs, markers, alerts and
//     their clearing on the cluster track;
//   - each alert also as a slice, from the alert to the event that clears it (or
//     the end of the window), on a track of its kind ("alert split-brain").
//
// State slices are folded from the start of the trace, so a window opens the ones
// already under way at its first event, and closes what is still open just after
// its last.
func Perfetto(out io.Writer, src Source, w Window) error {
	t, err := readAll(src)
	if err != nil {
		return err
	}
	if err := nonEmpty(t, w); err != nil {
		return err
	}
	return perfettoMem(out, t, w)
}

func perfettoMem(out io.Writer, t *trace.Trace, w Window) error {
	info := &t.Header.Info
	ids := w.IDs(info.IDs)
	var evs []pfEvent
	meta := func(name string, tid int, value string) {
		evs = append(evs, pfEvent{Name: name, Ph: "M", Pid: 1, Tid: tid, Args: map[string]any{"name": value}})
	}
	meta("process_name", 0, fmt.Sprintf("clusterlab: %s (%s, seed %d)", info.Name, info.Algorithm, t.Header.Seed))
	meta("thread_name", 0, "cluster")
	for _, id := range ids {
		meta("thread_name", int(id), id.String())
	}
	ts := func(us int64, off float64) float64 { return float64(us) + off }
	// Alerts as intervals: each alert kind has tracks of its own (lanes, so that
	// two open at once do not overlap), with a slice from the alert to the event
	// that clears it, or to the end of the window.
	cleared := map[uint64]int64{}
	for i := range t.Events {
		if e := &t.Events[i]; e.Ev == trace.AlertCleared {
			cleared[e.Ref] = e.T
		}
	}
	type lane struct {
		tid int
		end float64
	}
	lanes := map[string][]*lane{}
	nextTid := alertTids
	alertSlice := func(e *trace.Event, end int64) {
		from, to := ts(e.T, 0), ts(end, 0)
		var l *lane
		for _, x := range lanes[e.Kind] {
			if x.end <= from {
				l = x
				break
			}
		}
		if l == nil {
			l = &lane{tid: nextTid}
			nextTid++
			lanes[e.Kind] = append(lanes[e.Kind], l)
			meta("thread_name", l.tid, "alert "+e.Kind)
		}
		l.end = to
		d := max(to-from, stepDur)
		evs = append(evs, pfEvent{Name: e.Kind, Cat: "alert", Ph: "X", Ts: from, Dur: &d, Pid: 1, Tid: l.tid,
			Args: map[string]any{"text": e.Text, "cleared": end != math.MaxInt64}})
	}
	var openAlerts []*trace.Event // alerts not cleared in the window, to end with it
	nMeta := len(evs)
	instant := func(tid int, at float64, cat, name string, args map[string]any) {
		evs = append(evs, pfEvent{Name: name, Cat: cat, Ph: "i", Ts: at, Pid: 1, Tid: tid, Scope: "t", Args: args})
	}

	// Node state, folded from the start.
	type nodeState struct {
		lead  int64 // the term it leads in, or -1
		held  bool
		down  bool
		since float64  // when its last state slice began
		open  []string // state slices open on its track, innermost last
		stepT int64    // the time of its current step slice, or -1
		step  int      // that slice's index in evs
	}
	states := map[node.ID]*nodeState{}
	for _, id := range info.IDs {
		states[id] = &nodeState{lead: -1, stepT: -1}
	}
	emitting := false // the window has begun
	begin := func(id node.ID, at float64, name string) {
		s := states[id]
		s.open = append(s.open, name)
		s.since = at
		if emitting && w.Has(id) {
			evs = append(evs, pfEvent{Name: name, Cat: "state", Ph: "B", Ts: at, Pid: 1, Tid: int(id)})
		}
	}
	// end closes the slice name and any opened inside it, reopening those at
	// reopen, so that slices stay nested.
	end := func(id node.ID, at, reopen float64, name string) {
		s := states[id]
		i := len(s.open) - 1
		for i >= 0 && s.open[i] != name {
			i--
		}
		if i < 0 {
			return
		}
		inner := append([]string(nil), s.open[i+1:]...)
		for j := len(s.open) - 1; j >= i; j-- {
			if emitting && w.Has(id) {
				evs = append(evs, pfEvent{Name: s.open[j], Cat: "state", Ph: "E", Ts: at, Pid: 1, Tid: int(id)})
			}
		}
		s.open = s.open[:i]
		for _, n := range inner {
			begin(id, reopen, n)
		}
	}
	leadName := func(term int64) string {
		if term == 0 {
			return "leader"
		}
		return "leader, term " + strconv.FormatInt(term, 10)
	}
	// step returns the node's step slice at e's time, starting one if needed.
	step := func(id node.ID, e *trace.Event, name string) {
		s := states[id]
		if s.stepT == e.T {
			a := evs[s.step].Args
			a["events"] = a["events"].(int) + 1
			return
		}
		d := stepDur
		s.stepT, s.step = e.T, len(evs)
		evs = append(evs, pfEvent{Name: name, Cat: "step", Ph: "X", Ts: ts(e.T, 0), Dur: &d, Pid: 1, Tid: int(id),
			Args: map[string]any{"events": 1, "first seq": e.Seq}})
	}
	sends := map[uint64]int64{} // message → send time, for sends in the window
	flows := uint64(0)
	last := int64(0)
	for i := range t.Events {
		e := &t.Events[i]
		if malformed(e) {
			continue
		}
		if e.T > w.To || (w.LastSeq != 0 && e.Seq > w.LastSeq) {
			break
		}
		if e.Node != node.None && states[e.Node] == nil || e.IsMessage() && (states[e.From] == nil || states[e.To] == nil) {
			continue // a node the header does not name
		}
		keep := w.Keep(e)
		if keep && !emitting {
			// The window begins: open the slices already under way.
			emitting = true
			for _, id := range ids {
				s := states[id]
				open := s.open
				s.open = nil
				for _, n := range open {
					begin(id, ts(e.T, before), n)
				}
			}
		}
		if keep {
			last = e.T
		}
		at := func(off float64) float64 { return ts(e.T, off) }
		switch e.Ev {
		case trace.StatusEv:
			s := states[e.Node]
			if keep {
				step(e.Node, e, "status: "+statusText(e.Status))
			}
			leads := e.Status.Leader == e.Node
			if s.lead >= 0 && (!leads || e.Status.Term != s.lead) {
				end(e.Node, at(endAt), at(beginAt), leadName(s.lead))
				s.lead = -1
			}
			if leads && s.lead < 0 {
				s.lead = e.Status.Term
				begin(e.Node, at(beginAt), leadName(s.lead))
			}
			held := e.Status.CS == node.CSHeld
			if s.held && !held {
				end(e.Node, at(endAt), at(beginAt), "critical section")
			} else if held && !s.held {
				begin(e.Node, at(beginAt), "critical section")
			}
			s.held = held
		case trace.Crash:
			s := states[e.Node]
			if keep {
				step(e.Node, e, "crash")
				instant(int(e.Node), at(stepDur), "fault", "crash", nil)
			}
			for len(s.open) > 0 {
				end(e.Node, at(endAt), at(beginAt), s.open[0])
			}
			s.lead, s.held, s.down = -1, false, true
			begin(e.Node, at(beginAt), "down")
		case trace.Recover:
			s := states[e.Node]
			if s.down {
				// After the crash, also when it was the same µs.
				end(e.Node, max(at(before), s.since+0.05), 0, "down")
			}
			s.down = false
			if keep {
				step(e.Node, e, fmt.Sprintf("recover as incarnation %d", e.Inc))
				instant(int(e.Node), at(stepDur), "fault", fmt.Sprintf("recover (incarnation %d)", e.Inc), nil)
			}
		}
		if !keep {
			continue
		}
		switch e.Ev {
		case trace.Send:
			step(e.From, e, "send "+msgLabel(e.Msg)+" to "+e.To.String())
			sends[e.MID] = e.T
		case trace.Deliver:
			if e.Local {
				step(e.To, e, "self "+msgLabel(e.Msg))
				break
			}
			step(e.To, e, "recv "+msgLabel(e.Msg)+" from "+e.From.String())
			if sent, ok := sends[e.MID]; ok {
				flows++
				evs = append(evs,
					pfEvent{Name: e.Msg.Type, Cat: "msg", Ph: "s", Ts: ts(sent, flowAt), Pid: 1, Tid: int(e.From), ID: flows},
					pfEvent{Name: e.Msg.Type, Cat: "msg", Ph: "f", BP: "e", Ts: at(flowAt), Pid: 1, Tid: int(e.To), ID: flows})
			}
		case trace.Drop:
			instant(int(e.To), at(stepDur), "drop", "lost "+msgLabel(e.Msg)+" from "+e.From.String()+" ("+e.Reason+")", nil)
		case trace.TimerEv:
			step(e.Node, e, "timer "+e.Name)
		case trace.Log:
			step(e.Node, e, "log: "+oneLine(e.Text))
		case trace.Request:
			step(e.Node, e, "request "+e.Name)
		case trace.Isolate:
			instant(int(e.Node), at(0), "fault", "isolated", nil)
		case trace.Cut:
			for _, id := range []node.ID{e.From, e.To} {
				if w.Has(id) {
					instant(int(id), at(0), "fault", faultText(e), nil)
				}
			}
		case trace.Knob:
			if e.Node != node.None {
				instant(int(e.Node), at(0), "fault", faultText(e), nil)
			} else {
				instant(0, at(0), "network", faultText(e), nil)
			}
		case trace.Partition, trace.Heal, trace.GST:
			instant(0, at(0), "fault", faultText(e), nil)
		case trace.Marker:
			instant(0, at(0), "marker", "marker: "+oneLine(e.Text), nil)
		case trace.Alert:
			instant(0, at(0), "alert", "alert "+e.Kind, map[string]any{"text": e.Text, "line": e.Seq})
			if c, ok := cleared[e.Seq]; ok && c <= w.To {
				alertSlice(e, c)
			} else {
				openAlerts = append(openAlerts, e)
			}
		case trace.AlertCleared:
			instant(0, at(0), "alert", "alert cleared", map[string]any{"text": e.Text, "alert line": e.Ref})
		case trace.Detect:
			instant(0, at(0), "detector", "every live node suspects "+e.Node.String(), map[string]any{"latency": e.Value})
		case trace.Expect:
			instant(0, at(0), "expect", "expect "+oneLine(e.Text), map[string]any{"ok": e.OK != nil && *e.OK, "observed": e.Value})
		}
	}
	for _, e := range openAlerts {
		alertSlice(e, last+1)
	}
	// Close what is still open just after the window's last event.
	for _, id := range ids {
		s := states[id]
		for len(s.open) > 0 {
			end(id, ts(last+1, 0), 0, s.open[0])
		}
	}
	// Sort by time, keeping the order of events at the same time (metadata first).
	body := evs[nMeta:]
	sort.SliceStable(body, func(i, j int) bool { return body[i].Ts < body[j].Ts })

	bw := bufio.NewWriter(out)
	bw.WriteString(`{"displayTimeUnit":"ns","traceEvents":[` + "\n")
	for i := range evs {
		b, err := json.Marshal(&evs[i])
		if err != nil {
			return err
		}
		bw.Write(b)
		if i < len(evs)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}
