package export

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// CSVHeader names the CSV columns: the common ones first (seq, t_us, ev, node, from,
// to, type, mid, reason, text), then the rest. Message fields are split out (msg_id,
// msg_term, msg_ts, msg_flag) and so is a status (role, leader, term, status_inc,
// cs, suspects, counters), so that a spreadsheet can filter on any of them. Empty
// cells are fields the event does not have.
var CSVHeader = []string{"seq", "t_us", "ev", "node", "from", "to", "type", "mid", "reason", "text",
	"msg_id", "msg_term", "msg_ts", "msg_flag", "dup", "local", "name", "value", "inc", "kind", "by", "ok",
	"role", "leader", "term", "status_inc", "cs", "suspects", "counters", "groups"}

// CSV writes one row per event of the window, after a header row (CSVHeader), as
// RFC 4180 with CRLF line ends.
func CSV(out io.Writer, t *trace.Trace, w Window) error {
	bw := bufio.NewWriter(out)
	cw := csv.NewWriter(bw)
	cw.UseCRLF = true
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	row := make([]string, len(CSVHeader))
	for i := range t.Events {
		e := &t.Events[i]
		if !w.Keep(e) {
			continue
		}
		csvRow(row, e)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

func csvRow(row []string, e *trace.Event) {
	for i := range row {
		row[i] = ""
	}
	id := func(x node.ID) string {
		if x == node.None {
			return ""
		}
		return x.String()
	}
	num := func(x int64) string {
		if x == 0 {
			return ""
		}
		return strconv.FormatInt(x, 10)
	}
	flag := func(b bool) string {
		if b {
			return "true"
		}
		return ""
	}
	row[colSeq] = strconv.FormatUint(e.Seq, 10)
	row[colT] = strconv.FormatInt(e.T, 10)
	row[colEv] = e.Ev
	row[colNode] = id(e.Node)
	row[colFrom] = id(e.From)
	row[colTo] = id(e.To)
	if e.MID != 0 {
		row[colMID] = strconv.FormatUint(e.MID, 10)
	}
	row[colReason] = e.Reason
	row[colText] = e.Text
	if m := e.Msg; m != nil {
		row[colType] = m.Type
		row[colMsgID] = id(m.ID)
		row[colMsgTerm] = num(m.Term)
		row[colMsgTS] = num(m.Stamp)
		row[colMsgFlag] = flag(m.Flag)
	}
	row[colDup] = flag(e.Dup)
	row[colLocal] = flag(e.Local)
	row[colName] = e.Name
	row[colValue] = e.Value
	row[colInc] = num(e.Inc)
	row[colKind] = e.Kind
	row[colBy] = e.By
	if e.OK != nil {
		row[colOK] = strconv.FormatBool(*e.OK)
	}
	if s := e.Status; s != nil {
		row[colRole] = s.Role
		row[colLeader] = id(s.Leader)
		row[colTerm] = num(s.Term)
		row[colStatusInc] = num(s.Inc)
		if s.CS != node.CSNone {
			row[colCS] = s.CS.String()
		}
		row[colSuspects] = joinIDs(s.Suspects, " ")
		var cs []string
		for _, c := range s.Counters {
			cs = append(cs, c.Name+"="+strconv.FormatInt(c.Value, 10))
		}
		row[colCounters] = strings.Join(cs, " ")
	}
	if e.Groups != nil {
		row[colGroups] = groupsText(e.Groups)
	}
}

// Column indexes, in CSVHeader's order.
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
	colMsgID
	colMsgTerm
	colMsgTS
	colMsgFlag
	colDup
	colLocal
	colName
	colValue
	colInc
	colKind
	colBy
	colOK
	colRole
	colLeader
	colTerm
	colStatusInc
	colCS
	colSuspects
	colCounters
	colGroups
	numCols
)
