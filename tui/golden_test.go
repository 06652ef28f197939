package tui

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"
)

// render forces a colour profile on styled output, so that goldens do not depend on
// the terminal: NoTTY gives plain text, ANSI the 16 basic colours.
func render(s string, p colorprofile.Profile) string {
	var b bytes.Buffer
	w := &colorprofile.Writer{Forward: &b, Profile: p}
	if _, err := w.WriteString(s); err != nil {
		panic(err)
	}
	return b.String()
}

func plain(s string) string { return render(s, colorprofile.NoTTY) }

// sized makes the dashboard for f at w×h.
func sized(f *fake, w, h int) *Model {
	m := New(f, Options{Title: "bully-demo", Seed: ptr(uint64(42))})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

func ptr[T any](v T) *T { return &v }

// checkBox fails unless s is exactly w×h cells.
func checkBox(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(plain(s), "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := len([]rune(l)); n != w {
			t.Errorf("line %d is %d cells, want %d: %q", i, n, w, l)
			break
		}
	}
}

// TestGoldenPanes renders each pane at the size the layout gives it on an 80×24 and a
// 160×48 terminal, from a deterministic synthetic history.
func TestGoldenPanes(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := sized(scenario(5, "bully", "election"), w, h)
			md := sized(scenario(5, "omega", "detector"), w, h)
			s, sd := m.snap, md.snap
			l := m.lay
			marks := nodeMarks{sel: m.b.sel}
			panes := []struct {
				name string
				view string
				w, h int
			}{
				{"header", m.header.View(s, m.hs), w, 1},
				{"banner", banner(m.st, s, w, nil), w, 1},
				{"story-line", storyLine(m.st, s, w, false), w, 1},
				{"nodes", m.place.nodes.draw(s, marks), w, l.nodesH},
				{"nodes-detector", md.place.nodes.draw(sd, marks), w, md.lay.nodesH},
				{"matrix", md.matrix.draw(sd, 0), md.lay.leftW, md.lay.matrixH},
				{"network", m.network.View(), l.rightW, l.networkH},
				{"traffic", m.traffic.View(), l.rightW, l.trafficH},
				{"timeline", m.timeline.View(), l.leftW, l.timelineH},
				{"help", strings.Join(m.keyBar(), "\n"), -1, -1},
			}
			// the alerts and story panes are in the 160×48 layout only; give them a
			// box at 80×24 too
			aw, ah, sw, shh := l.rightW, l.alertsH, l.rightW, l.storyH
			if ah == 0 {
				ah, shh = 4, 6
			}
			m.alerts.SetSize(aw, ah)
			m.story.SetSize(sw, shh)
			panes = append(panes,
				struct {
					name string
					view string
					w, h int
				}{"alerts", m.alerts.View(), aw, ah},
				struct {
					name string
					view string
					w, h int
				}{"story", m.story.View(), sw, shh})
			for _, p := range panes {
				t.Run(p.name, func(t *testing.T) {
					if p.w > 0 {
						checkBox(t, p.view, p.w, p.h)
					}
					golden.RequireEqual(t, plain(p.view))
				})
			}
			t.Run("screen", func(t *testing.T) {
				checkBox(t, m.Render(), w, h)
				golden.RequireEqual(t, plain(m.Render()))
			})
			t.Run("screen-detector", func(t *testing.T) {
				checkBox(t, md.Render(), w, h)
				golden.RequireEqual(t, plain(md.Render()))
			})
			t.Run("screen-ansi", func(t *testing.T) {
				golden.RequireEqual(t, render(m.Render(), colorprofile.ANSI))
			})
		})
	}
}

// TestGoldenModes renders the prompts: the command line with a parse error, partition
// mode, the quit confirmation and the full help.
func TestGoldenModes(t *testing.T) {
	keys := func(m *Model, ks ...string) {
		for _, k := range ks {
			m.Update(keyMsg(k))
		}
	}
	t.Run("command-error", func(t *testing.T) {
		m := sized(scenario(5, "bully", "election"), 80, 24)
		keys(m, ":", "c", "r", "a", "s", "h", "space", "n", "9", "enter")
		if m.mode != modeCommand || m.cmd.err == "" {
			t.Fatalf("mode %v, error %q: want the command line open with an error", m.mode, m.cmd.err)
		}
		golden.RequireEqual(t, plain(m.Render()))
	})
	t.Run("partition", func(t *testing.T) {
		m := sized(scenario(5, "bully", "election"), 80, 24)
		keys(m, "p", "1", "space", "2", "space")
		golden.RequireEqual(t, plain(m.Render()))
	})
	t.Run("confirm-quit", func(t *testing.T) {
		f := scenario(5, "bully", "election")
		f.rec = "run.jsonl"
		m := sized(f, 80, 24)
		keys(m, "q")
		golden.RequireEqual(t, plain(m.Render()))
	})
	t.Run("full-help", func(t *testing.T) {
		m := sized(scenario(5, "bully", "election"), 100, 30)
		keys(m, "?")
		checkBox(t, m.Render(), 100, 30)
		golden.RequireEqual(t, plain(m.Render()))
	})
}

// TestGoldenPalettes: the screen at 80×24, 120×40 and 200×60, in 256 colours, on a
// dark terminal and on a light one (the dashboard takes the light palette when the
// terminal answers that its background is light).
func TestGoldenPalettes(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		for _, bg := range []struct {
			name string
			c    color.Color
		}{{"dark", color.Black}, {"light", color.White}} {
			t.Run(fmt.Sprintf("%dx%d-%s", size[0], size[1], bg.name), func(t *testing.T) {
				m := sized(scenario(5, "bully", "election"), size[0], size[1])
				m.Update(tea.BackgroundColorMsg{Color: bg.c})
				want := darkPalette
				if bg.name == "light" {
					want = lightPalette
				}
				if m.st.pal.fg != want.fg {
					t.Fatalf("on a %s background the palette is %v", bg.name, m.st.pal)
				}
				out := m.Render()
				checkBox(t, out, size[0], size[1])
				golden.RequireEqual(t, render(out, colorprofile.ANSI256))
			})
		}
	}
}

// TestGoldenSizes covers many nodes and small terminals.
func TestGoldenSizes(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		w, h int
	}{
		{"64-nodes-160x48", 64, 160, 48},
		{"256-nodes-160x48", 256, 160, 48},
		{"5-nodes-100x30", 5, 100, 30},
		{"5-nodes-40x12", 5, 40, 12},
		{"5-nodes-39x11", 5, 39, 11},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := sized(scenario(c.n, "bully", "election"), c.w, c.h)
			if c.w >= 40 {
				checkBox(t, m.Render(), c.w, c.h)
			}
			golden.RequireEqual(t, plain(m.Render()))
		})
	}
}

// keyMsg makes the key press a terminal would send for k.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}
