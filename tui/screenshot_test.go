package tui

import (
	"fmt"
	"os"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestScreenshot prints the dashboard on the live omega-crash preset at 100×30, as
// captured for the README: CLUSTERLAB_SCREENSHOT=1 go test ./tui -run Screenshot -v
func TestScreenshot(t *testing.T) {
	if os.Getenv("CLUSTERLAB_SCREENSHOT") == "" {
		t.Skip("set CLUSTERLAB_SCREENSHOT=1 to print a screenshot")
	}
	preset := os.Getenv("CLUSTERLAB_PRESET")
	if preset == "" {
		preset = "omega-crash"
	}
	l := openLive(t, preset, 10)
	for l.Snapshot().T < 3_600_000 {
		time.Sleep(time.Millisecond)
	}
	l.SetPaused(true)
	m := New(l, Options{Title: preset})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.refresh()
	fmt.Println(plain(m.Render()))
}
