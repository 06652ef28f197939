package netsim

import (
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/detector" // heartbeat-dp
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// pinger broadcasts PING every period; it is the simplest load for network tests.
type pinger struct {
	period time.Duration
	got    int64
	echoes int64
}

func (p *pinger) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start, node.Recover:
		env.After(p.period, "tick")
	case node.Timer:
		if ev.Name == "echo" {
			p.echoes++
			return
		}
		env.Broadcast(node.Message{Type: "PING", Stamp: int64(env.Now())})
		// A self-delivery and a timer shorter than any link delay: both are
		// handled inside the window, which is what the determinism tests exercise.
		env.Send(env.Self(), node.Message{Type: "SELF"})
		env.After(time.Millisecond, "echo")
		env.After(p.period, "tick")
	case node.Deliver:
		p.got++
	}
}

func (p *pinger) Status() node.Status {
	return node.Status{Role: "pinger", Counters: []node.Counter{{Name: "got", Value: p.got}, {Name: "echoes", Value: p.echoes}}}
}

func pingConfig(n int, seed uint64) Config {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	return Config{
		Name: "ping", Spec: algos.Spec{Name: "pinger"}, IDs: ids, Seed: seed, Until: 2 * time.Second,
		Factory: func(node.ID) node.Algorithm { return &pinger{period: 10 * time.Millisecond} },
		Net: Net{Latency: Latency{Dist: "uniform", Min: 5 * time.Millisecond, Mean: 10 * time.Millisecond, Max: 20 * time.Millisecond},
			Delta: 50 * time.Millisecond, GST: 0},
		Monitors: DefaultMonitors,
	}
}

// collect is a sink that keeps copies of every event.
type collect struct{ evs []trace.Event }

func (c *collect) Record(e *trace.Event) {
	x := *e
	if e.Msg != nil {
		m := *e.Msg
		x.Msg = &m
	}
	c.evs = append(c.evs, x)
}

// MeshConfig is the benchmarks' heartbeat-dp mesh of n processes: 100 ms
// heartbeats, a 300 ms timeout, 10–20 ms links. (Exported for the package's
// external tests, which share this binary.)
func MeshConfig(tb testing.TB, n int) Config {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	spec, f, err := algos.Build("heartbeat-dp", ids, map[string]any{"interval": "100ms", "timeout": "300ms"})
	if err != nil {
		tb.Fatal(err)
	}
	return Config{Name: "bench", Spec: spec, Factory: f, IDs: ids, Seed: 1,
		Net: Net{Latency: Latency{Dist: "uniform", Min: 10 * time.Millisecond, Mean: 15 * time.Millisecond, Max: 20 * time.Millisecond},
			Delta: 50 * time.Millisecond}, Monitors: DefaultMonitors}
}
