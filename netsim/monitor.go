package netsim

import (
	"fmt"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// Alert kinds beyond those expectations can name.
const alertFalseSuspicion = "false-suspicion"

type checkKind uint8

const (
	chSplit checkKind = iota + 1
	chNoLeader
	chStarve
)

// check is a monitor's deferred look at the world, ordered with the events.
type check struct {
	at      time.Duration
	seq     uint64
	kind    checkKind
	proc    int
	episode int
}

// episode tracks one stretch of time during which a bad condition holds.
type episode struct {
	active  bool
	since   time.Duration
	id      int
	alerted bool
}

// start begins an episode if none is active and reports whether it did.
func (e *episode) start(now time.Duration) bool {
	if e.active {
		return false
	}
	e.active, e.since, e.alerted = true, now, false
	e.id++
	return true
}

func (e *episode) stop() { e.active = false }

// Detection is how long the correct processes took to all suspect a crashed one.
type Detection struct {
	Node      node.ID       `json:"node"`
	CrashedUS int64         `json:"crashed_us"`
	Latency   time.Duration `json:"-"`
	LatencyMS float64       `json:"latency_ms"`
	Detected  bool          `json:"detected"`
}

// monitors check, after every step, what the algorithm family promises, and raise
// alerts into the trace when it breaks. Bad conditions that may hold briefly in a
// correct run (two leaders while a COORDINATOR is in flight, a slow election) are
// only raised when they outlast a grace time, checked by deferred checks that are
// ordered with the events, so the run stays deterministic.
type monitors struct {
	w      *World
	checks []check

	terms       bool
	leaderSeen  bool
	split       episode
	termAlerted map[int64]bool
	noLeader    episode
	agreed      node.ID // the leader all live processes agree on, or None
	elections   int
	leaderDown  time.Duration // when the agreed leader crashed, or -1
	recoveries  []time.Duration

	suspectsSeen bool
	detections   []Detection
	falseBefore  int
	falseAfter   int

	holders     int
	entries     int
	waits       []time.Duration
	wantedSince []time.Duration
	lastExit    time.Duration
	syncDelays  []time.Duration
}

func newMonitors(w *World) *monitors {
	m := &monitors{w: w, terms: w.cfg.Spec.Terms, termAlerted: map[int64]bool{}, leaderDown: -1, lastExit: -1}
	m.suspectsSeen = w.cfg.Spec.Family == algos.Detector
	m.wantedSince = make([]time.Duration, len(w.cfg.IDs))
	for i := range m.wantedSince {
		m.wantedSince[i] = -1
	}
	return m
}

func (m *monitors) schedule(at time.Duration, kind checkKind, proc, ep int) {
	m.w.seq++
	c := check{at: at, seq: m.w.seq, kind: kind, proc: proc, episode: ep}
	// Checks are few: keep them sorted by insertion.
	i := len(m.checks)
	m.checks = append(m.checks, c)
	for i > 0 && (m.checks[i-1].at > c.at || (m.checks[i-1].at == c.at && m.checks[i-1].seq > c.seq)) {
		m.checks[i] = m.checks[i-1]
		i--
	}
	m.checks[i] = c
}

func (m *monitors) next() (time.Duration, bool) {
	if len(m.checks) == 0 {
		return 0, false
	}
	return m.checks[0].at, true
}

// due returns the next check if it comes before the next outcome (at, seq) and falls
// inside the window being merged.
func (m *monitors) due(at time.Duration, seq uint64, hasOutcome bool, t0, end time.Duration, single bool) (check, bool) {
	if len(m.checks) == 0 {
		return check{}, false
	}
	c := m.checks[0]
	inWindow := c.at < end || c.at == t0
	if single && c.at > t0 {
		inWindow = false
	}
	if !inWindow || (hasOutcome && (c.at > at || (c.at == at && c.seq > seq))) {
		return check{}, false
	}
	m.checks = m.checks[1:]
	return c, true
}

func (m *monitors) run(c check) {
	w := m.w
	if c.at > w.now {
		w.now = c.at
	}
	switch c.kind {
	case chSplit:
		if m.split.active && m.split.id == c.episode && !m.split.alerted {
			m.split.alerted = true
			m.alert("split-brain", fmt.Sprintf("%d live nodes lead at once: %v", len(w.leaders()), w.leaders()))
		}
	case chNoLeader:
		if m.noLeader.active && m.noLeader.id == c.episode && !m.noLeader.alerted {
			m.noLeader.alerted = true
			m.alert("no-leader", "live nodes do not agree on a live leader: "+m.views())
		}
	case chStarve:
		p := w.procs[c.proc]
		if p.up && m.wantedSince[c.proc] >= 0 && int(m.wantedSince[c.proc]) == c.episode {
			m.alert("starvation", fmt.Sprintf("%v has waited %v for the critical section", p.id, w.now-m.wantedSince[c.proc]))
		}
	}
}

func (m *monitors) views() string {
	var b strings.Builder
	for _, p := range m.w.procs {
		if p.up {
			fmt.Fprintf(&b, "%v→%v ", p.id, p.status.Leader)
		}
	}
	return strings.TrimSpace(b.String())
}

func (m *monitors) alert(kind, text string) {
	w := m.w
	w.alerts.list = append(w.alerts.list, AlertRecord{AtUS: node.Micros(w.now), Kind: kind, Text: text})
	w.emit(trace.Event{Ev: trace.Alert, Kind: kind, Text: text})
}

// status is called after p's status changed from old.
func (m *monitors) status(p *proc, old node.Status) {
	m.leadership()
	m.suspicions(p, old)
	m.critical(p, old)
}

func (m *monitors) crash(p *proc, old node.Status) {
	w := m.w
	if m.agreed == p.id {
		m.leaderDown = w.now
	}
	m.detections = append(m.detections, Detection{Node: p.id, CrashedUS: node.Micros(w.now)})
	m.critical(p, old)
	m.wantedSince[p.idx] = -1
	m.leadership()
	m.detect()
}

func (m *monitors) recover(p *proc) {
	// A crash no one detected before the revival stays undetected.
	for i := range m.detections {
		d := &m.detections[i]
		if d.Node == p.id && !d.Detected {
			d.CrashedUS = -1
		}
	}
}

func (m *monitors) gst() {
	if m.noLeader.active && !m.noLeader.alerted {
		m.schedule(m.w.gstAt+m.w.cfg.Monitors.Settle, chNoLeader, 0, m.noLeader.id)
	}
}

// leadership runs the election monitors: split brain and agreement.
func (m *monitors) leadership() {
	w := m.w
	leaders := 0
	var agreed node.ID
	agree := true
	first := true
	for _, p := range w.procs {
		if !p.up {
			continue
		}
		if p.status.Leader != node.None {
			m.leaderSeen = true
		}
		if p.status.Leader == p.id {
			leaders++
		}
		if first {
			agreed, first = p.status.Leader, false
		} else if p.status.Leader != agreed {
			agree = false
		}
	}
	if !m.leaderSeen {
		return
	}
	if m.terms {
		m.termSplit()
	} else if leaders >= 2 {
		if m.split.start(w.now) {
			m.schedule(w.now+w.cfg.Monitors.SplitGrace, chSplit, 0, m.split.id)
		}
	} else {
		m.split.stop()
	}
	ok := agree && agreed != node.None && !first && w.proc(agreed).up
	if ok {
		m.noLeader.stop()
		if agreed != m.agreed {
			m.elections++
			if m.leaderDown >= 0 {
				m.recoveries = append(m.recoveries, w.now-m.leaderDown)
				m.leaderDown = -1
			}
		}
		m.agreed = agreed
		return
	}
	if m.agreed != node.None && !w.proc(m.agreed).up {
		m.agreed = node.None
	}
	if m.noLeader.start(w.now) && w.gstAt != Never {
		at := max(w.now, w.gstAt) + w.cfg.Monitors.Settle
		m.schedule(at, chNoLeader, 0, m.noLeader.id)
	}
}

// termSplit raises split-brain for two live leaders in one term: never allowed.
func (m *monitors) termSplit() {
	w := m.w
	for i, p := range w.procs {
		if !p.up || p.status.Leader != p.id {
			continue
		}
		for _, q := range w.procs[i+1:] {
			if q.up && q.status.Leader == q.id && q.status.Term == p.status.Term && !m.termAlerted[p.status.Term] {
				m.termAlerted[p.status.Term] = true
				m.alert("split-brain", fmt.Sprintf("%v and %v both lead term %d", p.id, q.id, p.status.Term))
			}
		}
	}
}

// suspicions counts false suspicions and completes crash detections.
func (m *monitors) suspicions(p *proc, old node.Status) {
	w := m.w
	if len(p.status.Suspects) > 0 {
		m.suspectsSeen = true
	}
	for _, s := range p.status.Suspects {
		if old.Suspect(s) {
			continue
		}
		if q, ok := w.index[s]; ok && w.procs[q].up {
			when := "before GST"
			if w.sync {
				m.falseAfter++
				when = "after GST"
			} else {
				m.falseBefore++
			}
			m.alert(alertFalseSuspicion, fmt.Sprintf("%v suspects %v, which is up (%s)", p.id, s, when))
		}
	}
	m.detect()
}

func (m *monitors) detect() {
	w := m.w
	for i := range m.detections {
		d := &m.detections[i]
		if d.Detected || d.CrashedUS < 0 || !m.suspectsSeen {
			continue
		}
		all := true
		for _, p := range w.procs {
			if p.up && p.id != d.Node && !p.status.Suspect(d.Node) {
				all = false
				break
			}
		}
		if all {
			d.Detected = true
			d.Latency = w.now - time.Duration(d.CrashedUS)*time.Microsecond
			d.LatencyMS = float64(d.Latency) / float64(time.Millisecond)
			w.emit(trace.Event{Ev: trace.Detect, Node: d.Node, Value: d.Latency.String()})
		}
	}
}

// critical runs the mutual-exclusion monitors on p's change from old.
func (m *monitors) critical(p *proc, old node.Status) {
	w := m.w
	was, now := old.CS, p.status.CS
	if !p.up {
		now = node.CSNone
	}
	if was == now {
		return
	}
	if now == node.CSWanted {
		m.wantedSince[p.idx] = w.now
		m.schedule(w.now+w.cfg.Monitors.Starvation, chStarve, p.idx, int(w.now))
	}
	if was == node.CSHeld {
		m.holders--
		m.lastExit = w.now
	}
	if now == node.CSHeld {
		m.holders++
		m.entries++
		if ws := m.wantedSince[p.idx]; ws >= 0 {
			m.waits = append(m.waits, w.now-ws)
			if m.lastExit >= 0 && ws <= m.lastExit {
				m.syncDelays = append(m.syncDelays, w.now-m.lastExit)
			}
		}
		if m.holders > 1 {
			var hs []node.ID
			for _, q := range w.procs {
				if q.up && q.status.CS == node.CSHeld {
					hs = append(hs, q.id)
				}
			}
			m.alert("mutex", fmt.Sprintf("%d nodes hold the critical section at once: %v", len(hs), hs))
		}
		m.order(p)
	}
	if now != node.CSWanted {
		m.wantedSince[p.idx] = -1
	}
}

// order raises `order` when p enters although a live process waits with an earlier
// (timestamp, id) request; only for algorithms that report req_ts.
func (m *monitors) order(p *proc) {
	ts, ok := p.status.Counter("req_ts")
	if !ok {
		return
	}
	for _, q := range m.w.procs {
		if !q.up || q == p || q.status.CS != node.CSWanted {
			continue
		}
		qts, ok := q.status.Counter("req_ts")
		if ok && (qts < ts || (qts == ts && q.id < p.id)) {
			m.alert("order", fmt.Sprintf("%v entered with request (%d,%v) while %v waits with (%d,%v)", p.id, ts, p.id, q.id, qts, q.id))
			return
		}
	}
}
