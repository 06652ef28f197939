package mutex

import (
	"slices"
	"testing"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

// start makes and starts process self of an n-process cluster running name.
func start(t *testing.T, name string, n int, self node.ID, params map[string]any) (*nodetest.Harness, []node.Effect) {
	t.Helper()
	ids := nodetest.IDs(n)
	h := nodetest.New(factory(t, name, ids, params), self, ids, 1)
	return h, h.Start()
}

// msg is a message literal.
func msg(typ string, stamp int64) node.Message { return node.Message{Type: typ, Stamp: stamp} }

// wantSends checks the exact messages of effs, in order.
func wantSends(t *testing.T, effs []node.Effect, want ...nodetest.Sent) {
	t.Helper()
	got := nodetest.Sends(effs)
	if !slices.Equal(got, want) {
		t.Fatalf("sent %v, want %v", got, want)
	}
}

func to(id node.ID, m node.Message) nodetest.Sent { return nodetest.Sent{To: id, Msg: m} }

func wantCS(t *testing.T, h *nodetest.Harness, want node.CSState) {
	t.Helper()
	if got := h.Status().CS; got != want {
		t.Fatalf("%v: cs = %v, want %v", h.ID, got, want)
	}
}

func wantCounter(t *testing.T, h *nodetest.Harness, name string, want int64) {
	t.Helper()
	got, ok := h.Status().Counter(name)
	if !ok || got != want {
		t.Fatalf("%v: counter %s = %d (present %v), want %d", h.ID, name, got, ok, want)
	}
}

func wantRole(t *testing.T, h *nodetest.Harness, want string) {
	t.Helper()
	if got := h.Status().Role; got != want {
		t.Fatalf("%v: role = %q, want %q", h.ID, got, want)
	}
}
