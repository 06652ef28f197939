package session

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/tui"
)

var _ tui.Controller = (*Live)(nil)

func waitFor(t *testing.T, l *Live, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; snapshot at %dµs", what, l.Snapshot().T)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// goroutinesBack checks that the goroutines are no more than before, once those
// that have signalled their end have had a moment to return.
func goroutinesBack(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after Close, %d before", n, before)
	}
}

// recordingLive starts omega-crash on the dashboard's loop, recorded to path from
// the start, and lets it run for half a virtual second.
func recordingLive(t *testing.T, path string) *Live {
	t.Helper()
	s, cfg, err := Open(Source{Preset: "omega-crash"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLive(s, cfg, LiveOptions{Record: path, Speed: 5})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, l, "0.5s of virtual time", func() bool { return l.Snapshot().T > 5e5 })
	return l
}

// TestLiveRecordingVerifies drives a live session with user actions, records it
// half-way through, and checks that the recording verifies and that an edit breaks it.
func TestLiveRecordingVerifies(t *testing.T) {
	// The loop, the process goroutines and the recorder's flusher are all gone.
	defer goroutinesBack(t, runtime.NumGoroutine())
	dir := t.TempDir()
	wd, _ := os.Getwd()
	os.Chdir(dir)
	defer os.Chdir(wd)
	s, cfg, err := Open(Source{Preset: "omega-crash"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLive(s, cfg, LiveOptions{Speed: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	waitFor(t, l, "1s of virtual time", func() bool { return l.Snapshot().T > 1e6 })
	if err := l.Do("crash n9"); err == nil || !strings.Contains(err.Error(), "n9") {
		t.Fatalf("bad command gave %v", err)
	}
	if err := l.Do("crash n2"); err != nil {
		t.Fatal(err)
	}
	if n2, _ := l.Snapshot().Node(2); n2.Up {
		t.Fatal("n2 still up after crash")
	}
	name, err := l.ToggleRecording()
	if err != nil {
		t.Fatal(err)
	}
	if l.Recording() != name {
		t.Fatalf("recording %q, want %q", l.Recording(), name)
	}
	l.SetPaused(true)
	at := l.Snapshot().T
	l.Step()
	l.Step()
	if l.Snapshot().Seq == 0 || l.Snapshot().T < at {
		t.Fatal("stepping did nothing")
	}
	l.SetPaused(false)
	l.Do(`marker "half way"`)
	l.Do("recover n2")
	waitFor(t, l, "2 more seconds", func() bool { return l.Snapshot().T > at+2e6 })
	if n2, _ := l.Snapshot().Node(node.ID(2)); !n2.Up || n2.Inc != 2 {
		t.Fatalf("n2 after recover: %+v", n2)
	}
	waitFor(t, l, "the past written", func() bool { _, _, writing := l.Writing(); return !writing })
	if _, err := l.ToggleRecording(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	v, err := Verify(context.Background(), filepath.Join(dir, name), VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK || v.Events < 100 {
		t.Fatalf("verdict %+v", v)
	}
	data, _ := os.ReadFile(name)
	if !strings.Contains(string(data), `"by":"user"`) || !strings.Contains(string(data), `crash n2`) {
		t.Fatal("the recording lacks the user actions")
	}
}

// TestLiveActionInsideInstant takes a user action while the dashboard's world is
// inside a dense instant, stopped there for the command, and quits there: the
// action's line carries its place, the recording ends after the instant, and it
// verifies.
func TestLiveActionInsideInstant(t *testing.T) {
	dir := t.TempDir()
	s, cfg, err := Open(Source{File: denseMesh(t, dir)})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "hw.jsonl")
	l, err := NewLive(s, cfg, LiveOptions{Record: path, Speed: 1, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var at time.Duration
	var before uint64
	// In the loop's own goroutine, which owns the world, with a command waiting.
	l.run(func() {
		l.cmds <- func() { l.w.Do(netsim.Action{Verb: "crash", Node: 7}) }
		at, before = stopInside(l.w, cfg.Until)
		(<-l.cmds)()
	})
	if before == 0 {
		t.Fatalf("with a command waiting, the world ran to %v and did not stop inside an instant", at)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(fmt.Sprintf(`"text":"crash n7","by":"user","before":%d}`, before))) {
		t.Fatal("the recording lacks the action with its place")
	}
	if v, err := Verify(context.Background(), path, VerifyOptions{}); err != nil || !v.OK {
		t.Fatalf("verdict %+v, %v", v, err)
	}
}

// TestLiveBackfillCancel presses R on a session that ran at full speed: the past is
// written in the background while commands still answer at once, and R again
// cancels it, leaving no file and no goroutine behind.
func TestLiveBackfillCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	dir := t.TempDir()
	wd, _ := os.Getwd()
	os.Chdir(dir)
	defer os.Chdir(wd)
	s, cfg, err := Open(Source{Preset: "bully"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLive(s, cfg, LiveOptions{Speed: 0})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, l, "a long past", func() bool { return l.Snapshot().T > 600e6 })
	name, err := l.ToggleRecording()
	if err != nil {
		t.Fatal(err)
	}
	if got, done, writing := l.Writing(); got != name || !writing || done >= 1 {
		t.Fatalf("Writing() = %q %v %v just after R", got, done, writing)
	}
	start := time.Now()
	if err := l.Do("crash n2"); err != nil {
		t.Fatal(err)
	}
	l.SetSpeed(1)
	if d := time.Since(start); d > time.Second {
		t.Errorf("a command waited %v while the past was written", d)
	}
	if _, err := l.ToggleRecording(); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("R while writing gave %v, want a cancellation", err)
	}
	if l.Recording() != "" {
		t.Fatalf("still recording %q", l.Recording())
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left after a cancelled recording: %v", left)
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after Close, %d before", n, before)
	}
}

// startLive opens a preset as a live session at the given speed, after edit (if any)
// changes its configuration; the session is closed when the test ends.
func startLive(t *testing.T, preset string, speed float64, edit func(*netsim.Config)) *Live {
	t.Helper()
	s, cfg, err := Open(Source{Preset: preset})
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&cfg)
	}
	l, err := NewLive(s, cfg, LiveOptions{Speed: speed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestLiveHonestClock: virtual time passes at the chosen speed when nothing is
// pending, the snapshot says so, and a paused session's clock stands still.
func TestLiveHonestClock(t *testing.T) {
	l := startLive(t, "ring", 100, nil)
	waitFor(t, l, "an idle ring", func() bool { return l.Snapshot().Idle })
	at := l.Snapshot().T
	waitFor(t, l, "time passing while idle", func() bool { return l.Snapshot().T > at+2e6 })
	l.SetPaused(true)
	time.Sleep(50 * time.Millisecond)
	at = l.Snapshot().T
	time.Sleep(200 * time.Millisecond)
	if got := l.Snapshot().T; got != at {
		t.Fatalf("the clock moved from %d to %d while paused", at, got)
	}
}

// TestLiveStorm: a world stopped by the storm guard says why (the line sim prints),
// its clock stays where it stopped, actions are refused with one line, and pausing
// still answers.
func TestLiveStorm(t *testing.T) {
	l := startLive(t, "bully", 1, func(cfg *netsim.Config) { cfg.MaxPending = 10 })
	waitFor(t, l, "the storm guard", func() bool { return l.Err() != nil })
	if msg := l.Err().Error(); !strings.HasPrefix(msg, "event storm: 10 events pending at t=") || !strings.Contains(msg, "ELECTION") {
		t.Fatalf("storm error %q, want sim's line naming ELECTION", msg)
	}
	time.Sleep(50 * time.Millisecond)
	at := l.Snapshot().T
	time.Sleep(300 * time.Millisecond)
	if got := l.Snapshot().T; got != at {
		t.Fatalf("the clock moved from %d to %d after the storm", at, got)
	}
	if err := l.Do("crash n1"); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("crash after the storm gave %v, want a refusal", err)
	}
	if n1, _ := l.Snapshot().Node(1); !n1.Up {
		t.Fatal("n1 crashed although the run had stopped")
	}
	l.SetPaused(true)
	if !l.Paused() {
		t.Fatal("pause did not answer after the storm")
	}
	l.Step() // does nothing, and returns
}

// TestLiveQueue: a queued action is parsed at once (a bad one refused in one line),
// applied in order by the loop, and recorded like any other.
func TestLiveQueue(t *testing.T) {
	l := startLive(t, "bully", 1, nil)
	if err := l.Queue("crash n9"); err == nil || !strings.Contains(err.Error(), "n9") {
		t.Fatalf("queueing a bad action gave %v", err)
	}
	if err := l.Queue("crash n2"); err != nil {
		t.Fatal(err)
	}
	if err := l.Queue("recover n2"); err != nil {
		t.Fatal(err)
	}
	if err := l.Queue("crash n3"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, l, "n3 down", func() bool { n3, _ := l.Snapshot().Node(3); return !n3.Up })
	if n2, _ := l.Snapshot().Node(2); !n2.Up {
		t.Fatal("n2 down: the queued actions ran out of order")
	}
	var got []string
	for _, a := range l.UserActions() {
		got = append(got, a.Action.String())
	}
	if want := []string{"crash n2", "recover n2", "crash n3"}; strings.Join(got, ";") != strings.Join(want, ";") {
		t.Fatalf("user actions %q, want %q", got, want)
	}
}

// TestLivePausedRecordingOnDisk pauses a recorded session and checks that the file
// soon holds every event up to the pause, without the recording ending: what a
// dashboard killed while paused leaves. The recorder hands events over in batches,
// and a paused world makes no more of them.
func TestLivePausedRecordingOnDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "paused.jsonl")
	l := recordingLive(t, path)
	defer l.Close()
	l.SetPaused(true)
	last := fmt.Sprintf(`{"seq":%d,`, l.Snapshot().Seq)
	waitFor(t, l, "the last event before the pause in the file", func() bool {
		data, _ := os.ReadFile(path + PartialSuffix) // its name until the recording ends
		return bytes.Contains(data, []byte(last))
	})
	if l.Snapshot().Seq < 100 {
		t.Fatalf("only %d events before the pause: too few to fill a batch", l.Snapshot().Seq)
	}
}

// TestLiveCompressedRecording records a dashboard session to a .zst file from the
// start: the file verifies, and the recorder's and the compressor's goroutines are
// gone after Close.
func TestLiveCompressedRecording(t *testing.T) {
	before := runtime.NumGoroutine()
	path := filepath.Join(t.TempDir(), "live.jsonl.zst")
	l := recordingLive(t, path)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	goroutinesBack(t, before)
	if v, err := Verify(context.Background(), path, VerifyOptions{}); err != nil || !v.OK || v.Events < 100 {
		t.Fatalf("verify: %v %+v", err, v)
	}
}

// TestAdvanceYieldsToCommands: a frame's computing stops as soon as a command (a key)
// waits, and owes the time to the next frame, so that a key waits for the step under
// way at most, never for the rest of a frame.
func TestAdvanceYieldsToCommands(t *testing.T) {
	s, cfg, err := Open(Source{Preset: "omega-crash"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLive(s, cfg, LiveOptions{Speed: 1, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var before, waiting, free, owed, caught, lag time.Duration
	ran := false
	// In the loop's own goroutine, which owns the world.
	l.run(func() {
		before = l.w.Now()
		l.cmds <- func() { ran = true }
		l.advance(200*time.Millisecond, 1)
		waiting, lag = l.w.Now(), l.lag
		(<-l.cmds)()
		l.lag = 0
		l.advance(10*time.Millisecond, 1)
		free, owed = l.w.Now(), l.lag
		// A frame's wall slice can run out on a busy machine before the frame
		// is done: what it did not do is owed, and the next frames do it.
		for i := 0; i < 1000 && l.lag > 0; i++ {
			l.advance(0, 1)
		}
		caught = l.w.Now()
	})
	if waiting != before || lag != 200*time.Millisecond || !ran {
		t.Fatalf("with a command waiting, the frame computed from %v to %v (owing %v)", before, waiting, lag)
	}
	if want := before + 10*time.Millisecond; free+owed != want || caught != want {
		t.Fatalf("with no command waiting, the frame went from %v to %v owing %v, and the next frames to %v: expected 10ms on", before, free, owed, caught)
	}
}

// TestAdvanceDoesNotSpin: a frame asks for a virtual instant in nanoseconds, but the
// world's clock moves in whole microseconds. The frame runs to the microsecond under
// its target and owes the fraction to the next one, in a few steps: it never spins
// through its wall slice asking for an instant the world cannot reach (issue 23:
// 63 % of a core in clock_gettime at ×1). Over many frames nothing is lost.
func TestAdvanceDoesNotSpin(t *testing.T) {
	s, cfg, err := Open(Source{Preset: "bully"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLive(s, cfg, LiveOptions{Speed: 1, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	const el = 33*time.Millisecond + 333_333*time.Nanosecond
	var before, after, lag time.Duration
	var steps, most int
	l.run(func() {
		before = l.w.Now()
		for range 100 {
			s0 := l.steps
			l.advance(el, 1)
			most = max(most, l.steps-s0)
		}
		after, lag, steps = l.w.Now(), l.lag, l.steps
	})
	if want := before + 100*el; after != want.Truncate(time.Microsecond) || after+lag != want {
		t.Errorf("100 frames of %v went from %v to %v owing %v, want %v", el, before, after, lag, want)
	}
	if most > 16 {
		t.Errorf("a frame took %d steps (%d in all): it spins on an instant it cannot reach", most, steps)
	}
}

// TestLiveRateBehind: the pacer says when the world falls short of the speed asked
// for, and by how much, and that a world keeping up is not behind.
func TestLiveRateBehind(t *testing.T) {
	var p pacer
	w := time.Unix(0, 0)
	p.frame(w, 0, 1, 0)
	// a world that advanced 0.13 virtual s in a wall second, owing the rest
	p.frame(w.Add(time.Second), 130*time.Millisecond, 1, 870*time.Millisecond)
	if p.rate != 0.13 || !p.behind {
		t.Errorf("0.13 s in 1 s at ×1: rate %v behind %v, want 0.13 behind", p.rate, p.behind)
	}
	// then one that keeps up
	p.frame(w.Add(2*time.Second), 1130*time.Millisecond, 1, 0)
	if p.rate != 1 || p.behind {
		t.Errorf("1 s in 1 s at ×1: rate %v behind %v, want 1 and not behind", p.rate, p.behind)
	}
}

// TestLivePastSize: the size R estimates for the past is the events so far at
// about the bytes a line takes: within a third of what recording them wrote.
func TestLivePastSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "past.jsonl")
	l := recordingLive(t, path)
	l.SetPaused(true)
	time.Sleep(100 * time.Millisecond)
	events, bytes := l.PastSize()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if events < 100 || bytes < fi.Size()*2/3 || bytes > fi.Size()*4/3 {
		t.Errorf("%d events estimated at %d bytes; the recording of them is %d bytes", events, bytes, fi.Size())
	}
}

// TestLiveStops: at full speed the run pauses exactly at the instant PauseAt
// names, and with story stops on just after each story line (bully-split-brain's
// marker at 2.5 s), where a dashboard pausing on what it sees would come a
// frame late or more.
func TestLiveStops(t *testing.T) {
	l := startLive(t, "bully-split-brain", 0, nil)
	l.SetPaused(true)
	l.PauseAt(1234567 * time.Microsecond)
	l.SetPaused(false)
	waitFor(t, l, "the pause at 1.234567s", func() bool { return l.Paused() && l.Snapshot().T >= 1234567 })
	if got := l.Snapshot().T; got != 1234567 {
		t.Fatalf("paused at %dµs, want 1234567", got)
	}
	l.SetStoryStops(true)
	l.SetPaused(false)
	waitFor(t, l, "the stop at the story line", func() bool { return l.Paused() && l.Snapshot().T > 1234567 })
	s := l.Snapshot()
	if s.T != 2_500_001 || len(s.Markers) != 1 || s.Markers[0].T != 2_500_000 {
		t.Fatalf("stopped at %dµs with %d markers, want 2500001 with the marker of 2.5s", s.T, len(s.Markers))
	}
	l.SetStoryStops(false)
	l.SetPaused(false)
	waitFor(t, l, "the run past the split", func() bool { return l.Snapshot().T > 3_500_000 })
}

// TestResumeDoesNotJump: a run paused for a while and resumed at ×1 goes on from
// where it stood, at ×1: the pause is not owed to the clock.
func TestResumeDoesNotJump(t *testing.T) {
	l := startLive(t, "bully", 1, nil)
	l.SetPaused(true)
	time.Sleep(1500 * time.Millisecond)
	from := l.Snapshot().T
	start := time.Now()
	l.SetPaused(false)
	time.Sleep(200 * time.Millisecond)
	l.SetPaused(true)
	wall := time.Since(start)
	time.Sleep(100 * time.Millisecond)
	got := time.Duration(l.Snapshot().T-from) * time.Microsecond
	t.Logf("ran %v of virtual time in %v of wall time", got, wall)
	if got > wall+100*time.Millisecond {
		t.Errorf("resumed after a pause of 1.5 s, the clock ran %v in %v at ×1", got, wall)
	}
}

// TestLiveDiskFullKeepsPartial: a dashboard's recording whose disk fills (prlimit
// --fsize, in a child process) stops at once, and the dashboard is told (Note)
// with one error that names the partial file and verify --partial, which the
// command ends with too; the file stays (REC stayed on while nothing more was
// written, and quitting removed the file and said the error twice on one line).
func TestLiveDiskFullKeepsPartial(t *testing.T) {
	if dir := os.Getenv("CLUSTERLAB_DISKFULL_DIR"); dir != "" {
		s, cfg, err := Open(Source{Preset: "dp-gst"})
		if err != nil {
			t.Fatal(err)
		}
		l, err := NewLive(s, cfg, LiveOptions{Speed: 0, Record: filepath.Join(dir, "x.jsonl")})
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, l, "the recording to stop on the full disk", func() bool { return l.Note() != "" })
		if l.Recording() != "" {
			t.Errorf("the recording failed (%s) and is still shown as %s", l.Note(), l.Recording())
		}
		fmt.Printf("NOTE: %s\n", l.Note())
		fmt.Printf("CLOSE: %v\n", l.Close())
		return
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit (util-linux) is not installed: the full disk is not simulated")
	}
	dir := t.TempDir()
	cmd := exec.Command(prlimit, "--fsize=200000", os.Args[0], "-test.run=^TestLiveDiskFullKeepsPartial$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CLUSTERLAB_DISKFULL_DIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	var closed, note string
	for _, l := range strings.Split(string(out), "\n") {
		if s, ok := strings.CutPrefix(l, "CLOSE: "); ok {
			closed = s
		}
		if s, ok := strings.CutPrefix(l, "NOTE: "); ok {
			note = s
		}
	}
	if note != closed {
		t.Errorf("the dashboard was told %q, and the command ends with %q", note, closed)
	}
	partial := filepath.Join(dir, "x.jsonl.partial")
	if !strings.Contains(closed, "file too large") || !strings.Contains(closed, "verify --partial "+partial) || strings.Count(closed, "file too large") != 1 {
		t.Errorf("closing a recording on a full disk says %q, want the error once and the partial file", closed)
	}
	if st, err := os.Stat(partial); err != nil || st.Size() == 0 {
		t.Errorf("the partial recording is not kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.jsonl")); err == nil {
		t.Error("x.jsonl exists: an unfinished recording took the name")
	}
}
