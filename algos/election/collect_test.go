package election

import (
	"fmt"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func collectMsg(epoch int64, ids ...node.ID) node.Message {
	return node.Message{Type: "COLLECT", List: node.ListOf(ids...), Stamp: epoch}
}

// The ring of the notes' example elsewhere: [17 24 1 28].
var collectRing = []node.ID{17, 24, 1, 28}

func TestCollectAppendsForwardsAndDecides(t *testing.T) {
	h := labHarness(t, "collect-ring", 24, collectRing, nil)
	labSends(t, h.Start(), []nodetest.Sent{labTo(1, collectMsg(1, 24))})
	labStatus(t, h, "collecting", node.None, 1)
	// Someone else's list: 24 appends itself and forwards it to its successor n1.
	labSends(t, h.Deliver(17, collectMsg(1, 28, 17)), []nodetest.Sent{labTo(1, collectMsg(1, 28, 17, 24))})
	// Its own list back, with every id: the smallest leads.
	labSends(t, h.Deliver(17, collectMsg(1, 24, 1, 28, 17)), nil)
	labStatus(t, h, "follower", 1, 1)
	// An older epoch's list is dropped; a request opens epoch 2.
	labSends(t, h.Deliver(17, collectMsg(0, 17)), nil)
	labSends(t, h.Request("election"), []nodetest.Sent{labTo(1, collectMsg(2, 24))})
	labStatus(t, h, "collecting", node.None, 2)
}

func TestCollectSmallestDecidesForItself(t *testing.T) {
	h := labHarness(t, "collect-ring", 1, collectRing, map[string]any{"initiators": "none"})
	labSends(t, h.Start(), nil)
	labStatus(t, h, "idle", node.None, 0)
	labSends(t, h.Request("election"), []nodetest.Sent{labTo(28, collectMsg(1, 1))})
	labSends(t, h.Deliver(24, collectMsg(1, 1, 28, 17, 24)), nil)
	labStatus(t, h, "leader", 1, 1)
}

// TestCollectCounts: every initiator's list goes round once, growing by one id per
// hop: N messages of sizes 1 … N. All N starting: N² COLLECT carrying N·N(N+1)/2
// ids, the largest N ids long, and everyone agrees on the smallest id. One
// initiator: N COLLECT, N(N+1)/2 ids, and only the initiator decides.
func TestCollectCounts(t *testing.T) {
	for _, n := range []int{2, 5, 8, 16} {
		t.Run(fmt.Sprintf("N=%d/all", n), func(t *testing.T) {
			ids := labScrambled(n)
			w := labWorld{ids: ids, topo: "ring"}.run(t, "collect-ring", nil, 10*time.Second)
			labAgree(t, w, 1)
			c := w.Summary().Messages["COLLECT"]
			if c == nil || c.Sent != n*n || c.IDs != n*n*(n+1)/2 || c.MaxIDs != n {
				t.Fatalf("COLLECT %+v, want sent N² = %d, ids N·N(N+1)/2 = %d, max N = %d", c, n*n, n*n*(n+1)/2, n)
			}
			t.Logf("N=%d all: %d COLLECT, %d ids, at most %d", n, c.Sent, c.IDs, c.MaxIDs)
		})
		t.Run(fmt.Sprintf("N=%d/one", n), func(t *testing.T) {
			ids := labScrambled(n)
			init := ids[n/2]
			w := labWorld{ids: ids, topo: "ring"}.run(t, "collect-ring", map[string]any{"initiators": []any{init.String()}}, 10*time.Second)
			c := w.Summary().Messages["COLLECT"]
			if c == nil || c.Sent != n || c.IDs != n*(n+1)/2 || c.MaxIDs != n {
				t.Fatalf("COLLECT %+v, want sent N = %d, ids N(N+1)/2 = %d, max N = %d", c, n, n*(n+1)/2, n)
			}
			for _, id := range ids {
				st, _ := w.Status(id)
				want := node.None
				if id == init {
					want = 1
				}
				if st.Leader != want {
					t.Errorf("%v believes %v leads, want %v", id, st.Leader, want)
				}
			}
		})
	}
}
