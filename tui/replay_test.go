package tui

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/session"
)

var (
	_ Seeker = (*fakeReplay)(nil)
	_ Seeker = (*session.Replay)(nil)
)

// fakeReplay is a Seeker over a fake's history, as session.Replay is over a file:
// it folds the first pos events afresh on every move and records each call that
// moves it, acts or records. It starts paused at the beginning.
type fakeReplay struct {
	mu     sync.Mutex
	hdr    trace.Header
	events []trace.Event
	marks  []int // indices of marks, as session.Replay finds them
	pos    int
	clock  int64
	paused bool
	speed  float64
	snap   *trace.Snapshot
	calls  []string
}

func newFakeReplay(f *fake) *fakeReplay {
	r := &fakeReplay{hdr: f.hdr, events: slices.Clone(f.log), paused: true, speed: 1}
	leaders := map[node.ID]node.ID{}
	for i, e := range r.events {
		switch e.Ev {
		case trace.Marker, trace.Alert, trace.Crash, trace.Recover, trace.Partition, trace.Heal, trace.GST, trace.Isolate, trace.Cut:
			r.marks = append(r.marks, i)
		case trace.StatusEv:
			if old, ok := leaders[e.Node]; ok && old != e.Status.Leader && e.Status.Leader != node.None {
				r.marks = append(r.marks, i)
			}
			leaders[e.Node] = e.Status.Leader
		}
	}
	r.foldTo(0)
	return r
}

// foldTo shows the first n events; call with mu held.
func (r *fakeReplay) foldTo(n int) {
	r.pos = max(0, min(n, len(r.events)))
	st := trace.NewState(r.hdr)
	for i := 0; i < r.pos; i++ {
		st.Apply(&r.events[i])
	}
	r.clock = 0
	if r.pos > 0 {
		r.clock = r.events[r.pos-1].T
	}
	r.snap = st.Snapshot()
	r.snap.T = r.clock
}

func (r *fakeReplay) call(s string) { r.calls = append(r.calls, s) }

func (r *fakeReplay) SeekTime(t int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.call("seek " + fmtT(t))
	r.foldTo(sort.Search(len(r.events), func(i int) bool { return r.events[i].T > t }))
	r.clock = max(0, min(t, r.end()))
	r.snap.T = r.clock
}

func (r *fakeReplay) StepEvents(d int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.call(fmt.Sprintf("events %+d", d))
	r.foldTo(r.pos + d)
}

func (r *fakeReplay) NextMark(dir int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.call(fmt.Sprintf("mark %+d", dir))
	target := -1
	if dir > 0 {
		for _, m := range r.marks {
			if m >= r.pos {
				target = m + 1
				break
			}
		}
	} else {
		for i := len(r.marks) - 1; i >= 0; i-- {
			if r.marks[i]+1 < r.pos {
				target = r.marks[i] + 1
				break
			}
		}
	}
	if target < 0 {
		return false
	}
	r.foldTo(target)
	return true
}

func (r *fakeReplay) Pos() (int, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pos, r.clock
}

func (r *fakeReplay) Len() int { return len(r.events) }

func (r *fakeReplay) end() int64 {
	if len(r.events) == 0 {
		return 0
	}
	return r.events[len(r.events)-1].T
}

func (r *fakeReplay) End() int64 { return r.end() }

func (r *fakeReplay) Marks() []int64 {
	out := make([]int64, len(r.marks))
	for i, m := range r.marks {
		out[i] = r.events[m].T
	}
	return out
}

func (r *fakeReplay) Snapshot() *trace.Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.snap
}

func (r *fakeReplay) Do(cmd string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.call("do " + cmd)
	return errors.New("this is a replay")
}

func (r *fakeReplay) SetPaused(p bool) { r.mu.Lock(); r.paused = p; r.mu.Unlock() }
func (r *fakeReplay) Paused() bool     { r.mu.Lock(); defer r.mu.Unlock(); return r.paused }
func (r *fakeReplay) Step() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.call("step")
	r.foldTo(r.pos + 1)
}
func (r *fakeReplay) SetSpeed(x float64) { r.mu.Lock(); r.speed = x; r.mu.Unlock() }
func (r *fakeReplay) Speed() float64     { r.mu.Lock(); defer r.mu.Unlock(); return r.speed }
func (r *fakeReplay) Recording() string  { return "" }
func (r *fakeReplay) ToggleRecording() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.call("record")
	return "", errors.New("this is a replay")
}

func (r *fakeReplay) Calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// replayScenario is a fakeReplay of scenario(5, bully) seeked to just after its
// split brain (the partition at 2.701s), with the calls so far forgotten.
func replayScenario() *fakeReplay {
	r := newFakeReplay(scenario(5, "bully", "election"))
	r.SeekTime(2_750_000)
	r.calls = nil
	return r
}

// replaySized is the dashboard on r at w×h, as `clusterlab replay` opens it.
func replaySized(r *fakeReplay, w, h int) *Model {
	m := New(r, Options{Title: "bully-demo", Seed: ptr(uint64(42)), File: "hw.jsonl"})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// atEvent reports whether the progress bar on screen s says event pos of n.
func atEvent(s string, pos, n int) bool {
	return regexp.MustCompile(` · event +` + strconv.Itoa(pos) + `/` + strconv.Itoa(n) + ` `).MatchString(s)
}

func press(m *Model, ks ...string) {
	for _, k := range ks {
		m.Update(keyMsg(k))
	}
}

// TestGoldenReplay renders replay mode: the whole screen at 80×24 and 160×48 with
// the progress bar under the header, the jump prompt with a parse error, and the
// full help with the replay keys.
func TestGoldenReplay(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := replaySized(replayScenario(), w, h)
			checkBox(t, m.Render(), w, h)
			golden.RequireEqual(t, plain(m.Render()))
		})
	}
	t.Run("160x48-ansi", func(t *testing.T) {
		m := replaySized(replayScenario(), 160, 48)
		golden.RequireEqual(t, render(m.Render(), colorprofile.ANSI))
	})
	t.Run("jump-error", func(t *testing.T) {
		m := replaySized(replayScenario(), 80, 24)
		press(m, "g", "1", "2", ".", "5", "x", "enter")
		if m.mode != modeJump || m.jump.err == "" {
			t.Fatalf("mode %v, error %q: want the jump prompt open with an error", m.mode, m.jump.err)
		}
		checkBox(t, m.Render(), 80, 24)
		golden.RequireEqual(t, plain(m.Render()))
	})
	t.Run("full-help", func(t *testing.T) {
		m := replaySized(replayScenario(), 100, 30)
		press(m, "?")
		checkBox(t, m.Render(), 100, 30)
		golden.RequireEqual(t, plain(m.Render()))
	})
	t.Run("progress", func(t *testing.T) {
		// the bar alone at several widths, at the start, the middle and the end
		r := replayScenario()
		m := replaySized(r, 80, 24)
		var b strings.Builder
		for _, at := range []int64{0, 2_750_000, r.End()} {
			r.SeekTime(at)
			m.refresh()
			for _, w := range []int{40, 60, 80, 120} {
				m.progress.SetSize(w, 1)
				v := m.progress.View(m.rs, m.snap.T, at != 0)
				checkBox(t, v, w, 1)
				b.WriteString(plain(v) + "\n")
			}
		}
		golden.RequireEqual(t, b.String())
	})
}

// TestReplaySizes renders replay mode at the edges of the layouts: the screen is
// always exactly the terminal's size.
func TestReplaySizes(t *testing.T) {
	m := replaySized(replayScenario(), 80, 24)
	for _, w := range []int{39, 40, 41, 69, 70, 79, 80, 100, 160, 210} {
		for _, h := range []int{11, 12, 13, 17, 18, 19, 20, 23, 24, 30, 48} {
			m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			out := m.Render()
			if w >= 40 && h >= 12 {
				checkBox(t, out, w, h)
				if t.Failed() {
					t.Fatalf("%d×%d:\n%s", w, h, plain(out))
				}
			}
		}
	}
}

// TestReplayKeysCallSeeker presses each replay key once and checks the Seeker
// method it calls.
func TestReplayKeysCallSeeker(t *testing.T) {
	for _, c := range []struct {
		keys  []string
		calls []string
	}{
		{[]string{"right"}, []string{"events +1"}},
		{[]string{"left"}, []string{"events -1"}},
		{[]string{"]"}, []string{"seek 3.750s"}},
		{[]string{"["}, []string{"seek 1.750s"}},
		{[]string{"n"}, []string{"mark +1"}},
		{[]string{"N"}, []string{"mark -1"}},
		{[]string{"g", "1", "2", ".", "5", "s", "enter"}, []string{"seek 12.500s"}},
		{[]string{"g", "3", "s", "enter"}, []string{"seek 3.000s"}},
		{[]string{"g", "1", "5", "0", "0", "m", "s", "enter"}, []string{"seek 1.500s"}},
		{[]string{"g", "2", "enter"}, []string{"seek 2.000s"}},
		{[]string{"g", "x", "enter", "esc"}, nil},
		{[]string{"g", "esc"}, nil},
		// nothing changes a recording: the fault, command and record keys do nothing
		{[]string{"c", "r", "s", "i", "p", "h", "e", "m", ":", "R", "b", "."}, nil},
	} {
		t.Run(strings.Join(c.keys, " "), func(t *testing.T) {
			r := replayScenario()
			m := replaySized(r, 100, 30)
			press(m, c.keys...)
			if got := r.Calls(); !slices.Equal(got, c.calls) {
				t.Fatalf("calls %q, want %q", got, c.calls)
			}
			if m.mode != modeNormal {
				t.Fatalf("mode %v after %q, want normal", m.mode, c.keys)
			}
			if c.calls == nil && m.flash != "" {
				t.Fatalf("%q said %q", c.keys, m.flash)
			}
		})
	}
}

// TestReplayTimeKeys checks where [ and ] go: a second either way, never before 0.
func TestReplayTimeKeys(t *testing.T) {
	r := replayScenario()
	m := replaySized(r, 100, 30)
	press(m, "[", "[", "[", "]")
	want := []string{"seek 1.750s", "seek 0.750s", "seek 0.000s", "seek 1.000s"}
	if got := r.Calls(); !slices.Equal(got, want) {
		t.Fatalf("calls %q, want %q", got, want)
	}
	if _, at := r.Pos(); at != 1_000_000 || m.snap.T != 1_000_000 {
		t.Fatalf("at %d, snapshot %d, want 1s", at, m.snap.T)
	}
}

// TestParseJump is the `g` prompt's grammar.
func TestParseJump(t *testing.T) {
	for in, want := range map[string]int64{
		"12.5s": 12_500_000, "3s": 3_000_000, "1500ms": 1_500_000, " 2 ": 2_000_000, "0": 0,
		"1m": 60_000_000, "750us": 750, "750µs": 750, "1m30s": 90_000_000, "t=4s": 4_000_000, "0.25": 250_000,
	} {
		got, err := parseJump(in)
		if err != nil || got != want {
			t.Errorf("parseJump(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":     "expected a time such as 12.5s, 3s or 1500ms",
		"abc":  `found "abc", expected a time such as 12.5s, 3s or 1500ms`,
		"12x":  `found "12x", expected a time such as 12.5s, 3s or 1500ms`,
		"-3s":  `found "-3s", expected a time at or after 0s`,
		"-1":   `found "-1", expected a time at or after 0s`,
		"1 2s": `found "1 2s", expected a time such as 12.5s, 3s or 1500ms`,
	} {
		if _, err := parseJump(in); err == nil || err.Error() != want {
			t.Errorf("parseJump(%q): error %v, want %q", in, err, want)
		}
	}
}

// TestReplayRewindForgetsMarks: the timeline's rows belong to their moment: seeking
// back before them takes them off the timeline, and seeking on brings them back,
// stamped with their own time (issue 23: leader rows stamped with the seek time).
func TestReplayRewindForgetsMarks(t *testing.T) {
	r := newFakeReplay(scenario(5, "bully", "election"))
	m := replaySized(r, 160, 48)
	leaders := func() []int64 {
		var out []int64
		for _, row := range m.timeline.rows(m.snap) {
			if row.Kind == trace.RowLeader {
				out = append(out, row.T)
			}
		}
		return out
	}
	for !strings.HasPrefix(m.flash, "no later") {
		press(m, "n")
		if len(r.Calls()) > 100 {
			t.Fatal("n never ran out of marks")
		}
	}
	all := leaders()
	if len(all) == 0 {
		t.Fatal("no leader rows at the end")
	}
	press(m, "g", "1", "s", "enter")
	for _, at := range leaders() {
		if at > 1_000_000 {
			t.Fatalf("a leader row at %s kept after seeking back to 1s", fmtT(at))
		}
	}
	press(m, "end")
	if got := leaders(); !slices.Equal(got, all) {
		t.Fatalf("leader rows at %v after seeking to the end again, want %v", got, all)
	}
}

// TestReplayPlayAgain: playing stops at the end, and space there plays from the
// start.
func TestReplayPlayAgain(t *testing.T) {
	r := replayScenario()
	m := replaySized(r, 100, 30)
	press(m, "space")
	if r.Paused() {
		t.Fatal("space did not play")
	}
	r.SeekTime(r.End())
	r.calls = nil
	m.Update(tickMsg(time.Now()))
	if !r.Paused() || !strings.Contains(plain(m.Render()), "⏸ replay") {
		t.Fatal("playing did not stop at the end")
	}
	press(m, "space")
	if got := r.Calls(); !slices.Equal(got, []string{"seek 0.000s"}) || r.Paused() {
		t.Fatalf("calls %q, paused %v: want a seek to 0 and playing", got, r.Paused())
	}
	press(m, "space")
	if !r.Paused() || len(r.Calls()) != 1 {
		t.Fatalf("space did not pause: calls %q", r.Calls())
	}
}

// TestFlowReplayKeys drives replay mode in a teatest program: every replay key calls
// its Seeker method, the fault keys do nothing, and the help shows the replay keys.
func TestFlowReplayKeys(t *testing.T) {
	r := replayScenario()
	f := startFlowWith(t, r, 100, 30, Options{Title: "bully-demo", File: "hw.jsonl"})
	f.waitFor("the replay header and progress bar", func(s string) bool {
		return strings.Contains(s, "⏸ replay ×1") && strings.Contains(s, "file hw.jsonl") &&
			strings.Contains(s, "⏸ 2.750s") && strings.Contains(s, "event ")
	})
	// the fault and command keys must not act, nor open their prompts
	f.keys("c", "r", "s", "i", "p", "h", "e", "m", ":", "R", "b", ".")
	f.keys("space")
	f.waitFor("playing", func(s string) bool { return strings.Contains(s, "▶ replay ×1") })
	if r.Paused() {
		t.Fatal("space did not play")
	}
	f.keys("space")
	f.waitFor("paused", func(s string) bool { return strings.Contains(s, "⏸ replay ×1") })
	f.keys("+", "+")
	f.waitFor("×5", func(s string) bool { return strings.Contains(s, "⏸ replay ×5") })
	f.keys("-")
	f.waitFor("×2", func(s string) bool { return strings.Contains(s, "⏸ replay ×2") })
	f.keys("]")
	f.waitFor("a second on", func(s string) bool { return strings.Contains(s, "⏸ 3.750s") })
	f.keys("[")
	f.waitFor("a second back", func(s string) bool { return strings.Contains(s, "⏸ 2.750s") })
	pos, _ := r.Pos()
	f.keys("right")
	f.waitFor("one event on", func(s string) bool { return atEvent(s, pos+1, r.Len()) })
	f.keys("left")
	f.waitFor("one event back", func(s string) bool { return atEvent(s, pos, r.Len()) })
	f.keys("N", "N")
	f.waitFor("two marks back", func(string) bool { return len(r.Calls()) == 6 })
	back, _ := r.Pos()
	f.keys("n")
	f.waitFor("the next mark", func(string) bool { p, _ := r.Pos(); return p > back })
	f.keys("g")
	f.waitFor("the jump prompt", func(s string) bool { return strings.Contains(s, "jump to ") })
	f.tm.Type("soon")
	f.keys("enter")
	f.waitFor("the parse error beside a cleared line", func(s string) bool {
		return !strings.Contains(s, "jump to soon") && strings.Contains(s, `✗ found "soon", expected a time such as 12.5s, 3s or 1500ms`)
	})
	f.tm.Type("1500ms")
	f.keys("enter")
	f.waitFor("at 1.5s", func(s string) bool {
		return strings.Contains(s, "⏸ 1.500s") && strings.Contains(s, "jumped to 1.500s")
	})
	// node selection stays on the digits and ↑/↓
	f.keys("3")
	f.waitFor("n3 selected", func(s string) bool { return strings.Contains(s, "Nodes (5) · n3:") })
	f.keys("?")
	f.waitFor("the replay help", func(s string) bool {
		lines := strings.Split(s, "\n")
		help := strings.Join(lines[max(0, len(lines)-8):], "\n")
		return strings.Contains(help, "play/pause") && strings.Contains(help, "jump to") && strings.Contains(help, "←/→") &&
			strings.Contains(help, "↑↓") && !strings.Contains(help, "crash") && !strings.Contains(help, "GST now") &&
			!strings.Contains(help, "record") && !strings.Contains(help, "command")
	})
	want := []string{"seek 3.750s", "seek 2.750s", "events +1", "events -1", "mark -1", "mark -1", "mark +1", "seek 1.500s"}
	if got := r.Calls(); !slices.Equal(got, want) {
		t.Fatalf("calls %q, want %q", got, want)
	}
	// q closes the help; q again quits
	f.keys("q")
	f.waitFor("the help closed", func(s string) bool { return !strings.Contains(s, "help 1/") && strings.Contains(s, "? help") })
	f.keys("q")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestFlowReplayRecording records the bully-split-brain preset headless, opens it
// with session.OpenReplay and presses n until the split-brain alert shows.
func TestFlowReplayRecording(t *testing.T) {
	r := recordPreset(t, "bully-split-brain")
	path := r.Name
	f := startFlowWith(t, r, 120, 40, Options{Title: r.Header.Info.Name, File: filepath.Base(path)})
	f.waitFor("the replay at its start", func(s string) bool {
		return strings.Contains(s, "⏸ replay") && strings.Contains(s, "file bully-split-brain.jsonl") &&
			atEvent(s, 0, r.Len())
	})
	alert := func(s string) bool { return strings.Contains(s, "SPLIT BRAIN") }
	for i := 0; ; i++ {
		if i == len(r.Marks()) {
			t.Fatalf("pressed n %d times and no split-brain alert showed; screen:\n%s", i, f.sc.text())
		}
		before, _ := r.Pos()
		f.keys("n")
		var moved int
		s := f.waitFor("n to move to the next mark", func(s string) bool {
			moved, _ = r.Pos()
			return moved != before && atEvent(s, moved, r.Len())
		})
		if alert(s) {
			break
		}
	}
	// the marks before it are where n found them: N goes back one
	before, _ := r.Pos()
	f.keys("N")
	f.waitFor("N to go back", func(string) bool { p, _ := r.Pos(); return p < before })
	if !r.Paused() {
		t.Fatal("seeking started playback")
	}
}
