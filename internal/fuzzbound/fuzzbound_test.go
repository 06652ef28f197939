package fuzzbound

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestInputOverBound runs an input that never ends in a child process with a bound
// of 0.2 s: the child must stop with a panic that names the bound, long before the
// input would end.
func TestInputOverBound(t *testing.T) {
	if os.Getenv("FUZZBOUND_CHILD") != "" {
		done := Input()
		time.Sleep(time.Minute)
		done()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestInputOverBound$")
	cmd.Env = append(os.Environ(), "FUZZBOUND_CHILD=1", Env+"=0.2")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "one input took over 200ms (FUZZ_MAX_INPUT_S)") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
