package detector

import (
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Omega is the leader-election failure detector Ω built on ◊P, course notes Alg. 5.2
// (Ω is the weakest failure detector for consensus: Chandra, Hadzilacos & Toueg
// 1996; ◊P as in Chandra & Toueg 1996). It composes a ◊P detector through the FD
// interface (heartbeat-dp by default, or pull-dp) instead of copying it:
//
//	upon a notification about p: Suspects ← Suspects ∪ {p} or Suspects − {p}
//	upon Leader ≠ Criterion(Π − Suspects): Leader ← Criterion(Π − Suspects)
//
// The notes' notifications are replaced by reading the detector's Suspects after
// every event the detector handles, which yields the same Suspects set at every
// instant. Criterion is the lowest id among the unsuspected ("min", the notes'
// most popular choice) or the highest ("max", "max of the alive"). A process never
// suspects itself, so Π − Suspects is never empty and there is always a leader,
// from Start on (before any test, Suspects = ∅ and the leader is the lowest id).
//
// After GST the detector stops making mistakes and all correct processes apply the
// same deterministic criterion to the same set, so they agree on one correct leader;
// before GST they may disagree, which the split-brain monitor shows.
type Omega struct {
	fd      FD
	max     bool
	self    node.ID
	leader  node.ID
	changes int64

	counters []node.Counter
}

// Leader criteria.
const (
	CriterionMin = "min"
	CriterionMax = "max"
)

// NewOmega makes an Ω on top of fd (a fresh detector for this incarnation); with
// max it elects the highest unsuspected id instead of the lowest.
func NewOmega(fd FD, max bool) *Omega { return &Omega{fd: fd, max: max} }

// Step passes every event to the detector and re-applies the criterion.
func (o *Omega) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start, node.Recover:
		o.self = env.Self()
		o.fd.Start(env)
	default:
		if !o.fd.Handle(env, ev) {
			return
		}
	}
	if l := o.criterion(env); l != o.leader {
		o.leader = l
		o.changes++
		env.Logf("omega: leader %v", l)
	}
}

// criterion applies CritérioLíder to Π − Suspects.
func (o *Omega) criterion(env *node.Env) node.ID {
	best := node.None
	for _, p := range env.Peers() {
		if p != env.Self() && o.fd.Suspected(p) {
			continue
		}
		if best == node.None || (!o.max && p < best) || (o.max && p > best) {
			best = p
		}
	}
	return best
}

// Leader is the process this one believes leads.
func (o *Omega) Leader() node.ID { return o.leader }

// Detector is the composed ◊P detector.
func (o *Omega) Detector() FD { return o.fd }

// Deadline is the detector's next suspicion.
func (o *Omega) Deadline(due func(string) (time.Duration, bool)) node.Deadline {
	return fdDeadline(o.fd, due)
}

// Status reports the leader, role "leader" or "follower", the detector's suspects
// and the counters timeout_ms and mistakes (from the detector) and leader_changes.
func (o *Omega) Status() node.Status {
	role := "follower"
	if o.leader != node.None && o.leader == o.self {
		role = "leader"
	}
	o.counters = o.counters[:0]
	if a, ok := o.fd.(Adaptive); ok {
		o.counters = append(o.counters,
			node.Counter{Name: CounterTimeout, Value: ms(a.MaxTimeout())},
			node.Counter{Name: CounterMistakes, Value: a.Mistakes()})
	}
	o.counters = append(o.counters, node.Counter{Name: CounterLeaderChanges, Value: o.changes})
	return node.Status{Role: role, Leader: o.leader, Suspects: o.fd.Suspects(), Counters: o.counters}
}

func init() {
	algos.Register(algos.Spec{
		Name:        "omega",
		Family:      algos.Detector,
		Description: "Ω on ◊P: the leader is the lowest (or highest) unsuspected id",
		Source:      `course notes 000, "Algoritmo 5.2"; Chandra, Hadzilacos & Toueg 1996`,
		Messages:    []string{MsgHeartbeat, MsgTestReq, MsgTestRep},
		Params: append(FDParams(KindHeartbeat),
			algos.Param{Name: "criterion", Default: CriterionMin, Doc: `"min": lowest unsuspected id; "max": highest ("max of the alive")`}),
		Build: func(c algos.Config) (node.Factory, error) {
			fc, err := ReadFDConfig(c.Params)
			if err != nil {
				return nil, err
			}
			crit, err := c.Params.String("criterion", CriterionMin, CriterionMax)
			if err != nil {
				return nil, err
			}
			return func(node.ID) node.Algorithm { return NewOmega(fc.New(), crit == CriterionMax) }, nil
		},
	})
}
