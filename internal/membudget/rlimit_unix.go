//go:build unix

package membudget

import (
	"math"
	"syscall"
)

// addressLimit is the process's address-space limit in bytes (ulimit -v, prlimit
// --as), 0 when there is none.
func addressLimit() uint64 {
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) != nil || rl.Cur == math.MaxUint64 {
		return 0
	}
	return rl.Cur
}
