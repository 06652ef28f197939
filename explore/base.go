package explore

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// Base is the scenario a search starts from: as written and resolved, and what the
// search needs to know of it.
type Base struct {
	Scenario *presets.Scenario
	Config   netsim.Config
	IDs      []node.ID
	Family   algos.Family
	// Terms is set for algorithms with terms (Raft): two leaders in one term is
	// never allowed, where a split brain of an algorithm without terms inside a
	// partition is the lesson, not a bug.
	Terms bool
	// Window is the latency window: the longest a message takes after GST.
	Window time.Duration
	// Settle and Starvation are the monitors' times, resolved.
	Settle, Starvation time.Duration
	// claims are the scenario's expectations that state a safety property (see
	// claims), which the property expect checks.
	claims []netsim.Expectation
	// reseed is set when the scenario's resolution depends on its seed (a [faults]
	// generator, order = "random"): each run resolves it again with its own seed.
	reseed bool
}

// NewBase checks that the scenario can be searched and gathers what the search
// needs.
func NewBase(s *presets.Scenario, cfg netsim.Config) (*Base, error) {
	b := &Base{Scenario: s, Config: cfg, IDs: cfg.IDs, Family: cfg.Spec.Family, Terms: cfg.Spec.Terms,
		reseed: cfg.Generated != nil || s.Order == "random"}
	b.Window = maxDelay(cfg.Net.Latency, cfg.Net.Delta)
	for _, l := range cfg.Links {
		if l.Latency != nil {
			b.Window = max(b.Window, maxDelay(*l.Latency, cfg.Net.Delta))
		}
	}
	b.Window = max(b.Window, time.Millisecond)
	b.Starvation = cfg.Monitors.Starvation
	b.Settle = cfg.Monitors.Settle
	if b.Settle == netsim.SettleAuto {
		b.Settle = settleOf(cfg)
	}
	for _, e := range cfg.Expect {
		if claim(e.Text, b.Terms) {
			b.claims = append(b.claims, e)
		}
	}
	return b, nil
}

// maxDelay is the longest delay of l, at most delta.
func maxDelay(l netsim.Latency, delta time.Duration) time.Duration {
	return min(max(l.Max, l.Mean, l.Min), delta)
}

// settleOf is the automatic settle time of the monitors (netsim.SettleAuto), which
// the world computes the same way: the longer of 3 s and three times the longest
// chain of messages that announces a leader, each taking the longest delay.
func settleOf(cfg netsim.Config) time.Duration {
	w, err := netsim.New(cfg, nil)
	if err != nil {
		return 3 * time.Second
	}
	defer w.Close()
	return w.Settle()
}

// claim reports whether an expectation states a safety property that faults must
// not break: no alert of a safety kind (split-brain only for algorithms with
// terms, where it means two leaders in one term), or an upper bound on the leaders
// of the current term. Other expectations (message counts, who leads at a time)
// describe the scenario's own run, and any fault changes them.
func claim(text string, terms bool) bool {
	f := strings.Fields(text)
	switch {
	case len(f) == 3 && f[0] == "no" && f[1] == "alert":
		return f[2] == "mutex" || f[2] == "order" || (f[2] == "split-brain" && terms)
	case len(f) == 6 && f[0] == "leaders" && f[1] == "in" && f[4] == "<=":
		return true
	}
	return false
}

// config is the run of variant v: the base configuration with v's seed, network,
// script and end.
func (b *Base) config(v *Variant) (netsim.Config, error) {
	cfg := b.Config
	if b.reseed {
		s := *b.Scenario
		s.Seed = v.Seed
		var err error
		if cfg, err = s.Resolve(); err != nil {
			return cfg, err
		}
	}
	cfg.Seed = v.Seed
	v.Net.apply(&cfg.Net)
	if v.Until > 0 {
		cfg.Until = v.Until
	}
	cfg.Script = slices.Clone(v.Actions)
	sortTimed(cfg.Script)
	if v.End != nil {
		cfg.FaultsEnd = v.End
	}
	cfg.Expect = b.claims
	cfg.UserActions = nil
	return cfg, nil
}

// baseActions is the scenario's own script for a run with the given seed: its
// steps and what its [faults] generator draws, in time order.
func (b *Base) baseActions(seed uint64) ([]netsim.Timed, error) {
	script := b.Config.Script
	if b.reseed {
		s := *b.Scenario
		s.Seed = seed
		cfg, err := s.Resolve()
		if err != nil {
			return nil, err
		}
		script = cfg.Script
	}
	out := slices.Clone(script)
	sortTimed(out)
	return out, nil
}

// sortTimed puts actions in time order, keeping the order of those at one time, as
// the world does.
func sortTimed(ts []netsim.Timed) {
	slices.SortStableFunc(ts, func(a, b netsim.Timed) int { return cmp.Compare(a.At, b.At) })
}

// requestWhat is what a request of the family asks for: "cs", "election", or "" for
// a family without requests.
func (b *Base) requestWhat() string {
	switch b.Family {
	case algos.Mutex:
		return "cs"
	case algos.Election:
		return "election"
	}
	return ""
}

// describe names the scenario for messages.
func (b *Base) describe() string {
	return fmt.Sprintf("%s (%s, %d nodes)", b.Scenario.Name, b.Scenario.Algorithm, len(b.IDs))
}
