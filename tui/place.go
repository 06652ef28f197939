package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/node"
)

// placePane is the pane under the header: the nodes' cards, or in their place the
// topology (v) or the history strip (V). Its own keys are the arrows, which move
// the selection over what it draws.
type placePane struct {
	b       *board
	focused bool
	view    nodesView
	nodes   nodesPane
	topo    topoPane
	hist    historyPane
	// partition mode: the nodes put into side A so far, shown on the cards
	partition bool
	sideA     map[node.ID]bool
}

func newPlacePane(b *board) *placePane {
	return &placePane{b: b, nodes: nodesPane{st: b.st}, topo: topoPane{st: b.st}, hist: historyPane{st: b.st}, sideA: map[node.ID]bool{}}
}

func (p *placePane) SetSize(w, h int) {
	p.nodes.SetSize(w, h)
	p.topo.SetSize(w, h)
	p.hist.SetSize(w, h)
}

func (p *placePane) setFocused(f bool) {
	p.focused = f
	p.nodes.focused = f
}

func (p *placePane) ShortHelp() []key.Binding  { return []key.Binding{p.b.keys.Move} }
func (p *placePane) FullHelp() [][]key.Binding { return [][]key.Binding{{p.b.keys.Move}} }

// Update moves the selection with the arrows: over the grid of cards, or one node
// at a time along the circle or down the strip.
func (p *placePane) Update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || p.b.snap == nil || !key.Matches(k, p.b.keys.Move) {
		return false, nil
	}
	if p.view == viewNodes {
		p.b.sel = p.nodes.move(p.b.sel, k.String())
		return true, nil
	}
	p.b.step(k.String())
	return true, nil
}

// View draws what is in the nodes' place.
func (p *placePane) View() string {
	s := p.b.snap
	switch p.view {
	case viewTopology:
		p.topo.left, p.topo.hold, p.topo.hover = p.b.left, p.b.hold, p.b.hover
		p.topo.msg = p.b.msg
		return p.topo.draw(s, p.b.sel, p.focused)
	case viewHistory:
		return p.hist.draw(s, p.b.sel, p.focused)
	}
	p.nodes.left = p.b.left
	return p.nodes.draw(s, nodeMarks{sel: p.b.sel, hover: p.b.hover, partition: p.partition, sideA: p.sideA, to: p.b.msgTo, msg: p.b.msg})
}

// nodeAt is the node drawn at (x, y) of the place's box: a card, a node on the
// topology's circle or a line of the table beside it, or a node's line of the
// history strip.
func (p *placePane) nodeAt(x, y int) (int, bool) {
	switch p.view {
	case viewHistory:
		return p.hist.nodeAt(x, y)
	case viewNodes:
		return p.nodes.cardAt(x, y)
	case viewTopology:
		ids := make([]string, len(p.b.snap.Nodes))
		for i, n := range p.b.snap.Nodes {
			ids[i] = n.ID.String()
		}
		return p.topo.nodeAt(x, y, p.b.sel, ids)
	}
	return 0, false
}
