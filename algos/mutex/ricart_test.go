package mutex

import (
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func TestRicartRequestAndReplies(t *testing.T) {
	h, _ := start(t, "ricart", 3, 1, nil)
	wantSends(t, h.Request("cs"), to(2, msg("REQUEST", 1)), to(3, msg("REQUEST", 1)))
	wantCS(t, h, node.CSWanted)
	wantCounter(t, h, "req_ts", 1)
	wantCounter(t, h, "replies", 0)
	wantCounter(t, h, "needed", 2)
	wantSends(t, h.Deliver(2, msg("REPLY", 1)))
	wantSends(t, h.Deliver(2, msg("REPLY", 1))) // duplicate: still one
	wantCS(t, h, node.CSWanted)
	wantCounter(t, h, "replies", 1)
	wantSends(t, h.Deliver(3, msg("REPLY", 0))) // not for this request
	wantCS(t, h, node.CSWanted)
	wantCounter(t, h, "replies", 1)
	wantSends(t, h.Deliver(3, msg("REPLY", 1)))
	wantCS(t, h, node.CSHeld)
	wantCounter(t, h, "req_ts", 1)
	// Held, it waits for no reply: the card shows none.
	if _, ok := h.Status().Counter("replies"); ok {
		t.Fatalf("a holder reports replies: %+v", h.Status().Counters)
	}
	wantSends(t, h.Fire(timerHold))
	wantCounter(t, h, "req_ts", 0)
}

func TestRicartDefersByTimestampThenId(t *testing.T) {
	h, _ := start(t, "ricart", 3, 2, nil)
	// Released: reply at once, and learn the timestamp.
	wantSends(t, h.Deliver(3, msg("REQUEST", 4)), to(3, msg("REPLY", 4)))
	wantSends(t, h.Request("cs"), to(1, msg("REQUEST", 5)), to(3, msg("REQUEST", 5)))
	// Wanted (5, n2): an earlier request wins...
	wantSends(t, h.Deliver(1, msg("REQUEST", 3)), to(1, msg("REPLY", 3)))
	// ...a tie goes to the lower id (n1 < n2)...
	wantSends(t, h.Deliver(1, msg("REQUEST", 5)), to(1, msg("REPLY", 5)))
	// ...and a later one, or a tie with a higher id, waits.
	wantCounter(t, h, "queue", 0)
	wantSends(t, h.Deliver(3, msg("REQUEST", 5)))
	wantSends(t, h.Deliver(3, msg("REQUEST", 5))) // duplicate
	wantCounter(t, h, "queue", 1)
	wantSends(t, h.Deliver(1, msg("REPLY", 5)))
	wantSends(t, h.Deliver(3, msg("REPLY", 5)))
	wantCS(t, h, node.CSHeld)
	// Held: every request waits.
	wantSends(t, h.Deliver(1, msg("REQUEST", 2)))
	wantCounter(t, h, "queue", 2)
	wantSends(t, h.Fire(timerHold), to(3, msg("REPLY", 5)), to(1, msg("REPLY", 2)))
	wantCounter(t, h, "queue", 0)
	// The next request is later than anything seen.
	wantSends(t, h.Request("cs"), to(1, msg("REQUEST", 6)), to(3, msg("REQUEST", 6)))
}

func TestRicartClockSurvivesCrash(t *testing.T) {
	h, _ := start(t, "ricart", 2, 1, nil)
	h.Deliver(2, msg("REQUEST", 9))
	h.Request("cs")
	h.Recover()
	wantCS(t, h, node.CSReleased)
	wantSends(t, h.Request("cs"), to(2, msg("REQUEST", 11)))
}

func TestRicartAlone(t *testing.T) {
	h, _ := start(t, "ricart", 1, 1, nil)
	wantSends(t, h.Request("cs"))
	wantCS(t, h, node.CSHeld)
}

func TestRicartCourseExample(t *testing.T) {
	// Notes 002: p1 and p2 request at once with timestamps 41 and 34; p3 does not
	// want the section. p2 goes first, then p1.
	s := newSim(t, "ricart", 3, nil, fixed(10*time.Millisecond))
	s.h(1).Deliver(3, msg("REQUEST", 40)) // clocks to 40 and 33 (replies not needed)
	s.h(2).Deliver(3, msg("REQUEST", 33))
	s.request(1)
	s.request(2)
	s.settle()
	if len(s.entries) != 2 || s.entries[0].id != 2 || s.entries[0].ts != 34 || s.entries[1].id != 1 || s.entries[1].ts != 41 {
		t.Fatalf("entries %+v, want p2 (34) then p1 (41)", s.entries)
	}
}

func TestRicartInitialClock(t *testing.T) {
	params := map[string]any{"initial_clock": "n1=40 n2=33"}
	h, _ := start(t, "ricart", 3, 1, params)
	wantSends(t, h.Request("cs"), to(2, msg("REQUEST", 41)), to(3, msg("REQUEST", 41)))
	g, _ := start(t, "ricart", 3, 3, params)
	wantSends(t, g.Request("cs"), to(1, msg("REQUEST", 1)), to(2, msg("REQUEST", 1)))
	for _, bad := range []string{"n1=x", "n9=1", "n1=1 n1=2", "n1:1", "n1=-1"} {
		if _, _, err := algos.Build("ricart", nodetest.IDs(3), map[string]any{"initial_clock": bad}); err == nil {
			t.Errorf("initial_clock = %q accepted", bad)
		}
	}
}

// TestRicartPriorityLetsTwoIn: the notes' warning, event by event. n1 (priority 1)
// asked first; n3 (priority 3), still released, replied. Then n3 asks: by
// priority n1 must reply although it asked earlier, and n3 holds n1's reply too:
// both will have N−1 replies. By timestamp n1 would defer n3 (its request, 1, is
// older than n3's, 2).
func TestRicartPriorityLetsTwoIn(t *testing.T) {
	for _, c := range []struct {
		order string
		reply bool
	}{{"priority", true}, {"timestamp", false}} {
		h, _ := start(t, "ricart", 3, 1, map[string]any{"order": c.order})
		wantSends(t, h.Request("cs"), to(2, msg("REQUEST", 1)), to(3, msg("REQUEST", 1)))
		var want []nodetest.Sent
		if c.reply {
			want = append(want, to(3, msg("REPLY", 2)))
		}
		wantSends(t, h.Deliver(3, msg("REQUEST", 2)), want...)
		wantSends(t, h.Deliver(2, msg("REPLY", 1)))
		wantSends(t, h.Deliver(3, msg("REPLY", 1)))
		wantCS(t, h, node.CSHeld)
	}
	// And the stronger one defers the weaker by priority even with a later timestamp.
	h, _ := start(t, "ricart", 3, 3, map[string]any{"order": "priority"})
	h.Request("cs")
	wantSends(t, h.Deliver(1, msg("REQUEST", 1)))
}
