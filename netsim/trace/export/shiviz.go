package export

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
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
//
// A first reading counts each message's ends, finds the drops that come after
// other events (most come right after their send), and bounds the log's size; a
// log over ShiVizMaxBytes is refused before it is written. The writing reading
// keeps a clock per host and, for each message on its way, its send's clock.
func ShiViz(out io.Writer, src Source, w Window) error { return shiviz(out, src, w, false) }

// ShiVizMaxBytes is about the largest log ShiViz opens in a browser tab (a
// variable for the tests).
var ShiVizMaxBytes int64 = 1 << 30

// lostAt is where a message was lost: when and why.
type lostAt struct {
	t      int64
	reason string
}

func (l lostAt) text() string { return "; lost at " + fmtT(l.t) + " (" + l.reason + ")" }

// shivizWho says which hosts log an event of kind ev about node id (from, to for
// a message or a cut): one host (the returned id), each selected host (all), the
// hosts of a partition's groups (groups), or none.
func shivizWho(e *trace.Event) (id node.ID, all, groups bool) {
	switch e.Ev {
	case trace.Partition:
		return node.None, false, true
	case trace.Heal, trace.GST, trace.Marker, trace.Alert, trace.AlertCleared:
		return node.None, true, false
	case trace.Send:
		return e.From, false, false
	case trace.Deliver:
		return e.To, false, false
	case trace.Crash, trace.Recover, trace.Isolate, trace.StatusEv, trace.Log, trace.Request:
		return e.Node, false, false
	case trace.Knob:
		if e.Name == "slow" {
			return e.Node, false, false
		}
	}
	return node.None, false, false
}

// shivizPlan is what a first reading finds for a ShiViz log: how many ends each
// message has, the drops that do not come right after their send, and a bound on
// the log's size.
type shivizPlan struct {
	fates *fates
	late  map[uint64]lostAt
	bytes int64 // the log's size, at most
}

// planShiViz reads src once. The size bound takes each line's text as 64
// bytes and each clock as naming every host whose events may precede it (the
// hosts in its causal past, followed as bit sets), each entry as long as the
// largest count so far makes it.
func planShiViz(src Source, w Window) (*shivizPlan, error) {
	ids := w.IDs(src.Header().Info.IDs)
	idx := make(map[node.ID]int, len(ids))
	entry := make([]int, len(ids)) // len(`"nX":`) + a comma
	for i, id := range ids {
		idx[id] = i
		entry[i] = len(id.String()) + 4
	}
	words := (len(ids) + 63) / 64
	past := make([][]uint64, len(ids)) // per host: the hosts in its causal past, itself included
	width := make([]int, len(ids))     // per host: the entries' width without their digits
	for i := range past {
		past[i] = make([]uint64, words)
	}
	// A message's sender's past at its send, until its first end (the count of
	// its ends is known only once this reading is over).
	var sent midMap[[]uint64]
	logged := make([]uint64, len(ids))
	digits := 1
	p := &shivizPlan{fates: newFates(), late: map[uint64]lostAt{}}
	var prev struct { // the event before
		ev  string
		mid uint64
	}
	log := func(h int) {
		logged[h]++
		if d := len(strconv.FormatUint(logged[h], 10)); d > digits {
			digits = d
		}
		if past[h][h/64]&(1<<(h%64)) == 0 {
			past[h][h/64] |= 1 << (h % 64)
			width[h] += entry[h]
		}
		n := 0
		for _, x := range past[h] {
			n += bits.OnesCount64(x)
		}
		p.bytes += int64(64 + entry[h] + width[h] + n*digits)
	}
	_, err := scan(src, func(e *trace.Event) {
		defer func() { prev.ev, prev.mid = e.Ev, e.MID }()
		if e.Ev == trace.Drop && !(prev.ev == trace.Send && prev.mid == e.MID) {
			p.late[e.MID] = lostAt{e.T, e.Reason}
		}
		if malformed(e) {
			return
		}
		p.fates.see(e)
		if e.Ev == trace.Deliver || e.Ev == trace.Drop {
			if c, ok := sent.get(e.MID); ok {
				if e.Ev == trace.Deliver && !e.Local && w.Keep(e) {
					if h, ok := idx[e.To]; ok {
						for j := range c {
							if add := c[j] &^ past[h][j]; add != 0 {
								past[h][j] |= add
								for k := 0; add != 0; k++ {
									if add&1 != 0 {
										width[h] += entry[j*64+k]
									}
									add >>= 1
								}
							}
						}
					}
				}
				sent.del(e.MID)
			}
		}
		if !w.Keep(e) {
			return
		}
		id, all, groups := shivizWho(e)
		switch {
		case all:
			for h := range ids {
				log(h)
			}
		case groups:
			for _, g := range e.Groups {
				for _, id := range g {
					if h, ok := idx[id]; ok {
						log(h)
					}
				}
			}
		case e.Ev == trace.Cut:
			for _, id := range []node.ID{e.From, e.To} {
				if h, ok := idx[id]; ok {
					log(h)
				}
			}
		case id != node.None:
			if h, ok := idx[id]; ok {
				log(h)
				if e.Ev == trace.Send {
					sent.put(e.MID, slices.Clone(past[h]))
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	p.fates.done()
	return p, nil
}

func shiviz(out io.Writer, src Source, w Window, force bool) error {
	plan, err := planShiViz(src, w)
	if err != nil {
		return err
	}
	if plan.bytes > ShiVizMaxBytes && !force {
		return &RefusedError{fmt.Sprintf("the ShiViz log of %s would be up to about %s, over the %s that ShiViz opens in a browser: "+
			"narrow it with --from/--to or --nodes, or write it anyway with --force", windowName(w), sizeText(plan.bytes), sizeText(ShiVizMaxBytes))}
	}
	h := src.Header()
	bw := bufio.NewWriterSize(out, 64<<10)
	ids := w.IDs(h.Info.IDs)
	idx := make(map[node.ID]int, len(ids))
	for i, id := range ids {
		idx[id] = i
	}
	clocks := make([][]uint64, len(ids))
	for i := range clocks {
		clocks[i] = make([]uint64, len(ids))
	}
	kinds := map[uint64]string{} // each alert's kind, by line number
	// A send's clock is its host's clock at the send: a snapshot of the host's
	// clock, shared by the sends of a burst (they differ only in the host's own
	// entry), and that entry.
	type sentClock struct {
		snap []uint64
		h    int
		own  uint64
		left int // ends still to come
	}
	var sent midMap[*sentClock]
	snaps := make([][]uint64, len(ids)) // per host: its clock's last snapshot, nil once changed by a receive

	bw.WriteString(ShiVizRegex + "\n\n") // not flushed if nothing is logged
	var buf []byte
	logged := 0
	// tick counts an event of host h and returns its host-and-clock line.
	tick := func(h int, b []byte) []byte {
		logged++
		c := clocks[h]
		c[h]++
		b = append(b, ids[h].String()...)
		b = append(b, " {"...)
		first := true
		for j, v := range c {
			if v == 0 {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '"')
			b = append(b, ids[j].String()...)
			b = append(b, "\":"...)
			b = strconv.AppendUint(b, v, 10)
		}
		return append(b, "}\n"...)
	}
	// write writes an event's text and its host-and-clock line.
	write := func(text string, clock []byte) {
		text = oneLine(text)
		if hostLine.MatchString(text) {
			text = "- " + text // or ShiViz would take it for a host and clock
		}
		bw.WriteString(text)
		bw.WriteByte('\n')
		bw.Write(clock)
	}
	log := func(h int, text string) {
		buf = tick(h, buf[:0])
		write(text, buf)
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
	// A send is written once the next event shows whether it was lost there and
	// then (a drop right after the send); its clock is the one at the send.
	var held struct {
		text  string
		clock []byte
		mid   uint64
		on    bool
	}
	release := func(lost string) {
		if held.on {
			held.on = false
			write(held.text+lost, held.clock)
		}
	}
	kept := false
	tail, err := each(src, func(e *trace.Event) (bool, error) {
		if held.on {
			lost := ""
			if l, ok := plan.late[held.mid]; ok {
				lost = l.text()
			} else if e.Ev == trace.Drop && e.MID == held.mid {
				lost = lostAt{e.T, e.Reason}.text()
			}
			release(lost)
		}
		if w.past(e.T, e.Seq) {
			return true, nil
		}
		if e.Ev == trace.Alert {
			kinds[e.Seq] = e.Kind
		}
		if malformed(e) {
			return false, nil
		}
		if e.Ev == trace.Deliver || e.Ev == trace.Drop {
			// Every end counts down, in the window or not: the send's clock is
			// kept until the last.
			if s, _ := sent.get(e.MID); s != nil {
				defer func() {
					if s.left--; s.left <= 0 {
						sent.del(e.MID)
					}
				}()
			}
		}
		if !w.Keep(e) {
			return false, nil
		}
		kept = true
		at := " at " + fmtT(e.T)
		switch e.Ev {
		case trace.Partition:
			every(slices.Concat(e.Groups...), faultText(e)+at)
			return false, nil
		case trace.Heal, trace.GST:
			every(nil, faultText(e)+at)
			return false, nil
		case trace.Cut:
			every([]node.ID{e.From, e.To}, faultText(e)+at)
			return false, nil
		case trace.Marker:
			every(nil, "marker: "+e.Text+at)
			return false, nil
		case trace.Alert:
			every(nil, "alert "+e.Kind+": "+e.Text+at)
			return false, nil
		case trace.AlertCleared:
			every(nil, fmt.Sprintf("alert %s cleared (raised at line %d): %s%s", kinds[e.Ref], e.Ref, e.Text, at))
			return false, nil
		}
		who, _, _ := shivizWho(e)
		h, ok := idx[who]
		if !ok {
			return false, nil
		}
		switch e.Ev {
		case trace.Send:
			held.clock = tick(h, held.clock[:0])
			held.mid, held.on = e.MID, true
			held.text = fmt.Sprintf("send %s to %v (mid %d)%s", msgLabel(e.Msg), e.To, e.MID, at)
			if n := plan.fates.of(e.MID); n > 0 {
				if snaps[h] == nil {
					snaps[h] = slices.Clone(clocks[h])
				}
				sent.put(e.MID, &sentClock{snap: snaps[h], h: h, own: clocks[h][h], left: n})
			}
		case trace.Deliver:
			if e.Local {
				log(h, fmt.Sprintf("self %s%s", msgLabel(e.Msg), at))
				break
			}
			if s, _ := sent.get(e.MID); s != nil {
				own := clocks[h]
				for j, v := range s.snap {
					if j == s.h {
						v = s.own
					}
					own[j] = max(own[j], v)
				}
				snaps[h] = nil
			}
			dup := ""
			if e.Dup {
				dup = " (duplicate)"
			}
			log(h, fmt.Sprintf("recv %s from %v (mid %d)%s%s", msgLabel(e.Msg), e.From, e.MID, dup, at))
		case trace.Crash:
			log(h, "crash"+at)
		case trace.Recover:
			log(h, fmt.Sprintf("recover as incarnation %d%s", e.Inc, at))
		case trace.Isolate:
			log(h, "isolated from every other node"+at)
		case trace.Knob:
			log(h, faultText(e)+at)
		case trace.StatusEv:
			log(h, "status: "+statusText(e.Status)+at)
		case trace.Log:
			log(h, "log: "+e.Text+at)
		case trace.Request:
			log(h, "request "+e.Name+at)
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	if held.on {
		lost := ""
		if l, ok := plan.late[held.mid]; ok {
			lost = l.text()
		}
		release(lost)
	}
	if !kept {
		return &RefusedError{"no events " + emptyText(tail, w)}
	}
	if logged == 0 {
		return &RefusedError{"no events for ShiViz " + emptyText(tail, w) + " (timers and the network's own events are not logged)"}
	}
	return bw.Flush()
}
