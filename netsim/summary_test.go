package netsim

import (
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/node"
)

// TestNodeTableGroups: beyond 50 nodes, runs of identical rows share one row with
// their count; at 50 or fewer every node has its row.
func TestNodeTableGroups(t *testing.T) {
	table := func(n int) string {
		s := &Summary{}
		for i := 1; i <= n; i++ {
			ns := NodeSummary{ID: node.ID(i), Up: true, Inc: 1, Role: "follower", Leader: "n4000", Suspects: []node.ID{}}
			switch i {
			case 1, 2, 3:
				ns.Up = i != 3 // n3 down: a row of its own
			case n:
				ns.Role = "leader"
			}
			s.Nodes = append(s.Nodes, ns)
		}
		var b strings.Builder
		s.printNodes(&b, lang.En)
		return b.String()
	}
	got := table(4000)
	for _, want := range []string{
		"\nn1…n2     up    1    follower     n4000                    [] (2 nodes)\n",
		"\nn3        down  1    follower     n4000                    []\n",
		"\nn4…n3999  up    1    follower     n4000                    [] (3,996 nodes)\n",
		"\nn4000     up    1    leader       n4000                    []\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("4,000-node table lacks %q:\n%s", want, got)
		}
	}
	if lines := strings.Count(got, "\n"); lines != 5 {
		t.Errorf("4,000-node table has %d lines, want 5:\n%s", lines, got)
	}
	if lines := strings.Count(table(50), "\n"); lines != 51 {
		t.Errorf("50-node table has %d lines, want a row per node", lines)
	}
}
