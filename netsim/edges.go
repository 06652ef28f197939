package netsim

import "github.com/clusterlab/clusterlab/node"

// Edges lists the links of cfg's topology as pairs of ids, each once, the smaller
// index first, in index order: a ring's, a graph's given edges, or the random graph
// a degree draws from the seed (the same one New builds). A mesh has no list: every
// pair is linked, and Edges returns nil. The dashboard draws these links; the world
// keeps its own adjacency.
func Edges(cfg Config) [][2]node.ID {
	if cfg.Topology == "" || cfg.Topology == "mesh" {
		return nil
	}
	w := &World{cfg: cfg, index: make(map[node.ID]int, len(cfg.IDs))}
	for i, id := range cfg.IDs {
		w.index[id] = i
	}
	if err := w.buildTopology(); err != nil {
		return nil
	}
	var out [][2]node.ID
	for a, js := range w.adj {
		for _, b := range js {
			if int(b) > a {
				out = append(out, [2]node.ID{cfg.IDs[a], cfg.IDs[b]})
			}
		}
	}
	return out
}
