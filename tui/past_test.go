package tui

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/session"
)

// timelineRows are the rows of the timeline pane as drawn on screen s (plain), each
// with the time it is stamped with, oldest first.
func timelineRows(t *testing.T, m *Model, s string) (times []float64, rows []string) {
	t.Helper()
	r, ok := m.boxes()[paneTimeline]
	if !ok {
		t.Fatalf("no timeline on screen:\n%s", s)
	}
	lines := strings.Split(s, "\n")
	stamp := regexp.MustCompile(`^\s*(\d+\.\d{3})s `)
	for _, l := range lines[r.y+2 : r.y+r.h-1] {
		rs := []rune(l)
		in := string(rs[r.x+1 : r.x+r.w-1])
		if m := stamp.FindStringSubmatch(in); m != nil {
			x, _ := strconv.ParseFloat(m[1], 64)
			times = append(times, x)
			rows = append(rows, in)
		}
	}
	return times, rows
}

// runTo runs a live session at full speed until virtual time at, then pauses it.
func runTo(t *testing.T, l *session.Live, at time.Duration) {
	t.Helper()
	l.PauseAt(at)
	l.SetSpeed(0)
	deadline := time.Now().Add(2 * time.Minute)
	for !l.Paused() || l.Snapshot().T < at.Microseconds() {
		if time.Now().After(deadline) {
			t.Fatalf("the world reached only %s in two minutes", fmtT(l.Snapshot().T))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := l.Snapshot().T; got != at.Microseconds() {
		t.Fatalf("paused at %s, want %s exactly", fmtT(got), fmtT(at.Microseconds()))
	}
}

// TestTimelineKeepsItsPast runs the default demo for a minute of virtual time: the
// timeline still has rows, and scrolls back to the oldest row it keeps, saying how
// far back that is (issue 23: blank within seconds at 512 recent events, mostly
// hidden heartbeats, and PgUp showed empty rows).
func TestTimelineKeepsItsPast(t *testing.T) {
	l := openLive(t, "bully", 1)
	runTo(t, l, 60*time.Second)
	m := New(l, Options{Title: "bully"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	s := plain(m.Render())
	times, _ := timelineRows(t, m, s)
	if len(times) < 10 {
		t.Fatalf("at t=%s the timeline has %d rows:\n%s", fmtT(m.snap.T), len(times), s)
	}
	for m.focus != paneTimeline {
		m.Update(keyMsg("tab"))
	}
	m.Update(keyMsg("home"))
	s = plain(m.Render())
	back, _ := timelineRows(t, m, s)
	title := regexp.MustCompile(`scrolled back (\d+) rows of (\d+) kept, from (\d+\.\d{3})s`).FindStringSubmatch(s)
	if title == nil || len(back) == 0 {
		t.Fatalf("home does not scroll back to the oldest row, saying how far back:\n%s", s)
	}
	oldest, _ := strconv.ParseFloat(title[3], 64)
	if back[0] != oldest || back[len(back)-1] >= times[0] {
		t.Errorf("home shows rows %v…%v, want from the oldest kept (%v), before %v:\n%s", back[0], back[len(back)-1], oldest, times[0], s)
	}
	// the oldest row heads a full page, not one row above empty ones
	if len(back) < len(times) {
		t.Errorf("home shows %d rows, want a full page of %d from the oldest:\n%s", len(back), len(times), s)
	}
	for range 20 {
		m.Update(keyMsg("pgup"))
	}
	if again, _ := timelineRows(t, m, plain(m.Render())); len(again) != len(back) || again[0] != back[0] {
		t.Errorf("pgup past the oldest row shows %d rows from %v, want the page home shows (%d from %v)", len(again), again, len(back), back[0])
	}
	// the elections at the start are kept, heartbeats not counting against them
	if oldest > 1 {
		t.Errorf("the oldest row kept is at %v s, want the first election's (heartbeats hidden do not count)", oldest)
	}
	m.Update(keyMsg("end"))
	if s = plain(m.Render()); strings.Contains(s, "scrolled back") {
		t.Errorf("end does not follow time again:\n%s", s)
	}
}

// TestTimelineRowsAsTheyWere crashes n3 at the start of the default demo: rows
// before the crash draw n3's lifeline up (│), rows after it down (┊), as they were
// at their own time (issue 23: every row back to 0.005 s showed n3 down after
// `space 3 c`).
func TestTimelineRowsAsTheyWere(t *testing.T) {
	l := openLive(t, "bully", 1)
	runTo(t, l, 300*time.Millisecond)
	m := New(l, Options{Title: "bully"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "3", "c", "H") // heartbeats shown: rows after the crash
	for range 12 {
		l.Step()
	}
	m.refresh()
	s := plain(m.Render())
	_, rows := timelineRows(t, m, s)
	// n3's lifeline is under the n of its id, in the rows cut as timelineRows does
	tl := m.boxes()[paneTimeline]
	hdr := strings.Split(s, "\n")[tl.y+1]
	col := len([]rune(hdr[:strings.Index(hdr, "n3")])) - tl.x - 1
	crashed := false
	var before, after int
	for _, r := range rows {
		c := []rune(r)[col]
		switch {
		case strings.Contains(r, "✖ crash"):
			crashed = true
		case !crashed && c == '┊':
			t.Errorf("a row before the crash draws n3 down:\n%s", r)
		case crashed && c == '│':
			t.Errorf("a row after the crash draws n3 up:\n%s", r)
		case !crashed && c == '│':
			before++
		case crashed && c == '┊':
			after++
		}
	}
	if !crashed || before == 0 || after == 0 {
		t.Fatalf("want rows before and after n3's crash: crash row %v, %d rows up before, %d down after:\n%s", crashed, before, after, s)
	}
}

// TestReplayDrawsLiveRows records a run of the split-brain preset and replays it:
// at the same event, the replay's timeline draws the very rows the live one drew,
// each with its own time (issue 23: leader rows stamped with the seek time).
func TestReplayDrawsLiveRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "split.jsonl")
	s, cfg, err := session.Open(session.Source{Preset: "bully-split-brain"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := session.NewLive(s, cfg, session.LiveOptions{Record: path, Speed: 0})
	if err != nil {
		t.Fatal(err)
	}
	runTo(t, l, 6*time.Second)
	// the timelines drawn in boxes of one size (a replay's screen has a line more)
	view := func(c Controller) string {
		m := New(c, Options{Title: "x"})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.timeline.SetSize(80, 30)
		return plain(m.timeline.View())
	}
	seq := l.Snapshot().Seq
	liveView := view(l)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := session.OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.StepEvents(int(seq))
	if n, _ := r.Pos(); uint64(n) != seq {
		t.Fatalf("the replay is at event %d, want %d", n, seq)
	}
	repView := view(r)
	if strings.Count(liveView, "s ") < 20 || liveView != repView {
		t.Fatalf("live timeline:\n%s\nreplayed:\n%s", liveView, repView)
	}
	if !strings.Contains(repView, "★ leader n2") || !strings.Contains(repView, "3.366s") {
		t.Errorf("no leader row in the replay's timeline:\n%s", repView)
	}
}
