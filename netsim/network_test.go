package netsim

import (
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// genNet draws a random network: distribution, loss, dup, GST and Δ.
func genNet(t *rapid.T) Net {
	ms := func(a, b int, label string) time.Duration {
		return time.Duration(rapid.IntRange(a, b).Draw(t, label)) * time.Millisecond
	}
	lat := func(label string) Latency {
		dist := rapid.SampledFrom(Dists).Draw(t, label+".dist")
		lo := ms(1, 20, label+".min")
		mean := lo + ms(0, 50, label+".mean")
		hi := mean + ms(0, 400, label+".max")
		if dist == "uniform" {
			mean = (lo + hi) / 2
		}
		if dist == "constant" {
			lo, hi = mean, mean
		}
		return Latency{Dist: dist, Min: lo, Mean: mean, Max: hi}
	}
	n := Net{Latency: lat("lat"), PreLatency: lat("pre"), Delta: ms(5, 100, "delta"),
		Loss:    rapid.Float64Range(0, 0.5).Draw(t, "loss"),
		Dup:     rapid.Float64Range(0, 0.5).Draw(t, "dup"),
		PreLoss: rapid.Float64Range(0, 0.5).Draw(t, "preloss"),
		GST:     ms(0, 1500, "gst")}
	return n
}

// TestNetworkProperties checks, over random networks and fault scripts, that after
// GST no delay exceeds Δ, that no message crosses a partition or a cut, and that
// every drop has one of the known reasons.
func TestNetworkProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(2, 6).Draw(rt, "nodes")
		cfg := pingConfig(n, rapid.Uint64().Draw(rt, "seed"))
		cfg.Net = genNet(rt)
		ids := cfg.IDs
		pick := func(label string) node.ID { return ids[rapid.IntRange(0, n-1).Draw(rt, label)] }
		steps := rapid.IntRange(0, 6).Draw(rt, "steps")
		for i := 0; i < steps; i++ {
			at := time.Duration(rapid.IntRange(0, 1900).Draw(rt, "at")) * time.Millisecond
			var a Action
			switch rapid.IntRange(0, 5).Draw(rt, "verb") {
			case 0:
				a = Action{Verb: "crash", Node: pick("node")}
			case 1:
				a = Action{Verb: "recover", Node: pick("node")}
			case 2:
				k := rapid.IntRange(1, n-1).Draw(rt, "split")
				a = Action{Verb: "partition", Groups: [][]node.ID{ids[:k], ids[k:]}}
			case 3:
				from, to := pick("from"), pick("to")
				if from == to {
					continue
				}
				a = Action{Verb: "cut", Node: from, To: to}
			case 4:
				a = Action{Verb: "isolate", Node: pick("node")}
			case 5:
				a = Action{Verb: "heal"}
			}
			cfg.Script = append(cfg.Script, Timed{At: at, Action: a})
		}
		sortTimed(cfg.Script)
		var c collect
		w, err := New(cfg, &c)
		if err != nil {
			rt.Fatal(err)
		}
		w.RunUntil(cfg.Until)
		w.Close()
		checkNetwork(rt, cfg, c.evs)
	})
}

func sortTimed(ts []Timed) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].At < ts[j-1].At; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// checkNetwork replays the events, tracking partitions and cuts, and checks each
// delivery and drop.
func checkNetwork(t interface{ Fatalf(string, ...any) }, cfg Config, evs []trace.Event) {
	group := map[node.ID]int{}
	isolated := map[node.ID]bool{}
	cut := map[[2]node.ID]bool{}
	sentAt := map[uint64]int64{}
	blockedAtSend := map[uint64]bool{}
	gst := int64(-1)
	if cfg.Net.GST == 0 {
		gst = 0
	}
	separated := func(a, b node.ID) bool {
		return isolated[a] || isolated[b] || group[a] != group[b] || cut[[2]node.ID{a, b}]
	}
	delta := node.Micros(cfg.Net.Delta)
	for _, e := range evs {
		switch e.Ev {
		case trace.GST:
			gst = e.T
		case trace.Partition:
			clear(group)
			for g, ids := range e.Groups {
				for _, id := range ids {
					group[id] = g + 1
				}
			}
		case trace.Isolate:
			isolated[e.Node] = true
		case trace.Cut:
			cut[[2]node.ID{e.From, e.To}] = true
		case trace.Heal:
			clear(group)
			clear(isolated)
			clear(cut)
		case trace.Send:
			sentAt[e.MID] = e.T
			blockedAtSend[e.MID] = separated(e.From, e.To)
		case trace.Deliver:
			if e.Local {
				continue
			}
			if separated(e.From, e.To) || blockedAtSend[e.MID] {
				t.Fatalf("message %d %v->%v crossed a partition or cut at %dµs", e.MID, e.From, e.To, e.T)
			}
			s := sentAt[e.MID]
			if gst >= 0 && s >= gst && e.T-s > delta {
				t.Fatalf("message %d sent at %dµs after GST (%dµs) took %dµs > Δ %dµs", e.MID, s, gst, e.T-s, delta)
			}
			if gst >= 0 && s < gst && e.T > gst+delta {
				t.Fatalf("message %d in flight at GST arrived at %dµs, after GST+Δ", e.MID, e.T)
			}
		case trace.Drop:
			switch e.Reason {
			case trace.ReasonLoss, trace.ReasonPartition, trace.ReasonCut, trace.ReasonDown, trace.ReasonTopology:
			default:
				t.Fatalf("drop of message %d has reason %q", e.MID, e.Reason)
			}
			if e.Reason == trace.ReasonPartition && !separated(e.From, e.To) && !blockedAtSend[e.MID] {
				t.Fatalf("message %d dropped for a partition that does not separate %v and %v", e.MID, e.From, e.To)
			}
		}
	}
}

// TestLossAndDupRates checks that the measured loss and duplication converge to the
// settings.
func TestLossAndDupRates(t *testing.T) {
	for _, tc := range []struct{ loss, dup float64 }{{0.1, 0}, {0, 0.05}, {0.3, 0.2}} {
		cfg := pingConfig(4, 7)
		cfg.Net.Loss, cfg.Net.Dup = tc.loss, tc.dup
		cfg.Until = 20 * time.Second
		var c collect
		w, err := New(cfg, &c)
		if err != nil {
			t.Fatal(err)
		}
		w.RunUntil(cfg.Until)
		w.Close()
		sent, lost, dups := 0, 0, 0
		for _, e := range c.evs {
			switch {
			case e.Ev == trace.Send:
				sent++
			case e.Ev == trace.Drop && e.Reason == trace.ReasonLoss:
				lost++
			case e.Ev == trace.Deliver && e.Dup:
				dups++
			}
		}
		gotLoss := float64(lost) / float64(sent)
		gotDup := float64(dups) / float64(sent-lost)
		// Tens of thousands of draws: three standard deviations is well under 0.01.
		if math.Abs(gotLoss-tc.loss) > 0.01 || math.Abs(gotDup-tc.dup) > 0.01 {
			t.Errorf("loss %.3f dup %.3f over %d messages, want %.2f and %.2f", gotLoss, gotDup, sent, tc.loss, tc.dup)
		}
	}
}
