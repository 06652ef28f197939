package lab

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/clusterlab/clusterlab/internal/termtext"
)

// stdout is what the commands print to: the process's standard output, with the
// first write error kept, so that a summary lost to a full disk (sim > /dev/full)
// or a failing device exits 3 with its cause instead of 0. Every print of the
// command line goes through it.
var stdout = &checkedWriter{w: os.Stdout}

type checkedWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.err = err
	return n, err
}

// failed is the first write error, or nil.
func (c *checkedWriter) failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// outf and outln print a command's lines to stdout through the sanitiser: the lines
// quote files (a recording's name, a finding's story, an algorithm's description),
// whose control characters are shown escaped rather than run by the terminal.
func outf(format string, a ...any) { io.WriteString(stdout, termtext.Text(fmt.Sprintf(format, a...))) }

func outln(a ...any) { io.WriteString(stdout, termtext.Text(fmt.Sprintln(a...))) }
