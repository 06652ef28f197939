package export

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
// 4180 with CRLF line ends, after a header row. See csvMessages and csvEvents. The
// rows are made as the trace is read, kept aside (a spool), and written after the
// header, which names only the columns some row uses.
func CSV(out io.Writer, src Source, w Window, table string) error {
	switch table {
	case "", "messages":
		return csvMessages(out, src, w)
	case "events":
		return csvEvents(out, src, w)
	}
	return fmt.Errorf("--table %q: expected messages or events", table)
}

// csvMessages is the message table: one row per message whose send is in the
// window (its time in the span, both ends selected), in the order they were sent.
// Times are in seconds; a payload column that no row uses is left out. A first
// reading counts each message's ends (fates); the writing makes a message's row at
// its send, with what a reading ahead of it finds of its ends (msgAhead), and
// stops at the window's end.
func csvMessages(out io.Writer, src Source, w Window) error {
	f := newFates()
	if _, err := scan(src, f.see); err != nil {
		return err
	}
	f.done()
	ahead := &msgAhead{ahead: ahead{src: src}, w: w, fates: f, reasonIdx: map[string]int{}}
	defer ahead.close()
	var sp spool
	defer sp.close()
	used := make([]bool, len(PayloadColumns))
	var cells [][]byte
	var buf []byte
	write := func(e *trace.Event, m msgEnds) error {
		row := [8]string{strconv.FormatUint(e.MID, 10), e.Msg.Type, e.From.String(), e.To.String(), seconds(e.T), "", "", ""}
		switch {
		case m.local:
			row[5], row[6] = seconds(m.delivered), FateLocal
		case m.landed:
			row[5], row[6] = seconds(m.delivered), FateDelivered
		case m.drop != 0:
			row[6], row[7] = FateDropped, ahead.reasons[m.drop-1]
		default:
			row[6] = FateInFlight
		}
		p := payload(e.Msg, int(m.deliveries))
		buf, cells = buf[:0], cells[:0]
		for _, part := range [2][]string{row[:], p} {
			for _, v := range part {
				start := len(buf)
				buf = appendCSVField(buf, v)
				cells = append(cells, buf[start:len(buf):len(buf)])
			}
		}
		for i, v := range p {
			used[i] = used[i] || v != ""
		}
		return sp.add(cells)
	}
	kept := false
	pos := 0
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
		if e.Ev != trace.Send || !keep {
			return false, nil
		}
		var m msgEnds
		if f.of(e.MID) > 0 {
			var err error
			if m, err = ahead.endsOf(pos, e.MID); err != nil {
				return true, err
			}
		}
		return false, write(e, m)
	})
	if err != nil {
		return err
	}
	if !kept {
		return &RefusedError{"no events " + emptyText(tail, w)}
	}
	header := slices.Clone(MessageColumns)
	for i, c := range PayloadColumns {
		if used[i] {
			header = append(header, c)
		}
	}
	keepCell := func(i int) bool { return i < len(MessageColumns) || used[i-len(MessageColumns)] }
	return writeTable(out, header, &sp, keepCell, nil)
}

// writeTable writes a CSV table: header, then the spool's rows, each with the
// cells keep keeps and then, if more is set, what more appends.
func writeTable(out io.Writer, header []string, sp *spool, keep func(i int) bool, more func(b []byte, cells [][]byte) []byte) error {
	bw := bufio.NewWriterSize(out, 64<<10)
	var line []byte
	for i, h := range header {
		if i > 0 {
			line = append(line, ',')
		}
		line = appendCSVField(line, h)
	}
	line = append(line, "\r\n"...)
	bw.Write(line)
	err := sp.each(func(cells [][]byte) error {
		line = line[:0]
		n := 0
		for i, c := range cells {
			if !keep(i) {
				continue
			}
			if n > 0 {
				line = append(line, ',')
			}
			line = append(line, c...)
			n++
		}
		if more != nil {
			line = more(line, cells)
		}
		line = append(line, "\r\n"...)
		_, err := bw.Write(line)
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// appendCSVField appends field as encoding/csv's Writer writes it with CRLF line
// ends: quoted when it holds a comma, a quote or a line end, or begins with a
// space, with quotes doubled and line ends as CRLF.
func appendCSVField(b []byte, field string) []byte {
	if !csvNeedsQuotes(field) {
		return append(b, field...)
	}
	b = append(b, '"')
	for i := 0; i < len(field); i++ {
		switch c := field[i]; c {
		case '"':
			b = append(b, `""`...)
		case '\r':
		case '\n':
			b = append(b, "\r\n"...)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

func csvNeedsQuotes(field string) bool {
	if field == "" {
		return false
	}
	if field == `\.` || strings.ContainsAny(field, "\n\r\",") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(field)
	return unicode.IsSpace(r)
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

// csvEvents is the event table: one row per event of the window, in one reading
// up to the window's end; the status counters' columns follow the others.
func csvEvents(out io.Writer, src Source, w Window) error {
	var sp spool
	defer sp.close()
	used := make([]bool, len(EventColumns))
	names := map[string]bool{} // counter names
	var cells [][]byte
	var buf []byte
	var row []string
	kept := false
	tail, err := each(src, func(e *trace.Event) (bool, error) {
		if w.past(e.T, e.Seq) {
			return true, nil
		}
		if !w.Keep(e) || malformed(e) {
			return false, nil
		}
		kept = true
		row = eventRow(e, row)
		buf, cells = buf[:0], cells[:0]
		for i, v := range row {
			used[i] = used[i] || v != ""
			start := len(buf)
			buf = appendCSVField(buf, v)
			cells = append(cells, buf[start:len(buf):len(buf)])
		}
		if e.Status != nil {
			for _, c := range e.Status.Counters {
				names[c.Name] = true
				start := len(buf)
				buf = append(buf, c.Name...)
				buf = strconv.AppendInt(buf, c.Value, 10)
				cells = append(cells, buf[start:start+len(c.Name)], buf[start+len(c.Name):len(buf):len(buf)])
			}
		}
		return false, sp.add(cells)
	})
	if err != nil {
		return err
	}
	if !kept {
		return &RefusedError{"no events " + emptyText(tail, w)}
	}
	var header []string
	for i, c := range EventColumns {
		if used[i] {
			header = append(header, c)
		}
	}
	counters := slices.Sorted(maps.Keys(names))
	for _, n := range counters {
		header = append(header, "counter_"+n)
	}
	keep := func(i int) bool { return i < len(EventColumns) && used[i] }
	more := func(b []byte, cells [][]byte) []byte {
		pairs := cells[len(EventColumns):]
		for _, n := range counters {
			b = append(b, ',')
			for j := 0; j+1 < len(pairs); j += 2 {
				if string(pairs[j]) == n {
					b = append(b, pairs[j+1]...)
					break
				}
			}
		}
		return b
	}
	return writeTable(out, header, &sp, keep, more)
}

// The event table's columns by place (EventColumns).
const (
	colSeq = iota
	colT
	colEv
	colNode
	colFrom
	colTo
	colType
	colMID
	colReason
	colText
	colMsgID // msg_id, msg_term, msg_ts, msg_flag, msg_list: PayloadColumns[:5]
	_
	_
	_
	_
	colDup
	colLocal
	colName
	colValue
	colInc
	colKind
	colBy
	colOK
	colRef
	colRole
	colLeader
	colTerm
	colStatusInc
	colCS
	colSuspects
	colGroups
)

// eventRow is e's row of the event table, counters apart, in row's room.
func eventRow(e *trace.Event, row []string) []string {
	row = slices.Grow(row[:0], len(EventColumns))[:len(EventColumns)]
	clear(row)
	row[colSeq] = strconv.FormatUint(e.Seq, 10)
	row[colT] = seconds(e.T)
	row[colEv] = e.Ev
	row[colNode] = idText(e.Node)
	row[colFrom] = idText(e.From)
	row[colTo] = idText(e.To)
	if e.MID != 0 {
		row[colMID] = strconv.FormatUint(e.MID, 10)
	}
	row[colReason] = e.Reason
	row[colText] = e.Text
	if m := e.Msg; m != nil {
		row[colType] = m.Type
		copy(row[colMsgID:colMsgID+5], payload(m, 0))
	}
	row[colDup] = flagText(e.Dup)
	row[colLocal] = flagText(e.Local)
	row[colName] = e.Name
	row[colValue] = e.Value
	row[colInc] = numText(e.Inc)
	row[colKind] = e.Kind
	row[colBy] = e.By
	if e.OK != nil {
		row[colOK] = strconv.FormatBool(*e.OK)
	}
	if e.Ref != 0 {
		row[colRef] = strconv.FormatUint(e.Ref, 10)
	}
	if e.Groups != nil {
		row[colGroups] = groupsText(e.Groups, plainIDs)
	}
	if s := e.Status; s != nil {
		row[colRole] = s.Role
		row[colLeader] = idText(s.Leader)
		row[colTerm] = numText(s.Term)
		row[colStatusInc] = numText(s.Inc)
		if s.CS != node.CSNone {
			row[colCS] = s.CS.String()
		}
		row[colSuspects] = joinIDs(s.Suspects, " ")
	}
	return row
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

// msgEnds is what the ends of a message say: its first delivery, how many, its
// first drop's reason (24 bytes: one for each message sent in the 2 s that a
// message may take before GST).
type msgEnds struct {
	delivered     int64 // its first delivery's time
	deliveries    int32
	left          int32  // its ends still to read
	drop          uint32 // its first drop's reason, 1 + its place in msgAhead.reasons; 0 for none
	local, landed bool
}

// msgAhead reads the trace ahead of the message table's writing, in a reading of
// its own, to the last end of each message the writing meets the send of: a row
// is then written at its send, where it waited for its message's last end,
// holding every row sent meanwhile (2 s of a 300-node mesh before GST: 645 MB).
// It keeps a msgEnds for each message on its way and for each whose ends it read
// before the writing reached its send.
type msgAhead struct {
	ahead
	w         Window
	fates     *fates
	msgs      midMap[msgEnds]
	reasons   []string // the drop reasons, each once
	reasonIdx map[string]int
}

// endsOf reads on past event pos (counted from 1), the send of message mid, and
// every end of mid, and says what they were.
func (a *msgAhead) endsOf(pos int, mid uint64) (msgEnds, error) {
	for !a.done {
		if a.read >= pos {
			if m, ok := a.msgs.get(mid); !ok || m.left <= 0 {
				break
			}
		}
		e, err := a.next()
		if e == nil {
			if err != nil {
				return msgEnds{}, err
			}
			break
		}
		if malformed(e) {
			continue
		}
		switch e.Ev {
		case trace.Send:
			if n := a.fates.of(e.MID); n > 0 && a.w.Keep(e) {
				a.msgs.put(e.MID, msgEnds{left: int32(n)})
			}
		case trace.Deliver, trace.Drop:
			m, ok := a.msgs.get(e.MID)
			if !ok || m.left <= 0 {
				break
			}
			if e.Ev == trace.Deliver {
				if !m.landed {
					m.landed, m.delivered = true, e.T
				}
				m.deliveries++
				m.local = m.local || e.Local
			} else if m.drop == 0 {
				i, ok := a.reasonIdx[e.Reason]
				if !ok {
					i = len(a.reasons)
					a.reasons = append(a.reasons, strings.Clone(e.Reason))
					a.reasonIdx[a.reasons[i]] = i
				}
				m.drop = uint32(i + 1)
			}
			m.left--
			a.msgs.put(e.MID, m)
		}
	}
	m, _ := a.msgs.get(mid)
	a.msgs.del(mid)
	return m, nil
}
