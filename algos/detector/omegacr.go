package detector

import (
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// OmegaCR is leader election (the Ω failure detector) in the crash-recovery model,
// course notes Alg. 5.3, after Aguilera, Chen & Toueg, "Failure detection and
// consensus in the crash-recovery model" (Distributed Computing, 2000), whose
// detectors also rank processes by how often they crashed. It is heartbeat based
// (push) and does not compose a ◊P detector.
//
// Each process keeps its incarnation in stable storage under "incarnation": 1 on
// Start (stored at once); on Recover it is loaded, incremented and stored again.
// Every heartbeat interval (timer "fd.heartbeat"):
//
//	NewLeader ← Criterion(Candidates)
//	if NewLeader ≠ Leader { interval ← interval + grow }   // "IntervaloHeartbeats++"
//	Leader ← NewLeader
//	Candidates ← ∅; send (HEARTBEAT, incarnation) to every process
//
// and a heartbeat from q with incarnation k records (q, k) in Candidates, keeping the
// larger incarnation if q is already there. Criterion picks, among the candidates
// with the fewest incarnations, the lowest id: the most stable process leads.
// HEARTBEAT carries the incarnation in Message.Term.
//
// Notes on this implementation:
//   - Candidates is cleared at the end of every interval, so it holds only the
//     processes heard from in the current interval: a process that misses one
//     interval stops being a candidate for the next choice. Status.Suspects lists
//     the processes not heard from in the last complete interval.
//   - The process counts itself as a candidate with its own incarnation. The notes
//     get this by sending the heartbeat to every p ∈ Π, itself included (a local
//     delivery); here self is put into Candidates directly when it is cleared,
//     which is the same set without a self-message in the trace.
//   - The receive rule of the notes replaces (q, enc) only if it is already there;
//     read literally q could never enter Candidates, so an absent q is added.
//   - The notes' Recovery does not restart the timer; here it does, or a recovered
//     process would never send again. The interval itself is volatile, as in the
//     notes, and restarts from the initial value in a new incarnation.
//   - Leader starts at ⊥ in every incarnation and the first choice, ⊥ → p, is a
//     change like any other, so the interval grows once then as well (literal
//     reading of "se NovoLíder ≠ Líder").
//   - The intervals of different processes grow independently: a process whose
//     window is shorter than the leader's period misses the leader in some windows,
//     changes leader and grows, until its window covers the leader's period. That
//     is how the notes' "grow on every change" makes the choice stable after GST.
//   - The "mistakes" counter counts processes that were missing from one interval
//     and came back in the next with the same incarnation (so they had not
//     crashed): false suspicions.
type OmegaCR struct {
	interval time.Duration
	grow     time.Duration

	self     node.ID
	peers    []node.ID
	inc      int64
	leader   node.ID
	cands    []candidate // id order
	suspects idSet
	lastInc  []int64 // per peer (peers order): the last incarnation heard, 0 if none

	changes  int64
	mistakes int64
	counters [3]node.Counter
}

type candidate struct {
	id  node.ID
	inc int64
}

// StoreIncarnation is the stable-storage key of omega-cr's incarnation number.
const StoreIncarnation = "incarnation"

// NewOmegaCR makes a crash-recovery Ω with the initial heartbeat interval and its
// growth on each leader change.
func NewOmegaCR(interval, grow time.Duration) *OmegaCR {
	return &OmegaCR{interval: interval, grow: grow}
}

// Step handles Start, Recover, heartbeats and the interval timer.
func (o *OmegaCR) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start:
		o.inc = 1
		env.Store(StoreIncarnation, o.inc)
		o.begin(env)
	case node.Recover:
		v, _ := env.Load(StoreIncarnation) // absent: no earlier incarnation is known
		o.inc = v + 1
		env.Store(StoreIncarnation, o.inc)
		o.begin(env)
	case node.Deliver:
		if ev.Msg.Type == MsgHeartbeat {
			o.heard(ev.From, ev.Msg.Term)
		}
	case node.Timer:
		if ev.Name == TimerHeartbeat {
			o.tick(env)
		}
	}
}

func (o *OmegaCR) begin(env *node.Env) {
	o.self = env.Self()
	o.peers = env.Peers()
	o.lastInc = make([]int64, len(o.peers))
	o.leader = node.None
	o.beat(env)
}

// beat clears Candidates (keeping self), sends the heartbeats and restarts the timer.
func (o *OmegaCR) beat(env *node.Env) {
	o.cands = append(o.cands[:0], candidate{o.self, o.inc})
	env.Broadcast(node.Message{Type: MsgHeartbeat, Term: o.inc})
	env.After(o.interval, TimerHeartbeat)
}

func (o *OmegaCR) heard(q node.ID, inc int64) {
	if q == o.self || slices.Index(o.peers, q) < 0 {
		return
	}
	i := 0
	for i < len(o.cands) && o.cands[i].id < q {
		i++
	}
	if i < len(o.cands) && o.cands[i].id == q {
		o.cands[i].inc = max(o.cands[i].inc, inc)
		return
	}
	o.cands = append(o.cands, candidate{})
	copy(o.cands[i+1:], o.cands[i:])
	o.cands[i] = candidate{q, inc}
}

func (o *OmegaCR) tick(env *node.Env) {
	if l := o.criterion(); l != o.leader {
		o.interval += o.grow
		o.changes++
		o.leader = l
		env.Logf("omega-cr: leader %v, heartbeat interval now %v", l, o.interval)
	}
	// Suspects ← the processes not heard from in this interval; count the
	// suspected ones that came back without a new incarnation as mistakes.
	for i, p := range o.peers {
		if p == o.self {
			continue
		}
		if inc, ok := o.incOf(p); ok {
			if o.suspects.remove(p) && inc == o.lastInc[i] {
				o.mistakes++
			}
			o.lastInc[i] = inc
		} else {
			o.suspects.add(p)
		}
	}
	o.beat(env)
}

// incOf is p's incarnation in Candidates, and whether p is there.
func (o *OmegaCR) incOf(p node.ID) (int64, bool) {
	for _, c := range o.cands {
		if c.id == p {
			return c.inc, true
		}
	}
	return 0, false
}

// criterion: among the candidates with the fewest incarnations, the lowest id.
func (o *OmegaCR) criterion() node.ID {
	best := -1
	for i, c := range o.cands {
		if best < 0 || c.inc < o.cands[best].inc || (c.inc == o.cands[best].inc && c.id < o.cands[best].id) {
			best = i
		}
	}
	if best < 0 {
		return node.None
	}
	return o.cands[best].id
}

// Leader is the process this one believes leads (None before the first interval).
func (o *OmegaCR) Leader() node.ID { return o.leader }

// Incarnation is this process's incarnation number.
func (o *OmegaCR) Incarnation() int64 { return o.inc }

// Interval is the current heartbeat interval.
func (o *OmegaCR) Interval() time.Duration { return o.interval }

// Deadline is the end of the heartbeat interval under way, when the processes not
// heard from in it become suspected and the leader is chosen again: omega-cr has
// no per-peer timeout, so this is the timer that decides. Its length is the
// interval it was armed with (the interval grows only as the timer is re-armed).
func (o *OmegaCR) Deadline(due func(string) (time.Duration, bool)) node.Deadline {
	if at, ok := due(TimerHeartbeat); ok {
		return node.Deadline{For: "suspicion", At: at, Len: o.interval}
	}
	return node.Deadline{}
}

// Status reports the leader, role, incarnation (Inc), the processes not heard from
// in the last interval (Suspects) and the counters timeout_ms (the heartbeat
// interval), mistakes and leader_changes.
func (o *OmegaCR) Status() node.Status {
	role := "follower"
	if o.leader != node.None && o.leader == o.self {
		role = "leader"
	}
	o.counters = [3]node.Counter{
		{Name: CounterTimeout, Value: ms(o.interval)},
		{Name: CounterMistakes, Value: o.mistakes},
		{Name: CounterLeaderChanges, Value: o.changes},
	}
	return node.Status{Role: role, Leader: o.leader, Suspects: o.suspects, Inc: o.inc, Counters: o.counters[:]}
}

func init() {
	algos.Register(algos.Spec{
		Name:        "omega-cr",
		Family:      algos.Detector,
		Description: "crash-recovery Ω: heartbeats carry incarnations; the least-crashed, then lowest id, leads",
		Source:      `course notes 000, "Algoritmo 5.3"; Aguilera, Chen & Toueg 2000`,
		Messages:    []string{MsgHeartbeat},
		Params: []algos.Param{
			{Name: "interval", Default: "100ms", Doc: "initial heartbeat interval (also the window in which candidates are heard)", Min: "1µs"},
			{Name: "grow", Default: "10ms", Doc: "growth of the heartbeat interval on each leader change (\"IntervaloHeartbeats++\")"},
		},
		Build: func(c algos.Config) (node.Factory, error) {
			interval, err := c.Params.Duration("interval")
			if err != nil {
				return nil, err
			}
			grow, err := c.Params.Duration("grow")
			if err != nil {
				return nil, err
			}
			return func(node.ID) node.Algorithm { return NewOmegaCR(interval, grow) }, nil
		},
	})
}
