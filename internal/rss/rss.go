// Package rss reads the process's peak resident memory, for the benchmarks that
// report it: the kernel's high-water mark, which never comes down, so each such
// benchmark runs in a process of its own (scripts/bench).
package rss

import (
	"os"
	"strconv"
	"strings"
)

// PeakMB is the process's peak resident memory so far, in MB (Linux), or 0
// where the system does not say.
func PeakMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
