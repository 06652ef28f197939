package tui

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestScreenshot prints the dashboard on a live preset at 100×30, as captured for
// the README's screenshot:
//
//	CLUSTERLAB_SCREENSHOT=1 CLUSTERLAB_PRESET=bully CLUSTERLAB_AT=4.42 go test ./tui -run Screenshot -v
//
// CLUSTERLAB_PRESET defaults to omega-crash and CLUSTERLAB_AT (virtual seconds) to
// 3.6; the live run goes at ×1, so it stops within a frame (33 ms) of that time.
func TestScreenshot(t *testing.T) {
	if os.Getenv("CLUSTERLAB_SCREENSHOT") == "" {
		t.Skip("set CLUSTERLAB_SCREENSHOT=1 to print a screenshot")
	}
	preset := os.Getenv("CLUSTERLAB_PRESET")
	if preset == "" {
		preset = "omega-crash"
	}
	at := 3.6
	if v := os.Getenv("CLUSTERLAB_AT"); v != "" {
		var err error
		if at, err = strconv.ParseFloat(v, 64); err != nil {
			t.Fatalf("CLUSTERLAB_AT: found %q, expected seconds such as 4.42", v)
		}
	}
	l := openLive(t, preset, 1)
	for l.Snapshot().T < int64(at*1e6) {
		time.Sleep(time.Millisecond)
	}
	l.SetPaused(true)
	m := New(l, Options{Title: preset})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.refresh()
	fmt.Println(plain(m.Render()))
}
