package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/clusterlab/clusterlab/lang"
)

// TestGoldenLanguages renders the demo screen at 80×24, a detector's and the full
// help in Portuguese and Spanish. Message types (ELECTION, …) stay as registered.
func TestGoldenLanguages(t *testing.T) {
	for _, c := range []struct {
		l       lang.Lang
		want    []string // the notes' terms and labels the screen must show
		english []string // labels that must not be left in English
	}{
		{lang.Pt, []string{"Nós (5)", "líder", "Linha do tempo", "rodando", "? ajuda • q sair"}, []string{"Nodes", "Timeline", "running", "seed", "quit"}},
		{lang.Es, []string{"Nodos (5)", "líder", "Línea de tiempo", "en marcha", "? ayuda • q salir"}, []string{"Nodes", "Timeline", "running", "seed", "quit"}},
	} {
		t.Run(string(c.l), func(t *testing.T) {
			make := func(f *fake, w, h int) *Model {
				m := New(f, Options{Title: "bully-demo", Seed: ptr(uint64(42)), Lang: c.l})
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				return m
			}
			m := make(scenario(5, "bully", "election"), 80, 24)
			screen := plain(m.Render())
			checkBox(t, m.Render(), 80, 24)
			for _, w := range c.want {
				if !strings.Contains(screen, w) {
					t.Errorf("missing %q in\n%s", w, screen)
				}
			}
			for _, w := range c.english {
				if strings.Contains(screen, w) {
					t.Errorf("English %q left in\n%s", w, screen)
				}
			}
			golden.RequireEqual(t, screen)
			t.Run("detector", func(t *testing.T) {
				m := make(scenario(5, "omega", "detector"), 80, 24)
				checkBox(t, m.Render(), 80, 24)
				golden.RequireEqual(t, plain(m.Render()))
			})
			t.Run("full-help", func(t *testing.T) {
				m := make(scenario(5, "bully", "election"), 100, 30)
				m.Update(keyMsg("?"))
				checkBox(t, m.Render(), 100, 30)
				golden.RequireEqual(t, plain(m.Render()))
			})
		})
	}
}
