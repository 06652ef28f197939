// Package all links every algorithm family into the registry. Import it for its
// side effect wherever the full list of algorithms is needed.
package all

import (
	_ "github.com/clusterlab/clusterlab/algos/detector" // ◊P and Ω
	_ "github.com/clusterlab/clusterlab/algos/election" // bully, ring, franklin, yoyo, raft
	_ "github.com/clusterlab/clusterlab/algos/mutex"    // central … quorum
)
