package session

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// recordLive runs preset as a live session recorded from the start, paused and
// stepped an instant at a time, with a user crash of n2 half-way, and returns the
// snapshots it published every few instants.
func recordLive(t *testing.T, preset, path string, steps int) []*trace.Snapshot {
	t.Helper()
	s, cfg, err := Open(Source{Preset: preset})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLive(s, cfg, LiveOptions{Record: path, Paused: true, Speed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var snaps []*trace.Snapshot
	for i := range steps {
		l.Step()
		if i == steps/2 {
			if err := l.Do("crash n2"); err != nil {
				t.Fatal(err)
			}
		}
		if i%7 == 0 {
			snaps = append(snaps, l.Snapshot())
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return snaps
}

// TestReplayTimerBars: a recorded live session replayed shows every node's main
// timer (the timeout bar) as the live session showed it at the same virtual time:
// the replay re-runs the recording to find them.
func TestReplayTimerBars(t *testing.T) {
	for _, preset := range []string{"bully", "raft-partition", "omega-crash", "omega-recovery", "dp-gst"} {
		t.Run(preset, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "live.trace")
			snaps := recordLive(t, preset, path, 600)
			r, err := OpenReplay(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			<-r.TimersRan()
			if n := r.Note(); n != "" {
				t.Fatalf("the replay's note: %s", n)
			}
			running := 0
			for _, live := range snaps {
				r.SeekTime(live.T)
				got := r.Snapshot()
				if got.T != live.T || got.Seq != live.Seq {
					t.Fatalf("the replay at t=%dµs shows line %d, live showed line %d", live.T, got.Seq, live.Seq)
				}
				for i, n := range live.Nodes {
					if g := got.Nodes[i].Status.Deadline; g != n.Status.Deadline {
						t.Fatalf("at t=%dµs %v's timer: replay %+v, live %+v", live.T, n.ID, g, n.Status.Deadline)
					}
					if n.Status.Deadline.Running() {
						running++
					}
				}
			}
			if running < len(snaps) {
				t.Fatalf("only %d running timers in %d snapshots: the comparison shows too little", running, len(snaps))
			}
		})
	}
}

// TestReplayTimersMismatch: a recording that is not what its scenario gives (an
// edited line) shows no bars, and the replay says why in one line naming the line.
func TestReplayTimersMismatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.trace")
	recordLive(t, "bully", path, 300)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	lines = lines[:len(lines)-1] // no end record, so that the file's hash does not refuse it
	edited := 0
	for i := 40; i < len(lines); i++ {
		if strings.Contains(lines[i], `"role":"follower"`) {
			lines[i] = strings.Replace(lines[i], `"role":"follower"`, `"role":"candidate"`, 1)
			edited = i + 1
			break
		}
	}
	if edited == 0 {
		t.Fatal("no follower status to edit")
	}
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	r, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	<-r.TimersRan()
	want := path + ":" + strconv.Itoa(edited) + ": field status.role differs from the re-run"
	if n := r.Note(); !strings.HasPrefix(n, want) || strings.Contains(n, "\n") {
		t.Fatalf("note %q, want one line starting %q", n, want)
	}
	r.SeekTime(r.End())
	for _, n := range r.Snapshot().Nodes {
		if n.Status.Deadline.Running() {
			t.Fatalf("%v shows a timer from a re-run that is not the recording", n.ID)
		}
	}
}
