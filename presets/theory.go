package presets

import (
	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
)

// Theory is the textbook's figures for a run of s resolved as cfg (see
// algos.Spec.Theory). Figures in message times ("T") are turned into seconds when
// every message takes the same time, and left out otherwise. Sweeps set them beside
// what they measure; a single run's report can too.
func (s *Scenario) Theory(cfg netsim.Config) ([]algos.Theory, error) {
	tc := algos.TheoryConfig{Config: algos.Config{IDs: cfg.IDs}, CrashRate: s.CrashRate()}
	var err error
	if tc.Params, err = algos.NewParams(cfg.Spec, s.Params); err != nil {
		return nil, err
	}
	if cfg.Net.Latency.Dist == "constant" && cfg.Net.GST == 0 {
		tc.Delay = cfg.Net.Latency.Mean
	}
	for _, st := range cfg.Script {
		if st.At == 0 && st.Action.Verb == "crash" {
			tc.Crashed = append(tc.Crashed, st.Action.Node)
		}
	}
	var out []algos.Theory
	for _, t := range algos.TheoryFor(cfg.Spec, tc) {
		if t.Unit == "T" {
			if tc.Delay == 0 {
				continue
			}
			t.Value *= tc.Delay.Seconds()
			t.Low *= tc.Delay.Seconds()
			t.Unit = "s"
		}
		out = append(out, t)
	}
	return out, nil
}
