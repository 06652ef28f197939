// Package algocheck tests an algorithm the way the lab tests its own, for
// `clusterlab check` in a student's module: the presets of its family, adapted to
// it, run twice to find nondeterminism; the same presets with N from 3 to 16 and
// every fault healed at the end check the family's properties; the textbook's
// figures it declares (Spec.Theory) are measured. The static pass is package
// purity; the bounded search is package explore.
package algocheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// FamilyPresets lists the embedded presets whose algorithm is of family f.
func FamilyPresets(f algos.Family) []*presets.Scenario {
	var out []*presets.Scenario
	for _, name := range presets.Names() {
		s, err := presets.Load(name)
		if err != nil {
			continue
		}
		if spec, ok := algos.Lookup(s.Algorithm); ok && spec.Family == f {
			out = append(out, s)
		}
	}
	return out
}

// Adapt derives from preset p a scenario for spec with n processes, n1…nn (0
// keeps p's own processes). What belongs to p's own algorithm goes: its
// parameters (those spec declares too are kept), its expectations, questions
// and story markers. Its network, monitors and script stay, the actions that
// name a process beyond n left out and partitions cut to the processes left.
func Adapt(p *presets.Scenario, spec algos.Spec, n int) (*presets.Scenario, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var s presets.Scenario
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&s); err != nil {
		return nil, err
	}
	oldIDs := p.NodeIDs()
	s.Algorithm = spec.Name
	s.Description = ""
	s.Expect, s.Questions, s.Source = nil, nil, ""
	params := map[string]any{}
	for k, v := range p.Params {
		if _, ok := spec.Param(k); ok {
			params[k] = v
		}
	}
	s.Params = params
	if n > 0 {
		s.IDs, s.Nodes = nil, n
		if s.Degree >= n {
			s.Degree = n - 1
		}
	}
	ids := s.NodeIDs()
	keep := func(id node.ID) bool { return slices.Contains(ids, id) }
	s.Script = nil
	for _, st := range p.Script {
		a, err := netsim.ParseAction(st.Do, oldIDs)
		if err != nil || a.Verb == "marker" {
			continue
		}
		if a, ok := restrict(a, keep); ok {
			s.Script = append(s.Script, presets.Step{At: st.At, Do: a.String()})
		}
	}
	s.Links = slices.DeleteFunc(slices.Clone(p.Links), func(l presets.Link) bool {
		from, _ := node.ParseID(l.From)
		to, _ := node.ParseID(l.To)
		return !keep(from) || !keep(to)
	})
	s.Edges = slices.DeleteFunc(slices.Clone(p.Edges), func(e []string) bool {
		a, _ := node.ParseID(e[0])
		b, _ := node.ParseID(e[1])
		return !keep(a) || !keep(b)
	})
	if n > 0 && n != len(oldIDs) && len(p.Edges) > 0 {
		// A graph drawn for the preset's own nodes does not fit others: a random
		// connected graph of the same kind, drawn from the seed, takes its place.
		s.Edges, s.Degree = nil, min(3, n-1)
	}
	// A parameter the preset sets for its own processes (initiators = ["n5"]) may
	// not fit the new ones: it is left to its default.
	for range len(s.Params) + 1 {
		out, err := reread(&s)
		m := paramErr.FindStringSubmatch(fmt.Sprint(err))
		if err == nil || m == nil {
			return out, err
		}
		if _, ok := s.Params[m[1]]; !ok {
			return nil, err
		}
		delete(s.Params, m[1])
	}
	return nil, fmt.Errorf("%s: the parameters do not fit %d nodes", p.Name, n)
}

// paramErr finds the parameter an error is about.
var paramErr = regexp.MustCompile(`params\.(\w+):`)

// restrict keeps an action to the processes keep accepts: one that names
// another is dropped, a partition loses the others (and is dropped when fewer
// than two groups are left).
func restrict(a netsim.Action, keep func(node.ID) bool) (netsim.Action, bool) {
	switch a.Verb {
	case "crash", "recover", "isolate", "slow", "request":
		return a, keep(a.Node)
	case "cut":
		return a, keep(a.Node) && keep(a.To)
	case "partition":
		var groups [][]node.ID
		for _, g := range a.Groups {
			if g = slices.DeleteFunc(slices.Clone(g), func(id node.ID) bool { return !keep(id) }); len(g) > 0 {
				groups = append(groups, g)
			}
		}
		a.Groups = groups
		return a, len(groups) >= 2
	}
	return a, true
}

// reread checks a derived scenario as a trace header's scenario is checked.
func reread(s *presets.Scenario) (*presets.Scenario, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return presets.FromJSON(s.Name, raw)
}

// Settle is how long a run goes on after every fault is healed, before the
// family's properties are looked at.
const Settle = 10 * time.Second

// withTail adds the end every property run has: at the preset's end every
// fault is healed (partitions, cuts, slowness, loss and duplication), GST holds,
// and for election and mutual exclusion every process is revived; a detector
// instead loses its last process, whose crash it must come to suspect. Then the
// run goes on for settle. Mutual exclusion keeps only the faults its textbook
// algorithms assume away never happen: no crash, no partition, no loss; every
// process asks for the critical section in turn, and a request may wait at most
// settle/2.
func withTail(s *presets.Scenario, family algos.Family, settle time.Duration) (*presets.Scenario, error) {
	c := *s
	until, err := time.ParseDuration(s.Until)
	if err != nil {
		return nil, err
	}
	ids := s.NodeIDs()
	at := s.Until
	var script []presets.Step
	slowed := map[node.ID]bool{}
	for _, st := range s.Script {
		a, err := netsim.ParseAction(st.Do, ids)
		if err != nil {
			return nil, err
		}
		if family == algos.Mutex && !safeForMutex(a) {
			continue
		}
		if a.Verb == "slow" {
			slowed[a.Node] = true
		}
		script = append(script, st)
	}
	if family == algos.Mutex {
		c.Faults = nil
		c.Network.Loss, c.Network.Dup = 0, 0
		zero := 0.0
		c.Network.PreGST.Loss = &zero
		c.Links = nil
		// Every process asks in turn, one every period, until the tail: a
		// workload the critical section can serve (half its time busy, when the
		// algorithm declares how long a process holds it, cs_hold).
		period := 250 * time.Millisecond
		hold := csHold(s)
		period = max(period, 2*hold)
		wait := max(settle/2, 2*hold+time.Second)
		settle = max(settle, 2*wait)
		c.Monitors.Starvation = wait.String()
		for i, t := 0, period; t < until; i, t = i+1, t+period {
			script = append(script, presets.Step{At: t.String(), Do: fmt.Sprintf("request %v cs", ids[i%len(ids)])})
		}
	}
	tail := []string{"heal", "set loss 0", "set dup 0"}
	for _, id := range ids {
		if slowed[id] {
			tail = append(tail, fmt.Sprintf("slow %v 1", id))
		}
	}
	switch family {
	case algos.Detector:
		tail = append(tail, fmt.Sprintf("crash %v", ids[len(ids)-1]))
	default:
		for _, id := range ids {
			tail = append(tail, fmt.Sprintf("recover %v", id))
		}
	}
	tail = append(tail, "gst")
	for _, do := range tail {
		script = append(script, presets.Step{At: at, Do: do})
	}
	c.Script = script
	c.Until = (until + settle).String()
	return reread(&c)
}

// csHold is how long a process holds the critical section in s, when its
// algorithm has the lab's workload parameter cs_hold; 0 otherwise.
func csHold(s *presets.Scenario) time.Duration {
	spec, ok := algos.Lookup(s.Algorithm)
	if !ok {
		return 0
	}
	p, ok := spec.Param("cs_hold")
	if !ok {
		return 0
	}
	text := p.Default
	if v, ok := s.Params["cs_hold"].(string); ok {
		text = v
	}
	d, _ := time.ParseDuration(text)
	return d
}

// safeForMutex reports whether a mutual-exclusion run keeps action a: the
// textbook algorithms assume reliable links and processes that do not crash.
func safeForMutex(a netsim.Action) bool {
	switch a.Verb {
	case "crash", "recover", "partition", "cut", "isolate":
		return false
	case "set":
		return a.Knob == "latency"
	}
	return true
}
