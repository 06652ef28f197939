package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// scrollKeys are the keys of a pane that scrolls: back and forward a row or a page,
// to the oldest row kept (home), and back to following what is new (end, esc).
type scrollKeys struct {
	Up, Down, PageUp, PageDown, Oldest, Follow key.Binding
}

func newScrollKeys(k *KeyMap) scrollKeys {
	return scrollKeys{k.ScrollUp, k.ScrollDown, k.PageUp, k.PageDown, k.Oldest, k.Follow}
}

// short and full are the keys as the help lists them.
func (k scrollKeys) short() []key.Binding { return []key.Binding{k.Up, k.Down, k.Oldest, k.Follow} }
func (k scrollKeys) full() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Oldest, k.Follow}
}

// scrollMove is what a scrolling key asks for: rows back (positive) or forward,
// to the oldest row, or to follow again.
type scrollMove struct {
	by             int
	oldest, follow bool
}

// move reads a key for a pane of h rows; ok is false for any other key.
func (k scrollKeys) move(msg tea.KeyPressMsg, h int) (scrollMove, bool) {
	page := max(1, h-3)
	switch {
	case key.Matches(msg, k.Up):
		return scrollMove{by: 1}, true
	case key.Matches(msg, k.Down):
		return scrollMove{by: -1}, true
	case key.Matches(msg, k.PageUp):
		return scrollMove{by: page}, true
	case key.Matches(msg, k.PageDown):
		return scrollMove{by: -page}, true
	case key.Matches(msg, k.Oldest):
		return scrollMove{oldest: true}, true
	case key.Matches(msg, k.Follow):
		return scrollMove{follow: true}, true
	}
	return scrollMove{}, false
}

// anchorScroll scrolls a list that grows at its end (the timeline, the feed): it
// holds the key of the newest row shown while scrolled back, so that rows coming
// in do not move what is read; 0 follows the newest. room is how many rows the
// pane showed at its last frame: scrolled back, a page is never left part empty.
type anchorScroll struct {
	anchor uint64
	room   int
}

// apply moves over rows whose keys are keys, oldest first (ascending). Scrolled
// back as far as it goes (home), the oldest row kept is at the top of a full page,
// not alone above empty rows.
func (s *anchorScroll) apply(mv scrollMove, keys []uint64) {
	switch {
	case mv.follow || len(keys) == 0:
		s.anchor = 0
		return
	case mv.oldest:
		s.anchor = keys[0]
	default:
		s.anchor = scrollAnchor(keys, s.anchor, mv.by)
	}
	if s.anchor == 0 || s.room <= 0 {
		return
	}
	if s.room >= len(keys) {
		s.anchor = 0 // every row fits: nothing to scroll back to
	} else if s.anchor < keys[s.room-1] {
		s.anchor = keys[s.room-1]
	}
}

// end is how many of the rows keyed by keys lie at or before the anchor: the
// rows shown end there, and fill a page of room rows when there are that many.
func (s *anchorScroll) end(keys func(i int) uint64, n, room int) int {
	s.room = room
	if s.anchor == 0 {
		return n
	}
	end := n
	for end > 0 && keys(end-1) > s.anchor {
		end--
	}
	return max(end, min(room, n))
}

// scrollAnchor moves an anchor (the key of the newest row shown; 0 follows) over
// rows keyed by keys, oldest first, k rows back (negative: forward).
func scrollAnchor(keys []uint64, anchor uint64, k int) uint64 {
	if len(keys) == 0 {
		return 0
	}
	bottom := len(keys) - 1
	if anchor != 0 {
		for bottom > 0 && keys[bottom] > anchor {
			bottom--
		}
	}
	bottom -= k
	if bottom >= len(keys)-1 {
		return 0
	}
	return keys[max(bottom, 0)]
}

// lineScroll scrolls a list of lines: shown newest last and resting at its end
// (alerts, fromEnd), or resting at its top (network). off is how many lines the
// view has moved from its rest: back towards the oldest, or down the page.
type lineScroll struct {
	off     int
	fromEnd bool
}

// apply moves over total lines shown h at a time.
func (s *lineScroll) apply(mv scrollMove, total, h int) {
	most := max(total-h, 0)
	by := mv.by
	if !s.fromEnd {
		by = -by // up the page is back to its rest
	}
	switch {
	case mv.follow:
		s.off = 0
	case mv.oldest:
		s.off = most
		if !s.fromEnd {
			s.off = 0
		}
	default:
		s.off += by
	}
	s.off = min(max(s.off, 0), most)
}

// window is the first line to show of total, h at a time, and the line after the
// last.
func (s *lineScroll) window(total, h int) (int, int) {
	off := min(s.off, max(total-h, 0))
	if !s.fromEnd {
		return off, min(off+h, total)
	}
	end := total - off
	return max(end-h, 0), end
}

// wheel scrolls the panes the mouse wheel turns: k rows back (negative: forward).
func (p *timelinePane) wheel(k int) { p.scrollBy(scrollMove{by: k}) }

func (p *trafficPane) wheel(k int) { p.scroll.apply(scrollMove{by: k}, p.feedSeqs(p.b.snap)) }

// linePane is what a pane that scrolls a list of lines shares (the alerts, the
// network, the story): its box, its focus, its scrolling keys and where it is
// scrolled to; all is the pane's lines, all of them.
type linePane struct {
	b       *board
	w, h    int
	focused bool
	keys    scrollKeys
	scroll  lineScroll
	all     func(*trace.Snapshot) []string
}

func newLinePane(b *board, fromEnd bool) linePane {
	return linePane{b: b, keys: newScrollKeys(b.keys), scroll: lineScroll{fromEnd: fromEnd}}
}

func (p *linePane) SetSize(w, h int)          { p.w, p.h = w, h }
func (p *linePane) setFocused(f bool)         { p.focused = f }
func (p *linePane) ShortHelp() []key.Binding  { return p.keys.short() }
func (p *linePane) FullHelp() [][]key.Binding { return [][]key.Binding{p.keys.full()} }

// Update scrolls the lines.
func (p *linePane) Update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || p.b.snap == nil {
		return false, nil
	}
	mv, ok := p.keys.move(k, p.h)
	if ok {
		p.scroll.apply(mv, len(p.all(p.b.snap)), p.h-2)
	}
	return ok, nil
}

func (p *linePane) wheel(k int) {
	p.scroll.apply(scrollMove{by: k}, len(p.all(p.b.snap)), p.h-2)
}
