package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/session"
)

// recordBully runs the bully preset live, recorded from the start, paused and
// stepped an instant at a time to just past at µs (n5, the coordinator, crashed
// at 4 s: every other node's election timer runs), and returns the snapshot it
// showed there. The recording goes on a while after it.
func recordBully(t *testing.T, path string, at int64) *trace.Snapshot {
	t.Helper()
	s, cfg, err := session.Open(session.Source{Preset: "bully"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := session.NewLive(s, cfg, session.LiveOptions{Record: path, Paused: true, Speed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for i := 0; l.Snapshot().T < at; i++ {
		if i == 100_000 {
			t.Fatalf("stuck at t=%dµs", l.Snapshot().T)
		}
		l.Step()
	}
	shown := l.Snapshot()
	for range 100 { // the recording goes on past it
		l.Step()
	}
	return shown
}

// TestReplayTimerBars: a live bully session, recorded and replayed, draws the same
// timeout bars at the same virtual time, in the cards and in the topology, at 80×24
// and 160×48: the whole screen is the same, byte for byte.
func TestReplayTimerBars(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bully.trace")
	live := recordBully(t, path, 4_350_000)
	r, err := session.OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	<-r.TimersRan()
	if n := r.Note(); n != "" {
		t.Fatalf("note: %s", n)
	}
	r.SeekTime(live.T)
	replayed := r.Snapshot()
	for _, view := range []string{"nodes", "topology"} {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(fmt.Sprintf("%s-%dx%d", view, size[0], size[1]), func(t *testing.T) {
				draw := func(s *trace.Snapshot) string {
					f, err := ReplayRenderer(r.Len(), r.End(), r.Marks(), view)
					if err != nil {
						t.Fatal(err)
					}
					return plain(f(s, size[0], size[1]))
				}
				got, want := draw(replayed), draw(live)
				if got != want {
					t.Fatalf("the replay draws\n%s\nlive drew\n%s", got, want)
				}
				if strings.Count(got, "▰") < 4 {
					t.Fatalf("no timeout bars on the screen:\n%s", got)
				}
				golden.RequireEqual(t, got)
			})
		}
	}
}

// notingReplay is a fakeReplay whose re-run failed, as session.Replay says it.
type notingReplay struct {
	*fakeReplay
	note string
}

func (r *notingReplay) Note() string { return r.note }

// TestReplayNote: a replay that shows no timeout bars because its re-run is not the
// recording says so on the status line, in one line, as soon as it knows.
func TestReplayNote(t *testing.T) {
	r := &notingReplay{fakeReplay: replayScenario()}
	m := New(r, Options{File: "hw.jsonl"})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := plain(m.Render()); strings.Contains(s, "\n✗ ") {
		t.Fatalf("a note before there is one:\n%s", s)
	}
	r.note = "hw.jsonl:57: field status.role differs from the re-run: no timeout bars"
	m.refresh()
	lines := strings.Split(plain(m.Render()), "\n")
	if len(lines) != 24 || !strings.HasPrefix(lines[22], "✗ "+r.note) {
		t.Fatalf("%d lines, the status line is %q, want 24 and the note", len(lines), lines[len(lines)-2])
	}
}
