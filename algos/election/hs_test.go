package election

import (
	"fmt"
	"math/bits"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func hsProbe(id node.ID, phase, hops int64, right bool) node.Message {
	return node.Message{Type: "PROBE", ID: id, Term: phase, Stamp: hops, Flag: right}
}

func hsReply(id node.ID, phase int64, right bool) node.Message {
	return node.Message{Type: "REPLY", ID: id, Term: phase, Flag: right}
}

// The ring used below is frRing, [1 5 2 4 3]: n5 sits between n1 (left) and n2
// (right); n2 between n5 and n4; n4 between n2 and n3.

func TestHSPhaseZeroProbesBothWays(t *testing.T) {
	h := labHarness(t, "hs", 5, frRing, nil)
	labSends(t, h.Start(), []nodetest.Sent{
		labTo(2, hsProbe(5, 0, 1, goingRight)),
		labTo(1, hsProbe(5, 0, 1, goingLeft)),
	})
	labStatus(t, h, "candidate", node.None, 0)
	labCounter(t, h, "phases", 1)
}

func TestHSCandidateAdvancesOnBothReplies(t *testing.T) {
	h := labHarness(t, "hs", 5, frRing, nil)
	h.Start()
	// A smaller probe is swallowed.
	labSends(t, h.Deliver(2, hsProbe(2, 0, 1, goingLeft)), nil)
	// Phase 0's reply from the right (travelling left), then from the left.
	labSends(t, h.Deliver(2, hsReply(5, 0, goingLeft)), nil)
	// A duplicate of it does not count as the other side.
	labSends(t, h.Deliver(2, hsReply(5, 0, goingLeft)), nil)
	labSends(t, h.Deliver(1, hsReply(5, 0, goingRight)), []nodetest.Sent{
		labTo(2, hsProbe(5, 1, 1, goingRight)),
		labTo(1, hsProbe(5, 1, 1, goingLeft)),
	})
	labCounter(t, h, "phase", 1)
	labCounter(t, h, "phases", 2)
	// A reply of an older phase is ignored.
	labSends(t, h.Deliver(1, hsReply(5, 0, goingRight)), nil)
	// Its own probe comes back round: leader, ELECTED to the successor.
	labSends(t, h.Deliver(1, hsProbe(5, 1, 5, goingRight)), []nodetest.Sent{labTo(2, labElected(5, 0))})
	labStatus(t, h, "leader", 5, 0)
	// The other direction's probe, and ELECTED back home, stop.
	labSends(t, h.Deliver(2, hsProbe(5, 1, 5, goingLeft)), nil)
	labSends(t, h.Deliver(1, labElected(5, 0)), nil)
}

func TestHSRelayForwardsThenRepliesAtTheHorizon(t *testing.T) {
	// n2 sits between n5 (left) and n4 (right).
	h := labHarness(t, "hs", 2, frRing, nil)
	h.Start()
	// n4's phase-1 probe, one hop out: forwarded (2 hops allowed), n2 defeated.
	labSends(t, h.Deliver(4, hsProbe(4, 1, 1, goingLeft)), []nodetest.Sent{labTo(5, hsProbe(4, 1, 2, goingLeft))})
	labStatus(t, h, "defeated", node.None, 0)
	// n5's phase-1 probe at its second hop: the horizon, so the reply goes back left.
	labSends(t, h.Deliver(5, hsProbe(5, 0, 1, goingRight)), []nodetest.Sent{labTo(5, hsReply(5, 0, goingLeft))})
	// Replies for others pass through in their direction.
	labSends(t, h.Deliver(4, hsReply(5, 1, goingLeft)), []nodetest.Sent{labTo(5, hsReply(5, 1, goingLeft))})
	labSends(t, h.Deliver(5, hsReply(4, 1, goingRight)), []nodetest.Sent{labTo(4, hsReply(4, 1, goingRight))})
	// ELECTED is recorded and forwarded once.
	labSends(t, h.Deliver(5, labElected(5, 0)), []nodetest.Sent{labTo(4, labElected(5, 0))})
	labStatus(t, h, "follower", 5, 0)
	labSends(t, h.Deliver(5, labElected(5, 0)), nil)
}

func TestHSSleeperWakesOnTheFirstMessage(t *testing.T) {
	h := labHarness(t, "hs", 4, frRing, map[string]any{"initiators": []any{"n5"}})
	labSends(t, h.Start(), nil)
	labStatus(t, h, "asleep", node.None, 0)
	// a smaller probe wakes n4, which competes and swallows it
	labSends(t, h.Deliver(2, hsProbe(2, 0, 1, goingRight)), []nodetest.Sent{
		labTo(3, hsProbe(4, 0, 1, goingRight)),
		labTo(2, hsProbe(4, 0, 1, goingLeft)),
	})
	labStatus(t, h, "candidate", node.None, 0)
	// a request now is ignored: one election per incarnation
	labSends(t, h.Request("election"), nil)
	// a recovered incarnation sits out
	h.Recover()
	labSends(t, h.Deliver(2, hsProbe(5, 0, 1, goingRight)), nil)
	labStatus(t, h, "asleep", node.None, 0)
}

func TestHSAlone(t *testing.T) {
	h := labHarness(t, "hs", 1, []node.ID{1}, nil)
	effs := h.Start()
	labSends(t, effs, []nodetest.Sent{labTo(1, hsProbe(1, 0, 1, goingRight)), labTo(1, hsProbe(1, 0, 1, goingLeft))})
	labSends(t, h.Deliver(1, hsProbe(1, 0, 1, goingRight)), []nodetest.Sent{labTo(1, labElected(1, 0))})
	labStatus(t, h, "leader", 1, 0)
}

// hsCeilLog2 is ⌈log₂n⌉.
func hsCeilLog2(n int) int { return bits.Len(uint(n - 1)) }

// TestHSCounts: the maximum wins after exactly ⌈log₂N⌉+1 phases (its probes reach
// itself in the first phase k with 2^k ≥ N), and PROBE + REPLY stay within
// 8N(⌈log₂N⌉+1), at several N and layouts, with random latencies so that probes
// and replies of different phases cross. ELECTED goes round once: N. The figures
// measured are logged (go test -run TestHSCounts -v ./algos/election).
func TestHSCounts(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 8, 13, 16, 32, 64, 100} {
		for _, layout := range []string{"increasing", "bit-reversal", "scrambled"} {
			if layout == "bit-reversal" && n&(n-1) != 0 {
				continue
			}
			t.Run(fmt.Sprintf("N=%d/%s", n, layout), func(t *testing.T) {
				ids := labSeq(n)
				switch layout {
				case "bit-reversal":
					ids = labBitReversal(n)
				case "scrambled":
					ids = labScrambled(n)
				}
				lat := netsim.Latency{Dist: "uniform", Min: time.Millisecond, Max: 30 * time.Millisecond}
				w := labWorld{ids: ids, topo: "ring", lat: lat, seed: uint64(n)}.run(t, "hs", nil, 60*time.Second)
				leader := node.ID(n)
				labAgree(t, w, leader)
				st, _ := w.Status(leader)
				phases, _ := st.Counter("phases")
				if want := hsCeilLog2(n) + 1; int(phases) != want {
					t.Errorf("the leader ran %d phases, want ⌈log₂N⌉+1 = %d", phases, want)
				}
				pr := labSent(w, "PROBE") + labSent(w, "REPLY")
				bound := 8 * n * (hsCeilLog2(n) + 1)
				if pr > bound {
					t.Errorf("PROBE+REPLY = %d, more than 8N(⌈log₂N⌉+1) = %d", pr, bound)
				}
				if got := labSent(w, "ELECTED"); got != n {
					t.Errorf("ELECTED = %d, want N = %d", got, n)
				}
				t.Logf("N=%d %s: %d phases, PROBE %d, REPLY %d, ELECTED %d; bound 8N(⌈log₂N⌉+1) = %d",
					n, layout, phases, labSent(w, "PROBE"), labSent(w, "REPLY"), labSent(w, "ELECTED"), bound)
			})
		}
	}
}

// TestHSOneInitiatorWakesEveryone: with a single initiator the others wake up on the
// first message and compete; the maximum still wins in ⌈log₂N⌉+1 phases.
func TestHSOneInitiatorWakesEveryone(t *testing.T) {
	ids := labScrambled(12)
	w := labWorld{ids: ids, topo: "ring"}.run(t, "hs", map[string]any{"initiators": []any{"n3"}}, 20*time.Second)
	labAgree(t, w, 12)
	st, _ := w.Status(12)
	if got, _ := st.Counter("phases"); got != int64(hsCeilLog2(12)+1) {
		t.Errorf("phases = %d, want %d", got, hsCeilLog2(12)+1)
	}
}
