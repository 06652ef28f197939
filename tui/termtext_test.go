package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// TestTextFromFilesEscaped: a scenario's name and description, a marker and an
// alert come from files (a scenario, a forged recording in a replay). The dashboard
// shows their control characters escaped, as every other output does
// (internal/termtext), instead of handing them to the terminal: the title is not
// set, the screen not cleared, and the reader sees what the file holds.
func TestTextFromFilesEscaped(t *testing.T) {
	const evil = "evil\x1b]0;pwned\a\x1b[2J"
	f := newFake(3, "bully", "election")
	f.hdr.Info.Name = evil
	f.hdr.Info.Description = "a description\x1b[31m in red\r"
	f.st = trace.NewState(f.hdr)
	f.elect()
	f.emit(trace.Event{Ev: trace.Marker, Text: "m\x1b[31mred\r"})
	f.emit(trace.Event{Ev: trace.Alert, Kind: "split\x1b[5m", Text: "an alert\x1b]0;pwned\a"})
	f.publish()
	for _, size := range [][2]int{{160, 48}, {100, 30}} {
		m := New(f, Options{Seed: ptr(uint64(1))})
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		out := plain(m.Render())
		for _, raw := range []string{"\x1b", "\a", "\r"} {
			if strings.Contains(out, raw) {
				t.Fatalf("%dx%d: the frame holds %q raw:\n%q", size[0], size[1], raw, out)
			}
		}
		for _, want := range []string{`evil\x1b]0;pwned\a\x1b[2J`, `m\x1b[31mred\r`, `an alert\x1b]0;pwned\a`} {
			if size[0] == 160 && !strings.Contains(out, want) { // the smaller header has no room for the name
				t.Errorf("%dx%d: the frame does not show %s escaped:\n%s", size[0], size[1], want, out)
			}
		}
	}
}
