package lab

import (
	"errors"
	"strings"
	"syscall"

	"github.com/clusterlab/clusterlab/internal/membudget"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/sweep"
)

// The exit codes, one table for every command (docs/exit-codes.md):
//
//	0    all went well
//	1    a check ran and failed: an expectation, a verification, a run of a sweep
//	2    bad input: a flag, a scenario or sweep file, a recording that is not one
//	3    a resource ran out or an output failed: the memory budget, the event-storm
//	     guard, a full disk, a write error (the message names the path)
//	129  SIGHUP, 130 SIGINT, 143 SIGTERM: 128 + the signal's number
const (
	exitOK       = 0
	exitFailed   = 1
	exitBadInput = 2
	exitResource = 3
)

// exitError carries an exit code; the constructors below make them.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// checkFailed is a check that ran and did not hold: exit 1.
func checkFailed(err error) error { return &exitError{exitFailed, err} }

// badInput is input that cannot be used as given: exit 2.
func badInput(err error) error { return &exitError{exitBadInput, err} }

// resourceFailure is a limit reached or a resource run out: exit 3.
func resourceFailure(err error) error { return &exitError{exitResource, err} }

// signalled is a command stopped by the signal s: exit 128 + its number.
func signalled(s syscall.Signal, err error) error { return &exitError{128 + int(s), err} }

// ioError is a file that could not be written (or read): exit 3, with the path
// the user gave named in place of whatever temporary file the system's error
// names ("write x.md: no space left on device"); every command's outputs, sweep's
// too.
func ioError(path string, err error) error {
	if rest, ok := strings.CutPrefix(err.Error(), path); ok && (rest == "" || rest[0] == ':' || rest[0] == ' ') {
		return resourceFailure(err) // it says which already
	}
	return resourceFailure(&sweep.IOError{Path: path, Err: err})
}

// exitCode is the exit status for what a command returned. Errors that carry no
// code of their own are read for what they are: the memory budget and the disk's
// own failures exit 3, the rest 1.
func exitCode(err error) int {
	var ee *exitError
	var over *membudget.Exceeded
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &over), diskError(err):
		return exitResource
	}
	return exitFailed
}

// diskError reports whether err is the system's refusal to store more or to
// write at all.
func diskError(err error) bool {
	for _, e := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EIO, syscall.EROFS, syscall.EFBIG} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// runFailure is why a run stopped early: a limit (the event-storm guard, the memory
// budget) exits 3, anything else is the scenario's fault and exits 2.
func runFailure(err error) error {
	var storm *netsim.StormError
	var over *membudget.Exceeded
	if errors.As(err, &storm) || errors.As(err, &over) {
		return resourceFailure(err)
	}
	return badInput(err)
}
