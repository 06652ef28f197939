package explore

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
)

// The properties a search checks, by the kind of its finding.
const (
	// KindMutex: two processes in the critical section at once (the mutex monitor).
	KindMutex = "mutex"
	// KindSplit: two leaders in one term, for algorithms with terms; for those
	// without, a split brain still there the settle time after the network was
	// last made whole (inside a partition it is the lesson, not a bug).
	KindSplit = "split-brain"
	// KindExpect: a safety expectation of the scenario fails (see claim).
	KindExpect = "expect"
	// KindStarvation and KindNoLeader are liveness properties (--liveness): a
	// request still starving, or live nodes still without an agreed leader, at
	// the end of a run whose faults all healed.
	KindStarvation = "starvation"
	KindNoLeader   = "no-leader"
)

// Kinds lists the properties, safety first.
var Kinds = []string{KindMutex, KindSplit, KindExpect, KindStarvation, KindNoLeader}

// liveKind reports whether kind is a liveness property.
func liveKind(kind string) bool { return kind == KindStarvation || kind == KindNoLeader }

// Violation is a run's breach of a property: its kind, the virtual time of the
// alert (or failed expectation) that shows it, and what it says.
type Violation struct {
	Kind string
	At   time.Duration
	Text string
	Got  string // for a failed expectation: what the run had instead
}

// properties is the set of properties a search checks.
type properties struct {
	kinds    []string
	liveness bool
	// raised, for shrink: any alert of the kinds breaks the property, whenever
	// raised and however it ended; and expect, if set, is the one expectation
	// whose failure does, with got, if set, what the run must have instead.
	raised      bool
	expect, got string
}

func (p *properties) has(kind string) bool { return slices.Contains(p.kinds, kind) }

// newProperties checks the kinds asked for (all that apply to the family when none
// are) against the family and the mode.
func newProperties(b *Base, asked []string, liveness bool) (*properties, error) {
	applies := func(k string) bool {
		switch k {
		case KindMutex, KindStarvation:
			return b.Family == algos.Mutex
		case KindSplit, KindNoLeader:
			return b.Family == algos.Election
		case KindExpect:
			return true
		}
		return false
	}
	p := &properties{liveness: liveness}
	if len(asked) == 0 {
		for _, k := range Kinds {
			if applies(k) && (liveness || !liveKind(k)) {
				p.kinds = append(p.kinds, k)
			}
		}
		return p, nil
	}
	for _, k := range asked {
		switch {
		case !slices.Contains(Kinds, k):
			return nil, fmt.Errorf("--property: found %q, expected one of %s", k, strings.Join(Kinds, ", "))
		case !applies(k):
			return nil, fmt.Errorf("--property: found %q, which %s (%s) has no monitor for; expected one of %s", k, b.Scenario.Algorithm, b.Family, strings.Join(appliesTo(applies), ", "))
		case liveKind(k) && !liveness:
			return nil, fmt.Errorf("--property: found %q, a liveness property, expected --liveness with it", k)
		}
		if !p.has(k) {
			p.kinds = append(p.kinds, k)
		}
	}
	return p, nil
}

func appliesTo(applies func(string) bool) []string {
	var out []string
	for _, k := range Kinds {
		if applies(k) {
			out = append(out, k)
		}
	}
	return out
}

// check finds the first breach of the properties in a finished run: the alerts
// raised, the results of the claims, the run's script and where it ended.
func (p *properties) check(b *Base, v *Variant, script []netsim.Timed, alerts []netsim.AlertRecord, results []netsim.Result, end time.Duration) *Violation {
	var first *Violation
	take := func(x Violation) {
		if first == nil || x.At < first.At {
			first = &x
		}
	}
	var whole time.Duration = -2 // not computed yet
	for _, a := range alerts {
		at := time.Duration(a.AtUS) * time.Microsecond
		if p.raised {
			if p.has(a.Kind) {
				take(Violation{a.Kind, at, a.Text, ""})
			}
			continue
		}
		switch a.Kind {
		case KindMutex:
			if p.has(KindMutex) {
				take(Violation{KindMutex, at, a.Text, ""})
			}
		case KindSplit:
			if !p.has(KindSplit) {
				continue
			}
			if b.Terms {
				take(Violation{KindSplit, at, a.Text, ""})
				continue
			}
			if whole == -2 {
				_, whole = b.stateAt(v, script, end)
			}
			// Still split the settle time after the network was made whole.
			judge := max(whole, at) + b.Settle
			if whole >= 0 && judge <= end && (a.ClearedUS < 0 || time.Duration(a.ClearedUS)*time.Microsecond > judge) {
				take(Violation{KindSplit, at, a.Text, ""})
			}
		case KindStarvation, KindNoLeader:
			if p.liveness && p.has(a.Kind) && a.ClearedUS < 0 {
				take(Violation{a.Kind, at, a.Text, ""})
			}
		}
	}
	if p.has(KindExpect) {
		for _, r := range results {
			if !r.OK && r.Status == netsim.StatusFail && (p.expect == "" || r.Text == p.expect) && (p.got == "" || r.Got == p.got) {
				take(Violation{KindExpect, r.At, r.Text, r.Got})
			}
		}
	}
	return first
}

// expectation is the property as an expectation of the finding's scenario, which
// the finding's run fails: "no alert mutex", or the scenario's own claim; for a
// liveness property "no open alert starvation", an alert still open at the end:
// an alert of the kind that ended (a slow election's no-leader) breaks nothing,
// and without one of the finding's actions the scenario must pass.
func (x *Violation) expectation() string {
	switch {
	case x.Kind == KindExpect:
		return x.Text
	case liveKind(x.Kind):
		return "no open alert " + x.Kind
	}
	return "no alert " + x.Kind
}
