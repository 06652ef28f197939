package mutex

import (
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func TestCentralParticipant(t *testing.T) {
	h, effs := start(t, "central", 3, 2, nil)
	wantSends(t, effs)
	wantRole(t, h, "participant")
	wantCS(t, h, node.CSReleased)

	wantSends(t, h.Request("cs"), to(1, msg("REQUEST", 1)))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Request("cs")) // already wanted: ignored
	wantSends(t, h.Request("election"))

	h.Advance(30 * time.Millisecond)
	wantSends(t, h.Deliver(1, msg("GRANT", 1)))
	wantCS(t, h, node.CSHeld)
	wantCounter(t, h, "entries", 1)
	if at, ok := h.Armed(timerHold); !ok || at != 80*time.Millisecond {
		t.Fatalf("hold timer at %v (%v), want 80ms", at, ok)
	}
	wantSends(t, h.Fire(timerHold), to(1, msg("RELEASE", 1)))
	wantCS(t, h, node.CSReleased)

	// The next request has the next number, and a late grant of the old one is ignored.
	wantSends(t, h.Request("cs"), to(1, msg("REQUEST", 2)))
	wantSends(t, h.Deliver(1, msg("GRANT", 1)))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Deliver(1, msg("GRANT", 2)))
	wantCS(t, h, node.CSHeld)
}

func TestCentralCoordinatorQueuesFIFO(t *testing.T) {
	h, _ := start(t, "central", 4, 1, nil)
	wantRole(t, h, "coordinator")
	wantSends(t, h.Deliver(3, msg("REQUEST", 1)), to(3, msg("GRANT", 1)))
	wantCounter(t, h, "granted_to", 3)
	wantSends(t, h.Deliver(2, msg("REQUEST", 1)))
	wantSends(t, h.Deliver(4, msg("REQUEST", 1)))
	wantSends(t, h.Deliver(2, msg("REQUEST", 1))) // duplicate
	wantCounter(t, h, "queue", 2)
	// A RELEASE from someone who does not hold the grant changes nothing.
	wantSends(t, h.Deliver(4, msg("RELEASE", 7)))
	wantCounter(t, h, "granted_to", 3)
	wantSends(t, h.Deliver(3, msg("RELEASE", 1)), to(2, msg("GRANT", 1)))
	// The coordinator's own request waits in the same queue, and costs nothing.
	wantSends(t, h.Request("cs"))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Deliver(2, msg("RELEASE", 1)), to(4, msg("GRANT", 1)))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Deliver(4, msg("RELEASE", 1)))
	wantCS(t, h, node.CSHeld)
	wantCounter(t, h, "granted_to", 1)
	wantSends(t, h.Deliver(3, msg("REQUEST", 2))) // queued behind the coordinator
	wantSends(t, h.Fire(timerHold), to(3, msg("GRANT", 2)))
	wantCS(t, h, node.CSReleased)
}

func TestCentralReleaseOvertakesRequest(t *testing.T) {
	// Links are not FIFO: a RELEASE may arrive before its REQUEST, which must then
	// never be granted (the participant would never release it).
	h, _ := start(t, "central", 3, 1, nil)
	wantSends(t, h.Deliver(2, msg("RELEASE", 4)))
	wantSends(t, h.Deliver(2, msg("REQUEST", 4)))
	wantCounter(t, h, "granted_to", 0)
	wantSends(t, h.Deliver(2, msg("REQUEST", 5)), to(2, msg("GRANT", 5)))
}

func TestCentralLeaseReclaims(t *testing.T) {
	h, _ := start(t, "central", 3, 1, map[string]any{"lease": "100ms"})
	wantSends(t, h.Deliver(2, msg("REQUEST", 1)), to(2, msg("GRANT", 1)))
	if at, ok := h.Armed(timerLease); !ok || at != 100*time.Millisecond {
		t.Fatalf("lease at %v (%v), want 100ms", at, ok)
	}
	h.Advance(10 * time.Millisecond)
	wantSends(t, h.Deliver(3, msg("REQUEST", 1)))
	// n2 is slow, not dead: the coordinator cannot tell and grants n3 too.
	wantSends(t, h.Fire(timerLease), to(3, msg("GRANT", 1)))
	wantCounter(t, h, "granted_to", 3)
	// n2's late RELEASE must not free n3's grant.
	wantSends(t, h.Deliver(2, msg("RELEASE", 1)))
	wantCounter(t, h, "granted_to", 3)
	wantSends(t, h.Deliver(3, msg("RELEASE", 1)))
	wantCounter(t, h, "granted_to", 0)
	if _, ok := h.Armed(timerLease); ok {
		t.Fatal("lease still armed with nothing granted")
	}
}

func TestCentralLeaseViolationInSim(t *testing.T) {
	// n2 holds for 300ms (a slow holder), the lease is 100ms: n3 gets in too.
	s := newSim(t, "central", 3, map[string]any{"lease": "100ms", "cs_hold": "300ms"}, fixed(5*time.Millisecond))
	s.request(2)
	s.runUntil(20 * time.Millisecond)
	s.request(3)
	s.settle()
	if len(s.violations) == 0 {
		t.Fatal("no two holders with a lease shorter than the hold")
	}
	// Without a lease the same run is safe.
	s = newSim(t, "central", 3, map[string]any{"cs_hold": "300ms"}, fixed(5*time.Millisecond))
	s.request(2)
	s.runUntil(20 * time.Millisecond)
	s.request(3)
	s.settle()
	if len(s.violations) != 0 || len(s.entries) != 2 {
		t.Fatalf("violations %v, entries %v", s.violations, s.entries)
	}
}

func TestCentralParams(t *testing.T) {
	spec, _ := algos.Lookup("central")
	for _, tc := range []struct {
		params map[string]any
		err    string
	}{
		{map[string]any{"coordinator": "n9"}, "coordinator"},
		{map[string]any{"lease": "soon"}, "lease"},
		{map[string]any{"cs_rate": -1.0}, "cs_rate"},
		{map[string]any{"cs_hold": 5}, "cs_hold"},
	} {
		p, err := algos.NewParams(spec, tc.params)
		if err == nil {
			_, err = spec.Build(algos.Config{IDs: nodetest.IDs(3), Params: p})
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: err = %v, want one naming %s", tc.params, err, tc.err)
		}
	}
	for _, p := range spec.Params {
		if p.Doc == "" {
			t.Errorf("param %s has no doc", p.Name)
		}
	}
}

func TestGeneratorDrawsExponentialGaps(t *testing.T) {
	h, _ := start(t, "central", 2, 2, map[string]any{"cs_rate": 10.0, "cs_hold": "1ms"})
	var sum time.Duration
	const k = 2000
	requests := 0
	for range k {
		at, ok := h.Armed(timerGenerate)
		if !ok {
			t.Fatal("generator not armed")
		}
		sum += at - h.Now
		effs := h.Fire(timerGenerate)
		if len(nodetest.Targets(effs, "REQUEST")) == 1 {
			requests++
			h.Deliver(1, msg("GRANT", int64(requests)))
			h.Fire(timerHold)
		}
	}
	mean := sum / k
	if mean < 90*time.Millisecond || mean > 110*time.Millisecond {
		t.Fatalf("mean gap %v, want about 100ms for 10 requests/s", mean)
	}
	if requests != k {
		t.Fatalf("%d requests from %d firings of a released process", requests, k)
	}
	// Off by default.
	h, _ = start(t, "central", 2, 2, nil)
	if _, ok := h.Armed(timerGenerate); ok {
		t.Fatal("generator armed with cs_rate 0")
	}
}
