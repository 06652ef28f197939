package tui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/session"
)

// forkableReplay is a replay that forks as lab's does.
type forkableReplay struct {
	*session.Replay
	file string
	live *session.Live
}

func (f *forkableReplay) Fork(at int64) (Controller, error) {
	l, err := session.Fork(f.file, at, session.LiveOptions{Speed: 1})
	if err != nil {
		return nil, err
	}
	f.live = l
	return l, nil
}

// firstSent is the first message of type typ sent after t (µs) in a recording:
// its id and time.
func firstSent(t *testing.T, path, typ string, after int64) (uint64, int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d trace.Decoder
	for _, l := range strings.Split(string(data), "\n")[1:] {
		if e, err := d.Decode([]byte(l)); err == nil && e.Ev == trace.Send && e.Msg != nil && e.Msg.Type == typ && e.T > after {
			return e.MID, e.T
		}
	}
	t.Fatalf("no %s sent after %dµs in %s", typ, after, path)
	return 0, 0
}

// TestWhatIfKeys: in a replay of bully-split-brain, g to the first COORDINATOR
// sent after the partition, f forks a live run there (the header says from what
// and when, the live keys replace the replay's), # and the message's id select
// it (its dotted row at the timeline's foot, ◂#id on its receiver's card, its
// letter in the selection's style in the topology), [ and ] go through the
// messages in flight, d asks for a delay and x drops it, both as actions of the
// grammar; q asks to save the fork, y names it, enter saves it and quits, and the
// saved recording verifies (issue 30).
func TestWhatIfKeys(t *testing.T) {
	t.Chdir(t.TempDir())
	r := recordPreset(t, "bully-split-brain")
	path := r.Name
	if path == "" {
		t.Fatal("the replay does not name its file")
	}
	mid, at := firstSent(t, path, "COORDINATOR", 3_000_000)
	fk := &forkableReplay{Replay: r, file: path}
	m := New(fk, Options{Title: "bully-split-brain", File: path})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "]") // a replay's ] seeks: no message is selected
	if m.b.msg != 0 {
		t.Fatalf("] in a replay selected message #%d", m.b.msg)
	}
	press(m, "g")
	m.jump.in.SetValue(strconv.FormatInt(at, 10) + "us")
	press(m, "enter", "f")
	if fk.live == nil || m.seek != nil {
		t.Fatalf("f did not fork: %s", m.flash)
	}
	defer fk.live.Close()
	s := plain(m.Render())
	if want := "forked from " + shortPath(path) + " at " + fmtT(at); m.hs.fork != want || !strings.Contains(strings.Split(s, "\n")[0], "forked from ") {
		t.Errorf("the header does not say %q:\n%s", want, strings.Split(s, "\n")[0])
	}
	id := "#" + strconv.FormatUint(mid, 10)
	press(m, "#")
	m.pick.in.SetValue(id)
	press(m, "enter")
	if m.b.msg != mid {
		t.Fatalf("# %s selected #%d: %s", id, m.b.msg, m.flash)
	}
	s = plain(m.Render())
	if bar := strings.Split(strings.TrimRight(s, "\n"), "\n"); !strings.Contains(bar[len(bar)-1], "x drop it") {
		t.Errorf("the key bar does not say what x does to the selected message: %q", bar[len(bar)-1])
	}
	if !strings.Contains(s, id+" COORDINATOR") || !strings.Contains(s, "┈") {
		t.Errorf("the timeline does not draw %s on its way:\n%s", id, s)
	}
	if c := cards(s)["n1"]; !strings.Contains(s, "n1 ◂"+id) {
		t.Errorf("n1's card, the receiver's, does not say ◂%s: %q", id, c)
	}
	press(m, "v") // the topology: the message's letter in the selection's style
	if ansi := m.Render(); !strings.Contains(ansi, penOf(m.st.Selected).paint("C")) {
		t.Errorf("the topology does not draw the selected COORDINATOR as selected:\n%s", plain(ansi))
	}
	// a click on the message's letter, as last drawn, selects it
	box := m.boxes()[paneNodes]
	m.b.msg = 0
	for _, h := range m.place.topo.drawn.msgs {
		if h.f.mid == mid {
			m.Update(tea.MouseClickMsg{X: box.x + h.at.x + 1, Y: box.y + h.at.y + 1, Button: tea.MouseLeft})
		}
	}
	if m.b.msg != mid {
		t.Errorf("a click on %s's letter selected #%d", id, m.b.msg)
	}
	press(m, "v")
	fl := m.flightsNow()
	press(m, "]")
	if i := slices.IndexFunc(fl, func(f flight) bool { return f.mid == mid }); i < 0 || m.b.msg != fl[(i+1)%len(fl)].mid {
		t.Errorf("] from %s selected #%d; in flight %v", id, m.b.msg, fl)
	}
	press(m, "[")
	if m.b.msg != mid {
		t.Errorf("[ did not go back to %s: #%d", id, m.b.msg)
	}
	press(m, "d")
	if m.mode != modeDelay {
		t.Fatalf("d opened mode %v", m.mode)
	}
	press(m, "esc", "x")
	waitActions(t, fk.live, "drop "+id)
	if m.b.msg != 0 {
		t.Errorf("the dropped message is still selected")
	}
	press(m, "q")
	if m.mode != modeForkQuit {
		t.Fatalf("q in a fork: mode %v", m.mode)
	}
	press(m, "y")
	if m.mode != modeForkSave || !strings.HasPrefix(m.save.in.Value(), "bully-split-brain-fork-") {
		t.Fatalf("y: mode %v, name %q", m.mode, m.save.in.Value())
	}
	m.save.in.SetValue("b.jsonl")
	_, cmd := m.Update(keyMsg("enter"))
	if cmd == nil {
		t.Fatal("enter saved the fork but did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("enter after the name gives %T, want a quit", cmd())
	}
	v, err := session.Verify(context.Background(), "b.jsonl", session.VerifyOptions{})
	if err != nil || !v.OK {
		t.Fatalf("the saved fork does not verify: %v %+v", err, v)
	}
	if left, _ := filepath.Glob("bully-split-brain-fork-*"); len(left) != 0 {
		t.Errorf("the fork's own file is left: %v", left)
	}
}

// waitActions waits until the live session has taken the user action want.
func waitActions(t *testing.T, l *session.Live, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got []string
		for _, a := range l.UserActions() {
			got = append(got, a.Action.String())
		}
		if slices.Contains(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session took %q, not %q", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMessageKeysAct: with two messages in flight, ] selects the first sent and
// then the second, [ goes back, and x, d 30ms and ! act on the one selected
// through the action grammar; without a selection or once it has landed, they
// say why and do nothing; the # prompt refuses an id not in flight (issue 30).
func TestMessageKeysAct(t *testing.T) {
	f := newFake(3, "bully", "election")
	f.mu.Lock()
	el := node.Message{Type: "ELECTION"}
	for i, to := range []node.ID{2, 3} {
		f.t += 1000
		f.emit(trace.Event{Ev: trace.Send, From: 1, To: to, MID: uint64(900 + i), Msg: &el})
	}
	f.publish()
	f.mu.Unlock()
	m := New(f, Options{Title: "bully"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "x")
	if len(f.Calls()) != 0 || !strings.Contains(m.flash, "no message selected") {
		t.Fatalf("x with nothing selected: calls %q, says %q", f.Calls(), m.flash)
	}
	press(m, "]")
	if m.b.msg != 900 {
		t.Fatalf("] selected #%d, want #900, the first sent", m.b.msg)
	}
	press(m, "]", "]")
	if m.b.msg != 900 {
		t.Fatalf("] ] from #900 selected #%d, want #900 again (two in flight)", m.b.msg)
	}
	press(m, "[")
	if m.b.msg != 901 {
		t.Fatalf("[ from #900 selected #%d, want #901 (around)", m.b.msg)
	}
	press(m, "d")
	m.delay.in.SetValue("30ms")
	press(m, "enter")
	press(m, "]", "!")
	press(m, "]", "x")
	want := []string{"delay #901 30ms", "deliver #900", "drop #900"}
	if got := f.Calls(); !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
	press(m, "#")
	m.pick.in.SetValue("#77")
	press(m, "enter")
	if m.mode != modeSelect || !strings.Contains(m.pick.err, "#77 is not in flight") {
		t.Errorf("# #77: mode %v, error %q", m.mode, m.pick.err)
	}
}

// TestQuitRecordingNotAFork: q in a live run that records, and was not forked,
// asks the recording's question, not a fork's (every live session can save a
// fork; only a fork has one to save).
func TestQuitRecordingNotAFork(t *testing.T) {
	t.Chdir(t.TempDir())
	s, cfg, err := session.Open(session.Source{Preset: "bully"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := session.NewLive(s, cfg, session.LiveOptions{Record: "r.jsonl", Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	m := New(l, Options{Title: "bully"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "q")
	if m.mode != modeConfirm {
		t.Errorf("q while recording: mode %v, want the recording's question", m.mode)
	}
}

// TestSelectOldMessage: a message in flight whose send is older than the
// picture's recent events (a link held for seconds of heartbeats) is still
// selected by # and its id and by ] (the oldest in flight comes first), drawn at
// the timeline's foot, and dropped by x: a live run lists its messages from the
// world (FlightLister), not from the recent events (issue 30).
func TestSelectOldMessage(t *testing.T) {
	l := pausedLive(t, "bully")
	runTo := func(at time.Duration) { runLiveTo(t, l, at) }
	runTo(time.Second)
	if err := l.Do("hold n5->n1"); err != nil {
		t.Fatal(err)
	}
	runTo(2 * time.Second)
	var old trace.Flight
	for _, f := range l.Flights() {
		if f.Held {
			old = f
			break
		}
	}
	if old.MID == 0 {
		t.Fatalf("nothing held on n5->n1: %v", l.Flights())
	}
	runTo(6 * time.Second)
	snap := l.Snapshot()
	if slices.ContainsFunc(snap.Recent, func(e trace.Event) bool { return e.MID == old.MID }) || len(snap.Recent) < trace.RecentCap {
		t.Fatalf("message #%d is still among the %d recent events: the test needs an older one", old.MID, len(snap.Recent))
	}
	m := New(l, Options{Title: "bully"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	id := "#" + strconv.FormatUint(old.MID, 10)
	press(m, "#")
	m.pick.in.SetValue(id)
	press(m, "enter")
	if m.b.msg != old.MID {
		t.Fatalf("# %s selected #%d: %s", id, m.b.msg, m.flash)
	}
	if s := plain(m.Render()); !strings.Contains(s, id+" "+old.Type) || !strings.Contains(s, "n1 ◂"+id) {
		t.Errorf("the timeline's foot or n1's card does not show %s:\n%s", id, s)
	}
	m.b.msg = 0
	press(m, "]")
	if m.b.msg != old.MID {
		t.Fatalf("] selected #%d, not the oldest in flight %s", m.b.msg, id)
	}
	press(m, "x")
	waitActions(t, l, "drop "+id)
	if slices.ContainsFunc(l.Flights(), func(f trace.Flight) bool { return f.MID == old.MID }) {
		t.Errorf("%s is still in flight after x", id)
	}
}

// pausedLive opens a live run of preset, at full speed and paused at 0, closed
// when the test ends.
func pausedLive(t *testing.T, preset string) *session.Live {
	t.Helper()
	s, cfg, err := session.Open(session.Source{Preset: preset})
	if err != nil {
		t.Fatal(err)
	}
	l, err := session.NewLive(s, cfg, session.LiveOptions{Speed: 0, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// runLiveTo runs l on to at, where it pauses.
func runLiveTo(t *testing.T, l *session.Live, at time.Duration) {
	t.Helper()
	l.PauseAt(at)
	l.SetPaused(false)
	deadline := time.Now().Add(10 * time.Second)
	for !l.Paused() || l.Snapshot().T < at.Microseconds() {
		if time.Now().After(deadline) {
			t.Fatalf("the run did not pause at %v", at)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTimelineClickSelects: a paused live run lists its messages in flight at
// the timeline's foot, dotted (n5's heartbeats of 1.5 s, with H); a click on
// one's row selects it, as a click on its letter in the topology does, and its
// receiver's card says so; running, the foot shows the selected one alone; a
// click on a delivered message's row pauses there, as before (issue 30).
func TestTimelineClickSelects(t *testing.T) {
	l := pausedLive(t, "bully-split-brain")
	runLiveTo(t, l, 1500*time.Millisecond+time.Microsecond)
	m := New(l, Options{Title: "bully-split-brain"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "H") // heartbeats shown
	screen := plain(m.Render())
	fl := inFlight(m.snap)
	if len(fl) < 2 || len(m.timeline.feet) != len(fl) {
		t.Fatalf("the timeline's foot lists %d messages, %d in flight:\n%s", len(m.timeline.feet), len(fl), screen)
	}
	pick := fl[1]
	id := "#" + strconv.FormatUint(pick.mid, 10)
	if !strings.Contains(screen, id+" "+pick.typ) || !strings.Contains(screen, "┈") {
		t.Fatalf("the timeline's foot does not draw %s dotted:\n%s", id, screen)
	}
	box := m.boxes()[paneTimeline]
	y := box.y + 2 + len(m.timeline.drawn) + 1
	if line := strings.Split(screen, "\n")[y]; !strings.Contains(line, id) {
		t.Fatalf("line %d is not %s's: %q", y, id, line)
	}
	m.Update(tea.MouseClickMsg{X: box.x + 20, Y: y, Button: tea.MouseLeft})
	if m.b.msg != pick.mid {
		t.Fatalf("a click on %s's row selected #%d: %s", id, m.b.msg, m.flash)
	}
	if screen = plain(m.Render()); !strings.Contains(screen, pick.to.String()+" ◂"+id) {
		t.Errorf("the receiver's card does not say ◂%s:\n%s", id, screen)
	}
	// a delivered message's row still pauses there
	row := m.timeline.drawn[3]
	m.Update(tea.MouseClickMsg{X: box.x + 20, Y: box.y + 2 + len(m.timeline.drawn) - 1 - 3, Button: tea.MouseLeft})
	if m.timeline.scroll.anchor != rowKey(row) {
		t.Errorf("a click on the row of %s at %s did not pause there", row.Msg.Type, fmtT(row.T))
	}
	// running (as refresh sets it), the foot holds the selected message alone
	press(m, "end")
	m.timeline.flights = false
	if m.timeline.View(); len(m.timeline.feet) != 1 || m.timeline.feet[0].mid != pick.mid {
		t.Errorf("running, the foot lists %v, not %s alone", m.timeline.feet, id)
	}
}
