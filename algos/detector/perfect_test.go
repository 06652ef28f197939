package detector

import (
	"slices"
	"testing"

	"github.com/clusterlab/clusterlab/node"
)

func TestPerfectTakesTheWorldsNotices(t *testing.T) {
	h := harness(t, "perfect", 1, 4, nil)
	if effs := h.Start(); len(effs) != 0 {
		t.Fatalf("P sends and arms nothing, got %v", effs)
	}
	h.Request("crashed n3")
	h.Request("crashed n2")
	h.Request("crashed n3") // a repeat changes nothing
	if got := h.Status().Suspects; !slices.Equal(got, []node.ID{2, 3}) {
		t.Fatalf("suspects %v, want [n2 n3]", got)
	}
	h.Request("recovered n3")
	h.Request("election") // not a notice
	h.Request("crashed")  // malformed: ignored
	if got := h.Status().Suspects; !slices.Equal(got, []node.ID{2}) {
		t.Fatalf("suspects %v, want [n2]", got)
	}
	if st := h.Status(); st.Role != "monitor" || len(st.Counters) != 0 {
		t.Fatalf("status %+v, want role monitor and no counters", st)
	}
}

func TestPerfectDetectMustBePositive(t *testing.T) {
	if _, err := build("perfect", ids(1, 2), map[string]any{"detect": "0s"}); err == nil {
		t.Fatal("detect = 0s accepted")
	}
}
