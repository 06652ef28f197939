package export

import (
	"bytes"
	"regexp"
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
	o, err := ParseOptions(&tr.Header, Flags{Format: "cast", Size: "120x36"})
	if err != nil {
		t.Fatal(err)
	}
	ol, err := OutlineOf(TraceSource(tr))
	if err != nil {
		t.Fatal(err)
	}
	draw, err := tui.ReplayRenderer(ol.Events, ol.End, ol.Marks, "")
	if err != nil {
		t.Fatal(err)
	}
	var last string
	o.Cast.Render = func(s *trace.Snapshot, w, h int) string {
		last = draw(s, w, h)
		return last
	}
	var b bytes.Buffer
	if err := Write(&b, TraceSource(tr), o); err != nil {
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
	final := strings.Join(got, "\n")
	if !strings.Contains(final, "Alerts (2)") {
		t.Fatal("the final screen does not show the two alerts")
	}
	// A recording's viewer has the replay keys, not a live cluster's.
	footer := strings.Join(got[len(got)-3:], "\n")
	if !strings.Contains(footer, "play/pause") || !strings.Contains(footer, "jump to") || strings.Contains(footer, "crash") || strings.Contains(footer, "partition") {
		t.Fatalf("the footer does not show the replay keys:\n%s", footer)
	}
	// Every chapter label starts with the virtual time of what it marks.
	for _, e := range evs {
		if e.code == "m" && !castLabel.MatchString(e.data) {
			t.Errorf("marker label %q does not give its virtual time", e.data)
		}
	}
}

var castLabel = regexp.MustCompile(`^at [0-9.]+(µs|ms|s|m[0-9.]*s): `)

// TestCastOfTheTopology: `export --format cast --view topology` draws the topology in
// the nodes' place, so a cast of the split brain shows both leaders on the circle.
func TestCastOfTheTopology(t *testing.T) {
	tr := record(t, "bully-split-brain")
	o, err := ParseOptions(&tr.Header, Flags{Format: "cast", Size: "120x36", To: "6s", FPS: 2})
	if err != nil {
		t.Fatal(err)
	}
	ol, err := OutlineOf(TraceSource(tr))
	if err != nil {
		t.Fatal(err)
	}
	if o.Cast.Render, err = tui.ReplayRenderer(ol.Events, ol.End, ol.Marks, "topology"); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, TraceSource(tr), o); err != nil {
		t.Fatal(err)
	}
	w, h, evs := parseCast(t, b.String())
	final := strings.Join(screen(w, h, evs), "\n")
	for _, want := range []string{"Topology", "n5★", "★n2", "SPLIT BRAIN"} {
		if !strings.Contains(final, want) {
			t.Errorf("the topology cast's last screen lacks %q:\n%s", want, final)
		}
	}
	if _, err := tui.ReplayRenderer(0, 0, nil, "circle"); err == nil {
		t.Error("an unknown view is accepted")
	}
}
