package election

import (
	"fmt"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// TestYoyoIterationsBound: the real bound on Yo-Yo's iterations (see the Yoyo doc
// comment). On a path whose ids increase from one end, the only sink is the far
// end and each iteration prunes exactly that leaf: N−1 iterations, Θ(N), although a
// single source (n1) exists from the first. On random graphs of degree 3 the count
// stays below N−1 and grows faster than ⌈log₂N⌉+1 (measured: 6 at N = 10, 12 at 50,
// 16 at 100, 17 at 200 with seed 1).
func TestYoyoIterationsBound(t *testing.T) {
	for _, n := range []int{8, 16, 32} {
		var edges [][2]node.ID
		for i := 1; i < n; i++ {
			edges = append(edges, [2]node.ID{node.ID(i), node.ID(i + 1)})
		}
		w := labWorld{ids: labSeq(n), topo: "graph", edges: edges}.run(t, "yoyo", nil, 60*time.Second)
		labAgree(t, w, 1)
		if st, _ := w.Status(1); labCounterOf(st, "iteration") != int64(n-1) {
			t.Errorf("path N=%d: %d iterations, want N−1 = %d", n, labCounterOf(st, "iteration"), n-1)
		}
	}
	for _, n := range []int{10, 50, 100} {
		t.Run(fmt.Sprint("degree 3, N=", n), func(t *testing.T) {
			w := labWorld{ids: labSeq(n), topo: "graph", degree: 3, seed: 1}.run(t, "yoyo", nil, 60*time.Second)
			labAgree(t, w, 1)
			st, _ := w.Status(1)
			it := labCounterOf(st, "iteration")
			if it > int64(n-1) {
				t.Errorf("%d iterations, more than N−1 = %d", it, n-1)
			}
			t.Logf("N=%d degree 3 seed 1: %d iterations (⌈log₂N⌉+1 = %d)", n, it, hsCeilLog2(n)+1)
		})
	}
}

func labCounterOf(st node.Status, name string) int64 {
	v, _ := st.Counter(name)
	return v
}
