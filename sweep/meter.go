package sweep

import (
	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// Meter measures one run the way a sweep does, for a tool that runs worlds of its
// own (check): record the run into it, then read the metrics, named as
// results.csv names them, with the run's summary.
type Meter struct {
	c    *collector
	cols []string
}

// NewMeter makes a meter for a run of cfg.
func NewMeter(cfg netsim.Config) *Meter {
	return &Meter{c: newCollector(cfg.IDs, true), cols: columns([]algos.Spec{cfg.Spec})}
}

// Record measures e.
func (m *Meter) Record(e *trace.Event) { m.c.Record(e) }

// Hash is the hash of the events recorded, as a recording's (trace.Hasher).
func (m *Meter) Hash() string { return m.c.hash.Sum() }

// Values is the run's metrics, once it is over and s is its summary.
func (m *Meter) Values(s *netsim.Summary) map[string]float64 { return measure(m.cols, m.c, s) }
