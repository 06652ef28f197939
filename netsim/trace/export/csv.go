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

// CSVHeader names the CSV columns. Message fields are split out (msg_id, msg_term,
// msg_ts, msg_flag) and so is a status (role, leader, term, status_inc, cs,
// suspects, counters), so that a spreadsheet can filter on any of them. Empty cells
// are fields the event does not have.
var CSVHeader = []string{"seq", "t_us", "ev", "node", "from", "to", "mid", "type", "msg_id", "msg_term", "msg_ts", "msg_flag",
	"dup", "local", "reason", "name", "value", "inc", "kind", "text", "by", "ok",
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
	row[0] = strconv.FormatUint(e.Seq, 10)
	row[1] = strconv.FormatInt(e.T, 10)
	row[2] = e.Ev
	row[3] = id(e.Node)
	row[4] = id(e.From)
	row[5] = id(e.To)
	if e.MID != 0 {
		row[6] = strconv.FormatUint(e.MID, 10)
	}
	if m := e.Msg; m != nil {
		row[7] = m.Type
		row[8] = id(m.ID)
		row[9] = num(m.Term)
		row[10] = num(m.Stamp)
		row[11] = flag(m.Flag)
	}
	row[12] = flag(e.Dup)
	row[13] = flag(e.Local)
	row[14] = e.Reason
	row[15] = e.Name
	row[16] = e.Value
	row[17] = num(e.Inc)
	row[18] = e.Kind
	row[19] = e.Text
	row[20] = e.By
	if e.OK != nil {
		row[21] = strconv.FormatBool(*e.OK)
	}
	if s := e.Status; s != nil {
		row[22] = s.Role
		row[23] = id(s.Leader)
		row[24] = num(s.Term)
		row[25] = num(s.Inc)
		if s.CS != node.CSNone {
			row[26] = s.CS.String()
		}
		row[27] = joinIDs(s.Suspects, " ")
		var cs []string
		for _, c := range s.Counters {
			cs = append(cs, c.Name+"="+strconv.FormatInt(c.Value, 10))
		}
		row[28] = strings.Join(cs, " ")
	}
	if e.Groups != nil {
		row[29] = groupsText(e.Groups)
	}
}
