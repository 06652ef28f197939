// Package rundiff compares two recordings of one scenario: the first event where
// they part and what made them part (an action in one of them, a latency or a
// loss drawn otherwise, one recording ending first), each process's end state
// where the two differ, and the alerts one run raised and the other did not.
//
// Both files are read as streams, side by side, and nothing of them is kept but
// each process's end state, the alerts by kind and text, and the two lines where
// the runs part: the memory a diff takes does not grow with the recordings.
package rundiff

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/session"
)

// Schema names the shape of Result as JSON (see docs/diff-json.md). A change
// that removes, renames or retypes a field gives it a new version.
const Schema = "clusterlab.diff/1"

// Result is what a diff finds. Identical is set when the two recordings have
// the same header and the same events, byte for byte.
type Result struct {
	Schema    string              `json:"schema"`
	Identical bool                `json:"identical"`
	A         Side                `json:"a"`
	B         Side                `json:"b"`
	Header    []session.FieldDiff `json:"header"`
	// First is where the runs part: nil when their events are the same.
	First *Divergence `json:"first_difference"`
	Nodes []NodeDiff  `json:"end_states"`
	OnlyA []Alert     `json:"alerts_only_a"`
	OnlyB []Alert     `json:"alerts_only_b"`
}

// Side is one recording: its file, scenario, seed and how it ended.
type Side struct {
	File      string `json:"file"`
	Scenario  string `json:"scenario"`
	Algorithm string `json:"algorithm"`
	Seed      uint64 `json:"seed"`
	Events    uint64 `json:"events"`
	// Complete is set when the file ends with its end record; EndUS and
	// EndReason are then the record's (until, quit or interrupted), else the
	// last event's time and "".
	Complete  bool   `json:"complete"`
	EndUS     int64  `json:"end_us"`
	EndReason string `json:"end_reason"`
	// Edited is set when the end record's count is not the events before it.
	Edited bool `json:"edited"`
	Alerts int  `json:"alerts"`
}

// Divergence is the first event where two recordings part: its number (the
// events before it are the same in both), the line each recording has there
// (nil where one has ended), and its cause.
type Divergence struct {
	Event uint64       `json:"event"`
	TUS   int64        `json:"t_us"` // the earlier of the two lines' times
	A     *trace.Event `json:"a"`
	B     *trace.Event `json:"b"`
	Cause Cause        `json:"cause"`
}

// Cause kinds: what made two runs part.
const (
	// An action (a user's, a script's, a swizzle's) that one run has and the
	// other has not there, or not the same.
	CauseAction = "action"
	// A message landed in one run before anything happened in the other: its
	// latency was drawn otherwise (another seed, or the draws went another way).
	CauseLatency = "latency"
	// A message was lost in one run and not (then) in the other.
	CauseLoss = "loss"
	// A copy of a message was delivered again (duplication) in one run only.
	CauseDup = "dup"
	// One recording ends there and the other goes on.
	CauseEnd = "end"
	// An expectation checked in one run only, where their scenarios differ.
	CauseExpect = "expect"
	// The same instant, its events in another order.
	CauseOrder = "order"
	// Anything else: the two lines are given.
	CauseOther = "other"
)

// Cause says what made the runs part. Run is "a" or "b", the run whose line
// comes first in time (the one with the action, the earlier landing, the one
// that ends), or "both". For a message (latency, loss, dup), Message names it
// and Fates says what became of it in each run.
type Cause struct {
	Kind    string   `json:"kind"`
	Run     string   `json:"run"`
	Action  string   `json:"action"` // an action's text, such as drop #57
	By      string   `json:"by"`     // user, script or swizzle
	Message *Message `json:"message"`
}

// Message is a message the runs treated otherwise, sent before they parted.
type Message struct {
	MID    uint64  `json:"mid"`
	Type   string  `json:"type"`
	From   node.ID `json:"from"`
	To     node.ID `json:"to"`
	SentUS int64   `json:"sent_us"`
	A      Fate    `json:"a"`
	B      Fate    `json:"b"`
}

// Fate is what became of a message in one run: delivered or dropped (Reason)
// at AtUS, or still in flight when the recording ends ("pending").
type Fate struct {
	What   string `json:"what"`
	AtUS   int64  `json:"at_us"`
	Reason string `json:"reason"`
}

// NodeDiff is one field of one process's end state that differs: up, inc,
// role, leader, term, cs, cs_entries, suspects, counter.NAME or sent.TYPE.
type NodeDiff struct {
	Node  node.ID `json:"node"`
	Field string  `json:"field"`
	A     string  `json:"a"`
	B     string  `json:"b"`
}

// Alert is an alert that one run raised more often than the other: its kind
// and text, when it was first raised there, and how many more times.
type Alert struct {
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	AtUS  int64  `json:"at_us"`
	Count int    `json:"count"`
}

// BadPair is two recordings that cannot be compared event by event: of other
// algorithms, or of other processes.
type BadPair struct{ Err error }

func (e *BadPair) Error() string { return e.Err.Error() }

// maxAlertKeys bounds the distinct alerts (kind and text) kept of each run.
const maxAlertKeys = 10000

// Compare reads two recordings side by side and says where they part.
func Compare(pathA, pathB string) (*Result, error) {
	ra, ca, err := session.OpenTrace(pathA)
	if err != nil {
		return nil, err
	}
	defer ca.Close()
	rb, cb, err := session.OpenTrace(pathB)
	if err != nil {
		return nil, err
	}
	defer cb.Close()
	ha, hb := &ra.Header, &rb.Header
	if ha.Info.Algorithm != hb.Info.Algorithm {
		return nil, &BadPair{fmt.Errorf("%s runs %s and %s runs %s; expected two recordings of one algorithm", pathA, ha.Info.Algorithm, pathB, hb.Info.Algorithm)}
	}
	if !slices.Equal(ha.Info.IDs, hb.Info.IDs) {
		return nil, &BadPair{fmt.Errorf("%s has processes %s and %s has %s; expected two recordings of the same processes", pathA, ids(ha.Info.IDs), pathB, ids(hb.Info.IDs))}
	}
	ra.SkipHash() // a diff compares lines; verify says whether a file was forged
	rb.SkipHash()
	res := &Result{Schema: Schema, Header: session.HeaderDiffs(ha, hb)}
	fa, fb := newFold(pathA, ha), newFold(pathB, hb)

	// Side by side while the lines are the same.
	var ea, eb *trace.Event
	var errA, errB error
	for {
		ea, errA = scan(ra, fa)
		eb, errB = scan(rb, fb)
		if errA != nil && errA != io.EOF {
			return nil, errA
		}
		if errB != nil && errB != io.EOF {
			return nil, errB
		}
		if ea == nil || eb == nil || !bytes.Equal(ra.Raw(), rb.Raw()) {
			break
		}
	}
	if ea == nil && eb == nil {
		fa.side(ra)
		fb.side(rb)
		if a, b := fa.s, fb.s; a.Complete != b.Complete || a.EndUS != b.EndUS || a.EndReason != b.EndReason {
			// The same events, recordings that stop otherwise.
			run := "a"
			if b.EndUS < a.EndUS {
				run = "b"
			}
			res.First = &Divergence{Event: fa.events + 1, TUS: min(a.EndUS, b.EndUS), Cause: Cause{Kind: CauseEnd, Run: run}}
		}
	} else {
		d := &Divergence{Event: fa.events}
		if ea == nil {
			d.Event = fb.events
		}
		d.A, d.B = clone(ea), clone(eb)
		res.First = d
		d.Cause = cause(d.A, d.B)
		// What became of the message that made them part, in each run.
		if m := d.Cause.Message; m != nil {
			fa.watch, fb.watch = m.MID, m.MID
			fa.watched(d.A)
			fb.watched(d.B)
		}
		// Each file to its end, one after the other.
		for errA == nil {
			_, errA = scan(ra, fa)
		}
		for errB == nil {
			_, errB = scan(rb, fb)
		}
		if errA != io.EOF {
			return nil, errA
		}
		if errB != io.EOF {
			return nil, errB
		}
		if m := d.Cause.Message; m != nil {
			m.A, m.B = fa.fate, fb.fate
			if err := findSend(pathA, m); err != nil {
				return nil, err
			}
		}
		fa.side(ra)
		fb.side(rb)
		switch d.TUS = earlier(d.A, d.B); {
		case d.A == nil:
			d.TUS = fa.s.EndUS
		case d.B == nil:
			d.TUS = fb.s.EndUS
		}
	}
	res.A, res.B = fa.s, fb.s
	res.Nodes = nodeDiffs(fa, fb)
	res.OnlyA, res.OnlyB = alertDiffs(fa, fb), alertDiffs(fb, fa)
	res.Identical = res.First == nil && len(res.Header) == 0
	return res, nil
}

// scan reads the next event and folds it. The end of the file is io.EOF; an
// edited end record is noted, not refused.
func scan(r *trace.Reader, f *fold) (*trace.Event, error) {
	e, err := r.Scan()
	var ee *trace.EndError
	if errors.As(err, &ee) {
		f.s.Edited = true
		err = io.EOF
	}
	if err != nil {
		return nil, err
	}
	f.apply(e)
	if sample != nil && e.Seq%4096 == 0 {
		sample()
	}
	return e, nil
}

// sample, when set (by a test), is called every 4,096 events read.
var sample func()

// clone copies an event read by Scan, which the next read reuses.
func clone(e *trace.Event) *trace.Event {
	if e == nil {
		return nil
	}
	c := *e
	if e.Msg != nil {
		m := *e.Msg
		c.Msg = &m
	}
	if e.Status != nil {
		s := *e.Status
		s.Suspects = slices.Clone(s.Suspects)
		s.Counters = slices.Clone(s.Counters)
		c.Status = &s
	}
	c.Groups = slices.Clone(e.Groups)
	return &c
}

// earlier is the time of the first of two lines, either of which may be nil.
func earlier(a, b *trace.Event) int64 {
	switch {
	case a == nil:
		return b.T
	case b == nil || a.T < b.T:
		return a.T
	}
	return b.T
}

// cause says what made two runs part at lines a and b (either nil where its
// recording has ended).
func cause(a, b *trace.Event) Cause {
	switch {
	case a == nil:
		return Cause{Kind: CauseEnd, Run: "a"}
	case b == nil:
		return Cause{Kind: CauseEnd, Run: "b"}
	case a.Ev == trace.Action && b.Ev == trace.Action:
		return Cause{Kind: CauseAction, Run: "both", Action: a.Text + " | " + b.Text}
	case a.Ev == trace.Action:
		return Cause{Kind: CauseAction, Run: "a", Action: a.Text, By: a.By}
	case b.Ev == trace.Action:
		return Cause{Kind: CauseAction, Run: "b", Action: b.Text, By: b.By}
	case a.Ev == trace.Expect && b.Ev != trace.Expect:
		return Cause{Kind: CauseExpect, Run: "a"}
	case b.Ev == trace.Expect && a.Ev != trace.Expect:
		return Cause{Kind: CauseExpect, Run: "b"}
	}
	first, run := a, "a"
	switch {
	case b.T < a.T:
		first, run = b, "b"
	case a.T == b.T:
		// The same instant: a message landing decides, a lost or duplicated
		// one first; else it is the order.
		if landing(b) && (!landing(a) || drawn(b) && !drawn(a)) {
			first, run = b, "b"
		} else if !landing(a) {
			return Cause{Kind: CauseOrder, Run: "both"}
		}
	}
	if !landing(first) {
		return Cause{Kind: CauseOther, Run: run}
	}
	c := Cause{Kind: CauseLatency, Run: run, Message: &Message{MID: first.MID, From: first.From, To: first.To}}
	switch {
	case first.Ev == trace.Drop && first.Reason == trace.ReasonLoss:
		c.Kind = CauseLoss
	case first.Ev == trace.Drop:
		c.Kind = CauseOther
	case first.Dup:
		c.Kind = CauseDup
	}
	if first.Msg != nil {
		c.Message.Type = first.Msg.Type
	}
	return c
}

// landing is a message's delivery or drop.
func landing(e *trace.Event) bool {
	return e.Ev == trace.Deliver || e.Ev == trace.Drop
}

// drawn is a landing the network drew besides a latency: a loss or a copy.
func drawn(e *trace.Event) bool {
	return e.Ev == trace.Drop && e.Reason == trace.ReasonLoss || e.Dup
}

// findSend reads path again up to the send of m, which came before the runs
// parted, for the time it was sent and its type.
func findSend(path string, m *Message) error {
	r, c, err := session.OpenTrace(path)
	if err != nil {
		return err
	}
	defer c.Close()
	r.SkipHash()
	for {
		e, err := r.Scan()
		if err != nil {
			return nil // a duplicate's or a foreign message's send: left unknown
		}
		if e.Ev == trace.Send && e.MID == m.MID {
			m.SentUS = e.T
			if e.Msg != nil {
				m.Type = e.Msg.Type
			}
			return nil
		}
	}
}

// fold keeps what a diff needs of one run: each process's end state, the
// alerts by kind and text, and the fate of one watched message.
type fold struct {
	s      Side
	events uint64
	ids    []node.ID
	nodes  map[node.ID]*nodeEnd
	alerts map[string]*Alert
	// watch is the message whose fate is looked for, from the line where the
	// runs part on.
	watch uint64
	fate  Fate
}

type nodeEnd struct {
	up      bool
	inc     int64
	status  node.Status
	entries int
	sent    map[string]int
}

func newFold(path string, h *trace.Header) *fold {
	f := &fold{s: Side{File: path, Scenario: h.Info.Name, Algorithm: h.Info.Algorithm, Seed: h.Seed},
		ids: h.Info.IDs, nodes: map[node.ID]*nodeEnd{}, alerts: map[string]*Alert{}, fate: Fate{What: "pending"}}
	for _, id := range h.Info.IDs {
		f.nodes[id] = &nodeEnd{up: true, inc: 1, sent: map[string]int{}}
	}
	return f
}

func (f *fold) apply(e *trace.Event) {
	f.events = e.Seq
	f.s.EndUS = e.T
	switch e.Ev {
	case trace.Send:
		if n := f.nodes[e.From]; n != nil && e.Msg != nil {
			n.sent[e.Msg.Type]++
		}
	case trace.Crash:
		if n := f.nodes[e.Node]; n != nil {
			n.up = false
		}
	case trace.Recover:
		if n := f.nodes[e.Node]; n != nil {
			n.up, n.inc = true, e.Inc
		}
	case trace.StatusEv:
		if n := f.nodes[e.Node]; n != nil && e.Status != nil {
			if e.Status.CS == node.CSHeld && n.status.CS != node.CSHeld {
				n.entries++
			}
			n.status = *e.Status
			n.status.Suspects = slices.Clone(e.Status.Suspects)
			n.status.Counters = slices.Clone(e.Status.Counters)
		}
	case trace.Alert:
		f.s.Alerts++
		key := e.Kind + "\x00" + e.Text
		if a := f.alerts[key]; a != nil {
			a.Count++
		} else if len(f.alerts) < maxAlertKeys {
			f.alerts[key] = &Alert{Kind: e.Kind, Text: e.Text, AtUS: e.T, Count: 1}
		}
	}
	if f.watch != 0 {
		f.watched(e)
	}
}

// watched notes the fate of the watched message, the first time it lands.
func (f *fold) watched(e *trace.Event) {
	if e == nil || e.MID != f.watch || f.fate.What != "pending" || !landing(e) {
		return
	}
	f.fate = Fate{What: "delivered", AtUS: e.T}
	if e.Ev == trace.Drop {
		f.fate = Fate{What: "dropped", AtUS: e.T, Reason: e.Reason}
	}
}

// side completes the run's Side once its file has been read.
func (f *fold) side(r *trace.Reader) {
	f.s.Events = f.events
	if r.End != nil {
		f.s.Complete, f.s.EndUS, f.s.EndReason = true, r.End.T, r.End.Reason
	}
}

// nodeDiffs lists each process's end-state fields that differ, in the
// processes' order.
func nodeDiffs(a, b *fold) []NodeDiff {
	out := []NodeDiff{}
	for _, id := range a.ids {
		x, y := a.nodes[id].fields(), b.nodes[id].fields()
		for _, k := range unionKeys(x, y) {
			if strings.HasPrefix(k, "sent.") { // a type a process never sent: 0
				x[k], y[k] = cmp.Or(x[k], "0"), cmp.Or(y[k], "0")
			}
			if x[k] != y[k] {
				out = append(out, NodeDiff{Node: id, Field: k, A: x[k], B: y[k]})
			}
		}
	}
	return out
}

// fieldOrder ranks the end-state fields as a reader looks for them.
var fieldOrder = map[string]int{"up": 0, "inc": 1, "role": 2, "leader": 3, "term": 4, "cs": 5, "cs_entries": 6, "suspects": 7}

func unionKeys(x, y map[string]string) []string {
	var keys []string
	for k := range x {
		keys = append(keys, k)
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, oki := fieldOrder[keys[i]]
		rj, okj := fieldOrder[keys[j]]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		}
		return keys[i] < keys[j]
	})
	return keys
}

// fields is a process's end state as text, field by field; a field absent is
// "" (no role, no leader, none sent).
func (n *nodeEnd) fields() map[string]string {
	up := "up"
	if !n.up {
		up = "down"
	}
	s := n.status
	m := map[string]string{"up": up, "inc": strconv.FormatInt(n.inc, 10), "role": s.Role, "leader": "",
		"term": strconv.FormatInt(s.Term, 10), "cs": "", "cs_entries": strconv.Itoa(n.entries), "suspects": ids(s.Suspects)}
	if s.Leader != 0 {
		m["leader"] = s.Leader.String()
	}
	if s.CS != node.CSNone {
		m["cs"] = s.CS.String()
	}
	for _, c := range s.Counters {
		m["counter."+c.Name] = strconv.FormatInt(c.Value, 10)
	}
	for t, k := range n.sent {
		m["sent."+t] = strconv.Itoa(k)
	}
	return m
}

// alertDiffs lists the alerts x raised more often than y, by when x first
// raised each.
func alertDiffs(x, y *fold) []Alert {
	out := []Alert{}
	for key, a := range x.alerts {
		k := 0
		if b := y.alerts[key]; b != nil {
			k = b.Count
		}
		if a.Count > k {
			d := *a
			d.Count = a.Count - k
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].AtUS != out[j].AtUS {
			return out[i].AtUS < out[j].AtUS
		}
		return strings.Compare(out[i].Kind+out[i].Text, out[j].Kind+out[j].Text) < 0
	})
	return out
}

// ids lists process ids: n1,n2,n5.
func ids(l []node.ID) string {
	s := make([]string, len(l))
	for i, id := range l {
		s[i] = id.String()
	}
	return strings.Join(s, ",")
}
