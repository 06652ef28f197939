package export

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// CSVTables names the tables the CSV export writes, as --table names them; the
// first is the default.
var CSVTables = []string{"messages", "events"}

// MessageColumns are the message table's fixed columns, in order; the payload
// columns (PayloadColumns) follow those any message of the window uses.
var MessageColumns = []string{"mid", "type", "from", "to", "sent_s", "delivered_s", "fate", "drop_reason"}

// PayloadColumns are the message fields, in the order the message table writes
// them: the id a message carries, its term, timestamp and flag, the ids it
// collected on the way (space-separated), and how many more times than once it
// was delivered (duplicates).
var PayloadColumns = []string{"msg_id", "msg_term", "msg_ts", "msg_flag", "msg_list", "duplicates"}

// Message fates.
const (
	FateDelivered = "delivered" // it reached its receiver (at delivered_s)
	FateDropped   = "dropped"   // it was lost (drop_reason says why)
	FateInFlight  = "in-flight" // neither by the end of the trace
	FateLocal     = "local"     // a process's message to itself, never on the network
)

// CSV writes table ("messages" or "events"; "" is messages) of the window as RFC
// 4180 with CRLF line ends, after a header row. See CSVMessages and CSVEvents.
func CSV(out io.Writer, src Source, w Window, table string) error {
	t, err := readAll(src)
	if err != nil {
		return err
	}
	if err := nonEmpty(t, w); err != nil {
		return err
	}
	return csvMem(out, t, w, table)
}

func csvMem(out io.Writer, t *trace.Trace, w Window, table string) error {
	var rows [][]string
	switch table {
	case "", "messages":
		rows = csvMessages(t, w)
	case "events":
		rows = csvEvents(t, w)
	default:
		return fmt.Errorf("--table %q: expected messages or events", table)
	}
	if len(rows) < 2 {
		if table == "events" {
			return &RefusedError{"no events " + emptyText(traceTail(t), w)}
		}
		return &RefusedError{"no messages " + emptyText(traceTail(t), w) + " (--table events lists every event)"}
	}
	bw := bufio.NewWriter(out)
	cw := csv.NewWriter(bw)
	cw.UseCRLF = true
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return bw.Flush()
}

// csvMessages is the message table: one row per message whose send is in the
// window (its time in the span, both ends selected), in the order they were sent.
// Times are in seconds; a payload column that no row uses is left out.
func csvMessages(t *trace.Trace, w Window) [][]string {
	type msg struct {
		send          *trace.Event
		delivered     int64
		deliveries    int
		drop          string
		dropT         int64
		local, landed bool
	}
	var order []uint64
	msgs := map[uint64]*msg{}
	for i := range t.Events {
		e := &t.Events[i]
		if !e.IsMessage() || malformed(e) {
			continue
		}
		m := msgs[e.MID]
		if e.Ev == trace.Send {
			if !w.Keep(e) {
				continue
			}
			m = &msg{send: e}
			msgs[e.MID] = m
			order = append(order, e.MID)
			continue
		}
		if m == nil {
			continue // its send is outside the window
		}
		switch e.Ev {
		case trace.Deliver:
			if !m.landed {
				m.landed, m.delivered = true, e.T
			}
			m.deliveries++
			m.local = m.local || e.Local
		case trace.Drop:
			if m.drop == "" {
				m.drop, m.dropT = e.Reason, e.T
			}
		}
	}
	used := make([]bool, len(PayloadColumns))
	rows := make([][]string, 0, len(order)+1)
	for _, mid := range order {
		m := msgs[mid]
		e := m.send
		row := []string{strconv.FormatUint(mid, 10), e.Msg.Type, e.From.String(), e.To.String(), seconds(e.T), "", "", ""}
		switch {
		case m.local:
			row[5], row[6] = seconds(m.delivered), FateLocal
		case m.landed:
			row[5], row[6] = seconds(m.delivered), FateDelivered
		case m.drop != "":
			row[6], row[7] = FateDropped, m.drop
		default:
			row[6] = FateInFlight
		}
		p := payload(e.Msg, m.deliveries)
		for i, v := range p {
			used[i] = used[i] || v != ""
		}
		rows = append(rows, append(row, p...))
	}
	header := slices.Clone(MessageColumns)
	header = append(header, PayloadColumns...)
	rows = append([][]string{header}, rows...)
	return dropColumns(rows, len(MessageColumns), used)
}

// payload is a message's PayloadColumns.
func payload(m *node.Message, deliveries int) []string {
	dups := ""
	if deliveries > 1 {
		dups = strconv.Itoa(deliveries - 1)
	}
	return []string{idText(m.ID), numText(m.Term), numText(m.Stamp), flagText(m.Flag), joinIDs(m.List.IDs(), " "), dups}
}

// EventColumns are the event table's columns, in order; a column that no row of
// the window uses is left out, and the status counters follow as one column each,
// named counter_NAME, in name order.
var EventColumns = []string{"seq", "t_s", "ev", "node", "from", "to", "type", "mid", "reason", "text",
	"msg_id", "msg_term", "msg_ts", "msg_flag", "msg_list", "dup", "local", "name", "value", "inc", "kind", "by", "ok", "ref",
	"role", "leader", "term", "status_inc", "cs", "suspects", "groups"}

// csvEvents is the event table: one row per event of the window.
func csvEvents(t *trace.Trace, w Window) [][]string {
	var names []string // counter names
	for i := range t.Events {
		e := &t.Events[i]
		if e.Ev == trace.StatusEv && e.Status != nil && w.Keep(e) {
			for _, c := range e.Status.Counters {
				if !slices.Contains(names, c.Name) {
					names = append(names, c.Name)
				}
			}
		}
	}
	slices.Sort(names)
	header := slices.Clone(EventColumns)
	for _, n := range names {
		header = append(header, "counter_"+n)
	}
	used := make([]bool, len(header))
	rows := [][]string{header}
	for i := range t.Events {
		e := &t.Events[i]
		if !w.Keep(e) || malformed(e) {
			continue
		}
		row := eventRow(e, names)
		for i, v := range row {
			used[i] = used[i] || v != ""
		}
		rows = append(rows, row)
	}
	return dropColumns(rows, 0, used)
}

func eventRow(e *trace.Event, counters []string) []string {
	row := make([]string, len(EventColumns), len(EventColumns)+len(counters))
	set := func(col, v string) { row[slices.Index(EventColumns, col)] = v }
	set("seq", strconv.FormatUint(e.Seq, 10))
	set("t_s", seconds(e.T))
	set("ev", e.Ev)
	set("node", idText(e.Node))
	set("from", idText(e.From))
	set("to", idText(e.To))
	if e.MID != 0 {
		set("mid", strconv.FormatUint(e.MID, 10))
	}
	set("reason", e.Reason)
	set("text", e.Text)
	if m := e.Msg; m != nil {
		set("type", m.Type)
		p := payload(m, 0)
		for i, col := range PayloadColumns[:5] {
			set(col, p[i])
		}
	}
	set("dup", flagText(e.Dup))
	set("local", flagText(e.Local))
	set("name", e.Name)
	set("value", e.Value)
	set("inc", numText(e.Inc))
	set("kind", e.Kind)
	set("by", e.By)
	if e.OK != nil {
		set("ok", strconv.FormatBool(*e.OK))
	}
	if e.Ref != 0 {
		set("ref", strconv.FormatUint(e.Ref, 10))
	}
	if e.Groups != nil {
		set("groups", groupsText(e.Groups))
	}
	s := e.Status
	if s != nil {
		set("role", s.Role)
		set("leader", idText(s.Leader))
		set("term", numText(s.Term))
		set("status_inc", numText(s.Inc))
		if s.CS != node.CSNone {
			set("cs", s.CS.String())
		}
		set("suspects", joinIDs(s.Suspects, " "))
	}
	for _, name := range counters {
		v := ""
		if s != nil {
			if n, ok := s.Counter(name); ok {
				v = strconv.FormatInt(n, 10)
			}
		}
		row = append(row, v)
	}
	return row
}

// dropColumns removes from every row the columns at from+i where used[i] is
// false (the rows' first from columns are always kept).
func dropColumns(rows [][]string, from int, used []bool) [][]string {
	for r, row := range rows {
		out := row[:from]
		for i, v := range row[from:] {
			if used[i] {
				out = append(out, v)
			}
		}
		rows[r] = out
	}
	return rows
}

func idText(x node.ID) string {
	if x == node.None {
		return ""
	}
	return x.String()
}

func numText(x int64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatInt(x, 10)
}

func flagText(b bool) string {
	if b {
		return "true"
	}
	return ""
}
