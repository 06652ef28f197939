package lab

import (
	"fmt"
	"io"

	"github.com/clusterlab/clusterlab/presets"
)

// warnScenario says, one line each on w, what the scenario asks for that the lab
// does differently (a latency above Δ, cut to Δ after GST).
func warnScenario(w io.Writer, s *presets.Scenario) {
	for _, x := range s.Warnings() {
		fmt.Fprintf(w, "clusterlab: %s\n", ui.F(x.Key, append([]any{x.At}, x.Args...)...))
	}
}
