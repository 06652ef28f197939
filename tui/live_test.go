package tui

import (
	"strings"
	"testing"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
)

// openLive starts a live session of preset at speed, or skips if the preset does
// not exist yet.
func openLive(t *testing.T, preset string, speed float64) *session.Live {
	t.Helper()
	if _, err := presets.Load(preset); err != nil && strings.Contains(err.Error(), "no preset") {
		t.Skipf("preset %s is not there yet: %v", preset, err)
	}
	s, cfg, err := session.Open(session.Source{Preset: preset})
	if err != nil {
		t.Fatal(err)
	}
	l, err := session.NewLive(s, cfg, session.LiveOptions{Speed: speed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// leaderOnLiveCards reports the leader every live card names, if they agree and the
// leader's own card says so.
func leaderOnLiveCards(s string, ids ...string) (string, bool) {
	cs := cards(s)
	leader := ""
	for _, id := range ids {
		c, ok := cs[id]
		if !ok {
			return "", false
		}
		if strings.Contains(c, "down") {
			continue
		}
		i := strings.Index(c, "ldr ")
		if i < 0 {
			return "", false
		}
		l := strings.Fields(c[i+4:])[0]
		if leader == "" {
			leader = l
		} else if l != leader {
			return "", false
		}
	}
	if leader == "" || leader == "-" || !strings.Contains(cs[leader], "★ leader") {
		return "", false
	}
	return leader, true
}

var five = []string{"n1", "n2", "n3", "n4", "n5"}

// TestLiveOmegaCrashLeader drives the real world: Ω over ◊P, crash the leader with two
// keys, and every survivor comes to trust the next one.
func TestLiveOmegaCrashLeader(t *testing.T) {
	l := openLive(t, "omega-crash", 1)
	f := startFlow(t, l, 120, 40)
	s := f.waitFor("n1..n5 and a leader", func(s string) bool {
		ld, ok := leaderOnLiveCards(s, five...)
		return ok && ld == "n1"
	})
	if !strings.Contains(s, "Suspects") {
		t.Errorf("no suspect matrix for a failure detector:\n%s", s)
	}
	f.keys("1", "c")
	f.waitFor("n1 down and n2 leading on every live card", func(s string) bool {
		ld, ok := leaderOnLiveCards(s, five...)
		return ok && ld == "n2" && strings.Contains(cards(s)["n1"], "down")
	})
}

// TestLiveBully crashes the bully leader and then splits the cluster from the
// command line.
func TestLiveBully(t *testing.T) {
	l := openLive(t, "bully", 1)
	f := startFlow(t, l, 120, 40)
	first := ""
	f.waitFor("n1..n5 and a leader", func(s string) bool {
		var ok bool
		first, ok = leaderOnLiveCards(s, five...)
		return ok
	})
	f.keys(first[1:], "c")
	f.waitFor("another leader", func(s string) bool {
		ld, ok := leaderOnLiveCards(s, five...)
		return ok && ld != first && strings.Contains(cards(s)[first], "down")
	})
	f.keys("r", ":")
	f.tm.Type("partition n1,n2 | n3,n4,n5")
	f.keys("enter")
	f.waitFor("a split-brain banner", func(s string) bool { return strings.Contains(s, "SPLIT BRAIN") })
	f.keys("h")
	f.waitFor("healed", func(s string) bool { return strings.Contains(s, "groups whole") })
}

// TestLiveBullySplitBrain runs the split-brain preset fast and waits for its banner.
func TestLiveBullySplitBrain(t *testing.T) {
	l := openLive(t, "bully-split-brain", 4)
	f := startFlow(t, l, 120, 40)
	f.waitFor("a split-brain alert", func(s string) bool { return strings.Contains(s, "split-brain") })
}
