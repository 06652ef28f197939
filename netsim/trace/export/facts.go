package export

import (
	"sort"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// isFault reports whether e is a fault or a change of the network's regime: crash,
// recover, partition, heal, cut, isolate, GST or a slow node.
func isFault(e *trace.Event) bool {
	switch e.Ev {
	case trace.Crash, trace.Recover, trace.Partition, trace.Heal, trace.Cut, trace.Isolate, trace.GST:
		return true
	case trace.Knob:
		return e.Name == "slow"
	}
	return false
}

// faultText describes a fault for people, without its time.
func faultText(e *trace.Event) string { return faultTextIn(lang.En, e, plainIDs) }

// groupsText renders partition groups as "n1 n2 | n3 n4 n5", their nodes listed
// by list.
func groupsText(groups [][]node.ID, list idList) string {
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = list(g, " ")
	}
	return strings.Join(parts, " | ")
}

// msgLabel renders a message as its type and the generic fields it uses:
// "VOTE id=n3 term=2 ts=7 flag", and the size of a list it carries ("list=5 ids",
// not the ids: a list grows with the ring).
func msgLabel(m *node.Message) string {
	if m == nil {
		return "?"
	}
	var b strings.Builder
	b.WriteString(m.Type)
	if m.ID != node.None {
		b.WriteString(" id=" + m.ID.String())
	}
	if m.Term != 0 {
		b.WriteString(" term=" + strconv.FormatInt(m.Term, 10))
	}
	if m.Stamp != 0 {
		b.WriteString(" ts=" + strconv.FormatInt(m.Stamp, 10))
	}
	if m.Flag {
		b.WriteString(" flag")
	}
	if n := m.List.Len(); n > 0 {
		b.WriteString(" list=" + strconv.Itoa(n) + " ids")
	}
	return b.String()
}

// statusText renders the visible parts of a status: "leader n2, role follower,
// suspects n1".
func statusText(s *node.Status) string {
	if s == nil {
		return ""
	}
	var parts []string
	if s.Role != "" {
		parts = append(parts, "role "+s.Role)
	}
	if s.Leader != node.None {
		parts = append(parts, "leader "+s.Leader.String())
	}
	if s.Term != 0 {
		parts = append(parts, "term "+strconv.FormatInt(s.Term, 10))
	}
	if s.Inc != 0 {
		parts = append(parts, "inc "+strconv.FormatInt(s.Inc, 10))
	}
	if s.CS != node.CSNone {
		parts = append(parts, "cs "+s.CS.String())
	}
	if len(s.Suspects) > 0 {
		parts = append(parts, "suspects "+joinIDs(s.Suspects, " "))
	}
	if len(parts) == 0 {
		return "no role"
	}
	return strings.Join(parts, ", ")
}

// leaders finds leader changes: a node's status names a leader other than the last
// one it named. The first leader a node names counts (that is an election's
// outcome); a status without a leader (an election under way) does not, nor does
// naming again the leader it named before.
type leaders struct {
	last map[node.ID]node.ID
}

func newLeaders() *leaders { return &leaders{last: map[node.ID]node.ID{}} }

// see folds e and reports a leader change: the node's previous leader (None for its
// first) and true.
func (l *leaders) see(e *trace.Event) (node.ID, bool) {
	if e.Ev != trace.StatusEv || e.Status == nil || e.Status.Leader == node.None {
		return node.None, false
	}
	old := l.last[e.Node]
	if old == e.Status.Leader {
		return old, false
	}
	l.last[e.Node] = e.Status.Leader
	return old, true
}

// leaderChange is a run of leader changes to the same leader with nothing else
// reported in between: "n2 n3 n4 n5 now follow n2".
type leaderChange struct {
	T, Last int64
	Leader  node.ID
	Nodes   []node.ID
	From    []node.ID // each node's previous leader
}

// sorted is c with its nodes in id order.
func (c *leaderChange) sorted() *leaderChange {
	idx := make([]int, len(c.Nodes))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return c.Nodes[idx[a]] < c.Nodes[idx[b]] })
	s := &leaderChange{T: c.T, Last: c.Last, Leader: c.Leader}
	for _, i := range idx {
		s.Nodes = append(s.Nodes, c.Nodes[i])
		s.From = append(s.From, c.From[i])
	}
	return s
}

// agreement counts elections as the election monitors do: an election ends when
// every live process names the same live leader, other than the one agreed last.
type agreement struct {
	ids     []node.ID
	up      map[node.ID]bool
	leader  map[node.ID]node.ID
	agreed  node.ID
	count   int
	changed bool // the last event seen ended an election
}

func newAgreement(ids []node.ID) *agreement {
	a := &agreement{ids: ids, up: map[node.ID]bool{}, leader: map[node.ID]node.ID{}}
	for _, id := range ids {
		a.up[id] = true
	}
	return a
}

func (a *agreement) see(e *trace.Event) {
	a.changed = false
	switch e.Ev {
	case trace.StatusEv:
		if e.Status == nil {
			return
		}
		a.leader[e.Node] = e.Status.Leader
	case trace.Crash:
		a.up[e.Node] = false
	case trace.Recover:
		a.up[e.Node], a.leader[e.Node] = true, node.None
	default:
		return
	}
	var l node.ID
	agree, first := true, true
	for _, id := range a.ids {
		if !a.up[id] {
			continue
		}
		if first {
			l, first = a.leader[id], false
		} else if a.leader[id] != l {
			agree = false
		}
	}
	if agree && !first && l != node.None && a.up[l] {
		if l != a.agreed {
			a.count++
			a.changed = true
		}
		a.agreed = l
		return
	}
	if a.agreed != node.None && !a.up[a.agreed] {
		a.agreed = node.None
	}
}

// malformed reports an event the reader would have refused: a message event
// without its message or a status event without its status. Exports skip them.
func malformed(e *trace.Event) bool {
	return e.IsMessage() && e.Msg == nil || e.Ev == trace.StatusEv && e.Status == nil
}

// oneLine folds a text onto one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
