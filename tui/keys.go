package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/clusterlab/clusterlab/lang"
)

// KeyMap is the dashboard's keys. They are a contract: scripts, tests and the README
// rely on them (issue 5's table). Each binding is handled in one place: a pane's
// own keys by the pane when it is focused (scrolling, moving the selection), the
// modes' keys by the mode open (a prompt, the help, a question), and the rest by
// the root model's table of actions (actions.go).
type KeyMap struct {
	Select     key.Binding // 1-9, 0: the node with that id (0 is n10)
	SelectID   key.Binding // #: any id, typed
	Move       key.Binding // arrows: the nodes pane's and the matrix's own
	Crash      key.Binding
	Revive     key.Binding
	Slow       key.Binding
	Isolate    key.Binding
	Partition  key.Binding
	Heal       key.Binding
	GST        key.Binding
	Election   key.Binding
	CS         key.Binding
	Pause      key.Binding
	Step       key.Binding
	Faster     key.Binding
	Slower     key.Binding
	StoryPause key.Binding // P: pause at each story line
	Command    key.Binding
	Heartbeat  key.Binding
	Filter     key.Binding
	Focus      key.Binding
	Back       key.Binding // shift+tab: the focus goes back
	Record     key.Binding
	Marker     key.Binding
	Topology   key.Binding // v: the topology in place of the nodes pane
	History    key.Binding // V: the history strip in place of the nodes pane
	Help       key.Binding
	Quit       key.Binding
	Interrupt  key.Binding

	// A message in flight (issue 30): select one, then drop, delay or deliver it
	// next. Live only: a replay's [ and ] seek.
	Message key.Binding // [ and ]: the previous or next message in flight
	Drop    key.Binding // x
	Delay   key.Binding // d
	Deliver key.Binding // !
	// Fork (f, replay only): the replay becomes a live run at the instant shown.
	Fork key.Binding

	// Replay only (ReplayKeyMap): seeking in a recording.
	Events  key.Binding // ←/→ one event back or forward
	Seconds key.Binding // [ and ]: ±1 s of virtual time
	Marks   key.Binding // n/N: the next or previous marker, fault or alert
	Jump    key.Binding // g: go to a time
	Start   key.Binding // home: the start of the recording
	Finish  key.Binding // end: its end

	// The keys of a focused pane that scrolls (timeline, feed, alerts, network,
	// story); home and end are theirs first, a replay's when they do not scroll.
	ScrollUp   key.Binding
	ScrollDown key.Binding
	PageUp     key.Binding
	PageDown   key.Binding
	Oldest     key.Binding
	Follow     key.Binding
}

// DefaultKeyMap is the table of issue 5: the keys of a live cluster. The replay keys
// are there but disabled.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := KeyMap{
		Select:     b("1-9,0", "select n1-n10", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0"),
		SelectID:   b("#", "select by id", "#"),
		Move:       b("←→↑↓", "select node", "left", "right", "up", "down"),
		Crash:      b("c", "crash", "c"),
		Revive:     b("r", "revive", "r"),
		Slow:       b("s", "slow ×10", "s"),
		Isolate:    b("i", "isolate", "i"),
		Partition:  b("p", "partition", "p"),
		Heal:       b("h", "heal", "h"),
		GST:        b("g", "GST now", "g"),
		Election:   b("e", "election", "e"),
		CS:         b("m", "request CS", "m"),
		Pause:      b("space", "pause", "space"),
		Step:       b(".", "step", "."),
		Faster:     b("+", "faster", "+", "="),
		Slower:     b("-", "slower", "-", "_"),
		StoryPause: b("P", "pause at story lines", "P"),
		Command:    b(":", "command", ":"),
		Heartbeat:  b("H", "hide heartbeats", "H"),
		Filter:     b("/", "filter feed", "/"),
		Focus:      b("tab", "focus pane", "tab"),
		Back:       b("shift+tab", "focus back", "shift+tab"),
		Record:     b("R", "record", "R"),
		Marker:     b("b", "marker", "b"),
		Topology:   b("v", "topology", "v"),
		History:    b("V", "history", "V"),
		Help:       b("?", "help", "?"),
		Quit:       b("q", "quit", "q"),
		Interrupt:  b("ctrl+c", "quit now", "ctrl+c"),
		Message:    b("[/]", "message in flight", "[", "]"),
		Drop:       b("x", "drop it", "x"),
		Delay:      b("d", "delay it", "d"),
		Deliver:    b("!", "deliver it next", "!"),
		Fork:       b("f", "fork: what if?", "f"),

		ScrollUp:   b("↑/k", "back", "up", "k"),
		ScrollDown: b("↓/j", "forward", "down", "j"),
		PageUp:     b("pgup", "page back", "pgup"),
		PageDown:   b("pgdn", "page forward", "pgdown"),
		Oldest:     b("home", "oldest", "home"),
		Follow:     b("end/esc", "follow", "end", "esc"),

		Events:  b("←/→", "event", "left", "right"),
		Seconds: b("[/]", "±1s", "[", "]"),
		Marks:   b("n/N", "mark", "n", "N"),
		Jump:    b("g", "jump to", "g"),
		Start:   b("home", "start", "home"),
		Finish:  b("end", "end", "end"),
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
		&k.GST, &k.Election, &k.CS, &k.Command, &k.Record, &k.Marker, &k.Step,
		&k.Message, &k.Drop, &k.Delay, &k.Deliver} {
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
		{&k.StoryPause, "tui.key.storypause"},
		{&k.Command, "tui.key.command"},
		{&k.Heartbeat, "tui.key.heartbeat"},
		{&k.Filter, "tui.key.filter"},
		{&k.Focus, "tui.key.focus"},
		{&k.Back, "tui.key.back"},
		{&k.Topology, "tui.key.topology"},
		{&k.History, "tui.key.history"},
		{&k.Record, "tui.key.record"},
		{&k.Marker, "tui.key.marker"},
		{&k.Help, "tui.key.help"},
		{&k.Quit, "tui.key.quit"},
		{&k.Interrupt, "tui.key.interrupt"},
		{&k.Message, "tui.key.message"},
		{&k.Drop, "tui.key.drop"},
		{&k.Delay, "tui.key.delay"},
		{&k.Deliver, "tui.key.deliver"},
		{&k.Fork, "tui.key.fork"},
		{&k.ScrollUp, "tui.key.scrollup"},
		{&k.ScrollDown, "tui.key.scrolldown"},
		{&k.PageUp, "tui.key.pageup"},
		{&k.PageDown, "tui.key.pagedown"},
		{&k.Oldest, "tui.key.oldest"},
		{&k.Follow, "tui.key.follow"},
		{&k.Events, "tui.key.events"},
		{&k.Seconds, "tui.key.seconds"},
		{&k.Marks, "tui.key.marks"},
		{&k.Jump, "tui.key.jump"},
		{&k.Start, "tui.key.start"},
		{&k.Finish, "tui.key.finish"},
	} {
		b.b.SetHelp(b.b.Help().Key, l.T(b.key))
	}
	if replay {
		k.Pause.SetHelp(k.Pause.Help().Key, l.T("tui.key.playpause"))
	}
}

// replayOnly is the bindings that mean something only in a replay.
func (k *KeyMap) replayOnly() []*key.Binding {
	return []*key.Binding{&k.Events, &k.Seconds, &k.Marks, &k.Jump, &k.Start, &k.Finish, &k.Fork}
}
