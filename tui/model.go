package tui

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// Options configure the dashboard.
type Options struct {
	// Title names the scenario in the header (the preset or file name); the
	// snapshot's scenario name is used if empty.
	Title string
	// Seed is shown in the header when known.
	Seed *uint64
	// FPS is how many times a second the dashboard pulls a snapshot and redraws
	// (default and maximum 30).
	FPS int
	// Input and Output replace the terminal (tests); nil means stdin and stdout.
	Input  io.Reader
	Output io.Writer
	// Styles replaces the default palette.
	Styles *Styles
}

// Run opens the dashboard on the alternate screen and drives c until the user quits.
// Rendering reads c.Snapshot() on a tick and never blocks the simulation.
func Run(c Controller, opts Options) error {
	popts := []tea.ProgramOption{tea.WithFPS(fps(opts))}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	_, err := tea.NewProgram(New(c, opts), popts...).Run()
	return err
}

func fps(o Options) int {
	if o.FPS <= 0 || o.FPS > 30 {
		return 30
	}
	return o.FPS
}

// paneID names the panes that take focus with tab.
type paneID int

const (
	paneNodes paneID = iota
	paneTimeline
	paneTraffic
	nFocusable
)

// mode is what keys currently mean.
type mode int

const (
	modeNormal    mode = iota
	modePartition      // space toggles nodes into side A
	modeCommand        // the `:` command line
	modeFilter         // the `/` feed filter
	modeConfirm        // quit while recording?
)

// tickMsg pulls the next snapshot.
type tickMsg time.Time

// Model is the dashboard: a Bubble Tea model whose View renders only the latest
// snapshot pulled from its Controller.
type Model struct {
	c    Controller
	opts Options
	st   *Styles
	keys KeyMap
	help help.Model

	snap *trace.Snapshot
	hs   headerState
	w, h int

	sel   int
	focus paneID
	mode  mode
	sideA map[node.ID]bool

	cmd     textinput.Model
	cmdErr  string
	history []string
	histIdx int

	flash      string
	flashBad   bool
	flashUntil time.Time

	marks   []mark
	leaders string // the last leaders seen, to notice changes
	markers int    // markers put with `b`
	inCS    map[node.ID]bool

	header   headerPane
	nodes    nodesPane
	matrix   matrixPane
	network  networkPane
	traffic  *trafficPane
	timeline timelinePane
	alerts   alertsPane
	story    storyPane

	lay layout
}

// New makes the dashboard's model for c; Run runs it.
func New(c Controller, opts Options) *Model {
	st := opts.Styles
	if st == nil {
		st = DefaultStyles()
	}
	hm := help.New()
	hm.Styles = st.Help
	in := textinput.New()
	in.Prompt = ":"
	in.Placeholder = "crash n3 · partition n1,n2 | n3,n4,n5 · set loss 0.2 · marker \"text\""
	in.SetVirtualCursor(true)
	m := &Model{
		c: c, opts: opts, st: st, keys: DefaultKeyMap(), help: hm, cmd: in,
		sideA:    map[node.ID]bool{},
		header:   headerPane{st: st},
		nodes:    nodesPane{st: st, focused: true},
		matrix:   matrixPane{st: st},
		network:  networkPane{st: st},
		traffic:  newTrafficPane(st),
		timeline: timelinePane{st: st},
		alerts:   alertsPane{st: st},
		story:    storyPane{st: st},
		w:        80, h: 24,
	}
	m.hs.title, m.hs.seed = opts.Title, opts.Seed
	m.refresh()
	return m
}

// Init starts the tick.
func (m *Model) Init() tea.Cmd { return m.tick() }

func (m *Model) tick() tea.Cmd {
	return tea.Tick(time.Second/time.Duration(fps(m.opts)), func(t time.Time) tea.Msg { return tickMsg(t) })
}

// refresh pulls the latest snapshot and the controller's settings, and notes leader
// changes for the timeline.
func (m *Model) refresh() {
	if s := m.c.Snapshot(); s != nil {
		m.snap = s
	}
	m.hs.paused, m.hs.speed, m.hs.rec = m.c.Paused(), m.c.Speed(), m.c.Recording()
	if m.snap == nil {
		return
	}
	if m.sel >= len(m.snap.Nodes) {
		m.sel = max(0, len(m.snap.Nodes)-1)
	}
	if m.snap.Info.Family != "mutex" {
		ls := m.snap.Leaders()
		key := idList(ls)
		if key != m.leaders {
			if m.leaders != "" || len(ls) > 0 {
				switch len(ls) {
				case 0:
					m.addMark(mark{Seq: m.snap.Seq, T: m.snap.T, Text: "no live leader"})
				default:
					for _, id := range ls {
						if !strings.Contains(","+m.leaders+",", ","+id.String()+",") {
							m.addMark(mark{Seq: m.snap.Seq, T: m.snap.T, Node: id, Text: "leader " + id.String()})
						}
					}
				}
			}
			m.leaders = key
		}
	}
	if m.snap.Info.Family == "mutex" {
		if m.inCS == nil {
			m.inCS = map[node.ID]bool{}
		}
		for _, n := range m.snap.Nodes {
			held := n.Up && n.Status.CS == node.CSHeld
			if held != m.inCS[n.ID] {
				text := "enters CS"
				if !held {
					text = "leaves CS"
				}
				m.addMark(mark{Seq: m.snap.Seq, T: m.snap.T, Node: n.ID, Text: text, Glyph: '◆'})
				m.inCS[n.ID] = held
			}
		}
	}
	m.relayout()
}

func (m *Model) addMark(k mark) {
	m.marks = append(m.marks, k)
	if len(m.marks) > maxMarks {
		m.marks = slices.Clone(m.marks[len(m.marks)-maxMarks:])
	}
}

// Update handles keys, resizes and ticks.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.relayout()
		return m, nil
	case tickMsg:
		m.refresh()
		if !m.flashUntil.IsZero() && time.Now().After(m.flashUntil) {
			m.flash, m.flashUntil = "", time.Time{}
			m.relayout()
		}
		return m, m.tick()
	case tea.KeyPressMsg:
		cmd := m.key(msg)
		m.relayout()
		return m, cmd
	}
	// cursor blinks and the like go to the input in use
	var cmd tea.Cmd
	switch m.mode {
	case modeCommand:
		m.cmd, cmd = m.cmd.Update(msg)
	case modeFilter:
		m.traffic.input, cmd = m.traffic.input.Update(msg)
	}
	return m, cmd
}

// key handles one key press.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if key.Matches(msg, k.Interrupt) {
		return tea.Quit
	}
	switch m.mode {
	case modeConfirm:
		switch msg.String() {
		case "y", "Y", "q", "enter":
			return tea.Quit
		case "n", "N", "esc":
			m.mode = modeNormal
		}
		return nil
	case modeCommand:
		return m.commandKey(msg)
	case modeFilter:
		return m.filterKey(msg)
	case modePartition:
		switch msg.String() {
		case "space":
			if n, ok := m.selected(); ok {
				m.sideA[n.ID] = !m.sideA[n.ID]
				if !m.sideA[n.ID] {
					delete(m.sideA, n.ID)
				}
			}
			return nil
		case "enter":
			m.applyPartition()
			return nil
		case "esc":
			m.mode = modeNormal
			m.sideA = map[node.ID]bool{}
			m.say("partition cancelled", false)
			return nil
		}
		if key.Matches(msg, k.Select, k.Move, k.Help) {
			break // selection and help work in partition mode
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Select):
		i := int(msg.String()[0] - '1')
		if msg.String() == "0" {
			i = 9
		}
		if m.snap != nil && i < len(m.snap.Nodes) {
			m.sel = i
		}
	case key.Matches(msg, k.Move):
		if (m.focus == paneTimeline || m.focus == paneTraffic) && (msg.String() == "up" || msg.String() == "down") {
			if msg.String() == "up" {
				m.scroll(1)
			} else {
				m.scroll(-1)
			}
			return nil
		}
		m.sel = m.nodes.move(m.sel, msg.String())
	case m.focus != paneNodes && key.Matches(msg, k.ScrollUp):
		m.scroll(1)
	case m.focus != paneNodes && key.Matches(msg, k.ScrollDown):
		m.scroll(-1)
	case m.focus != paneNodes && key.Matches(msg, k.PageUp):
		m.scroll(max(1, m.lay.timelineH-3))
	case m.focus != paneNodes && key.Matches(msg, k.PageDown):
		m.scroll(-max(1, m.lay.timelineH-3))
	case m.focus != paneNodes && key.Matches(msg, k.Follow):
		m.timeline.anchor, m.traffic.anchor = 0, 0
	case key.Matches(msg, k.Crash):
		m.onSelected("crash %s")
	case key.Matches(msg, k.Revive):
		m.onSelected("recover %s")
	case key.Matches(msg, k.Slow):
		if n, ok := m.selected(); ok {
			if n.Slow > 1 {
				m.do("slow " + n.ID.String() + " 1")
			} else {
				m.do("slow " + n.ID.String() + " 10")
			}
		}
	case key.Matches(msg, k.Isolate):
		m.onSelected("isolate %s")
	case key.Matches(msg, k.Partition):
		m.mode = modePartition
		m.sideA = map[node.ID]bool{}
	case key.Matches(msg, k.Heal):
		m.do("heal")
	case key.Matches(msg, k.GST):
		m.do("gst")
	case key.Matches(msg, k.Election):
		m.onSelected("request %s election")
	case key.Matches(msg, k.CS):
		m.onSelected("request %s cs")
	case key.Matches(msg, k.Pause):
		m.c.SetPaused(!m.c.Paused())
		m.refresh()
	case key.Matches(msg, k.Step):
		if !m.c.Paused() {
			m.c.SetPaused(true)
			m.say("paused: . steps one event", false)
		} else {
			m.c.Step()
		}
		m.refresh()
	case key.Matches(msg, k.Faster):
		if x := m.c.Speed(); x > 0 {
			if x *= 2; x > 1000 {
				x = 0
			}
			m.c.SetSpeed(x)
		}
		m.refresh()
		m.say("speed "+speedText(m.hs.speed), false)
	case key.Matches(msg, k.Slower):
		x := m.c.Speed()
		if x == 0 {
			x = 512
		} else {
			x = max(x/2, 0.01)
		}
		m.c.SetSpeed(x)
		m.refresh()
		m.say("speed "+speedText(m.hs.speed), false)
	case key.Matches(msg, k.Command):
		m.mode = modeCommand
		m.cmdErr = ""
		m.cmd.SetValue("")
		m.histIdx = len(m.history)
		return m.cmd.Focus()
	case key.Matches(msg, k.Heartbeat):
		m.traffic.filter.hideHB = !m.traffic.filter.hideHB
		m.timeline.hideHB = m.traffic.filter.hideHB
	case key.Matches(msg, k.Filter):
		m.mode = modeFilter
		m.traffic.filtering = true
		m.traffic.input.SetValue(strings.Join(m.traffic.filter.words, " "))
		m.traffic.input.CursorEnd()
		return m.traffic.input.Focus()
	case key.Matches(msg, k.Focus):
		m.focus = (m.focus + 1) % nFocusable
		m.nodes.focused = m.focus == paneNodes
		m.timeline.focused = m.focus == paneTimeline
		m.traffic.focused = m.focus == paneTraffic
	case key.Matches(msg, k.Record):
		name, err := m.c.ToggleRecording()
		m.refresh()
		switch {
		case err != nil:
			m.say("recording: "+err.Error(), true)
		case m.hs.rec != "":
			m.say("recording to "+name, false)
		default:
			m.say("recording saved to "+name, false)
		}
	case key.Matches(msg, k.Marker):
		m.markers++
		t := ""
		if m.snap != nil {
			t = " at " + fmtT(m.snap.T)
		}
		m.do("marker " + strconv.Quote("mark "+strconv.Itoa(m.markers)+t))
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(msg, k.Quit):
		if m.c.Recording() != "" {
			m.mode = modeConfirm
			return nil
		}
		return tea.Quit
	}
	return nil
}

func (m *Model) scroll(k int) {
	if m.snap == nil {
		return
	}
	if m.focus == paneTraffic {
		m.traffic.scroll(m.snap, k)
	} else {
		m.timeline.scroll(m.snap, m.marks, k)
	}
}

func (m *Model) commandKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.mode = modeNormal
		m.cmd.Blur()
		m.cmdErr = ""
		return nil
	case "enter":
		line := strings.TrimSpace(m.cmd.Value())
		if line == "" {
			m.mode = modeNormal
			m.cmd.Blur()
			return nil
		}
		if err := m.c.Do(line); err != nil {
			m.cmdErr = err.Error()
			return nil // the line stays open with the error beside it
		}
		if len(m.history) == 0 || m.history[len(m.history)-1] != line {
			m.history = append(m.history, line)
		}
		m.mode = modeNormal
		m.cmd.Blur()
		m.cmdErr = ""
		m.refresh()
		m.say("✓ "+line, false)
		return nil
	case "up":
		if m.histIdx > 0 {
			m.histIdx--
			m.cmd.SetValue(m.history[m.histIdx])
			m.cmd.CursorEnd()
		}
		return nil
	case "down":
		if m.histIdx < len(m.history)-1 {
			m.histIdx++
			m.cmd.SetValue(m.history[m.histIdx])
		} else {
			m.histIdx = len(m.history)
			m.cmd.SetValue("")
		}
		m.cmd.CursorEnd()
		return nil
	}
	before := m.cmd.Value()
	var cmd tea.Cmd
	m.cmd, cmd = m.cmd.Update(msg)
	if m.cmd.Value() != before {
		m.cmdErr = ""
	}
	return cmd
}

func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		m.traffic.filter.words = parseFilter(m.traffic.input.Value())
		m.traffic.filtering = false
		m.traffic.input.Blur()
		m.mode = modeNormal
		return nil
	case "esc":
		m.traffic.filter.words = nil
		m.traffic.filtering = false
		m.traffic.input.Blur()
		m.mode = modeNormal
		return nil
	}
	var cmd tea.Cmd
	m.traffic.input, cmd = m.traffic.input.Update(msg)
	return cmd
}

// applyPartition splits the network into side A and the rest.
func (m *Model) applyPartition() {
	if m.snap == nil {
		return
	}
	var a, b []string
	for _, n := range m.snap.Nodes {
		if m.sideA[n.ID] {
			a = append(a, n.ID.String())
		} else {
			b = append(b, n.ID.String())
		}
	}
	if len(a) == 0 || len(b) == 0 {
		m.say("partition: put some but not all nodes in side A with space", true)
		return
	}
	m.mode = modeNormal
	m.sideA = map[node.ID]bool{}
	m.do("partition " + strings.Join(a, ",") + " | " + strings.Join(b, ","))
}

func (m *Model) selected() (trace.NodeView, bool) {
	if m.snap == nil || m.sel >= len(m.snap.Nodes) {
		return trace.NodeView{}, false
	}
	return m.snap.Nodes[m.sel], true
}

func (m *Model) onSelected(format string) {
	if n, ok := m.selected(); ok {
		m.do(fmt.Sprintf(format, n.ID))
	}
}

// do applies an action through the controller and says how it went.
func (m *Model) do(cmd string) {
	if err := m.c.Do(cmd); err != nil {
		m.say(cmd+": "+err.Error(), true)
		return
	}
	m.refresh()
	m.say("✓ "+cmd, false)
}

// say shows a status message for a few seconds.
func (m *Model) say(s string, bad bool) {
	m.flash, m.flashBad, m.flashUntil = s, bad, time.Now().Add(3*time.Second)
}

// layout is where the panes go at the current size.
type layout struct {
	tooSmall, compact bool
	bodyH             int // rows between the two top lines and the bottom lines
	nodesH            int
	leftW, rightW     int
	matrixH           int
	timelineH         int
	networkH          int
	trafficH          int
	alertsH           int
	storyH            int
}

// bottomLines are the status line (if any) and the help.
func (m *Model) bottomLines() []string {
	var out []string
	switch m.mode {
	case modeCommand:
		l := m.cmd.View()
		if m.cmdErr != "" {
			l = m.cmd.View() + "  " + m.st.Error.Render("✗ "+m.cmdErr)
		}
		out = append(out, l)
	case modePartition:
		var a []string
		if m.snap != nil {
			for _, n := range m.snap.Nodes {
				if m.sideA[n.ID] {
					a = append(a, n.ID.String())
				}
			}
		}
		side := "{" + strings.Join(a, ",") + "}"
		out = append(out, m.st.Prompt.Render("partition")+" side A "+m.st.SideA.Render(side)+
			m.st.Muted.Render(" · ")+m.st.Key.Render("space")+" toggle selected"+
			m.st.Muted.Render(" · ")+m.st.Key.Render("enter")+" apply A | the rest"+
			m.st.Muted.Render(" · ")+m.st.Key.Render("esc")+" cancel")
	case modeConfirm:
		out = append(out, m.st.Recording.Render("recording to "+m.hs.rec+" in progress")+
			" — quit and save it? "+m.st.Key.Render("y")+"/"+m.st.Key.Render("n"))
	default:
		if m.flash != "" {
			s := m.st.Flash
			if m.flashBad {
				s = m.st.Error
			}
			out = append(out, s.Render(m.flash))
		}
	}
	hv := m.help.View(helpKeys{m.keys, m.focus})
	out = append(out, strings.Split(hv, "\n")...)
	return out
}

func (m *Model) relayout() {
	if m.snap == nil {
		return
	}
	w, h := m.w, m.h
	l := layout{}
	if w < 40 || h < 12 {
		l.tooSmall = true
		m.lay = l
		return
	}
	m.header.SetSize(w, 1)
	m.help.SetWidth(w)
	n := len(m.snap.Nodes)
	m.nodes.setCount(n)
	bottom := len(m.bottomLines())
	l.bodyH = h - 2 - bottom
	if w < 70 || l.bodyH < 16 {
		l.compact = true
		l.bodyH = max(l.bodyH, 3)
		l.nodesH = min(nodesHeight(n, w, max(3, l.bodyH/2)), l.bodyH)
		l.trafficH = l.bodyH - l.nodesH
		m.nodes.SetSize(w, l.nodesH)
		m.traffic.SetSize(w, l.trafficH)
		m.lay = l
		return
	}
	B := l.bodyH
	l.nodesH = nodesHeight(n, w, max(5, B/2))
	rest := B - l.nodesH
	l.rightW = min(max(w*2/5, 34), 64)
	l.leftW = w - l.rightW
	// left: the suspect matrix (failure detectors) over the timeline
	if m.snap.Info.Family == "detector" && rest >= 10 {
		l.matrixH = min(matrixHeight(n), rest/2)
	}
	l.timelineH = rest - l.matrixH
	// right: network, traffic, alerts, story
	l.networkH = min(networkHeight, max(4, rest-6))
	avail := rest - l.networkH
	if rest >= 24 {
		l.alertsH = alertsHeight(m.snap)
		avail -= l.alertsH
	}
	if rest >= 30 {
		l.storyH = min(8, avail-10)
		avail -= l.storyH
	}
	l.trafficH = avail
	m.nodes.SetSize(w, l.nodesH)
	m.matrix.SetSize(l.leftW, l.matrixH)
	m.timeline.SetSize(l.leftW, l.timelineH)
	m.network.SetSize(l.rightW, l.networkH)
	m.traffic.SetSize(l.rightW, l.trafficH)
	m.alerts.SetSize(l.rightW, l.alertsH)
	m.story.SetSize(l.rightW, l.storyH)
	m.lay = l
}

// View renders the latest snapshot; it never calls the controller.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.WindowTitle = "clusterlab"
	return v
}

// Render is the screen as a string (View without the terminal settings).
func (m *Model) Render() string {
	if m.snap == nil {
		return fit("clusterlab: waiting for the simulation…", m.w)
	}
	if m.lay.tooSmall {
		msg := fmt.Sprintf("terminal too small: %d×%d (clusterlab needs 40×12)", m.w, m.h)
		return ansi.Truncate(msg, max(m.w, 1), "…")
	}
	s := m.snap
	lines := make([]string, 0, 4)
	lines = append(lines, m.header.View(s, m.hs))
	if b := banner(m.st, s, m.w); b != "" {
		lines = append(lines, b)
	} else {
		lines = append(lines, storyLine(m.st, s, m.w))
	}
	marks := nodeMarks{sel: m.sel, partition: m.mode == modePartition, sideA: m.sideA}
	var body string
	l := m.lay
	if l.compact {
		body = lipgloss.JoinVertical(lipgloss.Left, m.nodes.View(s, marks), m.traffic.View(s))
	} else {
		left := []string{}
		if l.matrixH > 0 {
			left = append(left, m.matrix.View(s, m.sel))
		}
		left = append(left, m.timeline.View(s, m.marks))
		right := []string{m.network.View(s), m.traffic.View(s)}
		if l.alertsH > 0 {
			right = append(right, m.alerts.View(s))
		}
		if l.storyH > 0 {
			right = append(right, m.story.View(s))
		}
		body = m.nodes.View(s, marks) + "\n" + lipgloss.JoinHorizontal(lipgloss.Top,
			strings.Join(left, "\n"), strings.Join(right, "\n"))
	}
	out := strings.Join(lines, "\n") + "\n" + body
	for _, b := range m.bottomLines() {
		out += "\n" + fit(b, m.w)
	}
	return out
}
