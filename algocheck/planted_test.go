package algocheck

import (
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/node"
)

// Planted faults: three small algorithms, each wrong in one way a student's can
// be, and the check that must catch it.

// early is an election that decides too early: every process floods the highest
// id it has heard of, decides after a fixed 100ms and never changes its mind. On
// a full mesh with 5–20ms links everyone has heard the highest id by then; on a
// ring of slow links the flood has not gone round, and two processes lead.
type early struct {
	best, leader node.ID
	decided      bool
	byMap        bool // flood in the order of a map: nondeterministic
	seen         map[node.ID]bool
}

func (a *early) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start, node.Recover:
		a.best, a.leader, a.decided = env.Self(), node.None, false
		a.flood(env)
		env.After(100*time.Millisecond, "decide")
	case node.Deliver:
		if ev.Msg.ID > a.best && !a.decided {
			a.best = ev.Msg.ID
			a.flood(env)
		}
	case node.Timer:
		a.decided, a.leader = true, a.best
	}
}

func (a *early) flood(env *node.Env) {
	if !a.byMap {
		for _, p := range env.Neighbors() {
			env.Send(p, node.Message{Type: "ELECTION", ID: a.best})
		}
		return
	}
	if a.seen == nil {
		a.seen = map[node.ID]bool{}
		for _, p := range env.Neighbors() {
			a.seen[p] = true
		}
	}
	for p := range a.seen { // the planted fault: map order reaches a send
		env.Send(p, node.Message{Type: "ELECTION", ID: a.best})
	}
}

func (a *early) Status() node.Status { return node.Status{Leader: a.leader} }

// leased is a central coordinator that takes its grant back after 30ms, taking
// the holder for gone: when a GRANT and the 50ms in the critical section take
// longer than that, two processes are in at once.
type leased struct {
	self, holder node.ID
	cs           node.CSState
	queue        []node.ID
}

func (m *leased) Step(env *node.Env, ev node.Event) {
	coord := env.Peers()[0]
	switch {
	case ev.Kind == node.Start || ev.Kind == node.Recover:
		m.self, m.cs = env.Self(), node.CSReleased
	case ev.Kind == node.Request && ev.Name == "cs" && m.cs == node.CSReleased:
		m.cs = node.CSWanted
		env.Send(coord, node.Message{Type: "REQUEST"})
	case ev.Kind == node.Deliver && ev.Msg.Type == "REQUEST":
		m.queue = append(m.queue, ev.From)
		m.next(env)
	case ev.Kind == node.Deliver && ev.Msg.Type == "GRANT" && m.cs == node.CSWanted:
		m.cs = node.CSHeld
		env.After(50*time.Millisecond, "leave")
	case ev.Kind == node.Timer && ev.Name == "leave":
		m.cs = node.CSReleased
		env.Send(coord, node.Message{Type: "RELEASE"})
	case ev.Kind == node.Deliver && ev.Msg.Type == "RELEASE" && ev.From == m.holder,
		ev.Kind == node.Timer && ev.Name == "lease":
		m.holder = node.None
		m.next(env)
	}
}

func (m *leased) next(env *node.Env) {
	if m.holder != node.None || len(m.queue) == 0 {
		return
	}
	m.holder, m.queue = m.queue[0], m.queue[1:]
	env.Send(m.holder, node.Message{Type: "GRANT"})
	env.After(30*time.Millisecond, "lease")
}

func (m *leased) Status() node.Status { return node.Status{CS: m.cs} }

func init() {
	build := func(f func() node.Algorithm) func(algos.Config) (node.Factory, error) {
		return func(algos.Config) (node.Factory, error) {
			return func(node.ID) node.Algorithm { return f() }, nil
		}
	}
	algos.Register(algos.Spec{Name: "plant-early", Family: algos.Election, Description: "decides after 100ms", Source: "a test",
		Build: build(func() node.Algorithm { return &early{} })})
	algos.Register(algos.Spec{Name: "plant-maporder", Family: algos.Election, Description: "floods in map order", Source: "a test",
		Build: build(func() node.Algorithm { return &early{byMap: true} })})
	algos.Register(algos.Spec{Name: "plant-lease", Family: algos.Mutex, Description: "a 30ms lease", Source: "a test",
		Build: build(func() node.Algorithm { return &leased{} })})
}

func spec(t *testing.T, name string) algos.Spec {
	t.Helper()
	s, ok := algos.Lookup(name)
	if !ok {
		t.Fatalf("no algorithm %s", name)
	}
	return s
}

// An election that can elect two leaders is caught, by a run that names its
// preset, its size and the two leaders.
func TestCatchesTwoLeaders(t *testing.T) {
	rep := Properties(spec(t, "plant-early"), []int{3, 12}, 0, lang.En)
	two := ""
	for _, f := range rep.Failures {
		if strings.HasPrefix(f.What, "2 live leaders at the end") {
			two = f.Preset + ": " + f.What
		}
	}
	if two == "" {
		t.Fatalf("no run with two leaders among %d failures of %d runs: %+v", len(rep.Failures), rep.Runs, rep.Failures)
	}
	t.Log(two)
}

// A mutex that lets two in when a grant takes a while is caught, at the time
// both held the critical section.
func TestCatchesTwoInside(t *testing.T) {
	rep := Properties(spec(t, "plant-lease"), []int{3, 5}, 0, lang.En)
	if rep.OK() {
		t.Fatalf("%d runs, no failure", rep.Runs)
	}
	f := rep.Failures[0]
	if !strings.Contains(f.What, "two processes in the critical section at once at") {
		t.Fatalf("first failure: %s with N = %d: %s", f.Preset, f.Nodes, f.What)
	}
}

// Map order reaching a send gives two traces from one seed, and the check
// names the first event where they differ: a send.
func TestCatchesMapOrder(t *testing.T) {
	rep := Determinism(spec(t, "plant-maporder"), lang.En)
	if len(rep.Twins) == 0 {
		t.Fatalf("%d presets ran, every pair the same", rep.Runs)
	}
	tw := rep.Twins[0]
	if tw.Event < 1 || tw.One == tw.Other || !strings.Contains(tw.One, `"ev":"send"`) {
		t.Fatalf("first difference %+v, want a send event that differs", tw)
	}
	if same := Determinism(spec(t, "plant-early"), lang.En); len(same.Twins) > 0 || same.Runs == 0 {
		t.Fatalf("the same algorithm without the map: %+v", same)
	}
}

// Negative controls: correct built-ins break no property and are deterministic.
func TestCorrectBuiltinsPass(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every preset of three families; skipped in -short mode")
	}
	for _, name := range []string{"heartbeat-dp", "ricart", "lamport"} {
		rep := Properties(spec(t, name), []int{3, 7, 16}, 0, lang.En)
		if !rep.OK() || rep.Runs == 0 || len(rep.Skipped) > 0 {
			t.Errorf("%s: %d runs, failures %+v, skipped %v", name, rep.Runs, rep.Failures, rep.Skipped)
		}
		if d := Determinism(spec(t, name), lang.En); len(d.Twins) > 0 || d.Runs == 0 {
			t.Errorf("%s: determinism %+v", name, d)
		}
	}
}
