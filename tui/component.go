package tui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// pane is one pane of the dashboard, a component in the manner of bubbles and
// soft-serve: it owns its size, its focus, its keys (its KeyMap: the help and the
// key bar list them from it, so that they cannot drift from what it does), what
// it does with them (Update) and its drawing (View). The root model lays the
// panes out, routes a key to the focused pane first, and keeps only the keys
// that are not any pane's.
type pane interface {
	help.KeyMap
	SetSize(w, h int)
	setFocused(bool)
	// Update handles a message routed to the pane (a key while it is focused)
	// and says whether it was one of its own.
	Update(msg tea.Msg) (handled bool, cmd tea.Cmd)
	View() string
}

// board is what the panes read besides their own state: the picture on screen and
// the dashboard's selection. The root model owns it and updates it before it
// routes a message or draws; the panes hold a pointer to it.
type board struct {
	st   *Styles
	keys *KeyMap
	snap *trace.Snapshot // the latest picture
	// left is the nodes drawn as having just left the critical section, during
	// its display hold (csLatch), with how long they held it (µs, -1 unknown)
	left map[node.ID]int64
	// hold is how long (virtual µs) something brief is drawn at least, such as
	// a drop's burst: half a second of wall time at the speed of the run
	hold   int64
	sel    int  // the selected node's index
	hover  int  // the node under the pointer, as index + 1; 0 for none
	replay bool // a recording is played back
	// msg is the selected message in flight (its mid; 0 for none), msgTo its
	// receiver, and fl the message as it was when selected
	msg   uint64
	msgTo node.ID
	fl    flight
}

// selected is the selected node's view, if there is a picture.
func (b *board) selected() (trace.NodeView, bool) {
	if b.snap == nil || b.sel >= len(b.snap.Nodes) {
		return trace.NodeView{}, false
	}
	return b.snap.Nodes[b.sel], true
}

// step moves the selection one node back (up, left) or on (down, right), in the
// order of the nodes: along the circle, down the strip, over the matrix.
func (b *board) step(dir string) {
	switch dir {
	case "up", "left":
		b.sel = max(b.sel-1, 0)
	case "down", "right":
		b.sel = min(b.sel+1, max(len(b.snap.Nodes)-1, 0))
	}
}
