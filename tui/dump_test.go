package tui

import (
	"os"
	"testing"

	"github.com/charmbracelet/x/ansi"
	tea "charm.land/bubbletea/v2"
)

func TestDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	for _, c := range []struct{ n, w, h int; fam string }{{5, 80, 24, "election"}, {5, 160, 48, "detector"}, {5, 100, 30, "election"}, {64, 160, 48, "election"}, {256, 160, 48, "election"}, {5, 40, 12, "election"}, {5, 30, 10, "election"}} {
		f := scenario(c.n, "bully", c.fam)
		m := New(f, Options{Title: "bully"})
		m.Update(tea.WindowSizeMsg{Width: c.w, Height: c.h})
		t.Logf("%d nodes %dx%d\n%s", c.n, c.w, c.h, ansi.Strip(m.Render()))
	}
}
