package election

import (
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func TestBullyKnownCrashElectsAtOnce(t *testing.T) {
	for _, known := range []bool{false, true} {
		h := labHarness(t, "bully", 4, labSeq(5), map[string]any{"initiators": "none", "known_crash": known})
		h.Start()
		h.Deliver(5, node.Message{Type: MsgCoordinator})
		labStatus(t, h, "follower", 5, 0)
		effs := h.Fire(timerWatch)
		if known {
			// told of n5's crash by its own timeout and the highest alive: N−2 COORDINATOR
			labSends(t, effs, []nodetest.Sent{labTo(1, node.Message{Type: MsgCoordinator}),
				labTo(2, node.Message{Type: MsgCoordinator}), labTo(3, node.Message{Type: MsgCoordinator})})
			labStatus(t, h, "leader", 4, 0)
			// n5 speaks again: it is no longer taken for crashed, and it bullies n4
			labSends(t, h.Deliver(5, node.Message{Type: MsgHeartbeat}), nil)
			labStatus(t, h, "follower", 5, 0)
			continue
		}
		labSends(t, effs, []nodetest.Sent{labTo(5, node.Message{Type: MsgElection})})
		labStatus(t, h, "candidate", node.None, 0)
	}
}

func TestStableBullyPrecedenceIsUptime(t *testing.T) {
	// n5 comes back at 9s: everyone else has run since 0, longer than it, so it asks
	// them all, stamping its new start.
	h := labHarness(t, "stable-bully", 5, labSeq(5), map[string]any{"initiators": "none"})
	h.Start()
	h.Advance(9 * time.Second)
	since := node.Micros(9 * time.Second)
	var want []nodetest.Sent
	for _, p := range labSeq(4) {
		want = append(want, labTo(p, node.Message{Type: MsgElection, Stamp: since}))
	}
	labSends(t, h.Recover(), want)
	// n4, the coordinator since 0, answers the newcomer, finds nobody above itself
	// and announces itself to everyone, n5 included.
	g := labHarness(t, "stable-bully", 4, labSeq(5), map[string]any{"initiators": "none"})
	g.Start()
	effs := g.Deliver(5, node.Message{Type: MsgElection, Stamp: since})
	labSends(t, effs, []nodetest.Sent{labTo(5, node.Message{Type: MsgAnswer})}, MsgAnswer)
	if got := nodetest.Targets(effs, MsgCoordinator); len(got) != 4 {
		t.Fatalf("COORDINATOR to %v, want all four others", got)
	}
	labStatus(t, g, "leader", 4, 0)
	// A HEARTBEAT of the newcomer does not depose it; at equal uptime the id decides.
	labSends(t, g.Deliver(5, node.Message{Type: MsgHeartbeat, Stamp: since}), nil, MsgElection)
	labStatus(t, g, "leader", 4, 0)
	f := labHarness(t, "stable-bully", 3, labSeq(5), map[string]any{"initiators": "none"})
	f.Start()
	labSends(t, f.Request("election"), []nodetest.Sent{labTo(4, node.Message{Type: MsgElection}), labTo(5, node.Message{Type: MsgElection})})
}

// labLeaderChanges runs algo on the flapping schedule of the preset bully-flapping
// and counts how often n1's believed leader changes (sampled every 5ms).
func labLeaderChanges(t *testing.T, algo string) (int, node.ID) {
	script := []string{"2s crash n5", "3500ms recover n5", "5s crash n5", "6500ms recover n5", "8s crash n5", "9500ms recover n5", "11s crash n5", "12500ms recover n5"}
	lat := netsim.Latency{Dist: "uniform", Min: 5 * time.Millisecond, Max: 20 * time.Millisecond}
	w := labWorld{ids: labSeq(5), lat: lat, seed: 3, script: script}.run(t, algo, nil, 0)
	changes, last := 0, node.None
	for at := 5 * time.Millisecond; at <= 16*time.Second; at += 5 * time.Millisecond {
		w.RunUntil(at)
		if st, _ := w.Status(1); st.Leader != node.None && st.Leader != last {
			changes, last = changes+1, st.Leader
		}
	}
	return changes, last
}

// TestStableBullyStopsFlapping: on bully-flapping's schedule (n5 crashes and comes
// back four times), Bully changes leader at every crash and every return; the
// stable variant changes once, to n4, and keeps it.
func TestStableBullyStopsFlapping(t *testing.T) {
	if testing.Short() {
		t.Skip("16s of virtual time twice")
	}
	b, bl := labLeaderChanges(t, "bully")
	s, sl := labLeaderChanges(t, "stable-bully")
	t.Logf("leader changes seen by n1: bully %d (ends with %v), stable-bully %d (ends with %v)", b, bl, s, sl)
	if b < 9 || bl != 5 {
		t.Errorf("bully: %d changes ending with %v, want n5, n4, n5, … at least 9, ending with n5", b, bl)
	}
	if s != 2 || sl != 4 {
		t.Errorf("stable-bully: %d changes ending with %v, want 2 (n5, then n4 for good)", s, sl)
	}
}

// TestBullyKnownCrashBestCase: n5 leads; its heartbeats reach n4 first (1ms, the
// others 30ms), so n4's timeout fires first. With known_crash n4 elects itself at
// once: after the crash exactly N−2 = 3 COORDINATOR, and no ELECTION at all.
func TestBullyKnownCrashBestCase(t *testing.T) {
	for _, n := range []int{5, 8} {
		ids := labSeq(n)
		mx := node.ID(n)
		for _, known := range []bool{true, false} {
			cfg := labWorld{ids: ids, script: []string{"2s crash " + mx.String()}}
			w := cfg.runLinks(t, "bully", map[string]any{"initiators": []any{mx.String()}, "known_crash": known}, 4*time.Second, mx, mx-1)
			labAgree(t, w, mx-1)
			coord := labSent(w, "COORDINATOR") - (n - 1) // the first announcement, by the maximum
			if known && (coord != n-2 || labSent(w, "ELECTION") != 0 || labSent(w, "ANSWER") != 0) {
				t.Errorf("N=%d known_crash: %d COORDINATOR after the crash, %d ELECTION, %d ANSWER; want N−2 = %d, 0, 0",
					n, coord, labSent(w, "ELECTION"), labSent(w, "ANSWER"), n-2)
			}
			if !known && labSent(w, "ELECTION") < 1 {
				t.Errorf("N=%d default: no ELECTION to the dead coordinator", n)
			}
			t.Logf("N=%d known_crash=%v: after the crash %d COORDINATOR, %d ELECTION, %d ANSWER", n, known, coord, labSent(w, "ELECTION"), labSent(w, "ANSWER"))
		}
	}
}
