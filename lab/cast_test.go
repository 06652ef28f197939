package lab

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/session"
)

// recordBully records the bully preset with the sim command.
func recordBully(t *testing.T, path string) {
	t.Helper()
	c := &simCmd{scenarioFlags: scenarioFlags{Preset: "bully"}, stormFlags: stormFlags{MaxPending: 2_000_000}, Record: path}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
}

// TestCastTimerBars: a cast made from a recording draws the timeout bars, found by
// re-running it, in the cards and in the topology.
func TestCastTimerBars(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bully.trace")
	recordBully(t, path)
	for _, view := range []string{"nodes", "topology"} {
		cast := filepath.Join(dir, view+".cast")
		c := &exportCmd{File: path, Format: "cast", Size: "80x24", FPS: 2, Idle: "1s", View: view, Output: cast}
		if err := c.Run(); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(cast)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "▰"); n < 40 {
			t.Errorf("the %s cast draws %d bar cells, want the bars of four followers in its frames", view, n)
		}
	}
}

// TestCastTimersMismatch: a recording that is not what its scenario gives gets its
// cast without bars, and one line that says where it differs.
func TestCastTimersMismatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bully.trace")
	recordBully(t, path)
	tr, err := session.ReadTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	k := len(tr.Events) / 2
	tr.Events[k].T++ // a line the re-run does not give
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[k+1] = string(trace.AppendLine(nil, &tr.Events[k]))
	path = filepath.Join(t.TempDir(), "edited.trace")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	var warn strings.Builder
	plain := func(s *trace.Snapshot, w, h int) string {
		for _, n := range s.Nodes {
			if n.Status.Deadline.Running() {
				return "bars"
			}
		}
		return "none"
	}
	render := withTimers(path, tr.Header, len(tr.Events), plain, &warn)
	st := trace.NewState(tr.Header)
	for i := range tr.Events {
		st.Apply(&tr.Events[i])
	}
	if got := render(st.Snapshot(), 80, 24); got != "none" {
		t.Errorf("the frame has %s, want none", got)
	}
	want := "clusterlab: " + path + ":" + strconv.Itoa(k+2) + ": field t differs from the re-run: the cast has no timeout bars\n"
	if warn.String() != want {
		t.Errorf("warning %q, want %q", warn.String(), want)
	}
}
