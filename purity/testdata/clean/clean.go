// Package clean does what the pass allows: the same things the right way.
package clean

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

var names = map[string]int{"a": 1} // read only

var registered bool

func init() { registered = true }

type alg struct {
	seen  map[node.ID]bool
	order []node.ID
	rng   *rand.Rand
	delay time.Duration
}

func (a *alg) Step(env *node.Env, ev node.Event) {
	a.rng = rand.New(rand.NewPCG(1, 2)) // a source of its own
	for _, id := range slices.Sorted(maps.Keys(a.seen)) {
		env.Send(id, node.Message{Type: "PING"})
	}
	var ids []node.ID
	for id := range a.seen {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var more []node.ID
	for id := range a.seen {
		more = append(more, id)
	}
	sort.Slice(more, func(i, j int) bool { return more[i] < more[j] })
	count := 0
	for range a.seen { // the order does not matter
		count++
	}
	for id := range a.seen {
		local := []node.ID{}
		local = append(local, id)
		_ = local
	}
	env.Logf("%s", fmt.Sprint(count, names["a"], time.Duration(5)*time.Millisecond))
	env.After(a.delay, "tick")
}

func (a *alg) Status() node.Status { return node.Status{} }
