//go:build unix

package sweep

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile is an advisory lock (flock) on a file: the kernel releases it when its
// process ends, however it ends.
type lockFile struct{ f *os.File }

// takeLock locks path, or says which process holds it.
func takeLock(path string) (*lockFile, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, ioErr(path, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder, _ := os.ReadFile(path)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &BadInput{fmt.Errorf("--out: another sweep (process %s) is writing %s; expected another folder, or wait for it to end", pid(holder), dirOf(path))}
			}
			return nil, ioErr(path, err)
		}
		// The holder before us may have removed the file as it ended: a lock on
		// a file no longer at path guards nothing. Take the one there now.
		if same(f, path) {
			f.Truncate(0)
			fmt.Fprintf(f, "%d\n", os.Getpid())
			return &lockFile{f}, nil
		}
		f.Close()
	}
}

// same reports whether f is the file at path.
func same(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// release removes the lock file and unlocks it.
func (l *lockFile) release() {
	if l == nil {
		return
	}
	os.Remove(l.f.Name())
	l.f.Close()
}
