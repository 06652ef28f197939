package mutex

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

// sim is a small test-only world: nodetest harnesses over a lossless network whose
// delay per message is given by a function (a constant gives FIFO links), timers
// fired in time order, messages counted by type, and the mutex safety and liveness
// observations made after every step. It stands in for netsim in this package's
// tests.
type sim struct {
	t     tb
	ids   []node.ID
	hs    []*nodetest.Harness
	up    []bool
	now   time.Duration
	seq   uint64
	queue []flight
	delay func(from, to node.ID) time.Duration

	sent   map[string]int // network messages by type
	steps  int
	limit  int // steps before the run is declared runaway
	cs     []node.CSState
	since  []time.Duration // when each process started waiting
	maxHit int             // most processes ever held at once

	violations []string // two holders at once
	entries    []entry
}

// tb is what the driver needs of a test: *testing.T or *rapid.T.
type tb interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

type flight struct {
	at       time.Duration
	seq      uint64
	from, to node.ID
	msg      node.Message
}

type entry struct {
	at   time.Duration
	id   node.ID
	ts   int64 // req_ts, if reported
	wait time.Duration
}

// factory builds the named algorithm for ids with params.
func factory(t tb, name string, ids []node.ID, params map[string]any) node.Factory {
	t.Helper()
	spec, ok := algos.Lookup(name)
	if !ok {
		t.Fatalf("algorithm %q is not registered", name)
	}
	p, err := algos.NewParams(spec, params)
	if err != nil {
		t.Fatalf("params: %v", err)
	}
	f, err := spec.Build(algos.Config{IDs: ids, Params: p})
	if err != nil {
		t.Fatalf("build %s: %v", name, err)
	}
	return f
}

// fixed is a constant link delay: FIFO links.
func fixed(d time.Duration) func(node.ID, node.ID) time.Duration {
	return func(node.ID, node.ID) time.Duration { return d }
}

// newSim starts n processes of the algorithm.
func newSim(t tb, name string, n int, params map[string]any, delay func(node.ID, node.ID) time.Duration) *sim {
	t.Helper()
	ids := nodetest.IDs(n)
	f := factory(t, name, ids, params)
	s := &sim{t: t, ids: ids, delay: delay, sent: map[string]int{}, limit: 1_000_000,
		cs: make([]node.CSState, n), since: make([]time.Duration, n)}
	for _, id := range ids {
		s.hs = append(s.hs, nodetest.New(f, id, ids, 42))
		s.up = append(s.up, true)
	}
	for i, h := range s.hs {
		s.apply(s.ids[i], h.Start())
	}
	return s
}

func (s *sim) h(id node.ID) *nodetest.Harness { return s.hs[s.idx(id)] }
func (s *sim) idx(id node.ID) int             { return slices.Index(s.ids, id) }

func (s *sim) apply(from node.ID, effs []node.Effect) {
	for _, e := range effs {
		if e.Kind != node.EffSend {
			continue
		}
		if e.To == from {
			s.t.Errorf("%v sent %s to itself: a self-delivery must be handled inline", from, e.Msg.Type)
			continue
		}
		s.sent[e.Msg.Type]++
		s.seq++
		s.queue = append(s.queue, flight{at: s.now + s.delay(from, e.To), seq: s.seq, from: from, to: e.To, msg: e.Msg})
	}
	s.observe()
}

// observe checks mutual exclusion and records entries and waiting times.
func (s *sim) observe() {
	var holders []node.ID
	for i, h := range s.hs {
		st := node.CSReleased
		if s.up[i] {
			st = h.Status().CS
		}
		prev := s.cs[i]
		if st != prev {
			if st == node.CSWanted || (st == node.CSHeld && prev != node.CSWanted) {
				s.since[i] = s.now
			}
			if st == node.CSHeld {
				ts, _ := h.Status().Counter("req_ts")
				s.entries = append(s.entries, entry{at: s.now, id: s.ids[i], ts: ts, wait: s.now - s.since[i]})
			}
			s.cs[i] = st
		}
		if st == node.CSHeld {
			holders = append(holders, s.ids[i])
		}
	}
	s.maxHit = max(s.maxHit, len(holders))
	if len(holders) > 1 {
		v := fmt.Sprintf("%v: %v hold the critical section at once", s.now, holders)
		if len(s.violations) == 0 || s.violations[len(s.violations)-1] != v {
			s.violations = append(s.violations, v)
		}
	}
}

// step handles the next event (a message, then timers in node and name order at the
// same instant) and reports whether there was one no later than until.
func (s *sim) step(until time.Duration) bool {
	fi := -1
	for i, f := range s.queue {
		if fi < 0 || f.at < s.queue[fi].at || (f.at == s.queue[fi].at && f.seq < s.queue[fi].seq) {
			fi = i
		}
	}
	ti, tname, tat := -1, "", time.Duration(0)
	for i, h := range s.hs {
		if !s.up[i] {
			continue
		}
		for _, name := range h.TimerNames() {
			at, _ := h.Armed(name)
			if ti < 0 || at < tat || (at == tat && i == ti && name < tname) {
				ti, tname, tat = i, name, at
			}
		}
	}
	switch {
	case fi >= 0 && s.queue[fi].at <= until && (ti < 0 || s.queue[fi].at <= tat):
		f := s.queue[fi]
		s.queue = slices.Delete(s.queue, fi, fi+1)
		s.now = max(s.now, f.at)
		i := s.idx(f.to)
		if !s.up[i] {
			return true // dropped: down
		}
		s.hs[i].Now = s.now
		s.apply(f.to, s.hs[i].Deliver(f.from, f.msg))
	case ti >= 0 && tat <= until:
		s.now = max(s.now, tat)
		s.hs[ti].Now = s.now
		s.apply(s.ids[ti], s.hs[ti].Fire(tname))
	default:
		return false
	}
	s.steps++
	if s.steps > s.limit {
		s.t.Fatalf("runaway: more than %d steps by %v", s.limit, s.now)
	}
	return true
}

// runUntil handles every event up to d and moves time to d.
func (s *sim) runUntil(d time.Duration) {
	for s.step(d) {
	}
	s.now = max(s.now, d)
}

// settle runs until nothing is left to do: no message in flight, no timer armed.
func (s *sim) settle() {
	for s.step(1 << 62) {
	}
}

// request asks process id for the critical section now and reports whether the
// request was taken (the process was not already wanting or holding).
func (s *sim) request(id node.ID) bool {
	h := s.h(id)
	if !s.up[s.idx(id)] {
		return false
	}
	was := h.Status().CS
	h.Now = s.now
	s.apply(id, h.Request("cs"))
	return was == node.CSReleased
}

func (s *sim) crash(id node.ID) {
	i := s.idx(id)
	s.hs[i].Crash()
	s.up[i] = false
	s.observe()
}

func (s *sim) recover(id node.ID) {
	i := s.idx(id)
	s.up[i] = true
	s.hs[i].Now = s.now
	s.apply(id, s.hs[i].Recover())
}

// total is the number of network messages sent.
func (s *sim) total() int {
	n := 0
	for _, c := range s.sent {
		n += c
	}
	return n
}

func (s *sim) resetCounts() { s.sent = map[string]int{} }

// state lists every process's critical-section state.
func (s *sim) state() []node.CSState {
	var out []node.CSState
	for i, h := range s.hs {
		if s.up[i] {
			out = append(out, h.Status().CS)
		} else {
			out = append(out, node.CSNone)
		}
	}
	return out
}

func (s *sim) entriesOf(id node.ID) int {
	n := 0
	for _, e := range s.entries {
		if e.id == id {
			n++
		}
	}
	return n
}

// TestSimSelfCheck makes sure the driver itself sees what it should: a request that
// is granted is an entry, and a deliberately broken run is flagged.
func TestSimSelfCheck(t *testing.T) {
	s := newSim(t, "ricart", 3, nil, fixed(10*time.Millisecond))
	if !s.request(2) {
		t.Fatal("request not taken")
	}
	if s.request(2) {
		t.Fatal("a second request while wanted must be ignored")
	}
	s.settle()
	if len(s.entries) != 1 || s.entries[0].id != 2 || s.entries[0].wait != 20*time.Millisecond {
		t.Fatalf("entries = %+v, want one entry of n2 after a 20ms round trip", s.entries)
	}
	if s.entries[0].ts != 1 {
		t.Fatalf("req_ts = %d, want 1", s.entries[0].ts)
	}
	if s.now != 70*time.Millisecond {
		t.Fatalf("settled at %v, want 70ms (20ms + 50ms hold)", s.now)
	}
}
