package detector

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

const ms1 = time.Millisecond

// build builds the registered algorithm name with the given parameters.
func build(name string, ids []node.ID, params map[string]any) (node.Factory, error) {
	spec, ok := algos.Lookup(name)
	if !ok {
		return nil, errors.New("not registered: " + name)
	}
	p, err := algos.NewParams(spec, params)
	if err != nil {
		return nil, err
	}
	return spec.Build(algos.Config{IDs: ids, Params: p})
}

// harness starts process self of n with the registered algorithm.
func harness(t *testing.T, name string, self node.ID, n int, params map[string]any) *nodetest.Harness {
	t.Helper()
	ids := nodetest.IDs(n)
	f, err := build(name, ids, params)
	if err != nil {
		t.Fatalf("build %s: %v", name, err)
	}
	return nodetest.New(f, self, ids, 1)
}

func ids(xs ...int) []node.ID {
	out := make([]node.ID, 0, len(xs))
	for _, x := range xs {
		out = append(out, node.ID(x))
	}
	return out
}

func wantSends(t *testing.T, effs []node.Effect, want ...nodetest.Sent) {
	t.Helper()
	got := nodetest.Sends(effs)
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("sends:\n got  %v\n want %v", got, want)
	}
}

// wantTimers checks the timers armed by effs (name → delay), in order.
func wantTimers(t *testing.T, effs []node.Effect, want ...any) {
	t.Helper()
	var got []any
	for _, e := range effs {
		if e.Kind == node.EffTimer {
			got = append(got, e.Name, e.Delay)
		}
	}
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("timers armed:\n got  %v\n want %v", got, want)
	}
}

func wantArmed(t *testing.T, h *nodetest.Harness, name string, at time.Duration) {
	t.Helper()
	got, ok := h.Armed(name)
	if !ok {
		t.Fatalf("timer %s not armed (armed: %v)", name, h.TimerNames())
	}
	if got != at {
		t.Fatalf("timer %s armed at %v, want %v", name, got, at)
	}
}

func wantSuspects(t *testing.T, st node.Status, want ...node.ID) {
	t.Helper()
	if len(st.Suspects) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(st.Suspects, want) {
		t.Fatalf("suspects %v, want %v", st.Suspects, want)
	}
}

func wantCounter(t *testing.T, st node.Status, name string, want int64) {
	t.Helper()
	got, ok := st.Counter(name)
	if !ok {
		t.Fatalf("no counter %q in %v", name, st.Counters)
	}
	if got != want {
		t.Fatalf("counter %s = %d, want %d", name, got, want)
	}
}

func wantLeader(t *testing.T, st node.Status, self, leader node.ID) {
	t.Helper()
	if st.Leader != leader {
		t.Fatalf("leader %v, want %v", st.Leader, leader)
	}
	role := "follower"
	if leader == self {
		role = "leader"
	}
	if st.Role != role {
		t.Fatalf("role %q, want %q (leader %v, self %v)", st.Role, role, leader, self)
	}
}

func req(round int64) node.Message { return node.Message{Type: MsgTestReq, Stamp: round} }
func rep(round int64) node.Message { return node.Message{Type: MsgTestRep, Stamp: round} }
func hb(seq int64) node.Message    { return node.Message{Type: MsgHeartbeat, Stamp: seq} }
func hbInc(inc int64) node.Message { return node.Message{Type: MsgHeartbeat, Term: inc} }
