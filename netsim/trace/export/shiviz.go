package export

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// ShiVizRegex is the first line of a ShiViz log: how ShiViz parses each event, its
// text on one line and its host and vector clock on the next. It is ShiViz's own
// default, so the log parses the same whether it is uploaded (ShiViz reads this
// line) or pasted into the text box (ShiViz uses its default).
const ShiVizRegex = `(?<event>.*)\n(?<host>\S*) (?<clock>{.*})`

// hostLine is a line that ShiVizRegex would read as a host and its clock.
var hostLine = regexp.MustCompile(`^\S* \{.*\}`)

// ShiViz writes the window as a ShiViz log: the parsing regex (ShiVizRegex), an empty
// multiple-executions delimiter line (the log is one execution), then each logged
// event as its text and then `host {"n1":k,…}`.
//
// The hosts are the selected nodes. Each logs, in trace order:
//   - send: one event per message put on the network; the text names the message,
//     the receiver, the message id and, if it was lost, when and why (a drop is the
//     network's doing, not the sender's, so it is not an event of its own);
//   - deliver (receive): the clock takes the element-wise max with the sender's
//     clock at the send, then ticks; a duplicate is a second receive of the same
//     send; a message whose send is outside the window is received without a merge;
//   - a message to itself (a local delivery): an internal event;
//   - crash and recover: a revived node keeps counting from where it stopped;
//   - status changes (role, leader, term, critical section, suspects), log lines and
//     user requests: internal events;
//   - what the network or the monitors did to it, as an internal event of each
//     process it concerns: a partition and a heal (every selected node), a cut
//     (both ends), an isolation or a slow-down (that node), GST, markers, alerts
//     and their clearing (every selected node: they are about the whole cluster).
//
// Timers are not logged (a timer that does something shows as the sends or status
// it causes). Every logged event ticks its host's own entry by exactly 1, starting
// at 1; entries that are still 0 are left out of the clock. A cluster-wide event is
// logged by each host on its own, so it adds no dependency between hosts: ShiViz
// draws it as concurrent events at the same point of each host's line.
func ShiViz(out io.Writer, src Source, w Window) error {
	t, err := readAll(src)
	if err != nil {
		return err
	}
	if err := nonEmpty(t, w); err != nil {
		return err
	}
	return shivizMem(out, t, w)
}

func shivizMem(out io.Writer, t *trace.Trace, w Window) error {
	bw := bufio.NewWriter(out)
	ids := w.IDs(t.Header.Info.IDs)
	idx := make(map[node.ID]int, len(ids))
	for i, id := range ids {
		idx[id] = i
	}
	clocks := make([][]uint64, len(ids))
	for i := range clocks {
		clocks[i] = make([]uint64, len(ids))
	}
	// What became of each lost message, and how many fates (deliveries and drops)
	// of each message in the window are still to come, so that a send's clock is
	// kept only until its last copy arrives or is lost.
	lost := map[uint64]string{}
	pending := map[uint64]int{}
	kinds := map[uint64]string{} // each alert's kind, by line number
	for i := range t.Events {
		e := &t.Events[i]
		if e.Ev == trace.Alert {
			kinds[e.Seq] = e.Kind
		}
		if e.Ev == trace.Drop {
			lost[e.MID] = fmt.Sprintf("; lost at %s (%s)", fmtT(e.T), e.Reason)
		}
		if (e.Ev == trace.Drop || e.Ev == trace.Deliver && !e.Local) && w.Keep(e) {
			pending[e.MID]++
		}
	}
	sent := map[uint64][]uint64{}

	bw.WriteString(ShiVizRegex + "\n\n")
	var buf []byte
	logged := 0
	log := func(h int, text string) {
		logged++
		c := clocks[h]
		c[h]++
		text = oneLine(text)
		if hostLine.MatchString(text) {
			text = "- " + text // or ShiViz would take it for a host and clock
		}
		buf = append(buf[:0], text...)
		buf = append(buf, '\n')
		buf = append(buf, ids[h].String()...)
		buf = append(buf, " {"...)
		first := true
		for j, v := range c {
			if v == 0 {
				continue
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = append(buf, '"')
			buf = append(buf, ids[j].String()...)
			buf = append(buf, "\":"...)
			buf = strconv.AppendUint(buf, v, 10)
		}
		buf = append(buf, "}\n"...)
		bw.Write(buf)
	}
	// every logs text on each selected host among who (all of them when who is
	// nil), in id order.
	every := func(who []node.ID, text string) {
		for h, id := range ids {
			if who == nil || slices.Contains(who, id) {
				log(h, text)
			}
		}
	}
	done := func(mid uint64) {
		if pending[mid]--; pending[mid] <= 0 {
			delete(pending, mid)
			delete(sent, mid)
		}
	}
	for i := range t.Events {
		e := &t.Events[i]
		if !w.Keep(e) || malformed(e) {
			continue
		}
		at := " at " + fmtT(e.T)
		switch e.Ev {
		case trace.Partition:
			every(slices.Concat(e.Groups...), faultText(e)+at)
			continue
		case trace.Heal, trace.GST:
			every(nil, faultText(e)+at)
			continue
		case trace.Cut:
			every([]node.ID{e.From, e.To}, faultText(e)+at)
			continue
		case trace.Marker:
			every(nil, "marker: "+e.Text+at)
			continue
		case trace.Alert:
			every(nil, "alert "+e.Kind+": "+e.Text+at)
			continue
		case trace.AlertCleared:
			every(nil, fmt.Sprintf("alert %s cleared (raised at line %d): %s%s", kinds[e.Ref], e.Ref, e.Text, at))
			continue
		}
		who := e.Node
		switch e.Ev {
		case trace.Send:
			who = e.From
		case trace.Deliver:
			who = e.To
		case trace.Drop:
			done(e.MID)
			continue
		}
		h, ok := idx[who]
		if !ok {
			continue
		}
		switch e.Ev {
		case trace.Send:
			log(h, fmt.Sprintf("send %s to %v (mid %d)%s%s", msgLabel(e.Msg), e.To, e.MID, at, lost[e.MID]))
			if pending[e.MID] > 0 {
				sent[e.MID] = append([]uint64(nil), clocks[h]...)
			}
		case trace.Deliver:
			if e.Local {
				log(h, fmt.Sprintf("self %s%s", msgLabel(e.Msg), at))
				continue
			}
			if c, ok := sent[e.MID]; ok {
				own := clocks[h]
				for j, v := range c {
					own[j] = max(own[j], v)
				}
			}
			dup := ""
			if e.Dup {
				dup = " (duplicate)"
			}
			log(h, fmt.Sprintf("recv %s from %v (mid %d)%s%s", msgLabel(e.Msg), e.From, e.MID, dup, at))
			done(e.MID)
		case trace.Crash:
			log(h, "crash"+at)
		case trace.Recover:
			log(h, fmt.Sprintf("recover as incarnation %d%s", e.Inc, at))
		case trace.Isolate:
			log(h, "isolated from every other node"+at)
		case trace.Knob:
			if e.Name == "slow" {
				log(h, faultText(e)+at)
			}
		case trace.StatusEv:
			log(h, "status: "+statusText(e.Status)+at)
		case trace.Log:
			log(h, "log: "+e.Text+at)
		case trace.Request:
			log(h, "request "+e.Name+at)
		}
	}
	if logged == 0 {
		return &RefusedError{"no events for ShiViz " + emptyText(traceTail(t), w) + " (timers and the network's own events are not logged)"}
	}
	return bw.Flush()
}
