package election

import (
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

var (
	anVote    = node.Message{Type: "VoteEmMim"}
	anHabemos = node.Message{Type: "HabemosLider"}
)

func anIR(label node.ID, round, hops int64, unique bool) node.Message {
	return node.Message{Type: "VoteEmMim", ID: label, Term: round, Stamp: hops, Flag: unique}
}

func TestAnonRingNotesRules(t *testing.T) {
	ring := labSeq(3)
	// n1, the candidate: its vote back makes it Eleito, the announcement Empossado.
	h := labHarness(t, "anon-ring", 1, ring, nil)
	labSends(t, h.Start(), []nodetest.Sent{labTo(2, anVote)})
	labStatus(t, h, "candidato", node.None, 0)
	labSends(t, h.Deliver(3, anHabemos), nil) // no rule for a Candidato: dropped
	labSends(t, h.Deliver(3, anVote), []nodetest.Sent{labTo(2, anHabemos)})
	labStatus(t, h, "eleito", node.None, 0)
	labSends(t, h.Deliver(3, anVote), nil) // no rule for an Eleito: dropped
	labSends(t, h.Deliver(3, anHabemos), nil)
	labStatus(t, h, "empossado", 1, 0)
	// n2, a Seguidor, forwards both and never learns a name.
	f := labHarness(t, "anon-ring", 2, ring, nil)
	labSends(t, f.Start(), nil)
	labSends(t, f.Deliver(1, anVote), []nodetest.Sent{labTo(3, anVote)})
	labSends(t, f.Deliver(1, anHabemos), []nodetest.Sent{labTo(3, anHabemos)})
	labStatus(t, f, "seguidor", node.None, 0)
	// A request makes any process a Candidato again.
	labSends(t, h.Request("election"), []nodetest.Sent{labTo(2, anVote)})
	labStatus(t, h, "candidato", node.None, 0)
	labCounter(t, h, "elections", 2)
}

func TestAnonRingItaiRodehRules(t *testing.T) {
	ring := labSeq(3)
	h := labHarness(t, "anon-ring", 1, ring, map[string]any{"randomized": true, "initiators": "all"})
	effs := h.Start()
	sent := nodetest.Sends(effs)
	if len(sent) != 1 || sent[0].To != 2 || sent[0].Msg.Term != 1 || sent[0].Msg.Stamp != 1 || !sent[0].Msg.Flag ||
		sent[0].Msg.ID < 1 || sent[0].Msg.ID > 3 {
		t.Fatalf("first vote %v, want a label in 1…3, round 1, hop 1, unique", sent)
	}
	l := sent[0].Msg.ID
	// weaker: dropped; same label and round from someone else: forwarded, not unique
	labSends(t, h.Deliver(3, anIR(l, 0, 2, true)), nil)
	labSends(t, h.Deliver(3, anIR(l, 1, 2, true)), []nodetest.Sent{labTo(2, anIR(l, 1, 3, false))})
	// its own vote back but not unique: a new round with a fresh label
	effs = h.Deliver(3, anIR(l, 1, 3, false))
	sent = nodetest.Sends(effs)
	if len(sent) != 1 || sent[0].Msg.Term != 2 || sent[0].Msg.Stamp != 1 || !sent[0].Msg.Flag {
		t.Fatalf("after a clash %v, want round 2", sent)
	}
	l = sent[0].Msg.ID
	labCounter(t, h, "round", 2)
	// its own vote back unique: Eleito, then Empossado
	labSends(t, h.Deliver(3, anIR(l, 2, 3, true)), []nodetest.Sent{labTo(2, anHabemos)})
	labSends(t, h.Deliver(3, anHabemos), nil)
	labStatus(t, h, "empossado", 1, 0)
	// a stronger vote turns a candidate into a Seguidor that forwards
	g := labHarness(t, "anon-ring", 2, ring, map[string]any{"randomized": true, "initiators": "all"})
	g.Start()
	labSends(t, g.Deliver(1, anIR(1, 5, 1, true)), []nodetest.Sent{labTo(3, anIR(1, 5, 2, true))})
	labStatus(t, g, "seguidor", node.None, 0)
}

// TestAnonRingSymmetry: the notes' two tables with N = 2. One candidate: one
// Empossado, 2 VoteEmMim and 2 HabemosLider. Two at once: the same messages, and
// both Empossado, which the split-brain monitor flags.
func TestAnonRingSymmetry(t *testing.T) {
	for _, c := range []struct {
		initiators string
		leaders    int
	}{{"n1", 1}, {"all", 2}} {
		w := labWorld{ids: labSeq(2), topo: "ring"}.run(t, "anon-ring", map[string]any{"initiators": c.initiators}, 2*time.Second)
		var lead int
		for _, id := range labSeq(2) {
			if st, _ := w.Status(id); st.Leader == id && st.Role == "empossado" {
				lead++
			}
		}
		if lead != c.leaders {
			t.Errorf("initiators %s: %d empossados, want %d", c.initiators, lead, c.leaders)
		}
		if labSent(w, "VoteEmMim") != 2 || labSent(w, "HabemosLider") != 2 {
			t.Errorf("initiators %s: %d VoteEmMim, %d HabemosLider, want 2 and 2", c.initiators, labSent(w, "VoteEmMim"), labSent(w, "HabemosLider"))
		}
		split := 0
		for _, a := range w.Summary().Alerts {
			if a.Kind == "split-brain" {
				split++
			}
		}
		if (split > 0) != (c.leaders > 1) {
			t.Errorf("initiators %s: %d split-brain alerts", c.initiators, split)
		}
	}
}

// TestAnonRingRandomizedElectsOne: with every process a candidate, Itai-Rodeh ends
// with exactly one Empossado and everyone else a Seguidor, on every seed tried.
func TestAnonRingRandomizedElectsOne(t *testing.T) {
	params := map[string]any{"randomized": true, "initiators": "all"}
	maxRounds := int64(0)
	for _, n := range []int{2, 3, 5, 8} {
		for seed := uint64(1); seed <= 15; seed++ {
			w := labWorld{ids: labSeq(n), topo: "ring", seed: seed}.run(t, "anon-ring", params, 20*time.Second)
			var leaders []node.ID
			for _, id := range labSeq(n) {
				st, _ := w.Status(id)
				switch {
				case st.Role == "empossado" && st.Leader == id:
					leaders = append(leaders, id)
					r, _ := st.Counter("round")
					maxRounds = max(maxRounds, r)
				case st.Role != "seguidor":
					t.Errorf("N=%d seed %d: %v ends %s", n, seed, id, st.Role)
				}
			}
			if len(leaders) != 1 {
				t.Errorf("N=%d seed %d: leaders %v, want exactly one", n, seed, leaders)
			}
		}
	}
	t.Logf("at most %d rounds", maxRounds)
	if maxRounds < 1 {
		t.Error("no rounds counted")
	}
}
