package election

import (
	"slices"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

func TestMaxAliveFollowsTheNotices(t *testing.T) {
	h := labHarness(t, "max-alive", 2, labSeq(5), nil)
	labSends(t, h.Start(), nil)
	labStatus(t, h, "follower", 5, 0)
	// P's notices, as the world hands them: the leader is the highest id left.
	labSends(t, h.Request("crashed n5"), nil)
	labStatus(t, h, "follower", 4, 0)
	labSends(t, h.Request("crashed n3"), nil)
	labStatus(t, h, "follower", 4, 0)
	labSends(t, h.Request("crashed n4"), nil)
	labStatus(t, h, "leader", 2, 0)
	if got := h.Status().Suspects; !slices.Equal(got, []node.ID{3, 4, 5}) {
		t.Fatalf("suspects %v, want [n3 n4 n5]", got)
	}
	labSends(t, h.Request("recovered n5"), nil)
	labStatus(t, h, "follower", 5, 0)
	// A user's election request is not a notice: nothing changes.
	labSends(t, h.Request("election"), nil)
	labStatus(t, h, "follower", 5, 0)
	labCounter(t, h, "leader_changes", 4)
}

// TestMaxAliveNewLeaderAfterExactlyDetect: the coordinator crashes at 1s; with
// detect = 100ms every live process still names it until 1.1s and the next one from
// 1.1s on, having sent no message at all. The standalone detector `perfect`
// completes the detection (everyone suspects the crashed one) after exactly detect.
func TestMaxAliveNewLeaderAfterExactlyDetect(t *testing.T) {
	params := map[string]any{"detect": "100ms"}
	run := func(algo string, until time.Duration) *netsim.World {
		return labWorld{ids: labSeq(5), script: []string{"1s crash n5", "3s crash n2"}}.run(t, algo, params, until)
	}
	labAgree(t, run("max-alive", 1100*time.Millisecond), 5) // events before 1.1s
	labAgree(t, run("max-alive", 1100*time.Millisecond+time.Microsecond), 4)
	end := run("max-alive", 5*time.Second)
	labAgree(t, end, 4)
	if got := len(end.Summary().Messages); got != 0 {
		t.Errorf("max-alive sent messages of %d types, want none", got)
	}
	ds := run("perfect", 5*time.Second).Summary().Detector.Detections
	if len(ds) != 2 {
		t.Fatalf("detections %+v, want two", ds)
	}
	for _, d := range ds {
		if !d.Detected || d.LatencyMS != 100 {
			t.Errorf("crash of %v: detected %v after %vms, want after exactly 100ms", d.Node, d.Detected, d.LatencyMS)
		}
	}
}
