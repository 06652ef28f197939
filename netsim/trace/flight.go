package trace

import "github.com/clusterlab/clusterlab/node"

// Flight is a message on its way: sent, and neither delivered nor dropped yet.
// A live world lists them all (netsim.World.Flights), so that the dashboard can
// select one whatever its age: a snapshot's recent events show only those sent
// in its last RecentCap events.
type Flight struct {
	MID      uint64
	From, To node.ID
	Type     string
	Due      int64 // when it is to be delivered, µs; for a held one, when it was
	Held     bool  // it waits on a held link (hold a->b) for its release
}
