package netsim

import (
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/node"
)

func TestParseCourseExpectations(t *testing.T) {
	ids := []node.ID{1, 2, 3}
	for _, in := range []string{"leaders in current term == 1", "leaders in current term <= 2", "cs n2 == held", "cs n1 == released", "cs n3 == wanted", "open alert starvation", "no open alert no-leader"} {
		if _, err := ParseExpect(in, ids); err != nil {
			t.Errorf("ParseExpect(%q): %v", in, err)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"leaders in term == 1", `col 9: found "leaders in term == 1", expected "leaders in current term == K"`},
		{"leaders in current term", `found the end, expected "leaders == 1"`},
		{"cs n2 == inside", `col 10: found "inside", expected held, wanted or released`},
		{"cs n2 = held", `col 7: found "=", expected ==`},
		{"cs n9 == held", `found "n9"`},
		{"no cs n2 == held", `expected "not suspects nA nB" or "no alert KIND"`},
		{"no open mutex", `col 9: found "mutex", expected "open alert KIND"`},
		{"open alert", `found the end, expected "open alert KIND"`},
		{"open alert famine", `col 12: found "famine", expected an alert kind`},
		{"no open alert mutex now", `found "now", expected the end after "open alert KIND"`},
	} {
		_, err := ParseExpect(tc.in, ids)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseExpect(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}
