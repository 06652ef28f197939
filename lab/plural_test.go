package lab

import (
	"strings"
	"testing"
)

// TestOneIsSingular: sim says "1 sample" / "1 amostra" / "1 muestra" (one
// synchronisation delay measured in notes-quorum-3-2), and "1 leader" for one
// leader, in every language (review row 13).
func TestOneIsSingular(t *testing.T) {
	for _, c := range []struct{ lang, sample, leader string }{
		{"en", "(1 sample)", "(1 leader in term 2 [n1]"},
		{"pt", "(1 amostra)", "(1 líder no mandato 2 [n1]"},
		{"es", "(1 muestra)", "(1 líder en el mandato 2 [n1]"},
	} {
		out, errs, code := mainOutput(t, "sim", "--lang", c.lang, "--preset", "notes-quorum-3-2")
		if code != 0 || !strings.Contains(out, c.sample) {
			t.Errorf("sim --lang %s notes-quorum-3-2: exit %d %s, no %q in:\n%s", c.lang, code, errs, c.sample, out)
		}
		out, errs, code = mainOutput(t, "sim", "--lang", c.lang, "--preset", "raft-weights")
		if code != 0 || !strings.Contains(out, c.leader) {
			t.Errorf("sim --lang %s raft-weights: exit %d %s, no %q in:\n%s", c.lang, code, errs, c.leader, out)
		}
	}
}
