package session

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/internal/membudget"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// hog is a sink that grows with the run, as a leak would.
type hog struct{ held [][]byte }

func (h *hog) Record(*trace.Event) {
	if len(h.held) < 128 {
		h.held = append(h.held, make([]byte, 1<<20))
	}
}

// TestRunStopsOverBudget: a run whose heap passes the memory budget while it goes
// on stops between two slices with the budget's error, which says at what point of
// the run, instead of growing on.
func TestRunStopsOverBudget(t *testing.T) {
	_, cfg, err := Open(Source{Preset: "dp-gst"})
	if err != nil {
		t.Fatal(err)
	}
	defer membudget.Set(0)
	membudget.Set(membudget.Floor)
	h := &hog{}
	_, _, err = RunContext(context.Background(), cfg, 0, h, nil)
	var ex *membudget.Exceeded
	if !errors.As(err, &ex) || !strings.Contains(err.Error(), "while the run went on (at t=") {
		t.Fatalf("got %v, want the run stopped by the budget", err)
	}
	if len(h.held) == 128 {
		t.Error("the run went on to the end of its growth")
	}
}

// TestNeedFold: a header that says a million nodes is refused before anything is
// folded, with what folding it would take.
func TestNeedFold(t *testing.T) {
	defer membudget.Set(0)
	membudget.Set(256 << 20)
	h := trace.Header{Info: trace.Info{IDs: make([]node.ID, 1_000_000)}}
	err := needFold("x.jsonl", h, 3)
	if err == nil || !strings.Contains(err.Error(), "memory budget: folding x.jsonl, whose header says 1,000,000 nodes, needs about 916 MiB") {
		t.Fatalf("got %v", err)
	}
	if err := needFold("x.jsonl", trace.Header{Info: trace.Info{IDs: make([]node.ID, 1000)}}, 3); err != nil {
		t.Fatalf("a thousand nodes: %v", err)
	}
}
