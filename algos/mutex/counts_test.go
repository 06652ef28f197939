package mutex

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// entryCost runs one request of id to completion, alone, and returns the messages
// it cost by type.
func entryCost(t *testing.T, s *sim, id node.ID) map[string]int {
	t.Helper()
	s.settle()
	s.resetCounts()
	before := s.entriesOf(id)
	if !s.request(id) {
		t.Fatalf("%v: request not taken", id)
	}
	s.settle()
	if s.entriesOf(id) != before+1 {
		t.Fatalf("%v did not enter", id)
	}
	return maps.Clone(s.sent)
}

func wantCounts(t *testing.T, got map[string]int, want map[string]int) {
	t.Helper()
	for k, v := range want {
		if v == 0 {
			delete(want, k)
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("messages per entry = %v, want %v", got, want)
	}
}

func TestCentralCostPerEntry(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8} {
		t.Run(fmt.Sprint("N=", n), func(t *testing.T) {
			s := newSim(t, "central", n, nil, fixed(7*time.Millisecond))
			for _, id := range s.ids[1:] {
				wantCounts(t, entryCost(t, s, id), map[string]int{"REQUEST": 1, "GRANT": 1, "RELEASE": 1})
			}
			// The coordinator's own entry is local.
			wantCounts(t, entryCost(t, s, 1), map[string]int{})
		})
	}
	// An explicit coordinator.
	s := newSim(t, "central", 4, map[string]any{"coordinator": "n3"}, fixed(time.Millisecond))
	wantCounts(t, entryCost(t, s, 1), map[string]int{"REQUEST": 1, "GRANT": 1, "RELEASE": 1})
	wantCounts(t, entryCost(t, s, 3), map[string]int{})
}

func TestRicartCostPerEntry(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8} {
		t.Run(fmt.Sprint("N=", n), func(t *testing.T) {
			s := newSim(t, "ricart", n, nil, fixed(3*time.Millisecond))
			for _, id := range s.ids {
				wantCounts(t, entryCost(t, s, id), map[string]int{"REQUEST": n - 1, "REPLY": n - 1})
			}
			// and again, now that clocks have moved
			wantCounts(t, entryCost(t, s, s.ids[0]), map[string]int{"REQUEST": n - 1, "REPLY": n - 1})
		})
	}
}

func TestLamportCostPerEntry(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8} {
		t.Run(fmt.Sprint("N=", n), func(t *testing.T) {
			s := newSim(t, "lamport", n, nil, fixed(3*time.Millisecond))
			for _, id := range s.ids {
				wantCounts(t, entryCost(t, s, id), map[string]int{"REQUEST": n - 1, "ACK": n - 1, "RELEASE": n - 1})
			}
			wantCounts(t, entryCost(t, s, s.ids[n-1]), map[string]int{"REQUEST": n - 1, "ACK": n - 1, "RELEASE": n - 1})
		})
	}
}

func TestMaekawaCostPerEntry(t *testing.T) {
	for _, free := range []bool{false, true} {
		for _, n := range []int{1, 2, 3, 4, 5, 7, 9, 10, 16} {
			t.Run(fmt.Sprintf("N=%d/deadlock_free=%v", n, free), func(t *testing.T) {
				s := newSim(t, "maekawa", n, map[string]any{"deadlock_free": free}, fixed(4*time.Millisecond))
				sets := gridSets(s.ids)
				for i, id := range s.ids {
					k := len(sets[i]) - 1 // self excluded
					wantCounts(t, entryCost(t, s, id), map[string]int{"REQUEST": k, "VOTE": k, "RELEASE": k})
				}
			})
		}
	}
	// The grid sizes the costs above rest on: |V_i| = 2√N − 1 on a full grid.
	for n, want := range map[int]int{4: 3, 9: 5, 16: 7, 25: 9} {
		for i, v := range gridSets(make([]node.ID, n)) {
			if len(v) != want {
				t.Errorf("N=%d: |V_%d| = %d, want %d", n, i+1, len(v), want)
			}
		}
	}
}

func TestQuorumCostPerEntry(t *testing.T) {
	// All n processes coordinate: a request costs REQUEST, GRANT and RELEASE with
	// each of the n−1 others (its own grant is local).
	for _, n := range []int{1, 3, 5} {
		s := newSim(t, "quorum", n, nil, fixed(2*time.Millisecond))
		wantCounts(t, entryCost(t, s, 1), map[string]int{"REQUEST": n - 1, "GRANT": n - 1, "RELEASE": n - 1})
	}
	// Coordinators n1..n3, participant n5: 3 of each.
	s := newSim(t, "quorum", 5, map[string]any{"coordinators": "n1,n2,n3"}, fixed(2*time.Millisecond))
	wantCounts(t, entryCost(t, s, 5), map[string]int{"REQUEST": 3, "GRANT": 3, "RELEASE": 3})
}

// TestMaekawaFPP: the projective-plane sets have K = q+1 members, every process is
// in K sets, two sets meet in exactly one process (Maekawa's optimum, K ≈ √N; the
// grid needs 2√N − 1), and an entry without contention costs 3(K−1): 6 at N = 7,
// 9 at N = 13.
func TestMaekawaFPP(t *testing.T) {
	for _, c := range []struct{ n, k int }{{3, 2}, {7, 3}, {13, 4}, {21, 5}, {31, 6}} {
		ids := make([]node.ID, c.n)
		for i := range ids {
			ids[i] = node.ID(i + 1)
		}
		sets := fppSets(ids, singer[c.n])
		in := make([]int, c.n)
		for i, v := range sets {
			if len(v) != c.k || !slices.Contains(v, ids[i]) {
				t.Fatalf("N=%d: V_%d = %v, want %d members with p_%d", c.n, i+1, v, c.k, i+1)
			}
			for _, q := range v {
				in[q-1]++
			}
			for j := i + 1; j < len(sets); j++ {
				common := 0
				for _, q := range v {
					if slices.Contains(sets[j], q) {
						common++
					}
				}
				if common != 1 {
					t.Fatalf("N=%d: V_%d ∩ V_%d has %d members, want 1", c.n, i+1, j+1, common)
				}
			}
		}
		for q, m := range in {
			if m != c.k {
				t.Fatalf("N=%d: n%d is in %d sets, want K = %d", c.n, q+1, m, c.k)
			}
		}
	}
	for _, c := range []struct{ n, k int }{{7, 3}, {13, 4}} {
		s := newSim(t, "maekawa", c.n, map[string]any{"sets": "fpp"}, fixed(4*time.Millisecond))
		for _, id := range s.ids {
			wantCounts(t, entryCost(t, s, id), map[string]int{"REQUEST": c.k - 1, "VOTE": c.k - 1, "RELEASE": c.k - 1})
		}
	}
	if _, _, err := algos.Build("maekawa", make([]node.ID, 8), map[string]any{"sets": "fpp"}); err == nil ||
		!strings.Contains(err.Error(), "expected N = q²+q+1") {
		t.Errorf("fpp with 8 nodes: %v", err)
	}
}
