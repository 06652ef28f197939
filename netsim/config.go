package netsim

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Never is the GST of a run that never stabilises.
const Never time.Duration = -1

// Net is the network model's settings.
type Net struct {
	Latency Latency
	Loss    float64
	Dup     float64
	// GST is when the system becomes synchronous: 0 from the start, Never, or a time.
	// Before it, delays follow PreLatency and loss is PreLoss; after it no delay
	// exceeds Delta.
	GST        time.Duration
	Delta      time.Duration
	PreLatency Latency
	PreLoss    float64
}

// Link overrides the network for one direction of one link. Nil fields keep the
// network's setting.
type Link struct {
	From, To node.ID
	Loss     *float64
	Dup      *float64
	Latency  *Latency
}

// Clamp is a latency that can draw a delay above Δ: the network's (Link nil) or a
// link's, and the longest delay it draws.
type Clamp struct {
	Link    *Link
	Ceiling time.Duration
}

// AboveDelta lists the latencies that can draw a delay above Δ: after GST every
// such draw is delivered in Δ. Empty for a run that never reaches GST.
func (c Config) AboveDelta() []Clamp {
	if c.Net.GST == Never {
		return nil
	}
	var out []Clamp
	if d := c.Net.Latency.Ceiling(); d > c.Net.Delta {
		out = append(out, Clamp{Ceiling: d})
	}
	for i, l := range c.Links {
		if l.Latency != nil && l.Latency.Ceiling() > c.Net.Delta {
			out = append(out, Clamp{Link: &c.Links[i], Ceiling: l.Latency.Ceiling()})
		}
	}
	return out
}

// Monitors holds the monitors' parameters.
type Monitors struct {
	// Settle is how long after GST live nodes may go without agreeing on a live
	// leader before `no-leader` is raised. SettleAuto scales it with the time an
	// election needs: the longer of 3 s and three times the longest chain of
	// messages that announces a leader (N hops round a ring, or for an algorithm
	// that walks the logical ring; twice the eccentricity of the first node on a
	// graph, a bound on its diameter; 1 hop on a mesh), each taking the longest
	// delay after GST (the latency's max, at most Δ). A 4,000-node ring with 1 ms
	// links gets 12 s. Before any leader has been seen, the watch starts with the
	// first election a process counts, and no-leader is raised only once no status
	// has changed for Settle: the election has stalled (yoyo-bridge-cut), not
	// merely taken long.
	Settle time.Duration
	// Starvation is how long a request for the critical section may wait.
	Starvation time.Duration
	// SplitGrace is how long two leaders may coexist (for algorithms without terms)
	// before `split-brain` is raised: the time a COORDINATOR message needs to reach
	// a deposed leader is not a split brain.
	SplitGrace time.Duration
}

// DefaultMonitors are the monitors' defaults.
var DefaultMonitors = Monitors{Settle: SettleAuto, Starvation: 5 * time.Second, SplitGrace: 200 * time.Millisecond}

// SettleAuto is the Monitors.Settle that scales with the election time.
const SettleAuto time.Duration = -1

// autoSettleFloor is the shortest automatic settle time: elections run by timers
// (bully's timeout, raft's randomized ones) take this long whatever the size.
const autoSettleFloor = 3 * time.Second

// ActionSource yields timed actions in time order, each made when it is asked for.
type ActionSource interface {
	Next() (Timed, bool)
}

// Config is a fully resolved scenario, ready to run.
type Config struct {
	Name        string
	Description string
	Spec        algos.Spec
	Factory     node.Factory
	IDs         []node.ID // ring order
	Seed        uint64
	Until       time.Duration
	Topology    string       // mesh, ring or graph
	Edges       [][2]node.ID // graph: given edges; empty with Degree for a random graph
	Degree      int
	Net         Net
	Links       []Link
	Monitors    Monitors
	Script      []Timed
	// Generated, if set, makes more script actions as the run reaches them (a
	// scenario's [faults]), never up front: each world calls it once, for a source
	// of its own. At one instant they come after Script's.
	Generated func() ActionSource
	// FaultsEnd, if set, is when every fault ends (a scenario's faults.end): the
	// world restores itself then (see World.restore), and a generator draws
	// nothing from then on.
	FaultsEnd *time.Duration
	Expect    []Expectation
	// UserActions are actions a user applied live, replayed at their instants
	// after the script and the expectations of the same instant, as they were live.
	UserActions []Timed
	// Scenario is the resolved scenario as JSON, written into trace headers.
	Scenario json.RawMessage
	// CrashNotice, when > 0, makes the world the perfect failure detector P: so long
	// after a crash (a revival) every live process gets the request
	// algos.CrashedRequest (RecoveredRequest); a revived process is also told of
	// every process that is down at the time.
	CrashNotice time.Duration
	// Sequential hands one event at a time to the processes instead of a window at
	// a time. The run is the same; tests use it to prove that.
	Sequential bool
	// HandOut hands every batch to its process's goroutine, however small the
	// window, where the world would handle it itself (see inlineBelow), and every
	// merge's messages to the inserter (see inserter.go), however few. The run is
	// the same; tests use it to prove that, and to start every incarnation's
	// goroutine.
	HandOut bool
	// MaxPending bounds the events waiting in the world (messages in flight, timers,
	// a process's own events inside one window). A run that exceeds it stops with an
	// event-storm error (World.Err) instead of exhausting memory. 0 means
	// DefaultMaxPending.
	MaxPending int
}

// DefaultMaxPending keeps a run that hits the guard under about 1 GB RSS. Measured
// again once a broadcast became one effect and its deliveries share one body
// (BenchmarkStormDefaultGuard, scripts/bench; 2 idle cores, Go 1.26): a queued
// flood peaks at 0.27 GB RSS (82 bytes of live heap per pending event), a flood
// made within one window at 0.07 GB; with the wheel's events stored by bucket, in
// chunks of 8 that a bucket may not fill, 0.28 GB and 88 bytes. Measured before
// that, at this default:
//   - a queued message takes 80 bytes on the timing wheel, 104 beyond its span; a
//     queued timer 48. A flood held in the queue's heap measures 115 bytes of live
//     heap per pending event, and peaks at 0.46–0.59 GB RSS when the guard stops it;
//   - a flood made within one window, which the window's budget stops (as many
//     outcomes and effects as events may be pending; an effect takes 112 bytes,
//     and the slices that hold them grow by doubling), peaks at 0.72–0.87 GB;
//   - heartbeat-dp meshes of 2,000 and 4,096 nodes, whose Start alone makes more
//     than the limit, stop at t=0 at 0.73 and 0.83 GB (`sim`, /usr/bin/time).
//
// Before the queue packed its events (120 bytes with three pointers, plus a 24-byte
// key) and before a window's budget counted single-step batches, the queued flood
// peaked at 0.80 GB and the 2,000-node mesh at 3.4 GB. A 1,000-node heartbeat mesh
// fits (its Start makes about a million events); bigger meshes need --max-pending.
const DefaultMaxPending = 2_000_000

// maxPending is the guard's limit.
func (c *Config) maxPending() int {
	if c.MaxPending > 0 {
		return c.MaxPending
	}
	return DefaultMaxPending
}

func (c *Config) validate() error {
	if len(c.IDs) == 0 {
		return fmt.Errorf("a scenario needs at least one node")
	}
	if c.Factory == nil {
		return fmt.Errorf("no algorithm")
	}
	if err := c.Net.Latency.Validate(); err != nil {
		return err
	}
	if c.Net.GST != 0 {
		if err := c.Net.PreLatency.Validate(); err != nil {
			return fmt.Errorf("pre_gst: %v", err)
		}
	}
	if c.MaxPending < 0 {
		return fmt.Errorf("found max pending = %d, expected a positive number of events", c.MaxPending)
	}
	if c.Net.Delta <= 0 {
		return fmt.Errorf("delta must be > 0")
	}
	return nil
}
