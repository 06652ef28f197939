package tui

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Seeker is a Controller that plays a recording back (session.Replay): it can move
// to any point of it. When the Controller given to New or Run is also a Seeker, the
// dashboard is in replay mode: ReplayKeyMap's keys, a progress bar of virtual time
// under the header, and no key that would change the cluster.
type Seeker interface {
	// SeekTime shows the state at virtual time t (µs): every event at or before t.
	SeekTime(t int64)
	// StepEvents moves by d events (negative: back).
	StepEvents(d int)
	// NextMark moves to the next (dir > 0) or previous (dir < 0) marker, fault,
	// alert or leader change, and reports whether there was one.
	NextMark(dir int) bool
	// Pos is how many events are shown, and the virtual time shown (µs).
	Pos() (events int, clock int64)
	// Len is the number of events in the recording.
	Len() int
	// End is the virtual time of the last event, µs.
	End() int64
	// Marks lists the times (µs) of markers, faults, alerts and leader changes.
	Marks() []int64
}

// replayState is what the progress bar shows, pulled from the Seeker on refresh
// (View never calls the controller).
type replayState struct {
	pos   int     // events shown
	n     int     // events in the recording
	end   int64   // time of the last event, µs
	marks []int64 // times of markers, faults, alerts and leader changes, µs
}

// pull refreshes the state from s; the marks are fetched again only when the
// recording's length changes.
func (r *replayState) pull(s Seeker) (clock int64) {
	r.pos, clock = s.Pos()
	if n := s.Len(); n != r.n || r.marks == nil {
		r.n, r.end, r.marks = n, s.End(), s.Marks()
		if r.marks == nil {
			r.marks = []int64{}
		}
	}
	return clock
}

// atEnd reports whether every event is shown.
func (r *replayState) atEnd() bool { return r.pos >= r.n }

// progressPane is the replay's progress bar: one line with the virtual time shown,
// a bar of the whole recording with its marks, the end time and the event count.
type progressPane struct {
	st *Styles
	w  int
}

func (p *progressPane) SetSize(w, _ int) { p.w = w }

// View renders one line of exactly p.w cells for time t (µs, the snapshot's).
func (p *progressPane) View(r replayState, t int64, paused bool) string {
	st := p.st
	glyph := "▶"
	if paused {
		glyph = "⏸"
	}
	left := " " + glyph + " " + leftPad(fmtT(t), len(fmtT(r.end))) + " "
	n := strconv.Itoa(r.n)
	rights := []string{ // of a fixed width, so that the marks stay put
		" " + fmtT(r.end) + " · " + st.T("tui.replay.event") + " " + leftPad(strconv.Itoa(r.pos), len(n)) + "/" + n + " ",
		" " + fmtT(r.end) + " ",
		" ",
	}
	// the bar gets what is left; the right-hand labels go first when it is short
	right := rights[len(rights)-1]
	for _, x := range rights {
		if p.w-ansi.StringWidth(left)-ansi.StringWidth(x) >= 12 {
			right = x
			break
		}
	}
	bw := p.w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if bw < 3 {
		return fit(st.Title.Render(left), p.w)
	}
	return st.Title.Render(left) + p.bar(r, t, bw) + st.Muted.Render(right)
}

// bar draws the recording as w cells: played ━, to come ─, ▾ at each mark and ▮
// where t is.
func (p *progressPane) bar(r replayState, t int64, w int) string {
	st := p.st
	cell := func(x int64) int {
		if r.end <= 0 {
			return 0
		}
		c := int(math.Round(float64(min(max(x, 0), r.end)) / float64(r.end) * float64(w-1)))
		return min(max(c, 0), w-1)
	}
	cur := cell(t)
	marked := make([]bool, w)
	for _, m := range r.marks {
		marked[cell(m)] = true
	}
	// runs of one class are rendered with one style: played, to come, mark, now
	styles := [...]lipgloss.Style{st.Arrow, st.Lane, st.Event, st.Key}
	var b, run strings.Builder
	class := -1
	flush := func() {
		if run.Len() > 0 {
			b.WriteString(styles[class].Render(run.String()))
			run.Reset()
		}
	}
	for i := 0; i < w; i++ {
		c, g := 1, "─"
		switch {
		case i == cur:
			c, g = 3, "▮"
		case marked[i]:
			c, g = 2, "▾"
		case i < cur:
			c, g = 0, "━"
		}
		if c != class {
			flush()
			class = c
		}
		run.WriteString(g)
	}
	flush()
	return b.String()
}

// parseJump reads a virtual time for `g`: "12.5s", "3s", "1500ms", "2m", "750us"; a
// bare number is seconds.
func parseJump(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("expected a time such as 12.5s, 3s or 1500ms")
	}
	t := strings.TrimPrefix(s, "t=")
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		t += "s"
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, errors.New("found " + strconv.Quote(s) + ", expected a time such as 12.5s, 3s or 1500ms")
	}
	if d < 0 {
		return 0, errors.New("found " + strconv.Quote(s) + ", expected a time at or after 0s")
	}
	return d.Microseconds(), nil
}
