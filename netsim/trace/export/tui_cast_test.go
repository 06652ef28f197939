package export

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/tui"
)

// TestCastOfTheDashboard exports a cast drawn by the real dashboard (what
// `clusterlab export --format cast` does) and replays it through a terminal
// emulator: the screen must be the dashboard's last frame, colours aside.
func TestCastOfTheDashboard(t *testing.T) {
	tr := record(t, "bully-split-brain")
	o, err := ParseOptions(tr, Flags{Format: "cast", Size: "120x36"})
	if err != nil {
		t.Fatal(err)
	}
	draw := tui.Renderer()
	var last string
	o.Cast.Render = func(s *trace.Snapshot, w, h int) string {
		last = draw(s, w, h)
		return last
	}
	var b bytes.Buffer
	if err := Write(&b, tr, o); err != nil {
		t.Fatal(err)
	}
	w, h, evs := parseCast(t, b.String())
	got := screen(w, h, evs)
	want := strings.Split(ansi.Strip(last), "\n")
	if len(want) != h {
		t.Fatalf("the dashboard drew %d lines, want %d", len(want), h)
	}
	for y := range want {
		if strings.TrimRight(want[y], " ") != got[y] {
			t.Fatalf("screen line %d after replay:\n got  %q\n want %q", y+1, got[y], want[y])
		}
	}
	if !strings.Contains(strings.Join(got, "\n"), "Alerts (2)") {
		t.Fatal("the final screen does not show the two alerts")
	}
}
