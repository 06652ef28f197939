package mutex

import (
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func TestQuorumParticipantNeedsMajority(t *testing.T) {
	// 5 coordinators, m = 3; n1 is one of them and grants itself locally.
	h, _ := start(t, "quorum", 5, 1, nil)
	wantRole(t, h, "coordinator")
	wantSends(t, h.Request("cs"),
		to(2, msg("REQUEST", 1)), to(3, msg("REQUEST", 1)), to(4, msg("REQUEST", 1)), to(5, msg("REQUEST", 1)))
	wantCounter(t, h, "grants", 1)
	wantSends(t, h.Deliver(4, msg("GRANT", 1)))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Deliver(4, msg("GRANT", 1))) // duplicate
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Deliver(2, msg("GRANT", 1)))
	wantCS(t, h, node.CSHeld)
	wantSends(t, h.Deliver(5, msg("GRANT", 1))) // a fourth: kept, released with the rest
	wantCounter(t, h, "grants", 4)
	wantSends(t, h.Fire(timerHold),
		to(2, msg("RELEASE", 1)), to(3, msg("RELEASE", 1)), to(4, msg("RELEASE", 1)), to(5, msg("RELEASE", 1)))
	wantCounter(t, h, "granted_to", 0)
}

func TestQuorumCoordinatorForgets(t *testing.T) {
	h, _ := start(t, "quorum", 5, 2, map[string]any{"coordinators": "n1,n2,n3"})
	wantSends(t, h.Deliver(4, msg("REQUEST", 1)), to(4, msg("GRANT", 1)))
	wantSends(t, h.Deliver(5, msg("REQUEST", 1)))
	wantCounter(t, h, "granted_to", 4)
	// Amnesia: grants live in volatile memory only.
	h.Recover()
	wantCounter(t, h, "granted_to", 0)
	wantSends(t, h.Deliver(5, msg("REQUEST", 2)), to(5, msg("GRANT", 2)))
	// A participant's request numbers survive its own crash.
	p, _ := start(t, "quorum", 5, 4, map[string]any{"coordinators": "n1,n2,n3"})
	wantRole(t, p, "participant")
	p.Request("cs")
	p.Recover()
	wantSends(t, p.Request("cs"), to(1, msg("REQUEST", 2)), to(2, msg("REQUEST", 2)), to(3, msg("REQUEST", 2)))
}

func TestQuorumTimeoutRetries(t *testing.T) {
	h, _ := start(t, "quorum", 4, 4, map[string]any{"coordinators": "n1,n2,n3", "timeout": "100ms"})
	h.Request("cs")
	wantSends(t, h.Deliver(1, msg("GRANT", 1)))
	wantSends(t, h.Fire(timerTimeout), to(1, msg("RELEASE", 1)), to(2, msg("RELEASE", 1)), to(3, msg("RELEASE", 1)))
	wantCS(t, h, node.CSWanted)
	at, ok := h.Armed(timerRetry)
	if !ok || at <= 100*time.Millisecond || at > 200*time.Millisecond {
		t.Fatalf("retry armed %v at %v, want within the next 100ms", ok, at)
	}
	// A grant of the abandoned request does not count.
	wantSends(t, h.Deliver(2, msg("GRANT", 1)))
	wantSends(t, h.Deliver(3, msg("GRANT", 1)))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Fire(timerRetry), to(1, msg("REQUEST", 2)), to(2, msg("REQUEST", 2)), to(3, msg("REQUEST", 2)))
	wantSends(t, h.Deliver(2, msg("GRANT", 2)))
	wantSends(t, h.Deliver(3, msg("GRANT", 2)))
	wantCS(t, h, node.CSHeld)
	if _, ok := h.Armed(timerTimeout); ok {
		t.Fatal("timeout still armed after entering")
	}
}

func TestQuorumSplitVoteDeadlocksWithoutTimeout(t *testing.T) {
	// Notes 003, "Não-inanição": three participants, three coordinators, each
	// coordinator grants a different participant first: nobody has 2 of 3.
	params := map[string]any{"coordinators": "n1,n2,n3"}
	delay := func(from, to node.ID) time.Duration {
		// participant n(3+k) is closest to coordinator nk
		if int(from)-3 == int(to) {
			return time.Millisecond
		}
		return 10 * time.Millisecond
	}
	s := newSim(t, "quorum", 6, params, delay)
	for _, id := range []node.ID{4, 5, 6} {
		s.request(id)
	}
	s.settle()
	if len(s.entries) != 0 {
		t.Fatalf("entries %+v, want the split vote to deadlock", s.entries)
	}
	// With a timeout the participants back off and all get in.
	params["timeout"] = "50ms"
	s = newSim(t, "quorum", 6, params, delay)
	for _, id := range []node.ID{4, 5, 6} {
		s.request(id)
	}
	s.settle()
	if len(s.entries) != 3 || len(s.violations) != 0 {
		t.Fatalf("entries %+v, violations %v", s.entries, s.violations)
	}
}

func TestQuorumAmnesiaViolation(t *testing.T) {
	// Notes 003, "Perda de memória": coordinators C1..C3 (n1..n3), Part1 = n4,
	// Part2 = n5. Part1 holds {C1, C2} (its REQUEST to C3 is still on its way);
	// C2 crashes and recovers, forgetting; Part2 gets {C2, C3}.
	delay := func(from, to node.ID) time.Duration {
		if from == 4 && to == 3 {
			return 5 * time.Second
		}
		return 5 * time.Millisecond
	}
	s := newSim(t, "quorum", 5, map[string]any{"coordinators": "n1,n2,n3", "cs_hold": "2s"}, delay)
	s.request(4)
	s.runUntil(100 * time.Millisecond)
	if s.state()[3] != node.CSHeld {
		t.Fatalf("Part1 did not enter: %v", s.state())
	}
	s.crash(2)
	s.runUntil(200 * time.Millisecond)
	s.recover(2)
	s.request(5)
	s.runUntil(400 * time.Millisecond)
	if len(s.violations) == 0 || s.state()[4] != node.CSHeld {
		t.Fatalf("no violation: states %v, entries %+v", s.state(), s.entries)
	}
}

func TestQuorumParams(t *testing.T) {
	spec, _ := algos.Lookup("quorum")
	for _, tc := range []struct {
		params map[string]any
		err    string
	}{
		{map[string]any{"m": 1}, "majority"},
		{map[string]any{"m": 4}, "majority"},
		{map[string]any{"coordinators": "none"}, "at least one"},
		{map[string]any{"coordinators": "n1,n7"}, "coordinators"},
		{map[string]any{"timeout": "x"}, "timeout"},
	} {
		p, err := algos.NewParams(spec, tc.params)
		if err == nil {
			_, err = spec.Build(algos.Config{IDs: nodetest.IDs(3), Params: p})
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: err = %v, want one naming %s", tc.params, err, tc.err)
		}
	}
}

// ask = "m", the notes' model: each request goes to m coordinators drawn at random,
// the RELEASE to the same m, and a retry draws again. Over many requests every
// coordinator is asked, none twice in one request.
func TestQuorumAskM(t *testing.T) {
	h, _ := start(t, "quorum", 8, 8, map[string]any{"coordinators": 5, "ask": "m", "timeout": "10ms"})
	wantRole(t, h, "participant")
	asked := map[node.ID]int{}
	for i := 1; i <= 40; i++ {
		req := nodetest.Targets(h.Request("cs"), "REQUEST")
		if len(req) != 3 {
			t.Fatalf("request %d went to %v, want m = 3 coordinators", i, req)
		}
		seen := map[node.ID]bool{}
		for _, c := range req {
			if c < 1 || c > 5 || seen[c] {
				t.Fatalf("request %d went to %v: want 3 distinct of n1…n5", i, req)
			}
			seen[c] = true
			asked[c]++
		}
		// The timeout releases exactly the coordinators asked, and the retry
		// draws a set of its own.
		rel := nodetest.Targets(h.Fire(timerTimeout), "RELEASE")
		if strings.Join(ids(rel), " ") != strings.Join(ids(req), " ") {
			t.Fatalf("request %d: released %v, asked %v", i, rel, req)
		}
		if again := nodetest.Targets(h.Fire(timerRetry), "REQUEST"); len(again) != 3 {
			t.Fatalf("the retry of request %d went to %v", i, again)
		}
		h.Crash() // a fresh instance for the next request
		h.Recover()
	}
	for c := node.ID(1); c <= 5; c++ {
		if asked[c] == 0 {
			t.Errorf("n%d was never asked in 40 draws: %v", c, asked)
		}
	}
	// m grants let it in; the RELEASE goes to the m asked.
	h, _ = start(t, "quorum", 5, 5, map[string]any{"coordinators": "n1,n2,n3", "ask": "m"})
	req := nodetest.Targets(h.Request("cs"), "REQUEST")
	h.Deliver(req[0], msg("GRANT", 1))
	h.Deliver(req[1], msg("GRANT", 1))
	wantCS(t, h, node.CSHeld)
	if rel := nodetest.Targets(h.Fire(timerHold), "RELEASE"); strings.Join(ids(rel), " ") != strings.Join(ids(req), " ") {
		t.Fatalf("released %v, asked %v", rel, req)
	}
}

// participants: the generator runs only at the processes listed; coordinators = k
// names the first k processes.
func TestQuorumParticipantsAndCount(t *testing.T) {
	params := map[string]any{"coordinators": 2, "participants": []any{"n3"}, "cs_rate": 1000.0, "m": 2}
	c, _ := start(t, "quorum", 3, 1, params)
	wantRole(t, c, "coordinator")
	if _, ok := c.Armed(timerGenerate); ok {
		t.Error("a coordinator that is not a participant runs the generator")
	}
	p, _ := start(t, "quorum", 3, 3, params)
	wantRole(t, p, "participant")
	if _, ok := p.Armed(timerGenerate); !ok {
		t.Fatal("the participant's generator is off")
	}
	if got := nodetest.Targets(p.Fire(timerGenerate), "REQUEST"); strings.Join(ids(got), " ") != "n1 n2" {
		t.Errorf("coordinators = 2 asked %v, want n1 n2", got)
	}
}

func ids(xs []node.ID) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x.String())
	}
	return out
}
