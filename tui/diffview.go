package tui

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// DiffSide is one recording of the diff view, moved on the view's clock (a
// session.Replay, paused).
type DiffSide interface {
	Snapshot() *trace.Snapshot
	// SeekTime shows the state at virtual time t (µs).
	SeekTime(t int64)
	// End is the virtual time of the last event, µs.
	End() int64
}

// DiffOptions configure the diff view.
type DiffOptions struct {
	// A and B are the recordings' files, as given.
	A, B string
	// First is where the runs part (µs) and Event the number of the first event
	// that differs; First is -1 when their events are the same. Why says in one
	// line what made them part. At is where the clock opens and d takes it: the
	// later of the two sides' first differing events, so that both timelines
	// show their own (First when 0).
	First int64
	Event uint64
	Why   string
	At    int64
	Lang  lang.Lang
	// Styles replaces the default palette; Input and Output the terminal
	// (tests); Context ends the view, as Options.Context ends the dashboard.
	Styles  *Styles
	Input   io.Reader
	Output  io.Writer
	Context context.Context
}

// RunDiff opens two recordings side by side on the alternate screen: their
// Nodes panes and their Timelines on one clock, which plays, seeks and jumps to
// where they part, each Timeline's row of the first difference marked ◆, and a
// strip of the whole run with that place marked.
func RunDiff(a, b DiffSide, opts DiffOptions) error {
	popts := []tea.ProgramOption{tea.WithFPS(20)}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	if opts.Context != nil {
		popts = append(popts, tea.WithContext(opts.Context), tea.WithoutSignalHandler())
	}
	_, err := tea.NewProgram(newDiffModel(a, b, opts), popts...).Run()
	return err
}

// diffModel is the diff view: two nodes panes and two timelines on a shared
// clock.
type diffModel struct {
	a, b    DiffSide
	opts    DiffOptions
	st      *Styles
	pa, pb  nodesPane
	ta, tb  *timelinePane
	t, end  int64
	playing bool
	speed   float64 // virtual seconds per wall second
	w, h    int
}

// diffFrame is how often a playing diff view moves its clock.
const diffFrame = 50 * time.Millisecond

type diffTick struct{}

func newDiffModel(a, b DiffSide, opts DiffOptions) *diffModel {
	st := DefaultStyles()
	if opts.Styles != nil {
		c := *opts.Styles
		c.pensOf = nil
		st = &c
	}
	st.Lang = opts.Lang
	m := &diffModel{a: a, b: b, opts: opts, st: st, end: max(a.End(), b.End()), speed: 1, w: 80, h: 24}
	m.pa, m.pb = nodesPane{st: st, label: "A · "}, nodesPane{st: st, label: "B · "}
	keys := DefaultKeyMap()
	m.ta, m.tb = newTimelinePane(&board{st: st, keys: &keys}), newTimelinePane(&board{st: st, keys: &keys})
	m.ta.label, m.tb.label = "A · ", "B · "
	if opts.First >= 0 {
		m.ta.mark, m.tb.mark = opts.Event, opts.Event
	}
	// It opens where the runs part: what the view is for.
	m.seek(m.parted())
	return m
}

// parted is where the clock shows the runs part: the instant at which both
// timelines show their first differing event.
func (m *diffModel) parted() int64 {
	if m.opts.At > 0 {
		return m.opts.At
	}
	return max(m.opts.First, 0)
}

func (m *diffModel) Init() tea.Cmd { return m.tick() }

func (m *diffModel) tick() tea.Cmd {
	return tea.Tick(diffFrame, func(time.Time) tea.Msg { return diffTick{} })
}

// seek moves both recordings to t, within the run.
func (m *diffModel) seek(t int64) {
	m.t = max(0, min(t, m.end))
	m.a.SeekTime(m.t)
	m.b.SeekTime(m.t)
}

func (m *diffModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case diffTick:
		if m.playing {
			m.seek(m.t + int64(float64(diffFrame/time.Microsecond)*m.speed))
			if m.t >= m.end {
				m.playing = false
			}
		}
		return m, m.tick()
	case tea.KeyPressMsg:
		step := max(m.end/100, 1000) // 1 % of the run
		switch msg.String() {
		case "q", "esc", "ctrl+c":
			return m, tea.Quit
		case "space":
			if m.t >= m.end {
				m.seek(0)
			}
			m.playing = !m.playing
		case "left":
			m.seek(m.t - step)
		case "right":
			m.seek(m.t + step)
		case ",":
			m.seek(m.t - 1000)
		case ".":
			m.seek(m.t + 1000)
		case "home":
			m.seek(0)
		case "end":
			m.seek(m.end)
		case "d":
			if m.opts.First >= 0 {
				m.playing = false
				m.seek(m.parted())
			}
		case "+", "=":
			m.speed = min(m.speed*2, 64)
		case "-":
			m.speed = max(m.speed/2, 1.0/64)
		}
	}
	return m, nil
}

func (m *diffModel) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.WindowTitle = "clusterlab diff"
	return v
}

// Render is the screen as a string: a header, the first difference, the two
// panes, the timeline and the keys.
func (m *diffModel) Render() string {
	sa, sb := m.a.Snapshot(), m.b.Snapshot()
	if sa == nil || sb == nil {
		return fit("clusterlab: "+m.st.T("tui.waiting"), m.w)
	}
	if m.w < 40 || m.h < 12 {
		return ansi.Truncate(m.st.Lang.F("tui.toosmall", m.w, m.h), max(m.w, 1), "…")
	}
	state := m.st.Paused.Render("‖ " + m.st.T("tui.diff.paused"))
	if m.playing {
		state = m.st.Running.Render("▶ " + m.st.T("tui.diff.playing"))
	}
	head := fmt.Sprintf("%s  A %s · B %s │ t=%s  %s  %s", m.st.Brand.Render("clusterlab diff"),
		m.st.HeaderValue.Render(m.opts.A), m.st.HeaderValue.Render(m.opts.B), fmtT(m.t), speedText(m.speed), state)
	first := m.st.Good.Render(m.st.T("tui.diff.same"))
	if m.opts.First >= 0 {
		first = m.st.Banner.Render(m.st.Lang.F("tui.diff.first", fmtT(m.opts.First), m.opts.Event)) + " " + m.opts.Why
	}
	// The nodes whose state differs now are named, and the first of them is
	// selected on both sides (its card drawn bold, its state in the titles).
	var marks nodeMarks
	now := m.st.Muted.Render(m.st.T("tui.diff.nowsame"))
	if d := differing(sa, sb); len(d) > 0 {
		now = m.st.Warn.Render(m.st.Lang.F("tui.diff.now", idList(d)))
		for i, n := range sa.Nodes {
			if n.ID == d[0] {
				marks.sel = i
				break
			}
		}
	}
	// the nodes above, their timelines below: the room of six lines of text
	// shared, the nodes' part no more than their cards need at most
	ph := min((m.h-6)*2/5, 10)
	th := m.h - 6 - ph
	wa := m.w / 2
	for _, p := range []struct {
		pane *nodesPane
		tl   *timelinePane
		s    *trace.Snapshot
		w    int
	}{{&m.pa, m.ta, sa, wa}, {&m.pb, m.tb, sb, m.w - wa}} {
		p.pane.setCount(len(p.s.Nodes))
		if p.pane.w != p.w || p.pane.h != ph {
			p.pane.SetSize(p.w, ph)
		}
		p.tl.b.snap, p.tl.b.sel = p.s, marks.sel
		p.tl.hideHB = p.s.Info.Family != "detector"
		p.tl.SetSize(p.w, th)
	}
	lines := []string{fit(head, m.w), fit(first, m.w), fit(now, m.w),
		beside(m.pa.draw(sa, marks), m.pb.draw(sb, marks)), beside(m.ta.View(), m.tb.View())}
	lines = append(lines, m.strip()...)
	lines = append(lines, fit(m.st.Muted.Render(m.st.Lang.F("tui.diff.keys")), m.w))
	return strings.Join(lines, "\n")
}

// strip is the timeline of the whole run: where the runs part (◆) and the
// clock (▲), with the run's start and end.
func (m *diffModel) strip() []string {
	w := m.w
	col := func(t int64) int {
		if m.end <= 0 {
			return 0
		}
		return int(float64(t) / float64(m.end) * float64(w-1))
	}
	cells := []rune(strings.Repeat("─", w))
	at := col(m.t)
	line := ""
	mark := -1
	if m.opts.First >= 0 {
		mark = col(m.opts.First)
	}
	for i, c := range cells {
		switch {
		case i == mark:
			line += m.st.Bad.Render("◆")
		case i == at:
			line += m.st.Key.Render("▲")
		default:
			line += m.st.Muted.Render(string(c))
		}
	}
	end := fmtT(m.end)
	labels := fit("0s", w-len(end)) + end
	if mark >= 0 {
		label := "◆ " + fmtT(m.opts.First)
		start := min(max(mark-len(label)/2, 3), max(w-len(end)-len(label)-1, 3))
		r := []rune(labels)
		copy(r[start:], []rune(label))
		labels = string(r)
	}
	return []string{line, fit(labels, w)}
}

// differing lists the nodes whose state the two pictures show otherwise: up
// or down, role, leader, term, critical section, suspects, counters.
func differing(a, b *trace.Snapshot) []node.ID {
	var out []node.ID
	for i, n := range a.Nodes {
		if i >= len(b.Nodes) {
			break
		}
		o := b.Nodes[i]
		x, y := n.Status, o.Status
		if n.Up != o.Up || x.Role != y.Role || x.Leader != y.Leader || x.Term != y.Term || x.CS != y.CS ||
			!slices.Equal(x.Suspects, y.Suspects) || !slices.Equal(x.Counters, y.Counters) {
			out = append(out, n.ID)
		}
	}
	return out
}
