package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// pacedFake is a fake whose world cannot keep up with the speed asked for.
type pacedFake struct {
	*fake
	rate   float64
	behind bool
}

func (p *pacedFake) Rate() (float64, bool) { return p.rate, p.behind }

// TestHeaderSaysBehind: when the world cannot keep up, the header shows the rate it
// really runs at beside the speed asked for, not the speed alone (issue 23: ×1
// claimed at 1,000 nodes while the clock moved 0.13 s a second); a world that keeps
// up shows the speed alone.
func TestHeaderSaysBehind(t *testing.T) {
	p := &pacedFake{fake: scenario(5, "bully", "election"), rate: 0.13, behind: true}
	m := New(p, Options{Title: "bully-demo"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if got := plain(m.Render()); !strings.Contains(strings.Split(got, "\n")[0], "×0.13 of ×1, behind") {
		t.Errorf("behind at ×0.13 of ×1, the header reads:\n%s", strings.Split(got, "\n")[0])
	}
	p.rate, p.behind = 1, false
	m.Update(tickMsg(time.Now()))
	if h := strings.Split(plain(m.Render()), "\n")[0]; strings.Contains(h, "behind") || !strings.Contains(h, "▶ running ×1 ") {
		t.Errorf("keeping up, the header reads:\n%s", h)
	}
}
