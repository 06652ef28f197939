package tui

import (
	"errors"
	"fmt"

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
	return frames(c, &c.s, viewNodes)
}

// Screen draws one snapshot as the live dashboard shows it at w×h, running at ×1,
// heartbeats hidden unless the algorithm is a failure detector: the README's
// screenshot is one (TestREADMEScreenshot).
func Screen(s *trace.Snapshot, w, h int) string {
	c := &still{s: s}
	m := New(c, Options{})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.refresh()
	return m.Render()
}

// frames draws the snapshots that the returned function is given, setting *shown
// (the controller's snapshot) before each frame.
func frames(c Controller, shown **trace.Snapshot, view nodesView) func(s *trace.Snapshot, w, h int) string {
	m := New(c, Options{})
	m.place.view = view
	return func(s *trace.Snapshot, w, h int) string {
		*shown = s
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

// ReplayRenderer is Renderer for a cast of a recording: the dashboard is in replay
// mode, so the header says replay, the progress bar shows the whole recording (n
// events ending at end µs, with marks at the given times) and the footer shows the
// replay keys, which are the keys a viewer of the recording has. The frames still
// come only from the snapshots given. view is the pane in the nodes' place:
// nodes (the cards, also ""), topology or history.
func ReplayRenderer(n int, end int64, marks []int64, view string) (func(s *trace.Snapshot, w, h int) string, error) {
	v, ok := map[string]nodesView{"": viewNodes, "nodes": viewNodes, "topology": viewTopology, "history": viewHistory}[view]
	if !ok {
		return nil, fmt.Errorf("found view %q, expected nodes, topology or history", view)
	}
	c := &stillReplay{n: n, end: end, marks: marks}
	return frames(c, &c.s, v), nil
}

// stillReplay is a still frame of a recording: a Seeker that cannot seek.
type stillReplay struct {
	still
	n     int
	end   int64
	marks []int64
}

func (c *stillReplay) SeekTime(int64)    {}
func (c *stillReplay) StepEvents(int)    {}
func (c *stillReplay) NextMark(int) bool { return false }
func (c *stillReplay) Pos() (int, int64) {
	if c.s == nil {
		return 0, 0
	}
	return int(c.s.Seq), c.s.T
}
func (c *stillReplay) Len() int       { return c.n }
func (c *stillReplay) End() int64     { return c.end }
func (c *stillReplay) Marks() []int64 { return c.marks }
