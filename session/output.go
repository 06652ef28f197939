package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
)

// Output is a command's output file (`-o`, `--record`, the dashboard's R) while it
// is being written. The bytes go to a temporary file beside it, and only Commit
// gives it its name, so a failed or interrupted command leaves no partial or empty
// file, and an existing file is replaced whole or not at all.
type Output struct {
	path, tmp string
	force     bool
	mode      os.FileMode
	f         *os.File
	finished  atomic.Bool // by Commit or Abort, perhaps from a signal handler

	// written and started are how many bytes were written, and up to where the
	// disk was asked to take them (see Write).
	written, started int64
}

// pending holds the outputs not yet committed or aborted, so that a signal handler
// can remove their temporary files (RemovePending).
var pending = struct {
	sync.Mutex
	m map[*Output]bool
}{m: map[*Output]bool{}}

// CreateOutput starts writing path. It refuses a path that is the same file as one
// of inputs (compared by file identity, not by name, so a link or another spelling
// of an input is caught), even with force; a path that exists unless force; and a
// path that is not a regular file. Call Commit when the output is complete, and
// Abort otherwise (Abort after Commit does nothing, so it can be deferred).
func CreateOutput(path string, force bool, inputs ...string) (*Output, error) {
	mode, err := checkOutput(path, force, inputs)
	if err != nil {
		return nil, err
	}
	o := &Output{path: path, force: force, mode: mode}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	o.f, o.tmp = f, f.Name()
	pending.Lock()
	pending.m[o] = true
	pending.Unlock()
	return o, nil
}

// PartialSuffix ends the name of a recording while it is written (CreateRecording):
// NAME.partial, beside NAME.
const PartialSuffix = ".partial"

// CreateRecording is CreateOutput for a recording: the bytes go to PATH.partial,
// visible beside it (and readable by all, as the recording will be), instead of a
// hidden temporary file. A recording whose process is killed (SIGKILL, a power cut,
// a closed laptop) so keeps what it had, under a name that says what it is, and
// `verify --partial` reads it. Such a file left by an earlier run is never
// overwritten without force: the next recording to the same name is refused and
// says so.
func CreateRecording(path string, force bool, inputs ...string) (*Output, error) {
	mode, err := checkOutput(path, force, inputs)
	if err != nil {
		return nil, err
	}
	tmp := path + PartialSuffix
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(tmp, flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, partialLeft(path)
	}
	if err != nil {
		return nil, err
	}
	o := &Output{path: path, tmp: tmp, force: force, mode: mode, f: f}
	pending.Lock()
	pending.m[o] = true
	pending.Unlock()
	return o, nil
}

// CheckRecording refuses what CreateRecording refuses, creating nothing.
func CheckRecording(path string, force bool, inputs ...string) error {
	if _, err := checkOutput(path, force, inputs); err != nil {
		return err
	}
	if _, err := os.Lstat(path + PartialSuffix); err == nil && !force {
		return partialLeft(path)
	}
	return nil
}

// partialLeft is the refusal of a recording whose PATH.partial is there already.
func partialLeft(path string) error {
	p := path + PartialSuffix
	return fmt.Errorf("%s holds what a run recording to %s wrote before it was stopped without ending (killed, or still running); `clusterlab verify --partial %s` reads it: remove it, or give --force to replace it", p, path, p)
}

// CheckOutput refuses what CreateOutput refuses, creating nothing: for a writer that
// does not yet go through an Output.
func CheckOutput(path string, force bool, inputs ...string) error {
	_, err := checkOutput(path, force, inputs)
	return err
}

// checkOutput refuses an input, an existing file without force, and anything but a
// regular file; it returns the mode the output gets (an overwritten file's own).
func checkOutput(path string, force bool, inputs []string) (os.FileMode, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		// said in the lab's words, not as the temporary file's open error
		if dir := filepath.Dir(path); !isDir(dir) {
			return 0, fmt.Errorf("found no folder %s for %s; expected an existing folder", dir, filepath.Base(path))
		}
		return 0o644, nil
	case err != nil:
		return 0, err
	case !st.Mode().IsRegular():
		return 0, fmt.Errorf("found %s, which is not a regular file; expected a file name", path)
	}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return 0, fmt.Errorf("found %s, the same file as the input %s; expected another file name (an input is never overwritten, even with --force)", path, in)
		}
	}
	if !force {
		return 0, fmt.Errorf("%s already exists; expected a new file name (or --force to overwrite)", path)
	}
	return st.Mode().Perm(), nil
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// writeback is how many written bytes an Output gathers before it asks the disk to
// take them.
const writeback = 1 << 20

// Write writes to the temporary file. Every megabyte or so it asks the kernel to
// start writing what it has to disk, without waiting (see startWriteback): Commit's
// fsync then waits only for the last of it, instead of the whole file at the end
// of a recording. Write is called from one goroutine at a time (a recorder's writer).
func (o *Output) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	o.written += int64(n)
	if o.written-o.started >= writeback {
		startWriteback(o.f, o.started, o.written-o.started)
		o.started = o.written
	}
	return n, err
}

// Path is the name the output gets on Commit.
func (o *Output) Path() string { return o.path }

// Commit flushes the output to disk and gives it its name. Without force it still
// never replaces a file that appeared meanwhile.
func (o *Output) Commit() error {
	if !o.finish() {
		return errors.New(o.path + ": output already finished")
	}
	err := o.f.Chmod(o.mode)
	if err == nil {
		err = o.f.Sync()
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = o.rename()
	}
	if err != nil {
		os.Remove(o.tmp)
	}
	return err
}

func (o *Output) rename() error {
	if o.force {
		return os.Rename(o.tmp, o.path)
	}
	// A hard link fails if the name is taken, where a rename would replace it.
	err := os.Link(o.tmp, o.path)
	switch {
	case err == nil:
		return os.Remove(o.tmp)
	case errors.Is(err, os.ErrExist):
		return fmt.Errorf("%s already exists; expected a new file name (or --force to overwrite)", o.path)
	}
	// No hard links here: check, then rename.
	if _, err := os.Lstat(o.path); err == nil {
		return fmt.Errorf("%s already exists; expected a new file name (or --force to overwrite)", o.path)
	}
	return os.Rename(o.tmp, o.path)
}

// Abort drops the output: the temporary file is removed and path is left as it was.
func (o *Output) Abort() error {
	if !o.finish() {
		return nil
	}
	o.f.Close()
	return os.Remove(o.tmp)
}

// Keep ends a recording that could not be finished (a full disk, a file size
// limit) and leaves what it wrote as PATH.partial, where `verify --partial` reads
// it, instead of removing it as Abort does; it returns that file's name, or ""
// when the output was already finished.
func (o *Output) Keep() string {
	if !o.finish() {
		return ""
	}
	o.f.Close()
	return o.tmp
}

// finish marks the output done, and reports whether this call did it.
func (o *Output) finish() bool {
	if !o.finished.CompareAndSwap(false, true) {
		return false
	}
	pending.Lock()
	delete(pending.m, o)
	pending.Unlock()
	return true
}

// RemovePending aborts every output not yet committed. A command's signal handler
// calls it before exiting, so that an interrupted command leaves no temporary file.
func RemovePending() {
	pending.Lock()
	outs := make([]*Output, 0, len(pending.m))
	for o := range pending.m {
		outs = append(outs, o)
	}
	pending.Unlock()
	for _, o := range outs {
		o.Abort()
	}
}
