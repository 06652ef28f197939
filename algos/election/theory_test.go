package election

import (
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

func theoryOf(t *testing.T, name string, ids []node.ID, params map[string]any, crashed ...node.ID) map[string]float64 {
	t.Helper()
	spec, _ := algos.Lookup(name)
	p, err := algos.NewParams(spec, params)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, th := range algos.TheoryFor(spec, algos.TheoryConfig{Config: algos.Config{IDs: ids, Params: p}, Crashed: crashed}) {
		out[th.Metric] = th.Value
	}
	return out
}

func seq(n int, down bool) []node.ID {
	out := make([]node.ID, n)
	for i := range out {
		out[i] = node.ID(i + 1)
		if down {
			out[i] = node.ID(n - i)
		}
	}
	return out
}

func TestRingTheory(t *testing.T) {
	for _, tc := range []struct {
		ids        []node.ID
		initiators any
		want       float64
	}{
		{seq(8, false), "n1", 3*8 - 1},                       // n1 follows n8: the maximum's successor
		{seq(8, false), "n8", 2 * 8},                         // the maximum alone
		{seq(8, true), "n1", 1 + 2*8},                        // n1 is one hop before the maximum
		{seq(8, true), "all", 8*9/2 + 8},                     // the quadratic case
		{seq(8, false), "all", 2*8 - 1 + 8},                  // every id but 8 dies after a hop
		{[]node.ID{3, 7, 1, 8, 5, 2, 6, 4}, []any{"n5"}, 23}, // the preset `ring`
	} {
		got := theoryOf(t, "ring", tc.ids, map[string]any{"initiators": tc.initiators})
		if got["sent.total"] != tc.want {
			t.Errorf("%v starting %v: %v, want %v", tc.ids, tc.initiators, got["sent.total"], tc.want)
		}
	}
	if got := theoryOf(t, "ring", seq(8, false), map[string]any{"initiators": []any{"n1", "n2"}}); len(got) != 0 {
		t.Errorf("two starters depend on timing, got %v", got)
	}
}

func TestBullyTheory(t *testing.T) {
	ids := seq(10, false)
	best := theoryOf(t, "bully", ids, map[string]any{"initiators": "n9"}, 10)
	worst := theoryOf(t, "bully", ids, map[string]any{"initiators": "n1"}, 10)
	all := theoryOf(t, "bully", ids, map[string]any{"initiators": "all"})
	if best["sent.COORDINATOR"] != 8 || worst["sent.ELECTION"] != 45 || worst["sent.ANSWER"] != 36 ||
		all["sent.ELECTION"]+all["sent.ANSWER"]+all["sent.COORDINATOR"] != 10*10-1 {
		t.Errorf("best %v worst %v all %v", best, worst, all)
	}
	if got := theoryOf(t, "bully", ids, map[string]any{"initiators": "n1"}); len(got) != 0 {
		t.Errorf("without the maximum crashed: %v", got)
	}
}

func TestCourseTheory(t *testing.T) {
	if got := theoryOf(t, "hs", seq(8, false), nil); got["sent.total"] != 8*8*4+8 || got["sent.ELECTED"] != 8 {
		t.Errorf("hs N=8: %v", got)
	}
	if got := theoryOf(t, "collect-ring", seq(5, false), nil); got["sent.COLLECT"] != 25 {
		t.Errorf("collect-ring all of 5: %v", got)
	}
	if got := theoryOf(t, "collect-ring", seq(5, false), map[string]any{"initiators": "n2,n4"}); got["sent.COLLECT"] != 10 {
		t.Errorf("collect-ring two of 5: %v", got)
	}
}
