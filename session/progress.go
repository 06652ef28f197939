package session

import (
	"fmt"
	"io"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
)

// Progress is where a headless run stands.
type Progress struct {
	Now, Until time.Duration // virtual time
	Events     uint64
	Wall       time.Duration // since the run started
}

// ProgressLine shows a long run's progress as one line rewritten in place on a
// terminal: virtual time, events per second and the time left. It stays silent for
// the first half second, so short runs print nothing.
type ProgressLine struct {
	Out   io.Writer
	shown bool
	last  time.Duration
}

// Report rewrites the line, at most five times a wall second.
func (l *ProgressLine) Report(p Progress) {
	if p.Wall < 500*time.Millisecond || (l.shown && p.Wall-l.last < 200*time.Millisecond) {
		return
	}
	l.shown, l.last = true, p.Wall
	fmt.Fprintf(l.Out, "\r\x1b[K%s", p)
}

// Clear erases the line, if it was shown.
func (l *ProgressLine) Clear() {
	if l.shown {
		fmt.Fprint(l.Out, "\r\x1b[K")
		l.shown = false
	}
}

// String is the progress line's text: "t=3.2s of 20s (16%) · 1,234,567 events/s · 12s left".
func (p Progress) String() string {
	pct, left := 100.0, "—"
	if p.Until > 0 {
		pct = 100 * float64(p.Now) / float64(p.Until)
	}
	if p.Now > 0 && p.Now < p.Until {
		rest := time.Duration(float64(p.Wall) * float64(p.Until-p.Now) / float64(p.Now))
		left = rest.Round(time.Second).String() + " left"
	}
	rate := 0.0
	if p.Wall > 0 {
		rate = float64(p.Events) / p.Wall.Seconds()
	}
	return fmt.Sprintf("t=%v of %v (%.0f%%) · %s events/s · %s", p.Now.Round(time.Millisecond), p.Until, pct, netsim.Thousands(int(rate)), left)
}
