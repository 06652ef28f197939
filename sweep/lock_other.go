//go:build !unix

package sweep

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// lockFile is a file created only if absent: a sweep killed part-way leaves it,
// and the next one names it to be removed by hand.
type lockFile struct{ f *os.File }

func takeLock(path string) (*lockFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		holder, _ := os.ReadFile(path)
		return nil, &BadInput{fmt.Errorf("--out: another sweep (process %s) is writing %s; expected another folder, or wait for it to end (remove %s if it was killed)", pid(holder), dirOf(path), path)}
	}
	if err != nil {
		return nil, ioErr(path, err)
	}
	fmt.Fprintf(f, "%d\n", os.Getpid())
	return &lockFile{f}, nil
}

func (l *lockFile) release() {
	if l == nil {
		return
	}
	l.f.Close()
	os.Remove(l.f.Name())
}
