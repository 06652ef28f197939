package lab

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/clusterlab/clusterlab/internal/membudget"
	"github.com/clusterlab/clusterlab/netsim"
)

// TestExitCodes: the table of exit.go, from what commands return.
func TestExitCodes(t *testing.T) {
	ee := &os.PathError{Op: "write", Path: "x.md", Err: syscall.ENOSPC}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{checkFailed(errors.New("an expectation failed")), 1},
		{errors.New("something unclassified"), 1},
		{badInput(errors.New("--until: found …")), 2},
		{resourceFailure(errors.New("a limit")), 3},
		{ioError("x.md", ee), 3},
		{fmt.Errorf("writing: %w", ee), 3}, // a full disk, however wrapped
		{fmt.Errorf("reading: %w", syscall.EIO), 3},
		{&membudget.Exceeded{What: "a world", Size: 3 << 30, Limit: 2 << 30, Estimate: true}, 3},
		{runFailure(&netsim.StormError{}), 3},
		{runFailure(fmt.Errorf("during the run: %w", &membudget.Exceeded{})), 3},
		{runFailure(errors.New("a scenario that does not resolve")), 2},
		{&exitError{130, errors.New("interrupted by SIGINT")}, 130},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
	// The path a user gave is named, whatever temporary file the error names.
	tmp := &os.PathError{Op: "write", Path: ".x.md.tmp-123", Err: syscall.ENOSPC}
	if got, want := ioError("x.md", tmp).Error(), "write x.md: no space left on device"; got != want {
		t.Errorf("ioError: %q, want %q", got, want)
	}
	// An error that names the path already is not told twice.
	taken := errors.New("x.md already exists; expected a new file name (or --force to overwrite)")
	if got := ioError("x.md", taken).Error(); got != taken.Error() {
		t.Errorf("ioError: %q, want %q", got, taken)
	}
}
