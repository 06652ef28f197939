package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/node"
)

// mode is what keys currently mean: a mode open takes the keys before the panes.
type mode int

const (
	modeNormal    mode = iota
	modePartition      // space toggles nodes into side A
	modeCommand        // the `:` command line
	modeFilter         // the `/` feed filter
	modeConfirm        // quit while recording?
	modeRecord         // R on a long past: write it?
	modeJump           // replay: the `g` jump to a time
	modeSelect         // `#`: select a node by any id, or a message (#165)
	modeDelay          // d: delay the selected message by how long?
	modeForkQuit       // q in a fork: save it?
	modeForkSave       // the name to save a fork under
)

// lineLimit is the longest line a prompt takes: a paste of ten kilobytes into `:`
// is cut there (and said so) instead of freezing the dashboard.
const lineLimit = 1000

// modeKeys are the keys of the modes, as their key bars show them.
type modeKeys struct {
	Submit, Cancel, Recall, Toggle, Yes, No key.Binding
	Discard                                 key.Binding
	HelpNext, HelpClose                     key.Binding
}

func newModeKeys(l interface{ T(string) string }) modeKeys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, l.T(desc)))
	}
	return modeKeys{
		Submit:    b("enter", "tui.mode.submit", "enter"),
		Cancel:    b("esc", "tui.part.cancel", "esc"),
		Recall:    b("↑/↓", "tui.mode.recall", "up", "down"),
		Toggle:    b("space", "tui.part.toggle", "space"),
		Yes:       b("y", "tui.mode.yes", "y", "Y", "enter"),
		No:        b("n", "tui.mode.no", "n", "N", "esc"),
		Discard:   b("n", "tui.mode.no", "n", "N"),
		HelpNext:  b("?", "tui.mode.helpnext", "?"),
		HelpClose: b("esc/q", "tui.mode.helpclose", "esc", "q"),
	}
}

// modeKey handles a key while a mode or the help is open. It reports false for a
// key the mode leaves to the panes and the root (the selection keys in partition
// mode, every key but the help's own while the help is shown).
func (m *Model) modeKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	mk := &m.mkeys
	switch m.mode {
	case modeConfirm:
		switch {
		case key.Matches(msg, mk.Yes), key.Matches(msg, m.keys.Quit):
			return true, tea.Quit
		case key.Matches(msg, mk.No):
			m.mode = modeNormal
		}
		return true, nil
	case modeRecord:
		switch {
		case key.Matches(msg, mk.Yes):
			m.mode = modeNormal
			m.startRecording()
		case key.Matches(msg, mk.No):
			m.mode = modeNormal
			m.say(m.st.T("tui.say.recordno"), false)
		}
		return true, nil
	case modeCommand:
		return true, m.promptKey(msg, m.command)
	case modeJump:
		return true, m.promptKey(msg, m.jumpTo)
	case modeSelect:
		return true, m.promptKey(msg, m.pickID)
	case modeDelay:
		return true, m.promptKey(msg, m.delayBy)
	case modeForkSave:
		cmd := m.promptKey(msg, m.saveFork)
		if m.quitting {
			return true, tea.Quit
		}
		return true, cmd
	case modeForkQuit:
		return true, m.forkQuitKey(msg)
	case modeFilter:
		done, cmd := m.traffic.filterKey(msg)
		if done {
			m.mode = modeNormal
		}
		return true, cmd
	case modePartition:
		return m.partitionKey(msg)
	}
	if m.help.ShowAll {
		switch {
		case key.Matches(msg, mk.HelpNext):
			// the next page, or closed after the last
			if m.helpPage+1 < len(m.helpPages()) {
				m.helpPage++
			} else {
				m.help.ShowAll = false
			}
			return true, nil
		case key.Matches(msg, mk.HelpClose):
			m.help.ShowAll = false
			return true, nil
		}
	}
	return false, nil
}

// partitionKey: space puts the selected node into side A or takes it out, enter
// splits the network into side A and the rest, esc gives up; the selection keys
// and the help still work, and any other key does nothing meanwhile.
func (m *Model) partitionKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	mk, pl := &m.mkeys, m.place
	switch {
	case key.Matches(msg, mk.Toggle):
		if n, ok := m.b.selected(); ok {
			pl.sideA[n.ID] = !pl.sideA[n.ID]
			if !pl.sideA[n.ID] {
				delete(pl.sideA, n.ID)
			}
		}
		return true, nil
	case key.Matches(msg, mk.Submit):
		m.applyPartition()
		return true, nil
	case key.Matches(msg, mk.Cancel):
		m.endPartition()
		m.say(m.st.T("tui.say.partcancel"), false)
		return true, nil
	case key.Matches(msg, m.keys.Select, m.keys.Move, m.keys.SelectID, m.keys.Help, m.keys.Focus, m.keys.Back):
		return false, nil
	}
	return true, nil
}

func (m *Model) endPartition() {
	m.mode = modeNormal
	m.place.partition, m.place.sideA = false, map[node.ID]bool{}
}

// applyPartition splits the network into side A and the rest.
func (m *Model) applyPartition() {
	if m.snap == nil {
		return
	}
	var a, b []string
	for _, n := range m.snap.Nodes {
		if m.place.sideA[n.ID] {
			a = append(a, n.ID.String())
		} else {
			b = append(b, n.ID.String())
		}
	}
	if len(a) == 0 || len(b) == 0 {
		m.say(m.st.T("tui.say.partempty"), true)
		return
	}
	m.endPartition()
	m.do("partition " + strings.Join(a, ",") + " | " + strings.Join(b, ","))
}

// promptKey passes a key to the open prompt; the mode ends when the prompt closes.
func (m *Model) promptKey(msg tea.KeyPressMsg, submit func(string) error) tea.Cmd {
	done, cmd := m.prompt().key(msg, submit)
	if done {
		m.mode = modeNormal
	}
	return cmd
}

// prompt is the prompt line open, or nil.
func (m *Model) prompt() *promptLine {
	switch m.mode {
	case modeCommand:
		return &m.cmd
	case modeJump:
		return &m.jump
	case modeSelect:
		return &m.pick
	case modeDelay:
		return &m.delay
	case modeForkSave:
		return &m.save
	}
	return nil
}

// modeLine is the line a mode shows over the key bar, and the keys its bar shows
// ("" and nil when no mode is open).
func (m *Model) modeLine() (string, []key.Binding) {
	st, mk := m.st, &m.mkeys
	switch m.mode {
	case modeCommand, modeSelect, modeDelay:
		return m.prompt().View(st), []key.Binding{mk.Submit, mk.Recall, mk.Cancel}
	case modeForkSave:
		return m.prompt().View(st), []key.Binding{withDesc(mk.Submit, st.T("tui.fork.saveit")), mk.Cancel}
	case modeForkQuit:
		return st.Recording.Render(st.T("tui.fork.quit")), []key.Binding{withDesc(mk.Yes, st.T("tui.fork.name")),
			withDesc(mk.Discard, st.T("tui.fork.discard")), withDesc(mk.Cancel, st.T("tui.fork.stay"))}
	case modeJump:
		return m.prompt().View(st), []key.Binding{mk.Submit, mk.Recall, mk.Cancel}
	case modePartition:
		var a []string
		if m.snap != nil {
			for _, n := range m.snap.Nodes {
				if m.place.sideA[n.ID] {
					a = append(a, n.ID.String())
				}
			}
		}
		side := "{" + strings.Join(a, ",") + "}"
		return st.Prompt.Render(st.T("tui.part.partition")) + " " + st.T("tui.part.sidea") + " " + st.SideA.Render(side),
			[]key.Binding{mk.Toggle, withDesc(mk.Submit, st.T("tui.part.apply")), mk.Cancel, m.keys.Move, m.keys.Select}
	case modeConfirm:
		return st.Recording.Render(st.Lang.F("tui.quit.inprogress", m.hs.rec)) + " — " + st.T("tui.quit.save"),
			[]key.Binding{mk.Yes, mk.No}
	case modeRecord:
		return st.Recording.Render(m.recordQuestion), []key.Binding{mk.Yes, mk.No}
	}
	return "", nil
}

// withDesc is b with another description.
func withDesc(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// cutLine is s cut to w cells.
func cutLine(s string, w int) string { return ansi.Truncate(s, max(w, 1), "…") }
