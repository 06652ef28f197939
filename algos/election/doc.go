// Package election holds the leader-election algorithms of the course notes: Bully
// (Garcia-Molina 1982), the Chang-Roberts ring (1979), Franklin's bidirectional ring
// (1982), Hirschberg and Sinclair's tournament (1980), Yo-Yo on any connected graph
// (Santoro), and Raft-style terms (Ongaro & Ousterhout 2014, the election only). Each is a pure state machine reacting to one
// event at a time; each reports its role, its believed leader and, where it has one,
// its term, and accepts the user request "election".
package election

import (
	"slices"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Request is the user request that starts an election at a process.
const Request = "election"

// initiatorsParam documents the `initiators` parameter with a default.
func initiatorsParam(def, doc string) algos.Param {
	return algos.Param{Name: "initiators", Default: def,
		Doc: `nodes that start an election at time 0: "all", "none" or a list such as ["n1"]; ` + doc}
}

// initiatorSet reads `initiators` into a membership test.
func initiatorSet(c algos.Config) (func(node.ID) bool, error) {
	ids, err := c.Params.Nodes("initiators", c.IDs)
	if err != nil {
		return nil, err
	}
	return func(id node.ID) bool { return slices.Contains(ids, id) }, nil
}

// maxID is the highest id of ids.
func maxID(ids []node.ID) node.ID { return slices.Max(ids) }

// roleFor names a process's role from whether it leads.
func roleFor(self, leader node.ID, otherwise string) string {
	if leader == self && self != node.None {
		return "leader"
	}
	return otherwise
}

// ringNeighbours are self's predecessor (left) and successor (right) in the ring
// order of env.Peers().
func ringNeighbours(env *node.Env, self node.ID) (left, right node.ID) {
	peers := env.Peers()
	i := env.Index() // self is env.Self(); finding it in Peers() would cost O(N) a message
	n := len(peers)
	return peers[(i+n-1)%n], peers[(i+1)%n]
}
