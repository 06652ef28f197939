package election

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// The textbook message counts of ring (Chang-Roberts) and franklin, asserted
// exactly. Every run here is on a lossless network with a constant 10ms latency, so
// nothing but the algorithm decides the counts; local deliveries (a process to
// itself) are not network messages and are never counted.

// labWorld is a headless world of algorithm algo on ids (in ring order).
type labWorld struct {
	ids    []node.ID
	topo   string
	edges  [][2]node.ID
	degree int
	lat    netsim.Latency
	script []string // "at action", e.g. "1s crash n3"
	seed   uint64
	gst    time.Duration // 0: synchronous from the start; else asynchronous (pareto delays, 5% loss) until then
}

func (c labWorld) run(t *testing.T, algo string, params map[string]any, until time.Duration) *netsim.World {
	t.Helper()
	return c.runLinks(t, algo, params, until, node.None, node.None)
}

// runLinks is run, with the link from fast to near made 1ms and every other link from
// fast made 30ms (fast = None: no override), so that near hears fast first.
func (c labWorld) runLinks(t *testing.T, algo string, params map[string]any, until time.Duration, fast, near node.ID) *netsim.World {
	t.Helper()
	spec, f, err := algos.Build(algo, c.ids, params)
	if err != nil {
		t.Fatal(err)
	}
	lat := c.lat
	if lat.Dist == "" {
		lat = netsim.Latency{Dist: "constant", Mean: 10 * time.Millisecond}
	}
	cfg := netsim.Config{Name: "test", Spec: spec, Factory: f, IDs: c.ids, Seed: max(c.seed, 1),
		Topology: c.topo, Edges: c.edges, Degree: c.degree,
		Net: netsim.Net{Latency: lat, Delta: 50 * time.Millisecond, GST: c.gst,
			PreLatency: netsim.Latency{Dist: "pareto", Min: 5 * time.Millisecond, Mean: 150 * time.Millisecond, Max: 4 * time.Second}, PreLoss: 0.05},
		Monitors: netsim.DefaultMonitors}
	if cfg.CrashNotice, err = algos.Notice(spec, params); err != nil {
		t.Fatal(err)
	}
	for _, s := range c.script {
		var at, act string
		if _, err := fmt.Sscan(s, &at); err != nil {
			t.Fatal(err)
		}
		act = s[len(at)+1:]
		d, err := time.ParseDuration(at)
		if err != nil {
			t.Fatal(err)
		}
		a, err := netsim.ParseAction(act, c.ids)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Script = append(cfg.Script, netsim.Timed{At: d, Action: a})
	}
	for _, id := range c.ids {
		if fast == node.None || id == fast {
			continue
		}
		d := 30 * time.Millisecond
		if id == near {
			d = time.Millisecond
		}
		cfg.Links = append(cfg.Links, netsim.Link{From: fast, To: id, Latency: &netsim.Latency{Dist: "constant", Mean: d}})
	}
	w, err := netsim.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	w.RunUntil(until)
	return w
}

// labSent is how many network messages of type typ the world has sent.
func labSent(w *netsim.World, typ string) int {
	if c := w.Summary().Messages[typ]; c != nil {
		return c.Sent
	}
	return 0
}

// labAgree checks that every live process believes leader leads.
func labAgree(t *testing.T, w *netsim.World, leader node.ID) {
	t.Helper()
	for _, id := range w.Config().IDs {
		st, up := w.Status(id)
		if up && st.Leader != leader {
			t.Errorf("%v believes %v leads, want %v", id, st.Leader, leader)
		}
	}
}

// labSeq is ids 1..n in ring order.
func labSeq(n int) []node.ID {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	return ids
}

// labScrambled is a fixed permutation of 1..n: position i holds (k·i mod n)+1, k
// the first number from 5 on that is prime to n.
func labScrambled(n int) []node.ID {
	k := 5
	for labGCD(k, n) != 1 {
		k++
	}
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(k*i%n + 1)
	}
	return ids
}

func labGCD(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// labSuccessorOfMax is the process after the highest id in ring order.
func labSuccessorOfMax(ids []node.ID) node.ID {
	m := maxID(ids)
	return ids[(slices.Index(ids, m)+1)%len(ids)]
}

// TestRingOneInitiatorIs3NMinus1: the initiator is the successor of the maximum and
// the ids are distinct. Every process it reaches is not yet a participant, so the
// message never stops: it forwards a larger id or replaces a smaller one with its
// own, and N−1 ELECTION reach the maximum (one per hop from the initiator round to
// the maximum). The maximum, not yet a participant, replaces the smaller id with its
// own, which goes round all N processes (each forwards it as larger than itself)
// back to the maximum: N more ELECTION. The maximum then sends ELECTED, which goes
// round once: N. In all 2N−1 ELECTION + N ELECTED = 3N−1.
func TestRingOneInitiatorIs3NMinus1(t *testing.T) {
	for _, n := range []int{3, 8, 64} {
		for _, layout := range []struct {
			name string
			ids  []node.ID
		}{{"increasing", labSeq(n)}, {"scrambled", labScrambled(n)}} {
			t.Run(fmt.Sprintf("N=%d/%s", n, layout.name), func(t *testing.T) {
				ids := layout.ids
				init := labSuccessorOfMax(ids)
				w := labWorld{ids: ids, topo: "ring"}.run(t, "ring", map[string]any{"initiators": []any{init.String()}}, 10*time.Second)
				if got, want := labSent(w, "ELECTION"), 2*n-1; got != want {
					t.Errorf("ELECTION sent = %d, want N−1 + N = %d", got, want)
				}
				if got := labSent(w, "ELECTED"); got != n {
					t.Errorf("ELECTED sent = %d, want N = %d", got, n)
				}
				if got, want := labSent(w, "ELECTION")+labSent(w, "ELECTED"), 3*n-1; got != want {
					t.Errorf("messages = %d, want 3N−1 = %d", got, want)
				}
				labAgree(t, w, node.ID(n))
				for _, id := range ids {
					st, _ := w.Status(id)
					want := int64(0)
					if id == init {
						want = 1
					}
					if got, _ := st.Counter("elections"); got != want {
						t.Errorf("%v started %d elections, want %d", id, got, want)
					}
				}
			})
		}
	}
}

// TestRingAllDecreasingIsQuadratic: every process starts at time 0 and the ids
// decrease along the ring (N, N−1, …, 1), so the successor of k is k−1 and the
// successor of 1 is N. Every process is a participant from time 0, so no id is ever
// replaced: each is forwarded while it meets smaller ids and swallowed by the first
// larger one. Id k < N travels k → k−1 → … → 1 → N, where N swallows it: k
// messages. Id N goes round: N messages. ELECTION = (1 + 2 + … + N−1) + N =
// N(N−1)/2 + N = N(N+1)/2, Θ(N²); then N ELECTED.
//
// The best case for comparison: ids increasing along the ring, all starting: id k < N
// is swallowed at once by k+1 (one message each) and N goes round: 2N−1.
func TestRingAllDecreasingIsQuadratic(t *testing.T) {
	for _, n := range []int{3, 8, 64} {
		t.Run(fmt.Sprint("N=", n), func(t *testing.T) {
			ids := make([]node.ID, n)
			for i := range ids {
				ids[i] = node.ID(n - i)
			}
			w := labWorld{ids: ids, topo: "ring"}.run(t, "ring", map[string]any{"initiators": "all"}, 20*time.Second)
			if got, want := labSent(w, "ELECTION"), n*(n+1)/2; got != want {
				t.Errorf("ELECTION sent = %d, want N(N+1)/2 = %d", got, want)
			}
			if got := labSent(w, "ELECTED"); got != n {
				t.Errorf("ELECTED sent = %d, want %d", got, n)
			}
			labAgree(t, w, node.ID(n))

			w = labWorld{ids: labSeq(n), topo: "ring"}.run(t, "ring", map[string]any{"initiators": "all"}, 20*time.Second)
			if got, want := labSent(w, "ELECTION"), 2*n-1; got != want {
				t.Errorf("increasing ids: ELECTION sent = %d, want 2N−1 = %d", got, want)
			}
			labAgree(t, w, node.ID(n))
		})
	}
}

// labBitReversal is Franklin's worst layout for N = 2^k: position i holds N − rev(i),
// rev reversing i's k bits. The largest ids sit at the positions divisible by the
// highest powers of two (position 0 holds N, position N/2 holds N−1, positions N/4
// and 3N/4 the next two…), so in round r the active processes are exactly those at
// positions divisible by 2^(r−1): each is flanked by two actives of the next lower
// rank (or, for the top one, of rank one lower on both sides) and half of them lose
// every round. For N = 8: [8 4 6 2 7 3 5 1].
func labBitReversal(n int) []node.ID {
	k := bits.Len(uint(n)) - 1
	ids := make([]node.ID, n)
	for i := range ids {
		rev := bits.Reverse(uint(i)) >> (bits.UintSize - k)
		ids[i] = node.ID(n - int(rev))
	}
	return ids
}

// labRounds is the round the leader ended in: the number of rounds.
func labRounds(t *testing.T, w *netsim.World, leader node.ID) int {
	t.Helper()
	st, _ := w.Status(leader)
	r, ok := st.Counter("round")
	if !ok {
		t.Fatalf("%v reports no round", leader)
	}
	return int(r)
}

// TestFranklinCounts: in every round each active process sends its id both ways
// and each copy stops at the nearest active process in its direction; the active
// processes cut the ring into arcs whose lengths add up to N, so each direction
// costs exactly N hops: 2N PROBE per round, whatever the layout, the last round
// being the winner's id going all the way round both ways. ELECTED goes round once:
// N. So PROBE = 2N·rounds and rounds ≤ ⌈log₂N⌉+1.
//
// With the bit-reversal layout half of the actives lose every round: N, N/2, …, 1
// active, log₂N + 1 rounds, the bound.
//   - N = 8: 4 rounds, 2·8·4 = 64 PROBE, 8 ELECTED.
//   - N = 64: 7 rounds, 2·64·7 = 896 PROBE, 64 ELECTED.
//
// With ids increasing along the ring only the maximum beats both neighbours in
// round 1, and its id goes round in round 2: 2 rounds, 4N PROBE (32 and 256).
func TestFranklinCounts(t *testing.T) {
	for _, c := range []struct {
		n, rounds, probes int
		layout            string
	}{
		{8, 4, 64, "bit-reversal"},
		{64, 7, 896, "bit-reversal"},
		{8, 2, 32, "increasing"},
		{64, 2, 256, "increasing"},
	} {
		t.Run(fmt.Sprintf("N=%d/%s", c.n, c.layout), func(t *testing.T) {
			ids := labSeq(c.n)
			if c.layout == "bit-reversal" {
				ids = labBitReversal(c.n)
			}
			w := labWorld{ids: ids, topo: "ring"}.run(t, "franklin", nil, 20*time.Second)
			leader := node.ID(c.n)
			labAgree(t, w, leader)
			if got := labRounds(t, w, leader); got != c.rounds {
				t.Errorf("rounds = %d, want %d", got, c.rounds)
			}
			if got := labSent(w, "PROBE"); got != c.probes {
				t.Errorf("PROBE sent = %d, want 2N·rounds = %d", got, c.probes)
			}
			if got := labSent(w, "ELECTED"); got != c.n {
				t.Errorf("ELECTED sent = %d, want N = %d", got, c.n)
			}
		})
	}
	if got := fmt.Sprint(labBitReversal(8)); got != "[n8 n4 n6 n2 n7 n3 n5 n1]" {
		t.Errorf("labBitReversal(8) = %s", got)
	}
}

// TestFranklinBoundOnAnyLayout checks the bound and the 2N-per-round count on many
// layouts and sizes (powers of two or not), with random latencies, so that probes
// of different rounds overtake one another and get buffered.
func TestFranklinBoundOnAnyLayout(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 7, 12, 33} {
		for seed := uint64(1); seed <= 6; seed++ {
			ids := labScrambled(n)
			// a different fixed permutation per seed: rotate and reflect
			rot := int(seed) % n
			ids = append(ids[rot:], ids[:rot]...)
			if seed%2 == 0 {
				for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
					ids[i], ids[j] = ids[j], ids[i]
				}
			}
			lat := netsim.Latency{Dist: "uniform", Min: time.Millisecond, Max: 30 * time.Millisecond}
			w := labWorld{ids: ids, topo: "ring", lat: lat, seed: seed}.run(t, "franklin", nil, 20*time.Second)
			leader := node.ID(n)
			labAgree(t, w, leader)
			rounds := labRounds(t, w, leader)
			bound := bits.Len(uint(n-1)) + 1 // ⌈log₂N⌉ + 1
			if rounds > bound {
				t.Errorf("N=%d %v: %d rounds, more than ⌈log₂N⌉+1 = %d", n, ids, rounds, bound)
			}
			wantNet := 1
			if n == 1 {
				wantNet = 0 // everything is local
			}
			if got := labSent(w, "PROBE"); got != wantNet*2*n*rounds {
				t.Errorf("N=%d %v: PROBE sent = %d, want 2N·rounds = %d", n, ids, got, 2*n*rounds)
			}
			if got := labSent(w, "ELECTED"); got != wantNet*n {
				t.Errorf("N=%d: ELECTED sent = %d, want %d", n, got, n)
			}
		}
	}
}
