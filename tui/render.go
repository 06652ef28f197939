package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// Renderer returns a function that draws the dashboard of successive snapshots at a
// size, as still frames: the asciicast export re-renders a recording with it. One
// dashboard is kept across the calls, so what it notices between frames (leader
// changes and critical-section entries in the timeline) builds up as it would live;
// give it the snapshots in time order.
func Renderer() func(s *trace.Snapshot, w, h int) string {
	c := &still{}
	m := New(c, Options{})
	return func(s *trace.Snapshot, w, h int) string {
		c.s = s
		if w != m.w || h != m.h {
			m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		}
		m.refresh()
		return m.Render()
	}
}

// still is a Controller that only shows a snapshot: nothing runs behind it.
type still struct{ s *trace.Snapshot }

func (c *still) Snapshot() *trace.Snapshot { return c.s }
func (c *still) Do(string) error           { return errors.New("a still frame takes no actions") }
func (c *still) SetPaused(bool)            {}
func (c *still) Paused() bool              { return false }
func (c *still) Step()                     {}
func (c *still) SetSpeed(float64)          {}
func (c *still) Speed() float64            { return 1 }
func (c *still) Recording() string         { return "" }
func (c *still) ToggleRecording() (string, error) {
	return "", errors.New("a still frame records nothing")
}
