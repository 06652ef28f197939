package export

import (
	"bufio"
	"container/heap"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

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
//
// The events are written in time order (at the same time, in the order made), as
// they are made, each waiting only for the others of its µs. A first reading
// counts each message's deliveries and drops, finds when each alert is cleared,
// lays the alerts out on their tracks, and bounds the file's size: one over
// PerfettoMaxBytes is refused before it is written. A flow's start is made with
// its send, at the send's time, with the id its delivery gives it (flows are
// numbered as their deliveries are read), which a reading ahead finds (pfAhead):
// made with the delivery, up to seconds later before GST, it held back everything
// made in between.
func Perfetto(out io.Writer, src Source, w Window) error { return perfetto(out, src, w, false) }

// PerfettoMaxBytes is about the largest trace Perfetto's UI opens in a browser tab
// (a variable for the tests).
var PerfettoMaxBytes int64 = 1 << 30

// pfItem is one trace event, written as encoding/json writes a pfEvent.
type pfItem struct {
	ts     float64
	idx    uint64 // the order made, for events at the same time
	name   string
	cat    string
	ph     string
	dur    float64
	hasDur bool
	tid    int
	id     uint64
	bp     string
	scope  string
	args   []byte // a JSON object, or nil
	// a step's args, counted while it is the node's current step
	step     bool
	events   int
	firstSeq uint64
}

// pfHeap orders the items made and not yet written by (ts, idx), their keys
// beside them so that ordering reads no item.
type pfHeap []pfKey

type pfKey struct {
	ts  float64
	idx uint64
	it  *pfItem
}

func (h pfHeap) Len() int { return len(h) }
func (h pfHeap) Less(i, j int) bool {
	return h[i].ts < h[j].ts || h[i].ts == h[j].ts && h[i].idx < h[j].idx
}
func (h pfHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pfHeap) Push(x any)   { *h = append(*h, x.(pfKey)) }
func (h *pfHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = pfKey{}
	*h = old[:len(old)-1]
	return x
}

// pfAlert is an alert's slice, laid out by the first reading (a record of an
// alertLog).
type pfAlert struct {
	seq     uint64 // the alert's line number
	t       int64  // its time
	kind    int    // its kind's place in perfettoPlan.kinds
	tid     int
	end     int64 // when it clears, or just after the window's last event
	cleared bool  // in the window
	atEnd   int   // when it is not cleared in the window: its place among those, made last
	meta    bool  // its slice opens a new track, named by a metadata event
	lane    int   // that track's place in perfettoPlan.lanes
}

// perfettoPlan is what the first reading finds.
type perfettoPlan struct {
	fates  *fates
	alerts alertLog // the window's alerts in line order
	kinds  []string // their kinds, each once
	lanes  []pfLane // the alert tracks, in the order made
	last   int64    // the window's last event's time
	bytes  int64    // the file's size, about
}

type pfLane struct {
	tid  int
	kind string
	late bool // made after time 0 (or at the end): its name goes after every event at time 0
}

// planPerfetto reads src once.
func planPerfetto(src Source, w Window) (*perfettoPlan, error) {
	h := src.Header()
	known := make(map[node.ID]bool, len(h.Info.IDs))
	for _, id := range h.Info.IDs {
		known[id] = true
	}
	p := &perfettoPlan{fates: newFates(), last: 0}
	// The window's alerts go to a log as they come, with their kinds' numbers;
	// those not yet cleared are found by their line number. A clearing counts
	// when the window's time holds it, even past its last line (LastSeq).
	open := map[uint64]int{}
	kinds := map[string]int{}
	var a pfAlert
	past := false
	var logErr error
	_, err := scan(src, func(e *trace.Event) {
		if malformed(e) || logErr != nil {
			return
		}
		p.fates.see(e)
		if e.Ev == trace.AlertCleared && e.T <= w.To {
			if k, ok := open[e.Ref]; ok {
				delete(open, e.Ref)
				if logErr = p.alerts.get(k, &a); logErr == nil {
					a.end, a.cleared = e.T, true
					logErr = p.alerts.put(k, &a)
				}
			}
		}
		if past = past || w.past(e.T, e.Seq); past {
			return
		}
		if e.Node != node.None && !known[e.Node] || e.IsMessage() && (!known[e.From] || !known[e.To]) {
			return
		}
		if !w.Keep(e) {
			return
		}
		p.last = e.T
		switch e.Ev {
		case trace.Deliver:
			p.bytes += 320 // its step, a flow's start and finish
		case trace.Send:
			p.bytes += 60 // most sends share their step
		default:
			p.bytes += 150
		}
		if e.Ev == trace.Alert {
			k, ok := kinds[e.Kind]
			if !ok {
				k = len(p.kinds)
				p.kinds = append(p.kinds, strings.Clone(e.Kind)) // the stream's own: not kept
				kinds[p.kinds[k]] = k
			}
			open[e.Seq] = p.alerts.n
			logErr = p.alerts.add(&pfAlert{seq: e.Seq, t: e.T, kind: k})
		}
	})
	if err == nil {
		err = logErr
	}
	if err != nil {
		p.alerts.close()
		return nil, err
	}
	p.fates.done()
	if err := p.layout(); err != nil {
		p.alerts.close()
		return nil, err
	}
	return p, nil
}

// layout lays the alerts out on their tracks: an alert takes the first track of
// its kind free at its start, or a new one; those cleared in the window first,
// then the others, which last past the window's last event.
func (p *perfettoPlan) layout() error {
	type lane struct {
		tid int
		end float64
	}
	lanes := map[int][]*lane{} // by kind
	nextTid := alertTids
	place := func(a *pfAlert) {
		from, to := float64(a.t), float64(a.end)
		var l *lane
		for _, x := range lanes[a.kind] {
			if x.end <= from {
				l = x
				break
			}
		}
		if l == nil {
			l = &lane{tid: nextTid}
			nextTid++
			lanes[a.kind] = append(lanes[a.kind], l)
			a.meta, a.lane = true, len(p.lanes)
			p.lanes = append(p.lanes, pfLane{tid: l.tid, kind: p.kinds[a.kind], late: !a.cleared || a.t > 0})
		}
		l.end = to
		a.tid = l.tid
	}
	var a pfAlert
	open := 0
	for _, cleared := range []bool{true, false} {
		for k := range p.alerts.n {
			if err := p.alerts.get(k, &a); err != nil {
				return err
			}
			if a.cleared != cleared {
				continue
			}
			if !cleared {
				a.end, a.atEnd = p.last+1, open
				open++
			}
			place(&a)
			if err := p.alerts.put(k, &a); err != nil {
				return err
			}
		}
	}
	return nil
}

func perfetto(out io.Writer, src Source, w Window, force bool) error {
	plan, err := planPerfetto(src, w)
	if err != nil {
		return err
	}
	defer plan.alerts.close()
	if plan.bytes > PerfettoMaxBytes && !force {
		return &RefusedError{fmt.Sprintf("the Perfetto trace of %s would be about %s, over the %s that Perfetto's UI opens in a browser: "+
			"narrow it with --from/--to or --nodes, or write it anyway with --force", windowName(w), sizeText(plan.bytes), sizeText(PerfettoMaxBytes))}
	}
	// The next planned alert, read from the log in line order.
	var next pfAlert
	nextK, haveNext := 0, false
	advance := func() error {
		if haveNext = nextK < plan.alerts.n; !haveNext {
			return nil
		}
		nextK++
		return plan.alerts.get(nextK-1, &next)
	}
	if err := advance(); err != nil {
		return err
	}
	h := src.Header()
	info := &h.Info
	ids := w.IDs(info.IDs)
	bw := bufio.NewWriterSize(out, 1<<20)
	var line []byte
	write := func(it *pfItem, comma bool) {
		line = it.appendJSON(line[:0])
		if comma {
			line = append(line, ',')
		}
		line = append(line, '\n')
		bw.Write(line)
	}
	var idx uint64
	// The metadata that heads the file.
	bw.WriteString(`{"displayTimeUnit":"ns","traceEvents":[` + "\n")
	meta := func(name string, tid int, value string) *pfItem {
		idx++
		return &pfItem{name: name, ph: "M", tid: tid, idx: idx, args: appendJSONObject(nil, "name", value)}
	}
	write(meta("process_name", 0, fmt.Sprintf("clusterlab: %s (%s, seed %d)", info.Name, info.Algorithm, h.Seed)), true)
	write(meta("thread_name", 0, "cluster"), true)
	for _, id := range ids {
		write(meta("thread_name", int(id), id.String()), true)
	}
	// The rest, in time order, as the window allows: an item waits in the heap
	// until no item made later can come before it.
	var pending pfHeap
	var lastOut *pfItem // written once the next shows it is not the last
	flushBelow := func(limit float64) {
		for len(pending) > 0 && pending[0].ts < limit {
			it := heap.Pop(&pending).(pfKey).it
			if lastOut != nil {
				write(lastOut, true)
			}
			lastOut = it
		}
	}
	const late = 1 << 62 // made "at the end": after every item of its time
	push := func(it *pfItem) *pfItem {
		if it.idx == 0 {
			idx++
			it.idx = idx
		}
		heap.Push(&pending, pfKey{it.ts, it.idx, it})
		return it
	}
	for i, l := range plan.lanes {
		if l.late {
			push(&pfItem{name: "thread_name", ph: "M", tid: l.tid, idx: late + uint64(i), args: appendJSONObject(nil, "name", "alert "+l.kind)})
		}
	}
	ts := func(us int64, off float64) float64 { return float64(us) + off }
	instant := func(tid int, at float64, cat, name string, args []byte) {
		push(&pfItem{name: name, cat: cat, ph: "i", ts: at, tid: tid, scope: "t", args: args})
	}

	// Node state, folded from the start.
	type nodeState struct {
		lead  int64 // the term it leads in, or -1
		held  bool
		down  bool
		since float64  // when its last state slice began
		open  []string // state slices open on its track, innermost last
		stepT int64    // the time of its current step slice, or -1
		step  *pfItem  // that slice
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
			push(&pfItem{name: name, cat: "state", ph: "B", ts: at, tid: int(id)})
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
				push(&pfItem{name: s.open[j], cat: "state", ph: "E", ts: at, tid: int(id)})
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
	// step counts e in its node's step slice at e's time, starting one if needed.
	step := func(id node.ID, e *trace.Event, name string) {
		s := states[id]
		if s.stepT == e.T {
			s.step.events++
			return
		}
		s.stepT = e.T
		s.step = push(&pfItem{name: name, cat: "step", ph: "X", ts: ts(e.T, 0), dur: stepDur, hasDur: true, tid: int(id),
			step: true, events: 1, firstSeq: e.Seq})
	}
	// The flows, numbered as their deliveries are read; a flow's start is made
	// with its send (see pfAhead), after what is made at its time, in the order
	// of the flows.
	known := func(e *trace.Event) bool {
		return (e.Node == node.None || states[e.Node] != nil) && (!e.IsMessage() || states[e.From] != nil && states[e.To] != nil)
	}
	sends := pfSends{fates: plan.fates}
	ahead := newPfAhead(src, w, plan.fates, known)
	defer ahead.close()
	const startIdx = 1 << 61 // after every item made at its time, before those made at the end
	pos := 0
	last := int64(0)
	kept := false
	tail, err := each(src, func(e *trace.Event) (bool, error) {
		pos++
		if malformed(e) {
			return false, nil
		}
		if w.past(e.T, e.Seq) {
			return true, nil
		}
		keep := w.Keep(e)
		kept = kept || keep
		if !known(e) {
			return false, nil // a node the header does not name
		}
		flow, sent := sends.see(e, keep)
		// Write what nothing to come can precede.
		flushBelow(ts(e.T, before))
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
			return false, nil
		}
		switch e.Ev {
		case trace.Send:
			step(e.From, e, "send "+msgLabel(e.Msg)+" to "+e.To.String())
			if plan.fates.of(e.MID) > 0 {
				err := ahead.flowsOf(pos, e.MID, func(id uint64) {
					push(&pfItem{name: e.Msg.Type, cat: "msg", ph: "s", ts: ts(e.T, flowAt), tid: int(e.From), id: id, idx: startIdx + id})
				})
				if err != nil {
					return true, err
				}
			}
		case trace.Deliver:
			if e.Local {
				step(e.To, e, "self "+msgLabel(e.Msg))
				break
			}
			step(e.To, e, "recv "+msgLabel(e.Msg)+" from "+e.From.String())
			if flow != 0 {
				if sent == e.T { // its start was not made with its send
					push(&pfItem{name: e.Msg.Type, cat: "msg", ph: "s", ts: ts(sent, flowAt), tid: int(e.From), id: flow})
				}
				push(&pfItem{name: e.Msg.Type, cat: "msg", ph: "f", bp: "e", ts: at(flowAt), tid: int(e.To), id: flow})
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
			args := appendJSONField(appendJSONField([]byte{'{'}, "line", strconv.AppendUint(nil, e.Seq, 10)), "text", trace.AppendString(nil, e.Text))
			instant(0, at(0), "alert", "alert "+e.Kind, append(args[:len(args)-1], '}'))
			if haveNext && next.seq == e.Seq {
				a := next
				if err := advance(); err != nil {
					return true, err
				}
				if a.meta && !plan.lanes[a.lane].late {
					push(&pfItem{name: "thread_name", ph: "M", tid: a.tid, args: appendJSONObject(nil, "name", "alert "+e.Kind)})
				}
				d := max(float64(a.end)-float64(e.T), stepDur)
				args := appendJSONField(appendJSONField([]byte{'{'}, "cleared", strconv.AppendBool(nil, a.cleared)), "text", trace.AppendString(nil, e.Text))
				it := &pfItem{name: e.Kind, cat: "alert", ph: "X", ts: at(0), dur: d, hasDur: true, tid: a.tid, args: append(args[:len(args)-1], '}')}
				if !a.cleared {
					it.idx = late + uint64(len(plan.lanes)) + uint64(a.atEnd)
				}
				push(it)
			}
		case trace.AlertCleared:
			args := appendJSONField(appendJSONField([]byte{'{'}, "alert line", strconv.AppendUint(nil, e.Ref, 10)), "text", trace.AppendString(nil, e.Text))
			instant(0, at(0), "alert", "alert cleared", append(args[:len(args)-1], '}'))
		case trace.Detect:
			instant(0, at(0), "detector", "every live node suspects "+e.Node.String(), appendJSONObject(nil, "latency", e.Value))
		case trace.Expect:
			args := appendJSONField(appendJSONField([]byte{'{'}, "observed", trace.AppendString(nil, e.Value)), "ok", strconv.AppendBool(nil, e.OK != nil && *e.OK))
			instant(0, at(0), "expect", "expect "+oneLine(e.Text), append(args[:len(args)-1], '}'))
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	if !kept {
		return &RefusedError{"no events " + emptyText(tail, w)}
	}
	// Close what is still open just after the window's last event.
	for _, id := range ids {
		s := states[id]
		for len(s.open) > 0 {
			end(id, ts(last+1, 0), 0, s.open[0])
		}
	}
	flushBelow(math.Inf(1))
	if lastOut != nil {
		write(lastOut, false)
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// appendJSON appends the item as encoding/json writes a pfEvent.
func (it *pfItem) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = trace.AppendString(b, it.name)
	if it.cat != "" {
		b = append(b, `,"cat":`...)
		b = trace.AppendString(b, it.cat)
	}
	b = append(b, `,"ph":`...)
	b = trace.AppendString(b, it.ph)
	b = append(b, `,"ts":`...)
	b = appendJSONFloat(b, it.ts)
	if it.hasDur {
		b = append(b, `,"dur":`...)
		b = appendJSONFloat(b, it.dur)
	}
	b = append(b, `,"pid":1,"tid":`...)
	b = strconv.AppendInt(b, int64(it.tid), 10)
	if it.id != 0 {
		b = append(b, `,"id":`...)
		b = strconv.AppendUint(b, it.id, 10)
	}
	if it.bp != "" {
		b = append(b, `,"bp":`...)
		b = trace.AppendString(b, it.bp)
	}
	if it.scope != "" {
		b = append(b, `,"s":`...)
		b = trace.AppendString(b, it.scope)
	}
	switch {
	case it.step:
		b = append(b, `,"args":{"events":`...)
		b = strconv.AppendInt(b, int64(it.events), 10)
		b = append(b, `,"first seq":`...)
		b = strconv.AppendUint(b, it.firstSeq, 10)
		b = append(b, '}')
	case it.args != nil:
		b = append(b, `,"args":`...)
		b = append(b, it.args...)
	}
	return append(b, '}')
}

// appendJSONObject appends {"key":"value"}.
func appendJSONObject(b []byte, key, value string) []byte {
	b = append(b, '{')
	b = trace.AppendString(b, key)
	b = append(b, ':')
	b = trace.AppendString(b, value)
	return append(b, '}')
}

// appendJSONField appends "key":value, to an object being written (b ends with
// { or a value); it leaves a comma, which the caller replaces with the closing }.
func appendJSONField(b []byte, key string, value []byte) []byte {
	b = trace.AppendString(b, key)
	b = append(b, ':')
	b = append(b, value...)
	return append(b, ',')
}

// appendJSONFloat appends f as encoding/json writes a float64.
func appendJSONFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
