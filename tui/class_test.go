package tui

import (
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/lang"
)

// watchingFake is a spectator's controller: its viewer only watches.
type watchingFake struct{ *fake }

func (watchingFake) Watching() string { return "you are watching" }

// keyText is the key bar and the full help's key tables, without colours.
func keyText(m *Model) string {
	lines := append([]string{}, m.keyBar()...)
	for _, t := range m.keyTables(m.fullKeys()) {
		lines = append(lines, t...)
	}
	return ansi.Strip(strings.Join(lines, "\n"))
}

// TestWatcherHelp: a spectator's key bar and full help list the keys that
// change their own view, and none that act on the world; an acting viewer's list
// those too.
func TestWatcherHelp(t *testing.T) {
	for _, watching := range []bool{false, true} {
		var c Controller = newFake(5, "bully", "election")
		if watching {
			c = watchingFake{c.(*fake)}
		}
		m := New(c, Options{})
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
		text := keyText(m)
		for _, b := range m.actingKeys() {
			found := regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(b.Help().Key) + `\s+` + regexp.QuoteMeta(b.Help().Desc) + `(\s|$)`).MatchString(text)
			if found == watching {
				t.Errorf("watching %v: the help lists %q %q: %v\n%s", watching, b.Help().Key, b.Help().Desc, found, text)
			}
		}
		for _, view := range []string{"select node", "focus pane", "topology", "help", "quit"} {
			if !strings.Contains(text, view) {
				t.Errorf("watching %v: the help lacks the view key %q:\n%s", watching, view, text)
			}
		}
	}
}

// TestSetLang: an extra key, listed in the help, changes the dashboard's
// language while it runs; the selection and the focus stay.
func TestSetLang(t *testing.T) {
	extra := Extra{Key: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "")), Desc: "tui.key.help",
		Do: func(m *Model) tea.Cmd { m.SetLang(lang.Pt); return nil }}
	m := New(newFake(5, "bully", "election"), Options{Extra: []Extra{extra}})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	m.Update(tea.KeyPressMsg{Code: '3', Text: "3"})
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	sel, focus := m.b.sel, m.focus
	listsL := func(text string, l lang.Lang) bool {
		return regexp.MustCompile(`L\s+` + regexp.QuoteMeta(l.T("tui.key.help"))).MatchString(text)
	}
	if text := keyText(m); !listsL(text, lang.En) || !strings.Contains(text, lang.En.T("tui.key.crash")) {
		t.Fatalf("the English help lacks L or crash:\n%s", text)
	}
	m.Update(tea.KeyPressMsg{Code: 'L', Text: "L"})
	text := keyText(m)
	if !strings.Contains(text, lang.Pt.T("tui.key.crash")) || !listsL(text, lang.Pt) {
		t.Errorf("after L the help is not in Portuguese:\n%s", text)
	}
	if m.Lang() != lang.Pt || m.b.sel != sel || m.focus != focus {
		t.Errorf("after L: language %v, selection %d (was %d), focus %v (was %v)", m.Lang(), m.b.sel, sel, m.focus, focus)
	}
	if r := ansi.Strip(m.Render()); !strings.Contains(r, lang.Pt.T("tui.key.help")) {
		t.Errorf("the screen is not in Portuguese after L:\n%s", r)
	}
}
