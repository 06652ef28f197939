package session

import (
	"os"
	"syscall"
)

// startWriteback asks Linux to start writing bytes [off, off+n) of f to disk, and
// returns without waiting for it (sync_file_range with SYNC_FILE_RANGE_WRITE). It
// only moves work earlier: what makes the file durable is still Commit's fsync, so
// its error is of no use and ignored.
func startWriteback(f *os.File, off, n int64) {
	const syncFileRangeWrite = 2 // SYNC_FILE_RANGE_WRITE, linux/fs.h
	if c, err := f.SyscallConn(); err == nil {
		c.Control(func(fd uintptr) { syscall.SyncFileRange(int(fd), off, n, syncFileRangeWrite) })
	}
}
