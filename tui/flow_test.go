package tui

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// screen wraps the dashboard so that tests can read the last frame it rendered,
// as plain text, without racing the program's goroutine.
type screen struct {
	*Model
	mu   sync.Mutex
	last string
}

func (s *screen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := s.Model.Update(msg)
	return s, cmd
}

func (s *screen) View() tea.View {
	v := s.Model.View()
	s.mu.Lock()
	s.last = plain(v.Content)
	s.mu.Unlock()
	return v
}

func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// flow runs the dashboard on c in a teatest program of w×h.
type flow struct {
	t  *testing.T
	tm *teatest.TestModel
	sc *screen
}

func startFlow(t *testing.T, c Controller, w, h int) *flow {
	t.Helper()
	return startFlowWith(t, c, w, h, Options{Title: "test"})
}

// startFlowWith is startFlow with options.
func startFlowWith(t *testing.T, c Controller, w, h int, opts Options) *flow {
	t.Helper()
	sc := &screen{Model: New(c, opts)}
	tm := teatest.NewTestModel(t, sc, teatest.WithInitialTermSize(w, h))
	f := &flow{t: t, tm: tm, sc: sc}
	t.Cleanup(func() {
		_ = tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	})
	f.waitFor("the dashboard", func(s string) bool { return strings.Contains(s, "Nodes (") })
	return f
}

// keys presses keys by name ("c", "space", "enter", …).
func (f *flow) keys(ks ...string) {
	for _, k := range ks {
		f.tm.Send(keyMsg(k))
	}
}

// waitFor waits until the screen satisfies cond.
func (f *flow) waitFor(what string, cond func(s string) bool) string {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := f.sc.text()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var cardTop = regexp.MustCompile(`^[╭┏][─━] (n\d+) `)

// cards parses full node cards out of a plain screen: id → the card's text.
func cards(s string) map[string]string {
	lines := strings.Split(s, "\n")
	out := map[string]string{}
	for i, l := range lines {
		rs := []rune(l)
		for x := 0; x < len(rs); x++ {
			if rs[x] != '╭' && rs[x] != '┏' {
				continue
			}
			// a card's top edge: ╭─ n3 ─… or ┏━ n3 ━…
			rest := string(rs[x:])
			m := cardTop.FindStringSubmatch(rest)
			if m == nil || i+4 >= len(lines) {
				continue
			}
			// the card ends at the matching corner
			end := x + 1
			for end < len(rs) && rs[end] != '╮' && rs[end] != '┓' {
				end++
			}
			var b strings.Builder
			for j := i + 1; j <= i+4; j++ {
				r := []rune(lines[j])
				if end <= len(r) {
					b.WriteString(string(r[x+1:end]) + "\n")
				}
			}
			out[m[1]] = b.String()
		}
	}
	return out
}

func TestFlowCrashLeader(t *testing.T) {
	c := newFake(5, "bully", "election")
	f := startFlow(t, c, 100, 30)
	f.waitFor("n5 leading on every card", func(s string) bool {
		cs := cards(s)
		if len(cs) != 5 {
			return false
		}
		for _, id := range []string{"n1", "n2", "n3", "n4", "n5"} {
			if !strings.Contains(cs[id], "ldr n5") {
				return false
			}
		}
		return strings.Contains(cs["n5"], "★ leader")
	})
	f.keys("5", "c")
	f.waitFor("n5 down and n4 leading on every live card", func(s string) bool {
		cs := cards(s)
		if !strings.Contains(cs["n5"], "down") || !strings.Contains(cs["n4"], "★ leader") {
			return false
		}
		for _, id := range []string{"n1", "n2", "n3", "n4"} {
			if !strings.Contains(cs[id], "ldr n4") {
				return false
			}
		}
		return true
	})
	if got := c.Calls(); !slices.Equal(got, []string{"crash n5"}) {
		t.Fatalf("Do calls %q, want [crash n5]", got)
	}
	// revive it: the bully takes over again
	f.keys("r")
	f.waitFor("n5 back as leader", func(s string) bool {
		cs := cards(s)
		return strings.Contains(cs["n5"], "★ leader") && strings.Contains(cs["n1"], "ldr n5")
	})
}

func TestFlowPartitionSplitBrainAndHeal(t *testing.T) {
	c := newFake(5, "bully", "election")
	f := startFlow(t, c, 100, 30)
	f.keys("p", "1", "space", "2", "space")
	f.waitFor("side A in the prompt", func(s string) bool { return strings.Contains(s, "side A {n1,n2}") })
	f.keys("enter")
	s := f.waitFor("a split-brain banner", func(s string) bool { return strings.Contains(s, "⚠ SPLIT BRAIN") })
	cs := cards(s)
	if !strings.Contains(cs["n2"], "★ leader") || !strings.Contains(cs["n5"], "★ leader") {
		t.Errorf("want n2 and n5 leading, cards:\n%v", cs)
	}
	if !strings.Contains(s, "groups A{n1,n2} B{n3,n4,n5}") {
		t.Errorf("network pane does not show the groups:\n%s", s)
	}
	f.keys("h")
	f.waitFor("one leader after heal", func(s string) bool {
		cs := cards(s)
		return strings.Contains(s, "groups whole") && strings.Contains(cs["n1"], "ldr n5") && !strings.Contains(cs["n2"], "★ leader")
	})
	// the heal ends the split brain: the banner says so instead of the alert
	s = f.waitFor("the split brain over", func(s string) bool {
		return regexp.MustCompile(`✓ split brain over after \d+\.\d\d s: one leader n5`).MatchString(s)
	})
	if strings.Contains(s, "⚠ SPLIT BRAIN") {
		t.Errorf("the split-brain banner outlived the heal:\n%s", s)
	}
	want := []string{"partition n1,n2 | n3,n4,n5", "heal"}
	if got := c.Calls(); !slices.Equal(got, want) {
		t.Fatalf("Do calls %q, want %q", got, want)
	}
	// esc cancels partition mode without an action
	f.keys("p", "3", "space", "esc")
	f.waitFor("partition cancelled", func(s string) bool { return strings.Contains(s, "partition cancelled") })
	if got := c.Calls(); len(got) != 2 {
		t.Fatalf("esc applied something: %q", got)
	}
}

func TestFlowPauseStepSpeed(t *testing.T) {
	c := newFake(5, "bully", "election")
	f := startFlow(t, c, 100, 30)
	f.waitFor("running", func(s string) bool { return strings.Contains(s, "▶ running ×1") })
	f.keys("space")
	f.waitFor("paused", func(s string) bool { return strings.Contains(s, "⏸ paused") })
	if !c.Paused() {
		t.Fatal("space did not pause the controller")
	}
	f.keys(".", ".")
	f.waitFor("two steps", func(string) bool { return c.Steps() == 2 })
	// the ladder: ×1 → ×2 → ×5, then down through ×1 again
	f.keys("+", "+")
	f.waitFor("×5", func(s string) bool { return strings.Contains(s, "×5") })
	f.keys("-", "-", "-", "-")
	f.waitFor("×0.25", func(s string) bool { return strings.Contains(s, "×0.25") })
	if x := c.Speed(); x != 0.25 {
		t.Fatalf("speed %v, want 0.25", x)
	}
	f.keys("space")
	f.waitFor("running again", func(s string) bool { return strings.Contains(s, "▶ running") })
	// `.` while running pauses first
	f.keys(".")
	f.waitFor("paused by step", func(s string) bool { return strings.Contains(s, "⏸ paused") })
}

func TestFlowCommandLine(t *testing.T) {
	c := newFake(5, "bully", "election")
	f := startFlow(t, c, 100, 30)
	f.keys(":")
	f.tm.Type("crash n9")
	f.keys("enter")
	f.waitFor("the parse error beside a cleared line", func(s string) bool {
		return !strings.Contains(s, ":crash n9") && strings.Contains(s, `✗ col 7: found "n9"`)
	})
	if len(c.Calls()) != 0 {
		t.Fatalf("a bad line reached the world: %q", c.Calls())
	}
	// `:` again does not stack a second prompt; up recalls the failed line to fix
	// it, and the error goes as soon as the line changes
	f.keys(":", "up")
	f.waitFor("the failed line recalled", func(s string) bool { return strings.Contains(s, ":crash n9") })
	f.keys("backspace")
	f.tm.Type("3")
	f.waitFor("the error cleared", func(s string) bool { return strings.Contains(s, ":crash n3") && !strings.Contains(s, "✗ col") })
	f.keys("enter")
	f.waitFor("n3 down", func(s string) bool { return strings.Contains(cards(s)["n3"], "down") })
	f.keys(":")
	f.tm.Type("partition n1,n2 | n3,n4,n5")
	f.keys("enter")
	f.waitFor("split brain", func(s string) bool { return strings.Contains(s, "SPLIT BRAIN") })
	// history: up recalls the last line
	f.keys(":", "up")
	f.waitFor("history", func(s string) bool { return strings.Contains(s, ":partition n1,n2 | n3,n4,n5") })
	f.keys("up")
	f.waitFor("older history", func(s string) bool { return strings.Contains(s, ":crash n3") })
	f.keys("esc")
	want := []string{"crash n3", "partition n1,n2 | n3,n4,n5"}
	if got := c.Calls(); !slices.Equal(got, want) {
		t.Fatalf("Do calls %q, want %q", got, want)
	}
}

func TestFlowKeys(t *testing.T) {
	c := newFake(12, "bully", "election")
	f := startFlow(t, c, 160, 48)
	// unknown keys do nothing
	f.keys("z", "Z", "x", "!", "~")
	f.tm.Send(tea.KeyPressMsg{Code: tea.KeyF5})
	// 0 selects the 10th node; arrows move
	f.keys("0", "s")
	f.keys("right", "i")
	f.keys("left", "left", "e", "g", "b")
	// heartbeats are hidden by default outside failure detectors; H shows them
	f.waitFor("heartbeats hidden", func(s string) bool { return strings.Contains(s, "heartbeats hidden") })
	f.keys("H")
	f.waitFor("heartbeats shown", func(s string) bool { return strings.Contains(s, "heartbeats shown (H hides them)") })
	f.keys("/")
	f.tm.Type("COORD n12")
	f.keys("enter")
	f.waitFor("filter shown", func(s string) bool { return strings.Contains(s, "filter: COORD n12") })
	f.keys("tab", "up", "up", "end", "tab", "up", "tab")
	f.keys("?")
	f.waitFor("full help", func(s string) bool { return strings.Contains(s, "page back") })
	f.keys("?")
	want := []string{"slow n10 10", "isolate n11", "request n9 election", "gst"}
	f.waitFor("actions", func(string) bool { return len(c.Calls()) >= 5 })
	got := c.Calls()
	if !slices.Equal(got[:4], want) || !strings.HasPrefix(got[4], `marker "mark 1 at `) {
		t.Fatalf("Do calls %q, want %q and a marker", got, want)
	}
	// a request the algorithm cannot serve is refused, not sent
	f.keys("m")
	f.waitFor("the refusal", func(s string) bool { return strings.Contains(s, "✗ bully has no critical section") })
	// # selects any id: n12, which no digit reaches
	f.keys("#", "1", "2", "enter", "c")
	f.waitFor("n12 crashed", func(string) bool { return slices.Contains(c.Calls(), "crash n12") })
	if n := len(c.Calls()); n != 6 {
		t.Fatalf("Do calls %q", c.Calls())
	}
	// R toggles recording; q then asks first
	f.keys("R")
	f.waitFor("recording", func(s string) bool { return strings.Contains(s, "⏺ REC clusterlab-fake-1.jsonl") })
	f.keys("q")
	f.waitFor("confirmation", func(s string) bool { return strings.Contains(s, "quit and save it?") })
	f.keys("n")
	f.waitFor("no confirmation", func(s string) bool { return !strings.Contains(s, "quit and save it?") })
	f.keys("q", "y")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

func TestFlowResize(t *testing.T) {
	c := scenario(20, "omega", "detector")
	f := startFlow(t, c, 100, 30)
	for _, sz := range [][2]int{{40, 12}, {39, 11}, {1, 1}, {0, 0}, {300, 100}, {70, 20}, {80, 24}, {69, 40}, {200, 13}} {
		f.tm.Send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
	}
	f.tm.Send(tea.WindowSizeMsg{Width: 39, Height: 11})
	f.waitFor("too small", func(s string) bool { return strings.Contains(s, "terminal too small") })
	f.tm.Send(tea.WindowSizeMsg{Width: 40, Height: 12})
	f.waitFor("compact view", func(s string) bool { return strings.Contains(s, "Nodes (20)") })
}

func TestQuitKeys(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		c := newFake(3, "bully", "election")
		c.rec = ""
		if k == "ctrl+c" {
			c.rec = "x.jsonl" // ctrl+c never asks
		}
		sc := &screen{Model: New(c, Options{})}
		tm := teatest.NewTestModel(t, sc, teatest.WithInitialTermSize(80, 24))
		tm.Send(keyMsg(k))
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	}
}
