package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// KeyMap is the dashboard's keys. They are a contract: scripts, tests and the README
// rely on them (issue 5's table).
type KeyMap struct {
	Select    key.Binding // 1-9, 0: the node with that id (0 is n10)
	SelectID  key.Binding // #: any id, typed
	Move      key.Binding // arrows
	Crash     key.Binding
	Revive    key.Binding
	Slow      key.Binding
	Isolate   key.Binding
	Partition key.Binding
	Heal      key.Binding
	GST       key.Binding
	Election  key.Binding
	CS        key.Binding
	Pause     key.Binding
	Step      key.Binding
	Faster    key.Binding
	Slower    key.Binding
	Command   key.Binding
	Heartbeat key.Binding
	Filter    key.Binding
	Focus     key.Binding
	Record    key.Binding
	Marker    key.Binding
	Topology  key.Binding // v: the topology in place of the nodes pane
	History   key.Binding // V: the history strip in place of the nodes pane
	Help      key.Binding
	Quit      key.Binding
	Interrupt key.Binding

	// Replay only (ReplayKeyMap): seeking in a recording.
	Events  key.Binding // ←/→ one event back or forward
	Seconds key.Binding // [ and ]: ±1 s of virtual time
	Marks   key.Binding // n/N: the next or previous marker, fault or alert
	Jump    key.Binding // g: go to a time

	// Timeline and feed scrolling, when focused.
	ScrollUp   key.Binding
	ScrollDown key.Binding
	PageUp     key.Binding
	PageDown   key.Binding
	Follow     key.Binding
}

// DefaultKeyMap is the table of issue 5: the keys of a live cluster. The replay keys
// are there but disabled.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := KeyMap{
		Select:    b("1-9,0", "select n1-n10", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0"),
		SelectID:  b("#", "select by id", "#"),
		Move:      b("←→↑↓", "select node", "left", "right", "up", "down"),
		Crash:     b("c", "crash", "c"),
		Revive:    b("r", "revive", "r"),
		Slow:      b("s", "slow ×10", "s"),
		Isolate:   b("i", "isolate", "i"),
		Partition: b("p", "partition", "p"),
		Heal:      b("h", "heal", "h"),
		GST:       b("g", "GST now", "g"),
		Election:  b("e", "election", "e"),
		CS:        b("m", "request CS", "m"),
		Pause:     b("space", "pause", "space"),
		Step:      b(".", "step", "."),
		Faster:    b("+", "faster", "+", "="),
		Slower:    b("-", "slower", "-", "_"),
		Command:   b(":", "command", ":"),
		Heartbeat: b("H", "hide heartbeats", "H"),
		Filter:    b("/", "filter feed", "/"),
		Focus:     b("tab", "focus pane", "tab"),
		Record:    b("R", "record", "R"),
		Marker:    b("b", "marker", "b"),
		Topology:  b("v", "topology", "v"),
		History:   b("V", "history", "V"),
		Help:      b("?", "help", "?"),
		Quit:      b("q", "quit", "q"),
		Interrupt: b("ctrl+c", "quit now", "ctrl+c"),

		ScrollUp:   b("↑/k", "back", "up", "k"),
		ScrollDown: b("↓/j", "forward", "down", "j"),
		PageUp:     b("pgup", "page back", "pgup"),
		PageDown:   b("pgdn", "page forward", "pgdown"),
		Follow:     b("end", "follow", "end", "esc"),

		Events:  b("←/→", "event", "left", "right"),
		Seconds: b("[/]", "±1s", "[", "]"),
		Marks:   b("n/N", "mark", "n", "N"),
		Jump:    b("g", "jump to", "g"),
	}
	for _, r := range k.replayOnly() {
		r.SetEnabled(false)
	}
	return k
}

// ReplayKeyMap is the keys of a recording being replayed (issue 6): nothing can
// change a recording, so the fault, command and record keys are disabled; ←/→ step
// events, so only ↑/↓ (and the digits) select nodes; space plays and pauses.
func ReplayKeyMap() KeyMap {
	k := DefaultKeyMap()
	for _, r := range k.replayOnly() {
		r.SetEnabled(true)
	}
	for _, b := range []*key.Binding{&k.Crash, &k.Revive, &k.Slow, &k.Isolate, &k.Partition, &k.Heal,
		&k.GST, &k.Election, &k.CS, &k.Command, &k.Record, &k.Marker, &k.Step} {
		b.SetEnabled(false)
	}
	k.Move = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑↓", "select node"))
	k.Pause.SetHelp("space", "play/pause")
	return k
}

// localize puts the key help in language l; replay says play/pause for space.
func (k *KeyMap) localize(l lang.Lang, replay bool) {
	for _, b := range []struct {
		b   *key.Binding
		key string
	}{
		{&k.Select, "tui.key.select"},
		{&k.SelectID, "tui.key.selectid"},
		{&k.Move, "tui.key.move"},
		{&k.Crash, "tui.key.crash"},
		{&k.Revive, "tui.key.revive"},
		{&k.Slow, "tui.key.slow"},
		{&k.Isolate, "tui.key.isolate"},
		{&k.Partition, "tui.key.partition"},
		{&k.Heal, "tui.key.heal"},
		{&k.GST, "tui.key.gst"},
		{&k.Election, "tui.key.election"},
		{&k.CS, "tui.key.cs"},
		{&k.Pause, "tui.key.pause"},
		{&k.Step, "tui.key.step"},
		{&k.Faster, "tui.key.faster"},
		{&k.Slower, "tui.key.slower"},
		{&k.Command, "tui.key.command"},
		{&k.Heartbeat, "tui.key.heartbeat"},
		{&k.Filter, "tui.key.filter"},
		{&k.Focus, "tui.key.focus"},
		{&k.Topology, "tui.key.topology"},
		{&k.History, "tui.key.history"},
		{&k.Record, "tui.key.record"},
		{&k.Marker, "tui.key.marker"},
		{&k.Help, "tui.key.help"},
		{&k.Quit, "tui.key.quit"},
		{&k.Interrupt, "tui.key.interrupt"},
		{&k.ScrollUp, "tui.key.scrollup"},
		{&k.ScrollDown, "tui.key.scrolldown"},
		{&k.PageUp, "tui.key.pageup"},
		{&k.PageDown, "tui.key.pagedown"},
		{&k.Follow, "tui.key.follow"},
		{&k.Events, "tui.key.events"},
		{&k.Seconds, "tui.key.seconds"},
		{&k.Marks, "tui.key.marks"},
		{&k.Jump, "tui.key.jump"},
	} {
		b.b.SetHelp(b.b.Help().Key, l.T(b.key))
	}
	if replay {
		k.Pause.SetHelp(k.Pause.Help().Key, l.T("tui.key.playpause"))
	}
}

// replayOnly is the bindings that mean something only in a replay.
func (k *KeyMap) replayOnly() []*key.Binding {
	return []*key.Binding{&k.Events, &k.Seconds, &k.Marks, &k.Jump}
}

// helpKeys adapts the key map to bubbles/help for the current focus. Disabled
// bindings are not shown, so one table serves live runs and replays.
type helpKeys struct {
	k      KeyMap
	focus  paneID
	replay bool
}

// ShortHelp is the line that is always visible.
func (h helpKeys) ShortHelp() []key.Binding {
	k := h.k
	if h.replay {
		return []key.Binding{k.Pause, k.Events, k.Seconds, k.Marks, k.Jump, k.Help, k.Quit}
	}
	if h.focus == paneTimeline || h.focus == paneTraffic {
		return []key.Binding{k.ScrollUp, k.ScrollDown, k.Follow, k.Focus, k.Crash, k.Pause, k.Command, k.Help, k.Quit}
	}
	return []key.Binding{k.Select, k.Crash, k.Revive, k.Partition, k.Heal, k.Pause, k.Command, k.Focus, k.Help, k.Quit}
}

// FullHelp is shown by `?`.
func (h helpKeys) FullHelp() [][]key.Binding {
	k := h.k
	return [][]key.Binding{
		{k.Events, k.Seconds, k.Marks, k.Jump},
		{k.Select, k.SelectID, k.Move, k.Crash, k.Revive, k.Slow, k.Isolate},
		{k.Partition, k.Heal, k.GST, k.Election, k.CS, k.Marker},
		{k.Pause, k.Step, k.Faster, k.Slower, k.Record, k.Topology, k.History},
		{k.Command, k.Filter, k.Heartbeat, k.Focus, k.Help, k.Quit},
		{k.ScrollUp, k.ScrollDown, k.PageUp, k.PageDown, k.Follow},
	}
}

// keyer is a pane that owns keys of its own: the focused pane sees a key before the
// dashboard's global keys, and says whether it was one of its own.
type keyer interface {
	Key(msg tea.KeyPressMsg, c keyCtx) (handled bool, cmd tea.Cmd)
}

// keyCtx is what a pane's keys need from the dashboard: the key map, and the
// snapshot and marks on screen.
type keyCtx struct {
	keys  *KeyMap
	snap  *trace.Snapshot
	marks []mark
}

// scrollBy is how many rows back (positive) or forward a scrolling key moves a pane
// of height h, or 0 for any other key.
func scrollBy(msg tea.KeyPressMsg, k *KeyMap, h int) int {
	switch {
	case key.Matches(msg, k.ScrollUp):
		return 1
	case key.Matches(msg, k.ScrollDown):
		return -1
	case key.Matches(msg, k.PageUp):
		return max(1, h-3)
	case key.Matches(msg, k.PageDown):
		return -max(1, h-3)
	}
	return 0
}

// Key scrolls the timeline back and forward; end (or esc) follows time again.
func (p *timelinePane) Key(msg tea.KeyPressMsg, c keyCtx) (bool, tea.Cmd) {
	if c.snap == nil {
		return false, nil
	}
	if k := scrollBy(msg, c.keys, p.h); k != 0 {
		p.scroll(c.snap, c.marks, k)
		return true, nil
	}
	if key.Matches(msg, c.keys.Follow) {
		p.anchor = 0
		return true, nil
	}
	return false, nil
}

// Key scrolls the feed back and forward; end (or esc) follows it again.
func (p *trafficPane) Key(msg tea.KeyPressMsg, c keyCtx) (bool, tea.Cmd) {
	if c.snap == nil {
		return false, nil
	}
	if k := scrollBy(msg, c.keys, p.h); k != 0 {
		p.scroll(c.snap, k)
		return true, nil
	}
	if key.Matches(msg, c.keys.Follow) {
		p.anchor = 0
		return true, nil
	}
	return false, nil
}

// filterKey edits the feed's filter after `/`: enter applies it, esc clears it;
// done says the filter line is closed.
func (p *trafficPane) filterKey(msg tea.KeyPressMsg) (done bool, cmd tea.Cmd) {
	switch msg.String() {
	case "enter":
		p.filter.words = parseFilter(p.input.Value())
	case "esc":
		p.filter.words = nil
	default:
		p.input, cmd = p.input.Update(msg)
		return false, cmd
	}
	p.filtering = false
	p.input.Blur()
	return true, nil
}

// openFilter opens the feed's filter line on the words in use.
func (p *trafficPane) openFilter() tea.Cmd {
	p.filtering = true
	p.input.SetValue(strings.Join(p.filter.words, " "))
	p.input.CursorEnd()
	return p.input.Focus()
}
