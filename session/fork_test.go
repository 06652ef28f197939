package session

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
)

// recordTo runs a preset headless to its end into path.
func recordTo(t *testing.T, preset, path string) {
	t.Helper()
	s, cfg, err := Open(Source{Preset: preset})
	if err != nil {
		t.Fatal(err)
	}
	recordScenario(t, s, cfg, path)
}

// recordScenario runs s headless to its end into path, as sim --record does.
func recordScenario(t *testing.T, s *presets.Scenario, cfg netsim.Config, path string) {
	t.Helper()
	f, err := Create(path, false)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := trace.NewRecorder(f, Header(s, cfg))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(cfg, 0, rec); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(rec.End(trace.EndUntil, cfg.Until.Microseconds()), rec.Close()); err != nil {
		t.Fatal(err)
	}
}

// lines reads a file's lines.
func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// firstAfter is the first line of a recording that is a send of typ after t (µs).
func firstAfter(t *testing.T, ls []string, typ string, after int64) (trace.Event, int) {
	t.Helper()
	var d trace.Decoder
	for i, l := range ls[1:] {
		e, err := d.Decode([]byte(l))
		if err != nil || e.Ev != trace.Send || e.Msg == nil || e.Msg.Type != typ || e.T <= after {
			continue
		}
		return *e, i + 1
	}
	t.Fatalf("no %s sent after %dµs", typ, after)
	return trace.Event{}, 0
}

// TestForkDropsOneMessage: bully-split-brain recorded, forked at the first
// COORDINATOR sent after the partition (n2 telling n1 it leads the minority),
// that message dropped and the run taken to its end (issue 30, "what if"). The
// saved fork verifies, keeps every event line of the recording up to the fork
// byte for byte, and differs from there: the drop is its next line, taken by the
// script, since the saved fork is the run of the scenario with the drop in its
// script; the header holds that script.
func TestForkDropsOneMessage(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := filepath.Join(dir, "a.jsonl")
	recordTo(t, "bully-split-brain", a)
	al := lines(t, a)
	coord, _ := firstAfter(t, al, "COORDINATOR", 3_000_000)
	l, err := Fork(a, coord.T, LiveOptions{Speed: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if file, at, ok := l.ForkedFrom(); !ok || file != a || at != coord.T {
		t.Fatalf("ForkedFrom() = %s %d %v", file, at, ok)
	}
	if !l.Paused() || l.Snapshot().T != coord.T+1 {
		t.Fatalf("the fork opens paused just after %dµs; it is at %dµs, paused %v", coord.T, l.Snapshot().T, l.Paused())
	}
	if err := l.Do("drop #" + itoa(coord.MID)); err != nil {
		t.Fatal(err)
	}
	l.SetPaused(false) // to the scenario's end, where it pauses
	waitFor(t, l, "the end of the fork", func() bool { return l.Paused() && l.Snapshot().T >= 12_000_000 })
	b := filepath.Join(dir, "b.jsonl")
	if err := l.SaveFork(b); err != nil {
		t.Fatal(err)
	}
	if note := l.ForkNote(); note != "" {
		t.Fatalf("the fork is saved as recorded, not as its scenario's run: %s", note)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*fork*")); len(left) != 0 {
		t.Errorf("the fork's own file is left beside the saved one: %v", left)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("temporary files are left: %v", left)
	}
	v, err := Verify(context.Background(), b, VerifyOptions{})
	if err != nil || !v.OK {
		t.Fatalf("the fork does not verify: %v %+v", err, v)
	}
	bl := lines(t, b)
	if al[0] == bl[0] || !strings.Contains(bl[0], `{"at":"`+ScriptTime(time.Duration(coord.T+1)*time.Microsecond)+`","do":"drop #`+itoa(coord.MID)+`"}]`) {
		t.Errorf("the header does not end its script with the drop:\n%s", bl[0])
	}
	n := 1
	for n < len(al) && n < len(bl) && al[n] == bl[n] {
		n++
	}
	var d trace.Decoder
	for _, l := range al[1:n] {
		if e, _ := d.Decode([]byte(l)); e.T > coord.T {
			t.Fatalf("a line after the fork is the same in both: %s", l)
		}
	}
	if e, _ := d.Decode([]byte(al[n])); e == nil || e.T <= coord.T {
		t.Fatalf("the recordings part at line %d, before the fork at %dµs:\n a %s\n b %s", n+1, coord.T, al[n], bl[n])
	}
	if !strings.Contains(bl[n], `"ev":"action","text":"drop #`+itoa(coord.MID)+`","by":"script"`) {
		t.Errorf("the first line of the fork is not its drop: %s", bl[n])
	}
	if !bytes.Contains([]byte(bl[n+1]), []byte(`"ev":"drop"`)) || !strings.Contains(bl[n+1], `"mid":`+itoa(coord.MID)) {
		t.Errorf("the message is not dropped after the action: %s", bl[n+1])
	}
}

// step is one action of a fork, taken at an instant the fork pauses at.
type step struct {
	at time.Duration
	do func(*Live) string
}

// forkAndSave forks recording a at T, takes each step at its instant, runs to
// the scenario's end (where the fork pauses) or to stop, and saves the fork to b;
// it returns the actions as the user typed them, the instant of each, and
// ForkNote after saving.
func forkAndSave(t *testing.T, a, b string, at int64, stop time.Duration, steps []step) ([]string, []time.Duration, string) {
	t.Helper()
	l, err := Fork(a, at, LiveOptions{Speed: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var did []string
	var when []time.Duration
	for _, s := range steps {
		if s.at > 0 {
			l.PauseAt(s.at)
			l.SetPaused(false)
			waitFor(t, l, "the fork at "+s.at.String(), func() bool { return l.Paused() && l.Snapshot().T == s.at.Microseconds() })
		}
		cmd := s.do(l)
		if err := l.Do(cmd); err != nil {
			t.Fatal(err)
		}
		did, when = append(did, cmd), append(when, time.Duration(l.Snapshot().T)*time.Microsecond)
	}
	l.PauseAt(stop) // the scenario's end, or before it
	l.SetPaused(false)
	waitFor(t, l, "the end of the fork", func() bool { return l.Paused() && l.Snapshot().T >= 7_000_000 })
	if err := l.SaveFork(b); err != nil {
		t.Fatal(err)
	}
	return did, when, l.ForkNote()
}

// flying is a message in flight in l's latest picture, the latest sent; the
// paused fork steps on, an instant at a time, until there is one.
func flying(t *testing.T, l *Live) uint64 {
	t.Helper()
	for range 1000 {
		if mid, ok := latestFlying(l.Snapshot()); ok {
			return mid
		}
		l.Step()
	}
	t.Fatalf("no message in flight at %dµs", l.Snapshot().T)
	return 0
}

func latestFlying(s *trace.Snapshot) (uint64, bool) {
	landed := map[uint64]bool{}
	for _, e := range s.Recent {
		if e.Ev == trace.Deliver || e.Ev == trace.Drop {
			landed[e.MID] = true
		}
	}
	for i := len(s.Recent) - 1; i >= 0; i-- {
		if e := s.Recent[i]; e.Ev == trace.Send && !e.Local && e.From != e.To && !landed[e.MID] {
			return e.MID, true
		}
	}
	return 0, false
}

// TestForkIsItsScenario is issue 30's step 5 with a fork of four actions of
// different kinds (drop, delay, crash, partition) at different instants: the
// saved fork is byte for byte the recording that the preset's own file, with
// those actions appended as [[script]] lines (at = the instant each was taken, as
// ScriptTime writes it), records headless. The same hash, then, and it verifies.
func TestForkIsItsScenario(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	recordTo(t, "bully-split-brain", a)
	coord, _ := firstAfter(t, lines(t, a), "COORDINATOR", 3_000_000)
	did, ats, note := forkAndSave(t, a, b, coord.T, 12*time.Second, []step{
		{0, func(*Live) string { return "drop #" + itoa(coord.MID) }},
		{4 * time.Second, func(l *Live) string { return "delay #" + itoa(flying(t, l)) + " 30ms" }},
		{5*time.Second + 250*time.Millisecond, func(*Live) string { return "crash n3" }},
		{6 * time.Second, func(*Live) string { return "partition n1,n2,n3 | n4,n5" }},
	})
	if note != "" {
		t.Fatalf("the fork is saved as recorded: %s", note)
	}
	if ats[0] != time.Duration(coord.T+1)*time.Microsecond || ats[2] != 5250*time.Millisecond {
		t.Fatalf("the actions are taken at %v", ats)
	}
	raw, err := presets.Raw("bully-split-brain")
	if err != nil {
		t.Fatal(err)
	}
	toml := string(raw)
	for i, cmd := range did {
		toml += "\n[[script]]\nat = \"" + ScriptTime(ats[i]) + "\"\ndo = \"" + cmd + "\"\n"
	}
	if !strings.Contains(toml, `at = "5.25s"`) || !strings.Contains(toml, `at = "3.365905s"`) {
		t.Errorf("the script's times are not written as a user writes them:\n%s", toml)
	}
	s, err := presets.Parse("whatif.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "c.jsonl")
	recordScenario(t, s, cfg, c)
	sameFile(t, b, c)
	bb, _ := os.ReadFile(b)
	for _, want := range []string{`"text":"delay #`, `"text":"crash n3","by":"script"`, `"text":"partition n1,n2,n3 | n4,n5","by":"script"`} {
		if !bytes.Contains(bb, []byte(want)) {
			t.Errorf("the saved fork has no %s", want)
		}
	}
	if v, err := Verify(context.Background(), b, VerifyOptions{}); err != nil || !v.OK {
		t.Fatalf("the saved fork does not verify: %v %+v", err, v)
	}
}

// TestForkSavedEarlyOrLate: a fork saved before the scenario's end is the
// scenario's run to that instant (sim --until), its header says so; a fork that
// acted at the instant of an expectation, or after the scenario's until, where
// a script cannot act as the user did, is saved as it was recorded (the
// recording's header, the action the user's), still verifies, and ForkNote says
// why.
func TestForkSavedEarlyOrLate(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := filepath.Join(dir, "a.jsonl")
	recordTo(t, "bully-split-brain", a)
	coord, _ := firstAfter(t, lines(t, a), "COORDINATOR", 3_000_000)
	drop := func(*Live) string { return "drop #" + itoa(coord.MID) }

	early := filepath.Join(dir, "early.jsonl")
	forkAndSave(t, a, early, coord.T, 7*time.Second, []step{{0, drop}})
	s, err := presets.Load("bully-split-brain")
	if err != nil {
		t.Fatal(err)
	}
	s.Script = append(s.Script, presets.Step{At: ScriptTime(time.Duration(coord.T+1) * time.Microsecond), Do: drop(nil)})
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	out, err := CreateOutput(filepath.Join(dir, "c.jsonl"), false)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RecordUntil(out, s, cfg, 7*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(cfg, 7*time.Second, rec); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(rec.End(trace.EndUntil, 7_000_000), rec.Close(), out.Commit()); err != nil {
		t.Fatal(err)
	}
	sameFile(t, early, filepath.Join(dir, "c.jsonl"))
	if !strings.Contains(lines(t, early)[0], `"until_us":7000000`) {
		t.Errorf("the header of the fork saved at 7s does not say it runs to 7s")
	}

	// crash n4 at 7s, the instant of two expectations: the fork crashed n4
	// after checking them, a script would crash it before
	at7 := filepath.Join(dir, "at7.jsonl")
	_, _, note := forkAndSave(t, a, at7, coord.T, 12*time.Second, []step{{7 * time.Second, func(*Live) string { return "crash n4" }}})
	if !strings.Contains(note, "parts from the fork") || !strings.Contains(note, `"ev":"expect"`) {
		t.Errorf("ForkNote() = %q, want where the scenario's run parts from the fork", note)
	}
	if al, bl := lines(t, a), lines(t, at7); al[0] != bl[0] || !strings.Contains(strings.Join(bl, "\n"), `"text":"crash n4","by":"user"`) {
		t.Errorf("the fork that acted at an expectation's instant is not saved as recorded")
	}
	if v, err := Verify(context.Background(), at7, VerifyOptions{}); err != nil || !v.OK {
		t.Fatalf("the fork saved as recorded does not verify: %v %+v", err, v)
	}

	late := filepath.Join(dir, "late.jsonl")
	l, err := Fork(a, coord.T, LiveOptions{Speed: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Do(drop(nil))
	l.SetPaused(false)
	waitFor(t, l, "the pause at the scenario's end", func() bool { return l.Paused() && l.Snapshot().T == 12_000_000 })
	l.PauseAt(12500 * time.Millisecond)
	l.SetPaused(false)
	waitFor(t, l, "the fork past its end", func() bool { return l.Paused() && l.Snapshot().T == 12_500_000 })
	if err := l.Do("crash n5"); err != nil {
		t.Fatal(err)
	}
	if err := l.SaveFork(late); err != nil {
		t.Fatal(err)
	}
	if note := l.ForkNote(); !strings.Contains(note, `expected a time up to until = "12s"`) {
		t.Errorf("ForkNote() = %q, want why crash n5 at 12.5s is no script", note)
	}
	ll, al := lines(t, late), lines(t, a)
	if ll[0] != al[0] || !strings.Contains(strings.Join(ll, "\n"), `"text":"crash n5","by":"user"`) {
		t.Errorf("the fork saved as recorded has another header, or its crash is not the user's")
	}
	if v, err := Verify(context.Background(), late, VerifyOptions{}); err != nil || !v.OK {
		t.Fatalf("the fork saved as recorded does not verify: %v %+v", err, v)
	}
}

// sameFile fails unless files a and b are the same bytes, naming their first
// line that differs.
func sameFile(t *testing.T, a, b string) {
	t.Helper()
	al, bl := lines(t, a), lines(t, b)
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			t.Fatalf("%s and %s part at line %d:\n %s\n %s", filepath.Base(a), filepath.Base(b), i+1, al[i], bl[i])
		}
	}
	if len(al) != len(bl) {
		t.Fatalf("%s has %d lines, %s %d", a, len(al), b, len(bl))
	}
}

// TestScriptTime: an instant as a fork writes it in a script, in seconds to
// the microsecond and without trailing zeros, reads back as the same instant.
func TestScriptTime(t *testing.T) {
	for _, c := range []struct {
		us   int64
		want string
	}{{3365905, "3.365905s"}, {4_000_000, "4s"}, {250_000, "0.25s"}, {1, "0.000001s"}, {61_500_000, "61.5s"}, {0, "0s"}} {
		d := time.Duration(c.us) * time.Microsecond
		got := ScriptTime(d)
		back, err := time.ParseDuration(got)
		if got != c.want || err != nil || back != d {
			t.Errorf("ScriptTime(%dµs) = %q (reads back as %v, %v), want %q", c.us, got, back, err, c.want)
		}
	}
}

func itoa(u uint64) string { return strconv.FormatUint(u, 10) }

// TestForkOfADashboardRecording: a recording made in the dashboard, with the
// user's own crash before T, forked and saved with a drop: the saved fork is
// the run of the scenario with the drop in its script, the user's crash kept
// as the user's, at its place; it verifies.
func TestForkOfADashboardRecording(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	s, cfg, err := Open(Source{Preset: "bully-split-brain"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLive(s, cfg, LiveOptions{Record: a, Speed: 0, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	l.PauseAt(time.Second)
	l.SetPaused(false)
	waitFor(t, l, "the run at 1s", func() bool { return l.Paused() && l.Snapshot().T == 1_000_000 })
	if err := l.Do("crash n4"); err != nil {
		t.Fatal(err)
	}
	l.PauseAt(12 * time.Second)
	l.SetPaused(false)
	waitFor(t, l, "the end of the run", func() bool { return l.Paused() && l.Snapshot().T == 12_000_000 })
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	coord, _ := firstAfter(t, lines(t, a), "COORDINATOR", 3_000_000)
	_, _, note := forkAndSave(t, a, b, coord.T, 12*time.Second, []step{{0, func(*Live) string { return "drop #" + itoa(coord.MID) }}})
	if note != "" {
		t.Fatalf("the fork is saved as recorded: %s", note)
	}
	bl := strings.Join(lines(t, b), "\n")
	for _, want := range []string{`"t":1000000,"ev":"action","text":"crash n4","by":"user"`, `"text":"drop #` + itoa(coord.MID) + `","by":"script"`} {
		if !strings.Contains(bl, want) {
			t.Errorf("the saved fork has no %s", want)
		}
	}
	if v, err := Verify(context.Background(), b, VerifyOptions{}); err != nil || !v.OK {
		t.Fatalf("the saved fork does not verify: %v %+v", err, v)
	}
}
