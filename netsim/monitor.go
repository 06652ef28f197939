package netsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// Alert kinds beyond those expectations can name.
const alertFalseSuspicion = "false-suspicion"

// maxNamed is how many nodes an alert text names before it gives a count.
const maxNamed = 8

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

// raised is an alert that is still open: the line number (Seq) of its event, which
// the alert-cleared event names as Ref, and when it was raised.
type raised struct {
	seq uint64
	at  time.Duration
	rec int // its index in the world's alert log
}

func (r raised) open() bool { return r.seq != 0 }

// episode tracks one stretch of time during which a bad condition holds.
type episode struct {
	active bool
	since  time.Duration
	id     int
	alert  raised // the alert this episode raised, if it did
}

// start begins an episode if none is active and reports whether it did.
func (e *episode) start(now time.Duration) bool {
	if e.active {
		return false
	}
	e.active, e.since, e.alert = true, now, raised{}
	e.id++
	return true
}

// stop ends the episode and returns the alert it had raised, to be cleared.
func (e *episode) stop() raised {
	a := e.alert
	e.active, e.alert = false, raised{}
	return a
}

// Detection is how long the correct processes took to all suspect a crashed one.
type Detection struct {
	Node      node.ID       `json:"node"`
	CrashedUS int64         `json:"crashed_us"`
	Latency   time.Duration `json:"-"`
	LatencyMS float64       `json:"latency_ms"`
	Detected  bool          `json:"detected"`
}

// suspicion is an open false-suspicion alert: by suspects of, which is up.
type suspicion struct {
	by, of node.ID
	alert  raised
}

// monitors check, after every step, what the algorithm family promises, and raise
// alerts into the trace when it breaks. Bad conditions that may hold briefly in a
// correct run (two leaders while a COORDINATOR is in flight, a slow election) are
// only raised when they outlast a grace time, checked by deferred checks that are
// ordered with the events, so the run stays deterministic.
//
// Every alert whose condition can stop holding (split-brain, no-leader, mutex,
// starvation, false-suspicion) is closed by an alert-cleared event when it does,
// naming the alert's line as Ref and saying how it ended. (`order` is an instant
// event: it has nothing to clear.)
//
// The monitors keep their figures up to date on every status change, crash and
// revival instead of looking at every process each time: who each live process
// follows, how many lead, who leads each term, who suspects each process. A step
// costs the same at 5 processes and at 100,000.
type monitors struct {
	w      *World
	checks []check

	// Leadership, over the live processes.
	live      int             // live processes
	follow    map[node.ID]int // live processes by the leader they believe in (None too)
	believed  int             // distinct beliefs among the live processes
	sumLeader int64           // the sum of their beliefs: with one belief, it is live × that leader
	leaders   int             // live processes that believe they lead

	terms       bool
	termLeaders map[int64][]int // term → indices of the live processes leading it, sorted
	termAlerted map[int64]bool
	termOpen    map[int64]raised // open split-brain alerts, by term

	hops       int // announceHops, once known
	leaderSeen bool
	// started is set once a live process counts an election it started, before
	// any leader is seen; changed is when a process's status last changed. An
	// election that has started, has no leader and has changed nothing for a
	// settle time has stalled: no-leader says so (a slow one is left alone).
	started    bool
	changed    time.Duration
	split      episode
	noLeader   episode
	agreed     node.ID // the leader all live processes agree on, or None
	elections  int
	leaderDown time.Duration // when the agreed leader crashed, or -1
	recoveries []time.Duration

	suspectsSeen bool
	suspectedBy  map[node.ID]int // live processes that suspect each process
	detections   []Detection
	falseBefore  int
	falseAfter   int
	falseOpen    []suspicion // open false-suspicion alerts, in the order raised

	holders     int
	entries     int
	waits       []time.Duration
	wantedSince []time.Duration
	starveOpen  []raised // open starvation alert, per process
	mutexOpen   []raised // open mutex alerts
	lastExit    time.Duration
	syncDelays  []time.Duration
}

func newMonitors(w *World) *monitors {
	n := len(w.cfg.IDs)
	m := &monitors{w: w, terms: w.cfg.Spec.Terms, termAlerted: map[int64]bool{}, leaderDown: -1, lastExit: -1,
		follow: map[node.ID]int{}, suspectedBy: map[node.ID]int{}}
	if m.terms {
		m.termLeaders, m.termOpen = map[int64][]int{}, map[int64]raised{}
	}
	// Every process starts up, following no one.
	m.live = n
	if n > 0 {
		m.follow[node.None], m.believed = n, 1
	}
	m.suspectsSeen = w.cfg.Spec.Family == algos.Detector
	m.wantedSince = make([]time.Duration, n)
	for i := range m.wantedSince {
		m.wantedSince[i] = -1
	}
	m.starveOpen = make([]raised, n)
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

// next is the key of the next check.
func (m *monitors) next() (hkey, bool) {
	if len(m.checks) == 0 {
		return hkey{}, false
	}
	return hkey{at: m.checks[0].at, seq: m.checks[0].seq}, true
}

// due returns the next check if it comes before the next outcome (at, seq) and falls
// inside the window being merged: before cut, when the window stops inside an
// instant (see World.window).
func (m *monitors) due(at time.Duration, seq uint64, hasOutcome bool, t0, end time.Duration, single bool, cut *hkey) (check, bool) {
	if len(m.checks) == 0 {
		return check{}, false
	}
	c := m.checks[0]
	inWindow := c.at < end || c.at == t0
	if single && c.at > t0 {
		inWindow = false
	}
	if cut != nil {
		inWindow = earlier(c.at, c.seq, cut.at, cut.seq)
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
		if m.split.active && m.split.id == c.episode && !m.split.alert.open() {
			ls := w.leaders()
			m.split.alert = m.alert("split-brain", fmt.Sprintf("%s live nodes lead at once: %s", count(len(ls)), nodeList(ls, len(ls))))
		}
	case chNoLeader:
		if !m.noLeader.active || m.noLeader.id != c.episode || m.noLeader.alert.open() {
			break
		}
		if quiet := w.now - m.changed; !m.leaderSeen && quiet < m.settle() {
			// No leader yet, but the election is still moving: look again once
			// it has been quiet for a settle time.
			m.schedule(w.now+m.settle()-quiet, chNoLeader, 0, c.episode)
		} else {
			m.noLeader.alert = m.alert("no-leader", "live nodes do not agree on a live leader: "+m.views())
		}
	case chStarve:
		p := w.procs[c.proc]
		if p.up && m.wantedSince[c.proc] >= 0 && int(m.wantedSince[c.proc]) == c.episode {
			m.starveOpen[c.proc] = m.alert("starvation", fmt.Sprintf("%v has waited %v for the critical section", p.id, w.now-m.wantedSince[c.proc]))
		}
	}
}

// views says what the first live processes believe, and how many more there are.
func (m *monitors) views() string {
	var b strings.Builder
	named := 0
	for _, p := range m.w.procs {
		if !p.up {
			continue
		}
		if named == maxNamed {
			fmt.Fprintf(&b, " and %s more", count(m.live-named))
			break
		}
		if named > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%v→%v", p.id, p.status.Leader)
		named++
	}
	return b.String()
}

// nodeList names the first maxNamed of ids, then how many of total remain:
// "n1, n2, n3" or "n1, n2, n3, n4, n5, n6, n7, n8 and 3,992 more".
func nodeList(ids []node.ID, total int) string {
	var b strings.Builder
	for i, id := range ids[:min(len(ids), maxNamed)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(id.String())
	}
	if more := total - min(len(ids), maxNamed); more > 0 {
		fmt.Fprintf(&b, " and %s more", count(more))
	}
	return b.String()
}

// count writes n with a comma every three digits: 3,992.
func count(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lasted writes how long an alert lasted: "4.61 s", "710 ms", "0.895 ms".
func lasted(d time.Duration) string {
	if d < time.Second {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'g', 3, 64) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
}

func (m *monitors) alert(kind, text string) raised {
	w := m.w
	w.alerts.list = append(w.alerts.list, AlertRecord{AtUS: node.Micros(w.now), Kind: kind, Text: text, ClearedUS: -1})
	w.emit(trace.Event{Ev: trace.Alert, Kind: kind, Text: text})
	return raised{seq: w.lineSeq, at: w.now, rec: len(w.alerts.list) - 1}
}

// clear closes alert a of kind: what is over, and how it ended.
func (m *monitors) clear(a raised, kind, what, how string) {
	if !a.open() {
		return
	}
	w := m.w
	text := fmt.Sprintf("%s over after %s: %s", what, lasted(w.now-a.at), how)
	r := &w.alerts.list[a.rec]
	r.ClearedUS, r.Cleared = node.Micros(w.now), text
	w.emit(trace.Event{Ev: trace.AlertCleared, Kind: kind, Ref: a.seq, Text: text})
}

// track counts p's status st among the live processes; untrack takes it out.
func (m *monitors) track(p *proc, st node.Status) { m.account(p, st, 1) }

func (m *monitors) untrack(p *proc, st node.Status) { m.account(p, st, -1) }

func (m *monitors) account(p *proc, st node.Status, d int) {
	before := m.follow[st.Leader]
	if before == 0 {
		m.believed++
	}
	if after := before + d; after == 0 {
		delete(m.follow, st.Leader)
		m.believed--
	} else {
		m.follow[st.Leader] = after
	}
	m.sumLeader += int64(d) * int64(st.Leader)
	if st.Leader == p.id && p.id != node.None {
		m.leaders += d
		if m.terms {
			ls := m.termLeaders[st.Term]
			i, _ := slices.BinarySearch(ls, p.idx)
			if d > 0 {
				ls = slices.Insert(ls, i, p.idx)
			} else if i < len(ls) && ls[i] == p.idx {
				ls = slices.Delete(ls, i, i+1)
			}
			if len(ls) == 0 {
				delete(m.termLeaders, st.Term)
			} else {
				m.termLeaders[st.Term] = ls
			}
		}
	}
	for _, s := range st.Suspects {
		if k := m.suspectedBy[s] + d; k == 0 {
			delete(m.suspectedBy, s)
		} else {
			m.suspectedBy[s] = k
		}
	}
}

// status is called after p's status changed from old.
func (m *monitors) status(p *proc, old node.Status) {
	if p.up {
		m.untrack(p, old)
		m.track(p, p.status)
	}
	if p.up && p.status.Leader != node.None {
		m.leaderSeen = true
	}
	if c, ok := p.status.Counter("elections"); ok && c > 0 && p.up {
		m.started = true
	}
	m.changed = m.w.now
	m.leadership(p.status.Term, old.Term)
	m.suspicions(p, old)
	m.critical(p, old)
}

func (m *monitors) crash(p *proc, old node.Status) {
	w := m.w
	m.untrack(p, old)
	m.live--
	if m.agreed == p.id {
		m.leaderDown = w.now
	}
	m.detections = append(m.detections, Detection{Node: p.id, CrashedUS: node.Micros(w.now)})
	m.critical(p, old)
	m.wantedSince[p.idx] = -1
	m.clearSuspicions(func(s suspicion) string {
		switch {
		case s.by == p.id:
			return fmt.Sprintf("%v went down", p.id)
		case s.of == p.id:
			return fmt.Sprintf("%v is down now, as %v suspected", p.id, s.by)
		}
		return ""
	})
	m.leadership(old.Term, old.Term)
	m.detect()
}

func (m *monitors) recover(p *proc) {
	m.live++
	m.track(p, p.status)
	// A crash no one detected before the revival stays undetected.
	for i := range m.detections {
		d := &m.detections[i]
		if d.Node == p.id && !d.Detected {
			d.CrashedUS = -1
		}
	}
}

func (m *monitors) gst() {
	if m.noLeader.active && !m.noLeader.alert.open() {
		m.schedule(m.w.gstAt+m.settle(), chNoLeader, 0, m.noLeader.id)
	}
}

// leadership runs the election monitors, split brain and agreement, after a change
// that touched terms t1 and t2 (for algorithms with terms).
func (m *monitors) leadership(t1, t2 int64) {
	w := m.w
	if !m.leaderSeen && !m.started {
		return
	}
	if m.terms {
		m.termSplit(t1)
		if t2 != t1 {
			m.termSplit(t2)
		}
	} else if m.leaders >= 2 {
		if m.split.start(w.now) {
			m.schedule(w.now+w.cfg.Monitors.SplitGrace, chSplit, 0, m.split.id)
		}
	} else if a := m.split.stop(); a.open() {
		how := "no leader"
		if m.leaders == 1 {
			how = "one leader " + m.leaderNames(1)
		}
		m.clear(a, "split-brain", "split brain", how)
	}
	var agreed node.ID
	if m.believed == 1 && m.live > 0 {
		agreed = node.ID(m.sumLeader / int64(m.live))
	}
	if agreed != node.None && w.proc(agreed).up {
		if a := m.noLeader.stop(); a.open() {
			m.clear(a, "no-leader", "no leader", fmt.Sprintf("every live node follows %v", agreed))
		}
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
		at := max(w.now, w.gstAt) + m.settle()
		m.schedule(at, chNoLeader, 0, m.noLeader.id)
	}
}

// leaderNames names the live processes that believe they lead, at most k of them.
func (m *monitors) leaderNames(k int) string {
	var ls []node.ID
	for _, p := range m.w.procs {
		if len(ls) == k {
			break
		}
		if p.up && p.status.Leader == p.id {
			ls = append(ls, p.id)
		}
	}
	return nodeList(ls, len(ls))
}

// termSplit raises split-brain for two live leaders in term t, never allowed, once
// per term; and clears it when fewer than two lead t.
func (m *monitors) termSplit(t int64) {
	w := m.w
	ls := m.termLeaders[t]
	if len(ls) >= 2 && !m.termAlerted[t] {
		m.termAlerted[t] = true
		p, q := w.procs[ls[0]], w.procs[ls[1]]
		m.termOpen[t] = m.alert("split-brain", fmt.Sprintf("%v and %v both lead term %d", p.id, q.id, t))
		return
	}
	if a, ok := m.termOpen[t]; ok && len(ls) < 2 {
		delete(m.termOpen, t)
		how := fmt.Sprintf("no live node leads term %d", t)
		if len(ls) == 1 {
			how = fmt.Sprintf("only %v leads term %d", w.procs[ls[0]].id, t)
		}
		m.clear(a, "split-brain", "split brain", how)
	}
}

// Settle is how long live processes may go without agreeing on a live leader
// after GST before no-leader is raised: Monitors.Settle, resolved when automatic.
func (w *World) Settle() time.Duration { return w.mon.settle() }

// settle is how long live processes may go without agreeing on a live leader after
// GST: Monitors.Settle, or with SettleAuto the longer of 3 s and three times the
// longest chain of messages an announcement needs, each taking the longest delay
// after GST.
func (m *monitors) settle() time.Duration {
	if s := m.w.cfg.Monitors.Settle; s != SettleAuto {
		return s
	}
	if m.hops == 0 {
		m.hops = m.w.announceHops() // the topology never changes
	}
	return max(autoSettleFloor, 3*time.Duration(m.hops)*m.w.maxDelay())
}

// suspicions counts false suspicions, clears those that ended and completes crash
// detections.
func (m *monitors) suspicions(p *proc, old node.Status) {
	w := m.w
	if len(p.status.Suspects) > 0 {
		m.suspectsSeen = true
	}
	if len(m.falseOpen) > 0 {
		m.clearSuspicions(func(s suspicion) string {
			if s.by == p.id && !p.status.Suspect(s.of) {
				return fmt.Sprintf("%v no longer suspects %v", p.id, s.of)
			}
			return ""
		})
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
			a := m.alert(alertFalseSuspicion, fmt.Sprintf("%v suspects %v, which is up (%s)", p.id, s, when))
			m.falseOpen = append(m.falseOpen, suspicion{by: p.id, of: s, alert: a})
		}
	}
	m.detect()
}

// clearSuspicions clears, in the order they were raised, the open false-suspicion
// alerts for which ended says how they ended ("" for those still open).
func (m *monitors) clearSuspicions(ended func(suspicion) string) {
	keep := m.falseOpen[:0]
	for _, s := range m.falseOpen {
		if how := ended(s); how != "" {
			m.clear(s.alert, alertFalseSuspicion, "false suspicion", how)
		} else {
			keep = append(keep, s)
		}
	}
	clear(m.falseOpen[len(keep):])
	m.falseOpen = keep
}

func (m *monitors) detect() {
	w := m.w
	for i := range m.detections {
		d := &m.detections[i]
		if d.Detected || d.CrashedUS < 0 || !m.suspectsSeen {
			continue
		}
		// d.Node is down, so every live process that suspects it is another one.
		if m.suspectedBy[d.Node] == m.live {
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
	if was == node.CSWanted {
		if a := m.starveOpen[p.idx]; a.open() {
			m.starveOpen[p.idx] = raised{}
			how := fmt.Sprintf("%v no longer waits for the critical section", p.id)
			switch {
			case !p.up:
				how = fmt.Sprintf("%v went down", p.id)
			case now == node.CSHeld:
				how = fmt.Sprintf("%v entered the critical section after waiting %s", p.id, lasted(w.now-m.wantedSince[p.idx]))
			}
			m.clear(a, "starvation", "starvation", how)
		}
	}
	if now == node.CSWanted {
		m.wantedSince[p.idx] = w.now
		m.schedule(w.now+w.cfg.Monitors.Starvation, chStarve, p.idx, int(w.now))
	}
	if was == node.CSHeld {
		m.holders--
		m.lastExit = w.now
		if m.holders <= 1 && len(m.mutexOpen) > 0 {
			how := "no one holds the critical section"
			if m.holders == 1 {
				how = m.holderNames() + " holds the critical section"
			}
			for _, a := range m.mutexOpen {
				m.clear(a, "mutex", "mutual exclusion violation", how)
			}
			m.mutexOpen = m.mutexOpen[:0]
		}
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
			m.mutexOpen = append(m.mutexOpen, m.alert("mutex", fmt.Sprintf("%s nodes hold the critical section at once: %s", count(m.holders), m.holderNames())))
		}
		m.order(p)
	}
	if now != node.CSWanted {
		m.wantedSince[p.idx] = -1
	}
}

// holderNames names the live holders of the critical section (at most maxNamed).
func (m *monitors) holderNames() string {
	var hs []node.ID
	for _, q := range m.w.procs {
		if q.up && q.status.CS == node.CSHeld && len(hs) < maxNamed {
			hs = append(hs, q.id)
		}
	}
	return nodeList(hs, m.holders)
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

// announceHops is the longest chain of messages, one after another, that announces
// a leader to every process: N round a ring (and for algorithms that pass
// messages along the logical ring whatever the topology), twice the eccentricity
// of the first process on a graph (at least its diameter), 1 on a full mesh.
func (w *World) announceHops() int {
	n := len(w.procs)
	switch {
	case w.cfg.Spec.Ring || w.cfg.Topology == "ring":
		return n
	case w.adj == nil:
		return 1
	}
	// Breadth-first from process 0; unreachable processes never agree anyway.
	dist := make([]int32, n)
	for i := range dist {
		dist[i] = -1
	}
	dist[0] = 0
	queue := []int32{0}
	ecc := int32(0)
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range w.adj[i] {
			if dist[j] < 0 {
				dist[j] = dist[i] + 1
				ecc = max(ecc, dist[j])
				queue = append(queue, j)
			}
		}
	}
	return max(1, 2*int(ecc))
}

// maxDelay is the longest a message can take after GST: the latency's max (its
// mean for a constant), or a link override's, at most Δ.
func (w *World) maxDelay() time.Duration {
	longest := func(l Latency) time.Duration { return max(l.Max, l.Mean, l.Min) }
	d := longest(w.net.Latency)
	for _, l := range w.cfg.Links {
		if l.Latency != nil {
			d = max(d, longest(*l.Latency))
		}
	}
	return min(d, w.net.Delta)
}
