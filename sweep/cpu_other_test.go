//go:build !unix

package sweep

import "time"

// processCPU is not measured here: the benchmark leaves out cpu-cost.
func processCPU() time.Duration { return 0 }
