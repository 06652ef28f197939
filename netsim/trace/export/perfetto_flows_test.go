package export

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// TestPerfettoFlowsAnyLatency checks the structure of the Perfetto export
// (checkPerfetto) of random traces where messages are delivered in the µs they
// are sent or later, duplicated, dropped, sent to self or never delivered, whole
// and in a window: a flow whose delivery is in its send's µs has its start made
// with the delivery, the others with the send. The whole trace draws a flow for
// each delivery to another node.
func TestPerfettoFlowsAnyLatency(t *testing.T) {
	windows := 0
	for k := range 200 {
		r := rand.New(rand.NewSource(int64(k)))
		tr := &trace.Trace{Header: trace.Header{Format: trace.Format, Version: trace.Version,
			Info: trace.Info{Name: "x", Algorithm: "bully", Family: "election", IDs: []node.ID{1, 2, 3, 4}}}}
		type ev struct {
			e   trace.Event
			ord int
		}
		var evs []ev
		mid := uint64(0)
		for i := 0; i < 60; i++ {
			t0 := int64(r.Intn(50))
			from, to := node.ID(1+r.Intn(4)), node.ID(1+r.Intn(4))
			mid++
			msg := &node.Message{Type: []string{"A", "B"}[r.Intn(2)]}
			evs = append(evs, ev{trace.Event{T: t0, Ev: trace.Send, From: from, To: to, MID: mid, Msg: msg}, 2 * i})
			copies := 1
			if r.Intn(4) == 0 {
				copies = 2 + r.Intn(2)
			}
			if r.Intn(8) == 0 {
				copies = 0
			}
			for c := 0; c < copies; c++ {
				d := t0 + int64(r.Intn(3)) // often the same µs
				kind := trace.Deliver
				if r.Intn(6) == 0 {
					kind = trace.Drop
				}
				evs = append(evs, ev{trace.Event{T: d, Ev: kind, From: from, To: to, MID: mid, Msg: msg, Local: from == to, Reason: "loss"}, 2*i + 1 + 1000*c})
			}
		}
		sort.SliceStable(evs, func(a, b int) bool {
			if evs[a].e.T != evs[b].e.T {
				return evs[a].e.T < evs[b].e.T
			}
			return evs[a].ord < evs[b].ord
		})
		for _, x := range evs {
			x.e.Seq = uint64(len(tr.Events) + 1)
			tr.Events = append(tr.Events, x.e)
		}
		deliveries := 0
		for _, e := range tr.Events {
			if e.Ev == trace.Deliver && !e.Local {
				deliveries++
			}
		}
		name := fmt.Sprintf("trace %d", k)
		if flows, _ := checkPerfetto(t, name, export(t, tr, Flags{Format: "perfetto"})); flows != deliveries {
			t.Errorf("%s: %d flows, want one a delivery to another node: %d", name, flows, deliveries)
		}
		if out, err := exportErr(tr, Flags{Format: "perfetto", From: "10us", To: "30us", Nodes: "n1,n2,n3"}); err == nil {
			checkPerfetto(t, name+" window", out)
			windows++
		}
	}
	if windows == 0 {
		t.Error("no window of 10 to 30 µs exported")
	}
}
