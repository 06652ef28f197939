// Package race tells tests whether the race detector is on. Under it a program takes
// several times the memory, so the few tests that run a thousand processes shrink
// there (keeping `go test -race ./...` under 2 GB) and run whole in a plain pass of
// .ci/run.
package race
