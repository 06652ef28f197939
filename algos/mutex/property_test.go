package mutex

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/node"
)

// TestMain runs 500 random workloads per property (the figure) unless
// -rapid.checks says otherwise.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.checks" })
	if !given && os.Getenv("RAPID_CHECKS") == "" {
		if err := flag.Set("rapid.checks", "500"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

// workloadRun is one random workload on a reliable network without crashes: random
// request times and processes, a random hold, and a random delay per message (so
// links are not FIFO).
func workloadRun(t *rapid.T, name string, maxN int, params func(t *rapid.T, n int) map[string]any) *sim {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	hold := rapid.IntRange(0, 40).Draw(t, "hold_ms")
	p := params(t, n)
	p["cs_hold"] = fmt.Sprintf("%dms", hold)
	lo := rapid.IntRange(1, 20).Draw(t, "delay_min_ms")
	spread := rapid.IntRange(0, 40).Draw(t, "delay_spread_ms")
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "net_seed"), 1))
	delay := func(node.ID, node.ID) time.Duration {
		return time.Duration(lo)*time.Millisecond + time.Duration(rng.IntN(spread*1000+1))*time.Microsecond
	}
	s := newSim(t, name, n, p, delay)
	s.limit = 200_000

	k := rapid.IntRange(1, 30).Draw(t, "requests")
	window := rapid.IntRange(0, 400).Draw(t, "window_ms") // small windows: heavy contention
	type req struct {
		at time.Duration
		id node.ID
	}
	reqs := make([]req, k)
	for i := range reqs {
		reqs[i] = req{
			at: time.Duration(rapid.IntRange(0, window).Draw(t, "at_ms")) * time.Millisecond,
			id: node.ID(rapid.IntRange(1, n).Draw(t, "who")),
		}
	}
	// in time order (stable: equal times keep their drawn order)
	for i := 1; i < len(reqs); i++ {
		for j := i; j > 0 && reqs[j].at < reqs[j-1].at; j-- {
			reqs[j], reqs[j-1] = reqs[j-1], reqs[j]
		}
	}
	taken := 0
	for _, r := range reqs {
		s.runUntil(r.at)
		if s.request(r.id) {
			taken++
		}
	}
	s.settle()

	if len(s.violations) > 0 {
		t.Fatalf("mutual exclusion violated: %v", s.violations[0])
	}
	for i, st := range s.state() {
		if st != node.CSReleased {
			t.Fatalf("%v is still %v after the run settled: starvation or deadlock (entries %d of %d)", s.ids[i], st, len(s.entries), taken)
		}
	}
	if len(s.entries) != taken {
		t.Fatalf("%d entries for %d requests taken", len(s.entries), taken)
	}
	return s
}

// inOrder checks that entries happen in (req_ts, id) order.
func inOrder(t *rapid.T, s *sim) {
	for i := 1; i < len(s.entries); i++ {
		a, b := s.entries[i-1], s.entries[i]
		if !(stamp{a.ts, a.id}).less(stamp{b.ts, b.id}) {
			t.Fatalf("entry %d (%v, ts %d) after (%v, ts %d): not in (timestamp, id) order", i, b.id, b.ts, a.id, a.ts)
		}
	}
}

func noParams(*rapid.T, int) map[string]any { return map[string]any{} }

func TestPropertyCentral(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		workloadRun(t, "central", 8, func(t *rapid.T, n int) map[string]any {
			c := rapid.IntRange(0, n).Draw(t, "coordinator")
			if c == 0 {
				return map[string]any{}
			}
			return map[string]any{"coordinator": fmt.Sprintf("n%d", c)}
		})
	})
}

func TestPropertyRicart(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { inOrder(t, workloadRun(t, "ricart", 8, noParams)) })
}

func TestPropertyLamport(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { inOrder(t, workloadRun(t, "lamport", 8, noParams)) })
}

func TestPropertyMaekawaDeadlockFree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		workloadRun(t, "maekawa", 12, func(t *rapid.T, n int) map[string]any {
			p := map[string]any{"deadlock_free": true}
			if n == 3 && rapid.Bool().Draw(t, "triangle") {
				p["sets"] = "triangle"
			}
			return p
		})
	})
}

// TestDeterminism runs the same workload twice and compares every entry.
func TestDeterminism(t *testing.T) {
	for _, name := range []string{"central", "tokenring", "ricart", "lamport", "maekawa", "quorum"} {
		run := func() ([]entry, map[string]int) {
			s := newSim(t, name, 5, map[string]any{"cs_rate": 4.0, "cs_hold": "30ms"}, fixed(7*time.Millisecond))
			s.runUntil(3 * time.Second)
			return s.entries, s.sent
		}
		e1, c1 := run()
		e2, c2 := run()
		if len(e1) < 10 || fmt.Sprint(e1) != fmt.Sprint(e2) || fmt.Sprint(c1) != fmt.Sprint(c2) {
			t.Errorf("%s: runs differ or too few entries (%d)", name, len(e1))
		}
	}
}
