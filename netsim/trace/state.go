package trace

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/node"
)

// RecentCap is how many recent events a State keeps for the traffic feed and the
// timeline.
const RecentCap = 512

// AlertCap is how many alerts, open alerts and markers a State keeps (the latest);
// alerts are also counted by kind. With RateCap it keeps a long session's snapshot
// the same size after an hour as after a minute.
const AlertCap = 200

// RateCap is how many one-second buckets of the delivery rate a State keeps.
const RateCap = 600

// AlertView is an alert and, once its condition has ended, when and how.
type AlertView struct {
	Event         // the alert
	Cleared int64 // when it cleared (µs), or -1 while it holds
	How     string
}

// Open reports whether the alert's condition still holds.
func (a *AlertView) Open() bool { return a.Cleared < 0 }

// NodeView is one process as the dashboard shows it.
type NodeView struct {
	ID     node.ID
	Up     bool
	Slow   int   // factor; 1 is normal speed
	Inc    int64 // runtime incarnation: 1, then +1 per revival
	Status node.Status
	// Group is the index of the node's partition group (0 when the network is whole);
	// Isolated is set by `isolate`.
	Group    int
	Isolated bool
	// WantedSince is when the node last asked for the critical section (µs), or -1.
	WantedSince int64
	// HeldSince is when the node last entered the critical section (µs), or -1 when
	// it is not inside.
	HeldSince int64
	// DownSince is when the node last crashed (µs); it means something while !Up.
	DownSince int64
}

// TypeCount counts the messages of one type by fate.
type TypeCount struct {
	Type      string
	Sent      int
	Delivered int
	Dropped   int
}

// Snapshot is an immutable picture of the cluster at one instant, folded from the
// trace. The dashboard renders nothing else.
type Snapshot struct {
	Info Info
	T    int64  // virtual time, µs
	Seq  uint64 // events folded so far
	// Idle says that nothing is pending: no message, timer or scripted action is
	// due, so virtual time passes with nothing happening (set by a live session).
	Idle  bool
	Nodes []NodeView

	Latency     string
	Loss, Dup   float64
	Delta       int64
	GSTAt       int64 // scheduled or reached GST, µs; -1 if never
	Synchronous bool  // GST has been reached
	Groups      [][]node.ID
	Cuts        [][2]node.ID
	// InFlight is how many messages are on their way: sent, and their first copy
	// neither delivered nor lost yet (see State.landed).
	InFlight int

	Types  []TypeCount    // by type name
	Drops  map[string]int // by reason; read-only
	Recent []Event        // oldest first, at most RecentCap

	Alerts      []AlertView    // the latest AlertCap, oldest first
	AlertCount  int            // every alert so far
	AlertKinds  map[string]int // every alert so far by kind; read-only
	Open        []AlertView    // the alerts that have not cleared, oldest first (at most AlertCap)
	LastCleared AlertView      // the alert that cleared last (Seq 0: none has)
	Markers     []Event        // the latest AlertCap, oldest first
	// ScriptT is when the last scripted action other than a marker was taken
	// (µs), or -1: a story line (a marker) is stale once the script moves on.
	ScriptT int64

	// Rows are the dashboard timeline's rows, oldest first: the latest RowCap,
	// heartbeats apart in Beats (the latest RowCap of them).
	Rows, Beats []Row

	// Rate is messages delivered per virtual second, one bucket per second, for the
	// last RateCap seconds at most (the last bucket is the current, partial one);
	// Rate[0] is second RateFrom.
	Rate     []float64
	RateFrom int
	// BeatRate is the heartbeats among Rate, bucket by bucket (it may be
	// shorter: the seconds after its last have none)
	BeatRate []float64
}

// Node returns the view of process id.
func (s *Snapshot) Node(id node.ID) (NodeView, bool) {
	for _, n := range s.Nodes {
		if n.ID == id {
			return n, true
		}
	}
	return NodeView{}, false
}

// Leaders lists the live processes that believe they lead.
func (s *Snapshot) Leaders() []node.ID {
	var out []node.ID
	for _, n := range s.Nodes {
		if n.Up && n.Status.Leader == n.ID {
			out = append(out, n.ID)
		}
	}
	return out
}

// State folds events into what the dashboard shows. Apply events in order; Snapshot
// takes a copy at any point.
type State struct {
	snap   Snapshot
	index  map[node.ID]int
	types  map[string]int // index into snap.Types
	recent []Event        // ring buffer
	msgs   []node.Message // the messages of recent's events, where their Msg points
	head   int
	full   bool
	rows   rowLog // the timeline's rows
}

// NewState starts from the header: every process up, the network as configured.
func NewState(h Header) *State {
	st := &State{index: map[node.ID]int{}, types: map[string]int{}, recent: make([]Event, RecentCap), msgs: make([]node.Message, RecentCap),
		rows: newRowLog(len(h.Info.IDs))}
	s := &st.snap
	s.Info = h.Info
	for i, id := range h.Info.IDs {
		st.index[id] = i
		s.Nodes = append(s.Nodes, NodeView{ID: id, Up: true, Slow: 1, Inc: 1, WantedSince: -1, HeldSince: -1})
	}
	s.Latency, s.Loss, s.Dup, s.Delta = h.Info.Latency, h.Info.Loss, h.Info.Dup, h.Info.Delta
	s.GSTAt = h.Info.GST
	s.Synchronous = h.Info.GST == 0
	if !s.Synchronous && h.Info.PreLatency != "" {
		s.Latency, s.Loss = h.Info.PreLatency, h.Info.PreLoss
	}
	s.Drops = map[string]int{}
	s.AlertKinds = map[string]int{}
	s.ScriptT = -1
	return st
}

// Record makes a State a Sink: it folds every event it is handed.
func (st *State) Record(e *Event) { st.Apply(e) }

// Clone copies the state, so that folding can go on from a checkpoint.
func (st *State) Clone() *State {
	c := &State{index: st.index, types: make(map[string]int, len(st.types)), head: st.head, full: st.full, rows: st.rows.clone()}
	c.recent, c.msgs = copyRecent(st.recent, st.msgs)
	for k, v := range st.types {
		c.types[k] = v
	}
	c.snap = st.copySnap(false)
	return c
}

// Apply folds one event.
func (st *State) Apply(e *Event) {
	s := &st.snap
	s.T, s.Seq = e.T, e.Seq
	switch e.Ev {
	case Send:
		st.count(e.Msg.Type).Sent++
		s.InFlight++
	case Deliver:
		if !e.Local {
			st.count(e.Msg.Type).Delivered++
			st.landed(e)
			st.rate(e.T, IsHeartbeat(e.Msg.Type))
		}
	case Drop:
		st.count(e.Msg.Type).Dropped++
		s.Drops[e.Reason]++
		st.landed(e)
	case Crash:
		if n := st.node(e.Node); n != nil {
			n.Up = false
			n.WantedSince, n.HeldSince = -1, -1
			n.DownSince = e.T
		}
	case Recover:
		if n := st.node(e.Node); n != nil {
			n.Up, n.Inc = true, e.Inc
			n.Status = node.Status{}
		}
	case StatusEv:
		if n := st.node(e.Node); n != nil && e.Status != nil {
			was := n.Status.CS
			n.Status = e.Status.Clone()
			if n.Status.CS == node.CSWanted && was != node.CSWanted {
				n.WantedSince = e.T
			} else if n.Status.CS != node.CSWanted {
				n.WantedSince = -1
			}
			if n.Status.CS == node.CSHeld && was != node.CSHeld {
				n.HeldSince = e.T
			} else if n.Status.CS != node.CSHeld {
				n.HeldSince = -1
			}
		}
	case Partition:
		s.Groups = cloneGroups(e.Groups)
		st.regroup()
	case Isolate:
		if n := st.node(e.Node); n != nil {
			n.Isolated = true
		}
	case Cut:
		s.Cuts = append(s.Cuts, [2]node.ID{e.From, e.To})
	case Heal:
		s.Groups, s.Cuts = nil, nil
		for i := range s.Nodes {
			s.Nodes[i].Isolated = false
		}
		st.regroup()
	case GST:
		s.GSTAt, s.Synchronous = e.T, true
		s.Latency, s.Loss = s.Info.Latency, s.Info.Loss
	case Knob:
		st.knob(e)
	case Alert:
		st.alert(e)
	case AlertCleared:
		st.cleared(e)
	case Action:
		if e.By == "script" && !strings.HasPrefix(e.Text, "marker ") {
			s.ScriptT = e.T
		}
	case Marker:
		x := *e
		x.Msg, x.Status = nil, nil
		s.Markers = keepLast(append(s.Markers, x), AlertCap)
	}
	if e.Ev != StatusEv && e.Ev != Log {
		x := *e
		if e.Msg != nil {
			// Kept beside the ring, not allocated: a replay folds millions.
			st.msgs[st.head] = *e.Msg
			x.Msg = &st.msgs[st.head]
		}
		x.Status = nil
		st.recent[st.head] = x
		st.head = (st.head + 1) % len(st.recent)
		if st.head == 0 {
			st.full = true
		}
	}
	st.rows.add(st, e)
}

// InFlight is the messages in flight now (Snapshot().InFlight, without the copy).
func (st *State) InFlight() int { return st.snap.InFlight }

// landed takes a copy that arrived or was lost off the messages in flight. A
// message is in flight from its send until its first copy (the one not marked
// dup) arrives or is lost. A duplicate copy is known only when it lands: it comes
// in and goes out at once, so it adds nothing, and the count never goes below
// zero, whatever a file says.
func (st *State) landed(e *Event) {
	if !e.Dup && st.snap.InFlight > 0 {
		st.snap.InFlight--
	}
}

// alert keeps a raised alert among the latest and the open ones, and counts it.
func (st *State) alert(e *Event) {
	s := &st.snap
	x := AlertView{Event: *e, Cleared: -1}
	x.Msg, x.Status = nil, nil
	s.AlertCount++
	s.AlertKinds[e.Kind]++
	s.Alerts = keepLast(append(s.Alerts, x), AlertCap)
	s.Open = keepLast(append(s.Open, x), AlertCap)
}

// cleared closes the alert whose Seq is e.Ref.
func (st *State) cleared(e *Event) {
	s := &st.snap
	i := slices.IndexFunc(s.Open, func(a AlertView) bool { return a.Seq == e.Ref })
	if i < 0 {
		return // already closed, or so old that it is no longer kept
	}
	a := s.Open[i]
	a.Cleared, a.How = e.T, e.Text
	s.Open = slices.Delete(s.Open, i, i+1)
	s.LastCleared = a
	for j := len(s.Alerts) - 1; j >= 0; j-- {
		if s.Alerts[j].Seq == e.Ref {
			s.Alerts[j] = a
			break
		}
	}
}

// keepLast drops the oldest elements of s beyond n, in place.
func keepLast[T any](s []T, n int) []T {
	if len(s) <= n {
		return s
	}
	k := copy(s, s[len(s)-n:])
	clear(s[k:])
	return s[:k]
}

func (st *State) knob(e *Event) {
	s := &st.snap
	switch e.Name {
	case "loss":
		s.Loss = parseFloat(e.Value)
		if s.Synchronous {
			s.Info.Loss = s.Loss
		}
	case "dup":
		s.Dup = parseFloat(e.Value)
	case "latency":
		s.Latency = e.Value
		s.Info.Latency = e.Value
	case "slow":
		if n := st.node(e.Node); n != nil {
			n.Slow = int(parseFloat(e.Value))
		}
	}
}

func (st *State) node(id node.ID) *NodeView {
	i, ok := st.index[id]
	if !ok {
		return nil
	}
	return &st.snap.Nodes[i]
}

func (st *State) count(typ string) *TypeCount {
	i, ok := st.types[typ]
	if !ok {
		i = len(st.snap.Types)
		st.types[typ] = i
		st.snap.Types = append(st.snap.Types, TypeCount{Type: typ})
	}
	return &st.snap.Types[i]
}

// rate counts a delivery at t in its second's bucket, and in BeatRate's too for
// a heartbeat; both windows slide together.
func (st *State) rate(t int64, beat bool) {
	s := &st.snap
	sec := int(t/1e6) - s.RateFrom
	if sec < 0 {
		return
	}
	if sec >= RateCap {
		// slide the window so that second sec is its last bucket
		drop := sec - RateCap + 1
		slide := func(r []float64) []float64 {
			if drop >= len(r) {
				return r[:0]
			}
			return r[:copy(r, r[drop:])]
		}
		s.Rate, s.BeatRate = slide(s.Rate), slide(s.BeatRate)
		s.RateFrom += drop
		sec -= drop
	}
	for len(s.Rate) <= sec {
		s.Rate = append(s.Rate, 0)
	}
	s.Rate[sec]++
	if beat {
		for len(s.BeatRate) <= sec {
			s.BeatRate = append(s.BeatRate, 0)
		}
		s.BeatRate[sec]++
	}
}

func (st *State) regroup() {
	s := &st.snap
	for i := range s.Nodes {
		s.Nodes[i].Group = 0
	}
	for g, members := range s.Groups {
		for _, id := range members {
			if n := st.node(id); n != nil {
				n.Group = g + 1
			}
		}
	}
}

// Snapshot returns an immutable copy of the current state.
func (st *State) Snapshot() *Snapshot {
	s := st.copySnap(true)
	return &s
}

// copySnap copies the snapshot the state keeps, and its recent events and
// timeline rows from their rings when asked: a clone has the rings, which a
// replay's kept states would otherwise hold twice.
func (st *State) copySnap(recent bool) Snapshot {
	s := st.snap
	s.Nodes = make([]NodeView, len(st.snap.Nodes))
	for i, n := range st.snap.Nodes {
		n.Status = n.Status.Clone()
		s.Nodes[i] = n
	}
	s.Groups = cloneGroups(st.snap.Groups)
	s.Cuts = append([][2]node.ID(nil), st.snap.Cuts...)
	s.Types = append([]TypeCount(nil), st.snap.Types...)
	sort.Slice(s.Types, func(i, j int) bool { return s.Types[i].Type < s.Types[j].Type })
	s.Drops = make(map[string]int, len(st.snap.Drops))
	for k, v := range st.snap.Drops {
		s.Drops[k] = v
	}
	s.Alerts = slices.Clone(st.snap.Alerts)
	s.Open = slices.Clone(st.snap.Open)
	s.AlertKinds = maps.Clone(st.snap.AlertKinds)
	s.Markers = append([]Event(nil), st.snap.Markers...)
	s.Rate = append([]float64(nil), st.snap.Rate...)
	s.BeatRate = append([]float64(nil), st.snap.BeatRate...)
	if !recent {
		// A clone keeps its rings (recent events, timeline rows) and copies
		// them out when it is snapshot.
		s.Recent, s.Rows, s.Beats = nil, nil, nil
		return s
	}
	s.Rows, s.Beats = st.rows.view()
	switch {
	case st.full:
		s.Recent = append(append([]Event(nil), st.recent[st.head:]...), st.recent[:st.head]...)
	default:
		s.Recent = append([]Event(nil), st.recent[:st.head]...)
	}
	ownMessages(s.Recent, make([]node.Message, len(s.Recent)))
	return s
}

// copyRecent copies the ring and the messages its events point to.
func copyRecent(evs []Event, msgs []node.Message) ([]Event, []node.Message) {
	out := append([]Event(nil), evs...)
	return out, ownMessages(out, append([]node.Message(nil), msgs...))
}

// ownMessages points the events' messages into msgs, copied there, so that the
// events share nothing with the ring that Apply writes over; msgs[i] is for evs[i].
func ownMessages(evs []Event, msgs []node.Message) []node.Message {
	for i := range evs {
		if evs[i].Msg != nil {
			msgs[i] = *evs[i].Msg
			evs[i].Msg = &msgs[i]
		}
	}
	return msgs
}

func cloneGroups(g [][]node.ID) [][]node.ID {
	if g == nil {
		return nil
	}
	out := make([][]node.ID, len(g))
	for i := range g {
		out[i] = append([]node.ID(nil), g[i]...)
	}
	return out
}

func parseFloat(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
