package netsim

import (
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/lang"
)

// TestPrintInLanguages: the summary speaks the chosen language, keeps message types
// and numbers as they are, and its node table stays aligned with accented words.
func TestPrintInLanguages(t *testing.T) {
	s := &Summary{Scenario: "x", Algorithm: "bully", Family: "election", Seed: 3, EndUS: 2e6, Events: 9,
		Nodes: []NodeSummary{
			{ID: 1, Up: true, Inc: 1, Role: "leader", Leader: "n1", Term: 2},
			{ID: 2, Up: false, Inc: 2, Role: "follower", Leader: "", CS: "held"},
		},
		Messages:     map[string]*MessageCounts{"ELECTION": {Sent: 4, Delivered: 3, Dropped: 1, DroppedBy: map[string]int{"loss": 1}}},
		Expectations: []Result{{Text: "leaders == 1", Status: StatusPass, Got: "1"}, {Text: "agree n1", Status: StatusFail, Got: "no"}},
	}
	for _, c := range []struct {
		l          lang.Lang
		want, drop []string
	}{
		{lang.En, []string{"scenario x", "leader", "follower", "held", "loss 1", "expectations:", "FAIL"}, nil},
		{lang.Pt, []string{"cenário x", "líder", "seguidor", "ocupada", "perda 1", "mandato", "suspeitos", "eleições", "expectativas:", "FALHOU", "caído"}, []string{"follower", "expectations:", "messages", "seed"}},
		{lang.Es, []string{"escenario x", "líder", "seguidor", "ocupada", "pérdida 1", "sospechosos", "elecciones", "FALLÓ", "caído"}, []string{"follower", "expectations:", "messages", "seed"}},
	} {
		var b strings.Builder
		s.PrintIn(&b, c.l)
		out := b.String()
		for _, w := range append(c.want, "ELECTION") {
			if !strings.Contains(out, w) {
				t.Errorf("%s: missing %q in\n%s", c.l, w, out)
			}
		}
		for _, w := range c.drop {
			if strings.Contains(out, w) {
				t.Errorf("%s: English %q left in\n%s", c.l, w, out)
			}
		}
		// The node table: the suspects column starts at the same character in the
		// header and every row.
		lines := strings.Split(out, "\n")[2:5]
		col := strings.Index(lines[1], "[]")
		for _, line := range lines[1:] {
			if i := strings.Index(line, "[]"); len([]rune(line[:i])) != len([]rune(lines[1][:col])) {
				t.Errorf("%s: misaligned node table:\n%s", c.l, strings.Join(lines, "\n"))
			}
		}
		if h := lines[0]; len([]rune(h)) < len([]rune(lines[1][:col])) {
			t.Errorf("%s: header shorter than the rows:\n%s", c.l, strings.Join(lines, "\n"))
		}
	}
}
