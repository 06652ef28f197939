package trace

import (
	"strings"

	"github.com/clusterlab/clusterlab/node"
)

// RowCap is how many rows of the dashboard's timeline a State keeps: the latest,
// of each sort apart (rows and heartbeat rows), so that a storm of heartbeats,
// hidden by default, never pushes the rows a student reads out of the past.
const RowCap = 1000

// RowKind says what a timeline row shows: a trace event, or a change the folded
// state makes visible that no single event names (a new leader, a critical
// section entered or left). Status events carry those changes; the rows carry
// them with their own time, so that a replay sought to any instant draws the
// same rows, stamped the same, as the live run did.
type RowKind uint8

const (
	RowEvent    RowKind = iota // Event itself
	RowLeader                  // Event.Node now believes it leads
	RowNoLeader                // no live process believes it leads any more
	RowCSEnter                 // Event.Node entered the critical section
	RowCSLeave                 // Event.Node left it (or crashed inside)
)

// Lane is one process as a timeline row draws its lifeline: down, cut off by
// isolate, and its partition group (0 while the network is whole).
type Lane struct {
	Down, Isolated bool
	Group          int
}

// Row is one row of the dashboard's timeline, with the world as it was then. A
// message's row (most of them) keeps what its arrow shows; any other keeps its
// event whole in Ext.
type Row struct {
	Kind RowKind
	// Beat is set on the delivery or drop of a heartbeat, hidden by default.
	Beat bool
	// Seq, T, Ev and Node are the event's, or for a derived row those of the
	// event that made the change (Node: whose change; None for RowNoLeader).
	Seq      uint64
	T        int64
	Ev       string
	Node     node.ID
	From, To node.ID      // a message's ends
	Msg      node.Message // a message's copy (its Type is "" on other rows)
	Reason   string       // why a message was dropped
	Ext      *Event       // any other event, whole (no status)
	// Lanes are the processes at this row, in the order of Snapshot.Nodes. Rows
	// share them until the next crash, revival, partition, isolation or heal;
	// no one writes to them.
	Lanes []Lane
}

// IsHeartbeat reports whether a message type is a heartbeat: the periodic
// messages that the dashboard hides unless asked (H), and that do not count
// against the rows a timeline keeps of everything else.
func IsHeartbeat(typ string) bool { return strings.EqualFold(typ, "HEARTBEAT") }

// rowRing keeps the latest RowCap rows of one sort, written in place: folding a
// row allocates nothing (a replay folds millions of events), and a snapshot
// copies the ring once per frame instead.
type rowRing struct {
	r    []Row
	head int
	full bool
}

func (g *rowRing) push(r *Row) {
	if g.r == nil {
		g.r = make([]Row, RowCap)
	}
	g.r[g.head] = *r
	g.head = (g.head + 1) % len(g.r)
	if g.head == 0 {
		g.full = true
	}
}

// rows is the ring's rows, oldest first, in a slice of their own.
func (g *rowRing) rows() []Row {
	if g.full {
		return append(append(make([]Row, 0, len(g.r)), g.r[g.head:]...), g.r[:g.head]...)
	}
	return append([]Row(nil), g.r[:g.head]...)
}

func (g *rowRing) clone() rowRing {
	c := *g
	if g.r != nil {
		c.r = append([]Row(nil), g.r...)
	}
	return c
}

// rowLog folds events into timeline rows.
type rowLog struct {
	rows, beats rowRing
	lanes       []Lane // the current lanes, replaced (never changed) by a fault
	leads       []bool // by node index: up and believing it leads
	leaders     int
	held        []bool // by node index: in the critical section
}

func newRowLog(n int) rowLog {
	return rowLog{lanes: make([]Lane, n), leads: make([]bool, n), held: make([]bool, n)}
}

// view is the rows to hand out, copies.
func (l *rowLog) view() (rows, beats []Row) { return l.rows.rows(), l.beats.rows() }

// clone is a log that goes on apart from l.
func (l *rowLog) clone() rowLog {
	c := *l
	c.rows, c.beats = l.rows.clone(), l.beats.clone()
	c.leads, c.held = append([]bool(nil), l.leads...), append([]bool(nil), l.held...)
	return c
}

// push adds a row.
func (l *rowLog) push(r *Row) {
	r.Lanes = l.lanes
	if r.Beat {
		l.beats.push(r)
	} else {
		l.rows.push(r)
	}
}

// relane takes the lanes from the nodes after a fault.
func (l *rowLog) relane(nodes []NodeView) {
	lanes := make([]Lane, len(nodes))
	for i, n := range nodes {
		lanes[i] = Lane{Down: !n.Up, Isolated: n.Isolated, Group: n.Group}
	}
	l.lanes = lanes
}

// Message is the row's message, or nil for a row that is not a message's.
func (r *Row) Message() *node.Message {
	if r.Msg.Type == "" {
		return nil
	}
	return &r.Msg
}

// add folds event e, which st has just applied.
func (l *rowLog) add(st *State, e *Event) {
	s := &st.snap
	switch e.Ev {
	case Crash, Recover, Partition, Isolate, Heal:
		l.relane(s.Nodes)
	}
	switch e.Ev {
	case Deliver, Drop:
		if e.Ev == Deliver && (e.Local || e.From == e.To) {
			return
		}
		r := Row{Seq: e.Seq, T: e.T, Ev: e.Ev, From: e.From, To: e.To, Reason: e.Reason}
		if e.Msg != nil {
			r.Msg, r.Beat = *e.Msg, IsHeartbeat(e.Msg.Type)
		}
		l.push(&r)
	case Crash, Recover, Partition, Isolate, Cut, Heal, GST, Marker, Alert, AlertCleared, Request, Detect, Knob:
		x := *e
		x.Msg, x.Status = nil, nil
		l.push(&Row{Seq: e.Seq, T: e.T, Ev: e.Ev, Node: e.Node, Ext: &x})
	case StatusEv:
		l.changes(st, e)
	}
	if e.Ev == Crash || e.Ev == Recover {
		l.changes(st, e)
	}
}

// changes adds the rows that e's node's new state makes: a leader won or lost, or
// a critical section entered or left.
func (l *rowLog) changes(st *State, e *Event) {
	s := &st.snap
	i, ok := st.index[e.Node]
	if !ok || i >= len(l.leads) {
		return
	}
	n := &s.Nodes[i]
	at := Row{Seq: e.Seq, T: e.T, Ev: e.Ev, Node: e.Node}
	if s.Info.Family == "mutex" {
		held := n.Up && n.Status.CS == node.CSHeld
		if held != l.held[i] {
			l.held[i] = held
			k := RowCSEnter
			if !held {
				k = RowCSLeave
			}
			at.Kind = k
			l.push(&at)
		}
		return
	}
	leads := n.Up && n.Status.Leader == n.ID
	if leads == l.leads[i] {
		return
	}
	l.leads[i] = leads
	if leads {
		l.leaders++
		at.Kind = RowLeader
		l.push(&at)
	} else if l.leaders--; l.leaders == 0 {
		at.Kind, at.Node = RowNoLeader, node.None
		l.push(&at)
	}
}
