// Package fuzzbound bounds the wall time of one fuzz input, when scripts/fuzz asks
// for it. Go's fuzzer waits on an input that hangs without a word; a fuzz target
// that calls Input at its start instead stops the fuzzing process after the bound,
// and the fuzzer saves the input in testdata/fuzz and reports it. Plain `go test`
// runs (no FUZZ_MAX_INPUT_S) are never timed.
package fuzzbound

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// Env is the variable that sets the bound, in seconds.
const Env = "FUZZ_MAX_INPUT_S"

var bound = func() time.Duration {
	s, err := strconv.ParseFloat(os.Getenv(Env), 64)
	if err != nil || s <= 0 {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}()

// Input starts the clock of one input: call the returned function when the input is
// done. If it is not done within the bound, the process panics, naming the bound.
func Input() (done func()) {
	if bound == 0 {
		return func() {}
	}
	t := time.AfterFunc(bound, func() {
		panic(fmt.Sprintf("one input took over %v (%s)", bound, Env))
	})
	return func() { t.Stop() }
}
