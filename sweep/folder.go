package sweep

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// BadInput marks errors in what the user gave (exit code 2).
type BadInput struct{ Err error }

func (e *BadInput) Error() string { return e.Err.Error() }

// IOError is a file that could not be written or read: a full disk, no
// permission (exit code 3).
type IOError struct {
	Path string
	Err  error
}

func (e *IOError) Error() string {
	var pe *fs.PathError
	if errors.As(e.Err, &pe) {
		return fmt.Sprintf("%s %s: %v", pe.Op, e.Path, pe.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *IOError) Unwrap() error { return e.Err }

func ioErr(path string, err error) error {
	if err == nil {
		return nil
	}
	return &IOError{path, err}
}

// folder is an output folder being written. Its files are written into a hidden
// temporary folder inside it, then renamed into place, results.csv last: a folder
// holds a sweep's results.csv only once every other file is whole. A lock file
// beside them refuses a second sweep writing the same folder; the lock ends with
// its process, so a sweep killed part-way leaves nothing that refuses the next.
type folder struct {
	dir  string
	tmp  string
	lock *lockFile
}

const (
	lockName  = ".sweep.lock"
	tmpPrefix = ".sweep-tmp-"
)

// openFolder prepares dir for a sweep's outputs: it refuses a file, a folder that
// holds an earlier sweep's results (unless force) and a folder another sweep is
// writing.
func openFolder(dir string, force bool) (*folder, error) {
	underFile := &BadInput{fmt.Errorf("--out: %s lies under a file; expected a folder for the outputs", dir)}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, &BadInput{fmt.Errorf("--out: %s is a file; expected a folder for the outputs (a new one, or an earlier sweep's with --force)", dir)}
	} else if errors.Is(err, syscall.ENOTDIR) {
		return nil, underFile
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, ioErr(dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return nil, underFile
		}
		return nil, ioErr(dir, err)
	}
	lock, err := takeLock(filepath.Join(dir, lockName))
	if err != nil {
		return nil, err
	}
	f := &folder{dir: dir, lock: lock}
	if _, err := os.Stat(filepath.Join(dir, ResultsFile)); err == nil && !force {
		f.abort()
		return nil, &BadInput{fmt.Errorf("--out: %s already holds a sweep's results; expected a new folder (or --force to overwrite)", dir)}
	}
	// What a sweep killed part-way left: nobody else holds the lock, so no one
	// writes there.
	if old, err := filepath.Glob(filepath.Join(dir, tmpPrefix+"*")); err == nil {
		for _, o := range old {
			os.RemoveAll(o)
		}
	}
	if f.tmp, err = os.MkdirTemp(dir, tmpPrefix); err != nil {
		f.abort()
		return nil, ioErr(dir, err)
	}
	return f, nil
}

// path is where the output name is written until commit.
func (f *folder) path(name string) string { return filepath.Join(f.tmp, name) }

// final is where the output name ends up: what messages name.
func (f *folder) final(name string) string { return filepath.Join(f.dir, name) }

// write writes the output name whole.
func (f *folder) write(name string, data []byte) error {
	return ioErr(f.final(name), os.WriteFile(f.path(name), data, 0o644))
}

// commit renames every file written into place, results.csv last, and removes the
// temporary folder and the lock.
func (f *folder) commit() error {
	entries, err := os.ReadDir(f.tmp)
	if err != nil {
		return ioErr(f.tmp, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.SortStableFunc(names, func(a, b string) int {
		switch {
		case a == ResultsFile:
			return 1
		case b == ResultsFile:
			return -1
		}
		return strings.Compare(a, b)
	})
	for _, n := range names {
		if err := os.Rename(filepath.Join(f.tmp, n), filepath.Join(f.dir, n)); err != nil {
			return ioErr(filepath.Join(f.dir, n), err)
		}
	}
	f.abort()
	return nil
}

// abort removes the temporary folder and the lock.
func (f *folder) abort() {
	if f.tmp != "" {
		os.RemoveAll(f.tmp)
	}
	f.lock.release()
}

// pid reads the process id a lock file holds ("?" when it holds none yet).
func pid(holder []byte) string {
	if s := strings.TrimSpace(string(holder)); s != "" {
		return s
	}
	return "?"
}

func dirOf(lock string) string { return filepath.Dir(lock) }
