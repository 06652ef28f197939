package netsim_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// naiveEvent is one event of the naive loop: everything inline, one struct.
type naiveEvent struct {
	at  time.Duration
	seq uint64
	to  int
	ev  node.Event
	gen uint32
}

func (a *naiveEvent) before(b *naiveEvent) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// naiveHeap is a plain binary min-heap of events, by value.
type naiveHeap []naiveEvent

func (h *naiveHeap) push(e naiveEvent) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q[i].before(&q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *naiveHeap) pop() naiveEvent {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q[r].before(&q[l]) {
			m = r
		}
		if !q[m].before(&q[i]) {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return top
}

// naiveSim is the anchor the world's speed is measured against: the simplest
// correct simulator of the same workload. One goroutine pops the next event from a
// binary heap of events, hands it straight to the algorithm (the same code the world runs,
// through the same node.Env), and pushes the effects back with a latency drawn from
// the same distribution. It has no network faults, monitors, statuses, windows or
// goroutines: whatever the world does beyond this is its overhead.
type naiveSim struct {
	cfg       netsim.Config
	algs      []node.Algorithm
	envs      []*node.Env
	index     map[node.ID]int
	q         naiveHeap
	seq       uint64
	rng       *rand.Rand
	now       time.Duration
	delivered int
}

func newNaive(cfg netsim.Config) *naiveSim {
	s := &naiveSim{cfg: cfg, index: map[node.ID]int{}, rng: rand.New(rand.NewPCG(cfg.Seed, 1))}
	for i, id := range cfg.IDs {
		s.index[id] = i
		var others []node.ID
		for _, p := range cfg.IDs {
			if p != id {
				others = append(others, p)
			}
		}
		s.envs = append(s.envs, node.NewEnv(id, cfg.IDs, others, rand.New(rand.NewPCG(cfg.Seed, uint64(i))), nil))
		s.algs = append(s.algs, cfg.Factory(id))
		s.push(naiveEvent{to: i, ev: node.Event{Kind: node.Start}})
	}
	return s
}

func (s *naiveSim) push(e naiveEvent) {
	s.seq++
	e.seq = s.seq
	s.q.push(e)
}

func (s *naiveSim) runUntil(t time.Duration) {
	for len(s.q) > 0 && s.q[0].at < t {
		e := s.q.pop()
		s.now = e.at
		env := s.envs[e.to]
		if !env.Apply(s.algs[e.to], e.at, e.ev, e.gen) {
			continue
		}
		if e.ev.Kind == node.Deliver {
			s.delivered++
		}
		for _, f := range env.Effects() {
			switch f.Kind {
			case node.EffTimer:
				s.push(naiveEvent{at: e.at + f.Delay, to: e.to, ev: node.Event{Kind: node.Timer, Name: f.Name}, gen: f.Gen})
			case node.EffSend:
				d := s.cfg.Net.Latency.Sample(s.rng)
				s.push(naiveEvent{at: e.at + d, to: s.index[f.To], ev: node.Event{Kind: node.Deliver, From: s.cfg.IDs[e.to], Msg: f.Msg}})
			}
		}
		env.ClearEffects()
	}
	s.now = t
}

// BenchmarkNaiveAllToAll is the anchor for BenchmarkWorldAllToAll: the same 64-node
// heartbeat-dp workload run by naiveSim. scripts/bench reports the world's speed as
// a ratio of this one, measured in the same run.
func BenchmarkNaiveAllToAll(b *testing.B) {
	s := newNaive(heartbeatConfig(b, 64))
	s.runUntil(time.Second)
	start := s.delivered
	b.ResetTimer()
	m := startMeter()
	s.runUntil(s.now + time.Duration(b.N)*100*time.Millisecond)
	b.StopTimer()
	delivered := s.delivered - start
	if delivered < b.N*64*63*9/10 {
		b.Fatalf("only %d heartbeats delivered in %d intervals", delivered, b.N)
	}
	m.report(b, delivered)
}
