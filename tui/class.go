package tui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/lang"
)

// The hooks of a dashboard served to a class over SSH (package serve): a
// refresh pushed when someone else acts, keys of the server's own, a viewer's
// language changed while the dashboard runs, and a watcher's help that lists
// only what a watcher can do.

// Refresh asks the dashboard to pull the latest snapshot now, not at its next
// tick: a class's server sends it to every screen the moment a teacher acts.
type Refresh struct{}

// Sharer is a Controller whose world outlives the dashboard (a class's, served
// over SSH): q ends the viewer's session, not the world or its recording, so it
// asks nothing.
type Sharer interface {
	Shared() bool
}

// Extra is a key that the program embedding the dashboard adds to it: listed in
// the help with the dashboard's own keys, and handled after the mode open and the
// focused pane have had it, so that typing into a prompt never triggers it.
type Extra struct {
	Key key.Binding
	// Desc is the catalog key of the help's description, in the viewer's
	// language.
	Desc string
	Do   func(*Model) tea.Cmd
}

// localizeExtra puts the extra keys' help in the dashboard's language.
func (m *Model) localizeExtra() {
	for i := range m.opts.Extra {
		e := &m.opts.Extra[i]
		e.Key.SetHelp(e.Key.Help().Key, m.st.T(e.Desc))
	}
}

// extraActions are the extra keys as the root's actions.
func (m *Model) extraActions() []action {
	var out []action
	for i := range m.opts.Extra {
		e := &m.opts.Extra[i]
		out = append(out, action{&e.Key, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return e.Do(m) }})
	}
	return out
}

// Lang is the dashboard's language.
func (m *Model) Lang() lang.Lang { return m.st.Lang }

// SetLang shows the dashboard in l from now on: labels, help, key bar, prompts.
// The view (focus, selection, scroll, filter, a prompt's history) stays as it is.
func (m *Model) SetLang(l lang.Lang) {
	m.st.Lang = l
	m.keys.localize(l, m.seek != nil)
	m.localizeExtra()
	m.mkeys = newModeKeys(l)
	tooLong := l.F("tui.prompt.toolong", lineLimit)
	for _, p := range []struct {
		line                *promptLine
		prompt, placeholder string
	}{
		{&m.cmd, ":", l.T("tui.prompt.command")},
		{&m.jump, l.T("tui.prompt.jump"), m.jump.in.Placeholder},
		{&m.pick, l.T("tui.prompt.select"), l.T("tui.prompt.selecthint")},
		{&m.delay, m.delay.in.Prompt, m.delay.in.Placeholder},
		{&m.save, l.T("tui.prompt.savefork"), m.save.in.Placeholder},
	} {
		if p.line.label == "" {
			p.line.in.Prompt = p.prompt
		}
		p.line.in.Placeholder, p.line.tooLong = p.placeholder, tooLong
	}
	m.traffic.input.Placeholder = l.T("tui.traffic.filter")
	m.timeline.keys, m.traffic.keys = newScrollKeys(&m.keys), newScrollKeys(&m.keys)
	m.network.keys, m.alerts.keys = newScrollKeys(&m.keys), newScrollKeys(&m.keys)
	m.bar.lines = nil
	m.dirty = true
	m.relayout()
}

// forViewer drops from keys those that act on the world when the viewer only
// watches: a spectator's key bar and help list what a spectator can do.
func (m *Model) forViewer(keys []key.Binding) []key.Binding {
	if m.watching() == "" {
		return keys
	}
	var out []key.Binding
	for _, b := range keys {
		if !m.actsOn(b) {
			out = append(out, b)
		}
	}
	return out
}

// actsOn reports whether b is (a copy of) a key that acts on the world.
func (m *Model) actsOn(b key.Binding) bool {
	for _, a := range m.actingKeys() {
		if slices.Equal(a.Keys(), b.Keys()) {
			return true
		}
	}
	return false
}
