package netsim

import (
	"slices"
	"testing"

	"github.com/clusterlab/clusterlab/node"
)

// TestEdges checks the links Edges lists against the world's own adjacency: a ring
// of 5, given edges, and a random graph drawn from the seed.
func TestEdges(t *testing.T) {
	ids := []node.ID{1, 2, 3, 4, 5}
	for _, cfg := range []Config{
		{IDs: ids, Topology: "ring"},
		{IDs: ids, Topology: "graph", Edges: [][2]node.ID{{1, 3}, {3, 5}, {2, 4}}},
		{IDs: ids, Topology: "graph", Degree: 2, Seed: 7},
	} {
		es := Edges(cfg)
		w := &World{cfg: cfg, index: map[node.ID]int{}}
		for i, id := range ids {
			w.index[id] = i
		}
		if err := w.buildTopology(); err != nil {
			t.Fatal(err)
		}
		links := 0
		for a := range ids {
			for b := a + 1; b < len(ids); b++ {
				if w.linked(a, b) {
					links++
				}
			}
		}
		if len(es) != links {
			t.Errorf("%s: %d edges listed, the world links %d pairs: %v", cfg.Topology, len(es), links, es)
		}
		for _, e := range es {
			if !w.linked(w.index[e[0]], w.index[e[1]]) {
				t.Errorf("%s: edge %v is not a link of the world", cfg.Topology, e)
			}
		}
	}
	if !slices.Contains(Edges(Config{IDs: ids, Topology: "ring"}), [2]node.ID{1, 5}) {
		t.Errorf("ring edges %v: want n1-n5 closing the ring", Edges(Config{IDs: ids, Topology: "ring"}))
	}
	if Edges(Config{IDs: ids, Topology: "mesh"}) != nil {
		t.Error("a mesh lists edges, want nil")
	}
}
