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
// fork's recording verifies, keeps every line of the recording up to the fork,
// header included, byte for byte, and differs from there: the drop is its next
// line. The same drop scripted in a headless run makes the same events.
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
	if left, _ := filepath.Glob(filepath.Join(dir, "a-fork-*")); len(left) != 0 {
		t.Errorf("the fork's own file is left beside the saved one: %v", left)
	}
	v, err := Verify(context.Background(), b, VerifyOptions{})
	if err != nil || !v.OK {
		t.Fatalf("the fork does not verify: %v %+v", err, v)
	}
	bl := lines(t, b)
	n := 0
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
	if !strings.Contains(bl[n], `"ev":"action","text":"drop #`+itoa(coord.MID)+`","by":"user"`) {
		t.Errorf("the first line of the fork is not its drop: %s", bl[n])
	}
	if !bytes.Contains([]byte(bl[n+1]), []byte(`"ev":"drop"`)) || !strings.Contains(bl[n+1], `"mid":`+itoa(coord.MID)) {
		t.Errorf("the message is not dropped after the action: %s", bl[n+1])
	}

	// The same drop scripted in a headless run of the scenario, at the instant the
	// fork took it: the same events, line for line, but for who took the action
	// (script, not user); the headers differ by that script line.
	s, err := presets.Load("bully-split-brain")
	if err != nil {
		t.Fatal(err)
	}
	s.Script = append(s.Script, presets.Step{At: itoa(uint64(coord.T+1)) + "us", Do: "drop #" + itoa(coord.MID)})
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "c.jsonl")
	recordScenario(t, s, cfg, c)
	cl := lines(t, c)
	if len(cl) != len(bl) {
		t.Fatalf("the scripted drop makes %d lines, the fork %d; their ends:\n%s\n%s", len(cl), len(bl), strings.Join(cl[len(cl)-3:], "\n"), strings.Join(bl[len(bl)-3:], "\n"))
	}
	scripted := strings.Replace(bl[n], `"by":"user"`, `"by":"script"`, 1)
	for i := 1; i < len(bl)-1; i++ {
		want := bl[i]
		if i == n {
			want = scripted
		}
		if cl[i] != want {
			t.Fatalf("line %d: the scripted drop gives\n %s\nthe fork\n %s", i+1, cl[i], bl[i])
		}
	}
}

func itoa(u uint64) string { return strconv.FormatUint(u, 10) }
