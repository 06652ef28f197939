package tui

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

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
	// the world's monitor clears the split brain once one leader is left, and the
	// banner says so
	f.waitFor("the split brain over", func(s string) bool {
		return regexp.MustCompile(`✓ split brain over after \d+\.\d\d s`).MatchString(s) && !strings.Contains(s, "⚠ SPLIT BRAIN")
	})
}

// TestLiveBullySplitBrain runs the split-brain preset fast and waits for its banner.
func TestLiveBullySplitBrain(t *testing.T) {
	l := openLive(t, "bully-split-brain", 4)
	f := startFlow(t, l, 120, 40)
	f.waitFor("a split-brain alert", func(s string) bool { return strings.Contains(s, "split-brain") })
}

// TestLiveIdleClock runs maekawa-deadlock: once every node waits for a grant that
// never comes, nothing is pending, yet the clock goes on past 6 s and the header
// says running, with the deadlock suspected.
func TestLiveIdleClock(t *testing.T) {
	l := openLive(t, "maekawa-deadlock", 4)
	f := startFlow(t, l, 160, 48)
	s := f.waitFor("the clock past 6 s with a deadlock suspected", func(s string) bool {
		return strings.Contains(s, "deadlock? nothing pending") && headerTime(s) > 6
	})
	if !strings.Contains(s, "▶ running") {
		t.Errorf("the header does not say running:\n%s", s)
	}
}

// headerTime is the virtual time in the header, in seconds.
func headerTime(s string) float64 {
	m := regexp.MustCompile(`t=([0-9.]+)s`).FindStringSubmatch(s)
	if m == nil {
		return -1
	}
	x, _ := strconv.ParseFloat(m[1], 64)
	return x
}

// TestLiveRecordInBackground presses R after a long run at full speed: the header
// shows the writing progress, keys keep working meanwhile, and q cancels it.
func TestLiveRecordInBackground(t *testing.T) {
	if testing.Short() {
		t.Skip("a long run at full speed; skipped in -short mode")
	}
	t.Chdir(t.TempDir())
	l := openLive(t, "bully", 0)
	f := startFlow(t, l, 160, 48)
	f.waitFor("a long past", func(s string) bool { return headerTime(s) > 500 })
	f.keys("R")
	f.waitFor("the writing progress", func(s string) bool { return regexp.MustCompile(`↧ writing \S+ \d+%`).MatchString(s) })
	f.keys("space")
	// The key answers while the past is written. Paused, the live clock stands
	// still and the writing catches up with it: on a busy machine it may do so
	// before a frame shows both, and then the recording goes on as usual.
	f.waitFor("paused while writing, or paused and recording", func(s string) bool {
		return strings.Contains(s, "⏸ paused") && (strings.Contains(s, "↧ writing") || strings.Contains(s, "⏺ REC"))
	})
	f.keys("q")
	// Paused, the past is still being written: q usually cancels it, but on a
	// fast machine the writing may end between the frame that said so and the
	// key, and then q stops and saves the recording instead. Either way nothing
	// is recorded after q, and a cancelled file is gone while a saved one is whole.
	s := f.waitFor("the recording cancelled or saved", func(s string) bool {
		return (strings.Contains(s, "✗ recording cancelled") || strings.Contains(s, "recording saved to")) && !strings.Contains(s, "↧ writing")
	})
	if l.Recording() != "" {
		t.Fatalf("still recording %q after q", l.Recording())
	}
	files, _ := filepath.Glob("clusterlab-*.jsonl")
	if strings.Contains(s, "✗ recording cancelled") != (len(files) == 0) {
		t.Fatalf("after q the screen says %q and the folder holds %q", statusLine(s), files)
	}
	if len(files) == 1 {
		if v, err := session.Verify(context.Background(), files[0], session.VerifyOptions{}); err != nil || !v.OK {
			t.Fatalf("the recording saved by q does not verify: %v %+v", err, v)
		}
	}
}

// statusLine is the line of a screen that answers a key (✓ or ✗), or "".
func statusLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "✓") || strings.Contains(l, "✗") || strings.Contains(l, "saved") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// TestLiveStorm runs bully with a tiny storm guard: the dashboard shows the storm's
// line as sim prints it, the header says stopped (not running) with the clock where
// it stopped, and keys still answer: an action is refused in one line, and the
// topology and help keys work.
func TestLiveStorm(t *testing.T) {
	s, cfg, err := session.Open(session.Source{Preset: "bully"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxPending = 10
	l, err := session.NewLive(s, cfg, session.LiveOptions{Speed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	f := startFlow(t, l, 120, 40)
	sc := f.waitFor("the storm line and the clock stopped", func(s string) bool {
		return strings.Contains(s, "✗ event storm: 10 events pending at t=") && strings.Contains(s, "■ stopped")
	})
	if strings.Contains(sc, "▶ running") {
		t.Errorf("the header says running after the storm:\n%s", sc)
	}
	at := headerTime(sc)
	f.keys("1", "c")
	f.waitFor("the crash refused", func(s string) bool { return strings.Contains(s, "crash n1: the run has stopped") })
	f.keys("v")
	sc = f.waitFor("the topology", func(s string) bool { return strings.Contains(s, "Topology ·") })
	if got := headerTime(sc); got != at {
		t.Errorf("the clock went from %v s to %v s after the storm", at, got)
	}
	f.keys("?")
	f.waitFor("the full help", func(s string) bool { return strings.Contains(s, "page back") })
}

// TestLiveSelectByIdOnRing: on the ring preset the cards stand in ring order (n3,
// n7, n1, n8, …), and a digit still selects by id: 4 c crashes n4, which is the
// last card, not n8, the fourth.
func TestLiveSelectByIdOnRing(t *testing.T) {
	l := openLive(t, "ring", 1)
	f := startFlow(t, l, 160, 48)
	f.waitFor("the ring's eight cards", func(s string) bool { return len(cards(s)) == 8 })
	f.keys("4", "c")
	s := f.waitFor("n4 down", func(s string) bool { return strings.Contains(cards(s)["n4"], "down") })
	if strings.Contains(cards(s)["n8"], "down") {
		t.Fatalf("4 c crashed n8, the fourth card:\n%s", s)
	}
	if !strings.Contains(s, "✓ crash n4") {
		t.Errorf("no ✓ crash n4 line:\n%s", s)
	}
}

// writtenMeanwhile is a controller whose recording finished writing its past just
// before a key: the header still says writing, but toggling the recording stops
// and saves it, with no error.
type writtenMeanwhile struct{ *fake }

func (w writtenMeanwhile) Writing() (string, float64, bool) {
	return "clusterlab-fake-1.jsonl", 0.9, true
}

// TestQuitWhileWritingFinished: q pressed while the header says writing, when the
// writing has just finished, saves the recording and says so; it used to take the
// missing error's message and panic (TestLiveRecordInBackground caught it, now and
// then).
func TestQuitWhileWritingFinished(t *testing.T) {
	f := newFake(5, "bully", "election")
	f.rec = "clusterlab-fake-1.jsonl"
	m := New(writtenMeanwhile{f}, Options{Title: "bully-demo"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(keyMsg("q"))
	s := plain(m.Render())
	if !strings.Contains(s, "clusterlab-fake-1.jsonl") || strings.Contains(s, "✗") {
		t.Fatalf("q after the writing finished: want the file saved, no error:\n%s", s)
	}
	if f.Recording() != "" {
		t.Fatalf("the recording is still on")
	}
}
