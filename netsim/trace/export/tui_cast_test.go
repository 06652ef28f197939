package export

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
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

var inFlightShown = regexp.MustCompile(`in flight (-?[0-9]+)`)

// TestCastInFlightWithDuplicates: every frame of a cast of a run that duplicates
// and loses messages, drawn by the dashboard's Network pane and by the text
// dashboard, shows as in flight the messages sent whose original copy has not
// landed yet, counted here from the events up to the frame: never below zero (a
// cast of a duplicating run once showed "in flight -2072").
func TestCastInFlightWithDuplicates(t *testing.T) {
	tr := record(t, "testdata/scale.toml") // dup 0.1, loss 0.02
	open := make([]int, len(tr.Events)+1)  // open[seq]: in flight after event seq
	dups := 0
	for i, e := range tr.Events {
		open[i+1] = open[i]
		switch {
		case e.Ev == trace.Send:
			open[i+1]++
		case (e.Ev == trace.Deliver && !e.Local || e.Ev == trace.Drop) && e.Dup:
			dups++
		case e.Ev == trace.Deliver && !e.Local || e.Ev == trace.Drop:
			open[i+1]--
		}
	}
	if dups == 0 {
		t.Fatal("the run has no duplicate copy: nothing is tested")
	}
	ol, err := OutlineOf(TraceSource(tr))
	if err != nil {
		t.Fatal(err)
	}
	pane, err := tui.ReplayRenderer(ol.Events, ol.End, ol.Marks, "")
	if err != nil {
		t.Fatal(err)
	}
	for name, draw := range map[string]RenderFunc{"dashboard": pane, "text": TextDashboard} {
		o, err := ParseOptions(&tr.Header, Flags{Format: "cast", Size: "120x48", FPS: 4})
		if err != nil {
			t.Fatal(err)
		}
		frames, most := 0, 0
		o.Cast.Render = func(s *trace.Snapshot, w, h int) string {
			out := draw(s, w, h)
			m := inFlightShown.FindStringSubmatch(ansi.Strip(out))
			if m == nil {
				t.Fatalf("%s: a frame at %dµs shows no in flight:\n%s", name, s.T, ansi.Strip(out))
			}
			n, _ := strconv.Atoi(m[1])
			if n != open[s.Seq] || n < 0 {
				t.Fatalf("%s: the frame after event %d shows in flight %d, want %d", name, s.Seq, n, open[s.Seq])
			}
			frames++
			most = max(most, n)
			return out
		}
		if err := Write(io.Discard, TraceSource(tr), o); err != nil {
			t.Fatal(err)
		}
		if frames < 10 || most == 0 {
			t.Errorf("%s: %d frames, at most %d in flight: the cast showed too little to tell", name, frames, most)
		}
	}
}
