package mutex

import (
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

func tok(gen int64, creator node.ID, hops int64) node.Message {
	return node.Message{Type: "TOKEN", Term: gen, ID: creator, Stamp: hops}
}

func TestTokenRingStartsAtFirstAndCirculates(t *testing.T) {
	h1, effs := start(t, "tokenring", 3, 1, nil)
	wantSends(t, effs, to(2, tok(1, 1, 1)))
	wantRole(t, h1, "")
	h2, effs := start(t, "tokenring", 3, 2, nil)
	wantSends(t, effs)
	wantSends(t, h2.Deliver(1, tok(1, 1, 1)), to(3, tok(1, 1, 2)))
	h3, _ := start(t, "tokenring", 3, 3, nil)
	wantSends(t, h3.Deliver(2, tok(1, 1, 2)), to(1, tok(1, 1, 3))) // the ring wraps
}

func TestTokenRingHolderKeepsTokenInCS(t *testing.T) {
	h, _ := start(t, "tokenring", 4, 2, nil)
	wantSends(t, h.Request("cs"))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Deliver(1, tok(1, 1, 1)))
	wantCS(t, h, node.CSHeld)
	wantRole(t, h, "holder")
	wantCounter(t, h, "entries", 1)
	// A second token (after a regeneration) merges with the one held.
	wantSends(t, h.Deliver(1, tok(2, 4, 3)))
	wantRole(t, h, "holder")
	wantSends(t, h.Fire(timerHold), to(3, tok(1, 1, 2)))
	wantRole(t, h, "")
	wantCS(t, h, node.CSReleased)
}

func TestTokenRingAlone(t *testing.T) {
	h, effs := start(t, "tokenring", 1, 1, nil)
	wantSends(t, effs)
	wantRole(t, h, "holder")
	wantSends(t, h.Request("cs"))
	wantCS(t, h, node.CSHeld)
	wantSends(t, h.Fire(timerHold))
	wantRole(t, h, "holder")
}

func TestTokenRingRegenerate(t *testing.T) {
	h, _ := start(t, "tokenring", 3, 2, map[string]any{"regenerate": "1s"})
	if at, ok := h.Armed(timerRegenerate); !ok || at != time.Second {
		t.Fatalf("regenerate armed %v at %v, want 1s", ok, at)
	}
	h.Advance(400 * time.Millisecond)
	wantSends(t, h.Deliver(1, tok(1, 1, 1)), to(3, tok(1, 1, 2)))
	if at, _ := h.Armed(timerRegenerate); at != 1400*time.Millisecond {
		t.Fatalf("seeing the token must re-arm regeneration: armed at %v", at)
	}
	// Silence: n2 makes generation 2 and passes it on.
	wantSends(t, h.Fire(timerRegenerate), to(3, tok(2, 2, 1)))
	wantCounter(t, h, "token_gen", 2)
	// Off by default.
	h, _ = start(t, "tokenring", 3, 2, nil)
	if _, ok := h.Armed(timerRegenerate); ok {
		t.Fatal("regeneration armed by default")
	}
}

func TestTokenRingLostTokenStarves(t *testing.T) {
	s := newSim(t, "tokenring", 4, map[string]any{"cs_hold": "500ms"}, fixed(5*time.Millisecond))
	s.runUntil(100 * time.Millisecond)
	s.request(3)
	s.runUntil(300 * time.Millisecond)
	if s.state()[2] != node.CSHeld {
		t.Fatalf("n3 did not get the token: %v", s.state())
	}
	s.crash(3) // the holder crashes with the token
	s.request(1)
	s.request(4)
	s.settle()
	if len(s.entries) != 1 {
		t.Fatalf("entries after the token was lost: %+v", s.entries)
	}
	if st := s.state(); st[0] != node.CSWanted || st[3] != node.CSWanted {
		t.Fatalf("states %v, want n1 and n4 waiting forever", st)
	}
}

func TestTokenRingRegenerationMakesTwoTokens(t *testing.T) {
	// n3 holds the token for 1s; the others regenerate after 300ms of silence, so
	// the ring ends up with more than one token and two processes enter at once.
	s := newSim(t, "tokenring", 4, map[string]any{"cs_hold": "1s", "regenerate": "300ms"}, fixed(5*time.Millisecond))
	s.runUntil(50 * time.Millisecond)
	s.request(3)
	s.runUntil(100 * time.Millisecond)
	s.request(1)
	s.runUntil(2 * time.Second)
	if len(s.violations) == 0 {
		t.Fatalf("no two holders; entries %+v", s.entries)
	}
}

func TestTokenRingServesEveryone(t *testing.T) {
	s := newSim(t, "tokenring", 5, nil, fixed(3*time.Millisecond))
	for _, id := range s.ids {
		s.request(id)
	}
	s.runUntil(2 * time.Second)
	if len(s.entries) != 5 || len(s.violations) != 0 {
		t.Fatalf("entries %+v violations %v", s.entries, s.violations)
	}
}
