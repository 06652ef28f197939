package tui

import (
	"fmt"
	"github.com/clusterlab/clusterlab/lang"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/internal/termtext"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// headerPane is the top line: what runs, when, how fast, and which side of GST.
type headerPane struct {
	st *Styles
	w  int
}

func (p *headerPane) SetSize(w, _ int) { p.w = w }

// headerState is what the header shows besides the snapshot: the controller's
// settings as of the last tick.
type headerState struct {
	title  string
	seed   *uint64
	paused bool
	speed  float64
	rec    string
	// written is how much of the recording's past is written, while it is being
	// written in the background
	written float64
	writing bool
	replay  bool   // a recording is played back
	file    string // the recording, if known
	fork    string // "forked from FILE at T", for a fork
	// stopped is why the run stopped before its end (an event storm), or ""
	stopped string
	// rate is how fast virtual time really passes (Pacer), and behind says that
	// it falls short of speed
	rate   float64
	behind bool
}

// View renders one line of exactly p.w cells. Parts are dropped from the right end
// of the priority list when the terminal is narrow.
func (p *headerPane) View(s *trace.Snapshot, h headerState) string {
	st := p.st
	sep := st.Header.Render(" │ ")
	name := h.title
	if name == "" {
		name = termtext.Line(s.Info.Name) // from a file: its escapes shown, never run
	}
	var algo string
	if s.Info.Family != "" {
		algo = s.Info.Algorithm + " (" + st.Lang.Family(s.Info.Family) + ")"
	} else {
		algo = s.Info.Algorithm
	}
	run := st.Running.Render("▶ " + st.T("tui.hdr.running"))
	switch {
	case h.replay && h.paused:
		run = st.Paused.Render("⏸ " + st.T("tui.hdr.replay"))
	case h.replay:
		run = st.Running.Render("▶ " + st.T("tui.hdr.replay"))
	case h.stopped != "":
		// the world stopped on the storm guard: its clock does not move any more,
		// whatever the pause key says
		run = st.Error.Render("■ " + st.T("tui.hdr.stopped"))
	case h.paused:
		run = st.Paused.Render("⏸ " + st.T("tui.hdr.paused"))
	}
	// parts in order of importance; each is kept only if it fits.
	type part struct {
		text string
		prio int
	}
	parts := []part{
		{st.Brand.Render(" clusterlab"), 3},
		{st.HeaderValue.Render(algo), 0},
		{st.Header.Render(strconv.Itoa(len(s.Nodes)) + " " + st.T("tui.hdr.nodes")), 1},
		{st.Header.Render(name), 4},
	}
	if h.seed != nil {
		parts = append(parts, part{st.Header.Render(st.T("tui.hdr.seed") + " " + strconv.FormatUint(*h.seed, 10)), 5})
	}
	parts = append(parts,
		part{st.HeaderValue.Render("t=" + fmtT(s.T)), 0},
		part{run + rateText(st, h), 0},
	)
	if idle := idleText(st.Lang, s); idle != "" && !h.paused && !h.replay && h.stopped == "" {
		parts = append(parts, part{st.Paused.Render(idle), 0})
	}
	parts = append(parts, part{st.Header.Render(gstText(st.Lang, s)), 2})
	if h.writing {
		parts = append(parts, part{st.Recording.Render(st.Lang.F("tui.hdr.writing", h.rec, int(h.written*100))), 0})
	} else if h.rec != "" {
		parts = append(parts, part{st.Recording.Render("⏺ REC " + h.rec), 1})
	}
	if h.file != "" {
		parts = append(parts, part{st.Header.Render(st.T("tui.hdr.file") + " " + h.file), 1})
	}
	if h.fork != "" {
		parts = append(parts, part{st.Paused.Render(h.fork), 0})
	}
	// drop the least important parts until the line fits
	for prio := 5; prio >= 1; prio-- {
		total := 0
		for i, x := range parts {
			if i > 0 {
				total += 3
			}
			total += ansi.StringWidth(x.text)
		}
		if total <= p.w {
			break
		}
		kept := parts[:0:0]
		for _, x := range parts {
			if x.prio < prio {
				kept = append(kept, x)
			}
		}
		parts = kept
	}
	texts := make([]string, len(parts))
	for i, x := range parts {
		texts[i] = x.text
	}
	line := strings.Join(texts, sep)
	w := ansi.StringWidth(line)
	if w > p.w {
		return ansi.Truncate(line, p.w, "…")
	}
	return line + st.Header.Render(strings.Repeat(" ", p.w-w))
}

// idleText says that nothing is pending, and suspects a deadlock when some node
// still waits for the critical section.
func idleText(l lang.Lang, s *trace.Snapshot) string {
	if !s.Idle {
		return ""
	}
	var waiting []string
	for _, n := range s.Nodes {
		if n.Up && n.WantedSince >= 0 {
			waiting = append(waiting, n.ID.String())
		}
	}
	if len(waiting) > 0 {
		return l.F("tui.hdr.deadlock", strings.Join(waiting, ","))
	}
	return l.T("tui.hdr.idle")
}

// speedText is "×1", "×0.25", "×16" or "max".
func speedText(x float64) string {
	if x <= 0 {
		return "×max"
	}
	return "×" + strconv.FormatFloat(x, 'g', 3, 64)
}

// rateText is the speed asked for (" ×1"), or, when the world cannot keep up, the
// rate it really runs at beside it ("×0.13 of ×1, behind"), in the warning style.
func rateText(st *Styles, h headerState) string {
	if h.behind && !h.paused && h.speed > 0 {
		return st.Header.Render(" ") + st.Paused.Render(st.Lang.F("tui.hdr.behind", rateNum(h.rate), speedText(h.speed)))
	}
	return st.Header.Render(" " + speedText(h.speed))
}

// rateNum is a measured rate with two significant digits: "×0.13", "×37".
func rateNum(x float64) string {
	if x >= 10 {
		return "×" + strconv.FormatFloat(x, 'f', 0, 64)
	}
	return "×" + strconv.FormatFloat(x, 'g', 2, 64)
}

// gstText says which side of GST the run is on.
func gstText(l lang.Lang, s *trace.Snapshot) string {
	switch {
	case s.Synchronous:
		return l.T("tui.gst.sync") + " " + fmtT(max(s.GSTAt, 0))
	case s.GSTAt < 0:
		return l.T("tui.gst.never")
	case s.GSTAt <= s.T:
		return l.T("tui.gst.due")
	default:
		return l.T("tui.gst.in") + " " + fmtDur(s.GSTAt-s.T)
	}
}

// fmtT renders a virtual instant (µs) as seconds with millisecond precision.
func fmtT(us int64) string {
	return strconv.FormatFloat(float64(us)/1e6, 'f', 3, 64) + "s"
}

// fmtDur renders a duration (µs) briefly: "4.2s", "350ms", "12µs".
func fmtDur(us int64) string {
	switch {
	case us < 0:
		return "0s"
	case us >= 1e6:
		return strconv.FormatFloat(float64(us)/1e6, 'f', 1, 64) + "s"
	case us >= 1e3:
		return strconv.FormatInt(us/1e3, 10) + "ms"
	default:
		return fmt.Sprintf("%dµs", us)
	}
}
