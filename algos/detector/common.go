package detector

import (
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// idSet is a set of process ids kept sorted, so that iterating it (and reporting it
// as Status.Suspects) never depends on map order. Clusters are small: linear scans
// are cheaper than anything cleverer.
type idSet []node.ID

func (s idSet) has(p node.ID) bool {
	for _, q := range s {
		if q == p {
			return true
		}
		if q > p {
			return false
		}
	}
	return false
}

// add inserts p in order and reports whether it was new.
func (s *idSet) add(p node.ID) bool {
	i := 0
	for i < len(*s) && (*s)[i] < p {
		i++
	}
	if i < len(*s) && (*s)[i] == p {
		return false
	}
	*s = append(*s, 0)
	copy((*s)[i+1:], (*s)[i:])
	(*s)[i] = p
	return true
}

// remove deletes p and reports whether it was there.
func (s *idSet) remove(p node.ID) bool {
	for i, q := range *s {
		if q == p {
			*s = append((*s)[:i], (*s)[i+1:]...)
			return true
		}
	}
	return false
}

// others lists the processes of env other than itself, in env.Peers() order.
func others(env *node.Env) []node.ID {
	var out []node.ID
	for _, p := range env.Peers() {
		if p != env.Self() {
			out = append(out, p)
		}
	}
	return out
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// The kinds of ◊P detector a host can compose.
const (
	KindHeartbeat = "heartbeat"
	KindPull      = "pull"
)

// FDConfig selects and tunes a ◊P detector for a host algorithm (omega, or an
// election that skips suspected processes).
type FDConfig struct {
	Kind     string        // KindHeartbeat or KindPull
	Interval time.Duration // heartbeat period, or pull's initial monitoring interval
	Timeout  time.Duration // heartbeat: initial per-peer timeout (unused by pull)
	Delta    time.Duration // growth after each false suspicion
}

// FDParams are the parameters a host declares to compose a detector: "detector"
// (default def, "heartbeat" or "pull"), "interval", "timeout" and "delta". Append
// them to the host's Spec.Params and read them back with ReadFDConfig.
func FDParams(def string) []algos.Param {
	return []algos.Param{
		{Name: "detector", Default: def, Doc: `the ◊P detector composed: "heartbeat" (heartbeat-dp) or "pull" (pull-dp, Alg. 5.1)`},
		{Name: "interval", Default: "100ms", Doc: "heartbeat period, or pull's initial monitoring interval", Min: "1µs"},
		{Name: "timeout", Default: "250ms", Doc: "heartbeat only: initial timeout per peer after its last heartbeat", Min: "1µs"},
		{Name: "delta", Default: "50ms", Doc: "Δ: how much a timeout grows after each false suspicion"},
	}
}

// ReadFDConfig validates the parameters declared by FDParams. Every one is checked,
// even those the chosen kind does not use, so that a typo never passes silently.
func ReadFDConfig(p algos.Params) (FDConfig, error) {
	var c FDConfig
	var err error
	if c.Kind, err = p.String("detector", KindHeartbeat, KindPull); err != nil {
		return c, err
	}
	if c.Interval, err = p.Duration("interval"); err != nil {
		return c, err
	}
	if c.Timeout, err = p.Duration("timeout"); err != nil {
		return c, err
	}
	if c.Delta, err = p.Duration("delta"); err != nil {
		return c, err
	}
	return c, nil
}

// New makes a fresh detector (one per incarnation of the host).
func (c FDConfig) New() FD {
	if c.Kind == KindPull {
		return NewPull(c.Interval, c.Delta)
	}
	return NewHeartbeat(c.Interval, c.Timeout, c.Delta)
}
