package all

import (
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// TestListedRangesHold: every duration parameter that `clusterlab algos` lists
// as starting at its lowest value is accepted at that value; the listing said
// "0s to 1h" for intervals that 0s was refused for.
func TestListedRangesHold(t *testing.T) {
	ids := []node.ID{1, 2, 3, 4, 5}
	for _, s := range algos.All() {
		for _, p := range s.Params {
			lo, _, ok := p.Bounds()
			if !ok {
				continue
			}
			if _, err := time.ParseDuration(p.Default); err != nil {
				continue
			}
			if _, _, err := algos.Build(s.Name, ids, map[string]any{p.Name: lo}); err != nil {
				t.Errorf("%s: %s = %q, the lowest of the range listed, is refused: %v", s.Name, p.Name, lo, err)
			}
		}
	}
}
