package mutex_test

import (
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// TestEveryMutexAt256WithinItsOrder: 256 processes all ask for the critical section
// at the same instant, on the presets' uniform 5–20ms links. Whatever the
// contention does (some of these algorithms deadlock under it, as the notes show
// for Maekawa), no algorithm may send more than its textbook cost per entry for
// every request made: a process that retried or re-asked because of another's
// messages would. The token ring has no upper figure (1 to ∞ per entry: its TOKEN
// circulates while no one waits, at one hop per message delay); here every process
// asks once, and over these 30 s it must stay below one round, N, per request.
// The algorithms that cannot deadlock serve every request; Maekawa as in the notes
// and majority quorums without a tie-break deadlock when everyone asks at once,
// which is their lesson, not a storm.
func TestEveryMutexAt256WithinItsOrder(t *testing.T) {
	n := 256
	if testing.Short() {
		n = 64 // Lamport's and Ricart's N² messages take a minute under -race at 256
	}
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	params := map[string]any{"cs_hold": "5ms"}
	tested := 0
	for _, spec := range algos.All() {
		if spec.Family != algos.Mutex {
			continue
		}
		tested++
		t.Run(spec.Name, func(t *testing.T) {
			p, err := algos.NewParams(spec, params)
			if err != nil {
				t.Fatal(err)
			}
			perEntry := 0.0
			for _, th := range algos.TheoryFor(spec, algos.TheoryConfig{Config: algos.Config{IDs: ids, Params: p}}) {
				if th.Metric == "per_entry.total" && th.Bound != algos.AtLeast {
					perEntry = max(perEntry, th.Value)
				}
			}
			if spec.Name == "tokenring" {
				perEntry = float64(n)
			}
			if perEntry == 0 {
				t.Fatalf("%s gives no per-entry cost to compare with", spec.Name)
			}
			_, f, err := algos.Build(spec.Name, ids, params)
			if err != nil {
				t.Fatal(err)
			}
			cfg := netsim.Config{Name: spec.Name, Spec: spec, Factory: f, IDs: ids, Seed: 1,
				Net:      netsim.Net{Latency: netsim.Latency{Dist: "uniform", Min: 5 * time.Millisecond, Mean: 12500 * time.Microsecond, Max: 20 * time.Millisecond}, Delta: 50 * time.Millisecond},
				Monitors: netsim.DefaultMonitors}
			for _, id := range ids {
				cfg.Script = append(cfg.Script, netsim.Timed{At: 100 * time.Millisecond, Action: netsim.Action{Verb: "request", Node: id, What: "cs"}})
			}
			w, err := netsim.New(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			w.RunUntil(30 * time.Second)
			s := w.Summary()
			total := 0
			for _, c := range s.Messages {
				total += c.Sent
			}
			t.Logf("%d requests, %d entries, %d messages (%.1f per request; textbook at most %.1f per entry)", n, s.Mutex.Entries, total, float64(total)/float64(n), perEntry)
			if mayDeadlock := spec.Name == "maekawa" || spec.Name == "quorum"; !mayDeadlock && s.Mutex.Entries != n {
				t.Errorf("%d entries for %d requests", s.Mutex.Entries, n)
			}
			if float64(total) > perEntry*float64(n) {
				t.Errorf("%d messages for %d requests: more than %.1f per request", total, n, perEntry)
			}
		})
	}
	if tested < 6 {
		t.Errorf("only %d mutex algorithms registered", tested)
	}
}
