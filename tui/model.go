package tui

import (
	"context"
	"fmt"
	"github.com/clusterlab/clusterlab/lang"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
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
	// File is the recording being replayed, shown in the header in replay mode.
	File string
	// FPS is how many times a second the dashboard pulls a snapshot and redraws
	// (default 20, at most 30): a redraw is a few per cent of a core, and the eye
	// does not tell 20 from 30 on a dashboard.
	FPS int
	// Input and Output replace the terminal (tests); nil means stdin and stdout.
	Input  io.Reader
	Output io.Writer
	// Styles replaces the default palette.
	Styles *Styles
	// Lang is the language of the labels, help, key bar and banners (English by
	// default). Message types and recorded texts stay as they are.
	Lang lang.Lang
	// Clock is the wall clock that paces what is drawn for a while, such as a
	// critical section (tests give a synthetic one); nil means time.Now.
	Clock func() time.Time
	// Context ends the dashboard when it is done, restoring the terminal; Run
	// then returns an error that wraps tea.ErrProgramKilled. With a Context, the
	// dashboard leaves SIGINT and SIGTERM to its caller, who cancels it on them
	// (and on SIGHUP, which the dashboard alone would not catch).
	Context context.Context
}

// Run opens the dashboard on the alternate screen and drives c until the user quits.
// Rendering reads c.Snapshot() on a tick and never blocks the simulation. If c is a
// Seeker (a recording), the dashboard is in replay mode.
func Run(c Controller, opts Options) error {
	popts := []tea.ProgramOption{tea.WithFPS(fps(opts))}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	if opts.Context != nil {
		// the context's owner catches the signals: the program's own handler
		// would send its quit to an event loop that the context already ended,
		// and wait for it forever
		popts = append(popts, tea.WithContext(opts.Context), tea.WithoutSignalHandler())
	}
	_, err := tea.NewProgram(New(c, opts), popts...).Run()
	return err
}

func fps(o Options) int {
	switch {
	case o.FPS <= 0:
		return 20
	case o.FPS > 30:
		return 30
	}
	return o.FPS
}

// paneID names the panes that take focus with tab.
type paneID int

const (
	paneNodes paneID = iota
	paneMatrix
	paneTimeline
	paneNetwork
	paneTraffic
	paneAlerts
	paneStory
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
	modeJump           // replay: the `g` jump to a time
	modeSelect         // `#`: select a node by any id
)

// noteFor is how long a controller's note (Noter) stays on the status line.
const noteFor = 15 * time.Second

// overFor is how long the banner says that an alert is over.
const overFor = 4 * time.Second

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
	hover int // the node under the pointer in the nodes pane, as index + 1; 0 for none
	focus paneID
	mode  mode
	sideA map[node.ID]bool

	cmd  promptLine // the `:` command line
	jump promptLine // replay: `g`
	pick promptLine // `#`: a node id

	seek     Seeker // nil unless replaying
	rs       replayState
	lastSeq  uint64 // the snapshot's Seq at the last refresh, to notice a seek back
	progress progressPane

	// cleared is the Seq of the alert whose end the banner announces, until
	// clearedUntil (wall time)
	cleared      uint64
	clearedUntil time.Time

	flash      string
	flashBad   bool
	flashUntil time.Time
	noted      string // the controller's last note (Noter), said once
	helpPage   int    // the page of the full help shown (helpPages)

	marks   []mark
	latch   csLatch          // draws a critical section for at least csHold
	clock   func() time.Time // wall time (tests set it)
	leaders string           // the last leaders seen, to notice changes
	markers int              // markers put with `b`
	inCS    map[node.ID]bool

	header   headerPane
	nodes    nodesPane
	matrix   matrixPane
	network  networkPane
	traffic  *trafficPane
	timeline timelinePane
	alerts   alertsPane
	story    storyPane
	topo     topoPane    // `v`: the topology in place of the nodes pane
	hist     historyPane // `V`: the history strip in place of the nodes pane
	view     nodesView

	lay layout
	bar struct { // the key bar as last made
		key   barKey
		lines []string
	}

	// frame is the last screen rendered; dirty says it must be drawn again
	frame string
	dirty bool
	// lastSnap and lastHS are what the last tick saw, to notice a change
	lastSnap *trace.Snapshot
	lastHS   headerState
}

// New makes the dashboard's model for c; Run runs it.
func New(c Controller, opts Options) *Model {
	st := opts.Styles
	if st == nil {
		st = DefaultStyles()
	} else {
		// the model's own copy: it caches its pens
		c := *st
		c.pensOf = nil
		st = &c
	}
	st.Lang = opts.Lang
	hm := help.New()
	hm.Styles = st.Help
	m := &Model{
		c: c, opts: opts, st: st, keys: DefaultKeyMap(), help: hm,
		cmd:      newPromptLine(":", st.T("tui.prompt.command")),
		jump:     newPromptLine(st.T("tui.prompt.jump"), "12.5s · 3s · 1500ms"),
		pick:     newPromptLine(st.T("tui.prompt.select"), st.T("tui.prompt.selecthint")),
		sideA:    map[node.ID]bool{},
		header:   headerPane{st: st},
		progress: progressPane{st: st},
		nodes:    nodesPane{st: st, focused: true},
		matrix:   matrixPane{st: st},
		network:  networkPane{st: st},
		traffic:  newTrafficPane(st),
		timeline: timelinePane{st: st},
		alerts:   alertsPane{st: st},
		story:    storyPane{st: st},
		topo:     topoPane{st: st},
		hist:     historyPane{st: st},
		w:        80, h: 24,
		clock: time.Now,
	}
	if opts.Clock != nil {
		m.clock = opts.Clock
	}
	m.hs.title, m.hs.seed = opts.Title, opts.Seed
	if sk, ok := c.(Seeker); ok {
		m.seek, m.keys = sk, ReplayKeyMap()
		m.hs.replay, m.hs.file = true, opts.File
	}
	m.keys.localize(st.Lang, m.seek != nil)
	m.refresh()
	// heartbeats are the lesson of a failure detector and noise elsewhere
	m.hideHeartbeats(m.snap != nil && m.snap.Info.Family != "detector")
	return m
}

// hideHeartbeats hides or shows heartbeats in the timeline and the feed.
func (m *Model) hideHeartbeats(hide bool) {
	m.traffic.filter.hideHB, m.timeline.hideHB = hide, hide
}

// Init starts the tick.
func (m *Model) Init() tea.Cmd { return m.tick() }

// pausedTick is the tick while a live session is paused or idle: nothing changes
// but the status line and the clock, so such a dashboard does next to no work.
const pausedTick = 250 * time.Millisecond

// idleTick is the tick while a live session runs with nothing pending: the clock
// moves, once a second, and a key is answered at once all the same.
const idleTick = time.Second

func (m *Model) tick() tea.Cmd {
	d := time.Second / time.Duration(fps(m.opts))
	switch {
	case m.seek != nil:
	case m.hs.paused || m.hs.stopped != "":
		d = pausedTick
	case m.snap != nil && m.snap.Idle:
		// running with nothing pending: only the clock moves
		d = idleTick
	}
	return tea.Tick(d, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// refresh pulls the latest snapshot and the controller's settings, and notes leader
// changes for the timeline.
func (m *Model) refresh() {
	if s := m.c.Snapshot(); s != nil {
		m.snap = s
	}
	m.hs.paused, m.hs.speed, m.hs.rec = m.c.Paused(), m.c.Speed(), m.c.Recording()
	m.hs.writing, m.hs.stopped = false, ""
	if sp, ok := m.c.(Stopper); ok && sp.Err() != nil {
		m.hs.stopped = sp.Err().Error()
	}
	m.hs.rate, m.hs.behind = 0, false
	if pc, ok := m.c.(Pacer); ok {
		m.hs.rate, m.hs.behind = pc.Rate()
	}
	if wr, ok := m.c.(Writer); ok {
		_, m.hs.written, m.hs.writing = wr.Writing()
	}
	if nt, ok := m.c.(Noter); ok {
		if n := nt.Note(); n != m.noted {
			m.noted = n
			if n != "" {
				m.say("✗ "+n, true)
				m.flashUntil = time.Now().Add(noteFor)
			}
		}
	}
	if m.seek != nil {
		m.rs.pull(m.seek)
		if !m.hs.paused && m.rs.atEnd() {
			// the end of the recording: stop there, and space plays it again
			m.c.SetPaused(true)
			m.hs.paused = true
		}
	}
	if m.snap == nil {
		return
	}
	m.hist.observe(m.snap)
	m.latch.observe(m.snap, m.clock())
	if c := m.snap.LastCleared.Seq; c != m.cleared {
		m.cleared, m.clearedUntil = c, time.Now().Add(overFor)
	}
	if m.sel >= len(m.snap.Nodes) {
		m.sel = max(0, len(m.snap.Nodes)-1)
	}
	// a replay went back: forget what was noticed after this point, and take the
	// leaders and critical sections as they are now without marking them
	rewound := m.seek != nil && m.snap.Seq < m.lastSeq
	m.lastSeq = m.snap.Seq
	if rewound {
		m.marks = slices.DeleteFunc(m.marks, func(k mark) bool { return k.Seq > m.snap.Seq })
		m.timeline.anchor, m.traffic.anchor = 0, 0
	}
	if m.snap.Info.Family != "mutex" {
		ls := m.snap.Leaders()
		key := idList(ls)
		if key != m.leaders {
			if !rewound && (m.leaders != "" || len(ls) > 0) {
				switch len(ls) {
				case 0:
					m.addMark(mark{Seq: m.snap.Seq, T: m.snap.T, Text: m.st.T("tui.mark.noleader")})
				default:
					for _, id := range ls {
						if !strings.Contains(","+m.leaders+",", ","+id.String()+",") {
							m.addMark(mark{Seq: m.snap.Seq, T: m.snap.T, Node: id, Text: m.st.T("tui.mark.leader") + " " + id.String()})
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
				text := m.st.T("tui.mark.enters")
				if !held {
					text = m.st.T("tui.mark.leaves")
				}
				if !rewound {
					m.addMark(mark{Seq: m.snap.Seq, T: m.snap.T, Node: n.ID, Text: text, Glyph: '◆'})
				}
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
		m.dirty = true
		return m, nil
	case tickMsg:
		m.refresh()
		if m.snap != m.lastSnap || m.hs != m.lastHS {
			m.lastSnap, m.lastHS, m.dirty = m.snap, m.hs, true
		}
		if !m.flashUntil.IsZero() && time.Now().After(m.flashUntil) {
			m.flash, m.flashUntil = "", time.Time{}
			m.relayout()
			m.dirty = true
		}
		if !m.clearedUntil.IsZero() && time.Now().After(m.clearedUntil) {
			m.clearedUntil, m.dirty = time.Time{}, true
		}
		if m.latch.expire(m.clock()) {
			m.dirty = true
		}
		return m, m.tick()
	}
	if msg, ok := msg.(tea.MouseMotionMsg); ok {
		// the pointer moves often: a frame only when the node under it changes
		if m.hoverAt(msg.Mouse()) {
			m.dirty = true
		}
		return m, nil
	}
	m.dirty = true
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		cmd := m.key(msg)
		m.relayout()
		return m, cmd
	case tea.MouseClickMsg, tea.MouseWheelMsg:
		m.hoverAt(msg.(tea.MouseMsg).Mouse()) // the pointer is where it clicked
		cmd := m.mouse(msg.(tea.MouseMsg))
		m.relayout()
		return m, cmd
	}
	// cursor blinks and the like go to the input in use
	var cmd tea.Cmd
	if p := m.prompt(); p != nil {
		cmd = p.update(msg)
	} else if m.mode == modeFilter {
		m.traffic.input, cmd = m.traffic.input.Update(msg)
	}
	return m, cmd
}

// prompt is the prompt line open, or nil.
func (m *Model) prompt() *promptLine {
	switch m.mode {
	case modeCommand:
		return &m.cmd
	case modeJump:
		return &m.jump
	case modeSelect:
		return &m.pick
	}
	return nil
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
		return m.promptKey(msg, m.command)
	case modeJump:
		return m.promptKey(msg, m.jumpTo)
	case modeSelect:
		return m.promptKey(msg, m.pickID)
	case modeFilter:
		done, cmd := m.traffic.filterKey(msg)
		if done {
			m.mode = modeNormal
		}
		return cmd
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
			m.say(m.st.T("tui.say.partcancel"), false)
			return nil
		}
		if key.Matches(msg, k.Select, k.Move, k.Help) {
			break // selection and help work in partition mode
		}
		return nil
	}
	if p := m.focused(); p != nil {
		if ok, cmd := p.Key(msg, keyCtx{keys: &m.keys, snap: m.snap, marks: m.marks}); ok {
			return cmd
		}
	}
	switch {
	case key.Matches(msg, k.Select):
		id := int(msg.String()[0] - '0')
		if id == 0 {
			id = 10
		}
		m.selectID(id)
	case key.Matches(msg, k.SelectID):
		m.mode = modeSelect
		return m.pick.open()
	case key.Matches(msg, k.Move):
		m.sel = m.nodes.move(m.sel, msg.String())
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
		if m.snap != nil && m.snap.Info.Family == "mutex" {
			m.say("✗ "+m.st.Lang.F("tui.say.noelection", m.snap.Info.Algorithm), true)
			break
		}
		m.onSelected("request %s election")
	case key.Matches(msg, k.CS):
		if m.snap != nil && m.snap.Info.Family != "mutex" {
			m.say("✗ "+m.st.Lang.F("tui.say.nocs", m.snap.Info.Algorithm), true)
			break
		}
		m.onSelected("request %s cs")
	case key.Matches(msg, k.Pause):
		play := m.c.Paused()
		if play && m.seek != nil && m.rs.atEnd() {
			m.seek.SeekTime(0) // play a finished replay again from the start
		}
		m.c.SetPaused(!play)
		m.refresh()
	case key.Matches(msg, k.Events):
		m.c.SetPaused(true)
		m.seek.StepEvents(direction(msg.String() == "right"))
		m.refresh()
	case key.Matches(msg, k.Seconds):
		_, now := m.seek.Pos()
		m.seek.SeekTime(max(0, now+int64(direction(msg.String() == "]"))*1_000_000))
		m.refresh()
	case key.Matches(msg, k.Marks):
		next := msg.String() == "n"
		if m.seek.NextMark(direction(next)) {
			m.refresh()
			m.say("◆ "+m.st.T("tui.say.markat")+" "+fmtT(m.snap.T), false)
		} else if next {
			m.say(m.st.T("tui.say.nolater"), false)
		} else {
			m.say(m.st.T("tui.say.noearlier"), false)
		}
	case key.Matches(msg, k.Jump):
		m.mode = modeJump
		m.jump.in.Placeholder = "12.5s · 3s · 1500ms (" + m.st.T("tui.prompt.endis") + " " + fmtT(m.rs.end) + ")"
		return m.jump.open()
	case key.Matches(msg, k.Step):
		if !m.c.Paused() {
			m.c.SetPaused(true)
			m.say(m.st.T("tui.say.paused"), false)
		} else {
			m.c.Step()
		}
		m.refresh()
	case key.Matches(msg, k.Faster):
		m.c.SetSpeed(faster(m.c.Speed()))
		m.refresh()
		m.say(m.st.T("tui.say.speed")+" "+speedText(m.hs.speed), false)
	case key.Matches(msg, k.Slower):
		m.c.SetSpeed(slower(m.c.Speed()))
		m.refresh()
		m.say(m.st.T("tui.say.speed")+" "+speedText(m.hs.speed), false)
	case key.Matches(msg, k.Command):
		m.mode = modeCommand
		return m.cmd.open()
	case key.Matches(msg, k.Heartbeat):
		m.hideHeartbeats(!m.timeline.hideHB)
		if m.timeline.hideHB {
			m.say("heartbeats hidden (H shows them)", false)
		} else {
			m.say("heartbeats shown (H hides them)", false)
		}
	case key.Matches(msg, k.Filter):
		m.mode = modeFilter
		return m.traffic.openFilter()
	case key.Matches(msg, k.Focus):
		m.nextFocus()
	case key.Matches(msg, k.Record):
		name, err := m.c.ToggleRecording()
		m.refresh()
		switch {
		case err != nil:
			m.say("✗ "+m.st.T("tui.say.recording")+" "+name+": "+err.Error(), true)
		case m.hs.writing:
			m.say("✓ "+m.st.Lang.F("tui.say.backfill", name), false)
		case m.hs.rec != "":
			m.say("✓ "+m.st.T("tui.say.recordingto")+" "+name, false)
		default:
			m.say(m.st.T("tui.say.saved")+" "+name, false)
		}
	case key.Matches(msg, k.Marker):
		m.markers++
		t := ""
		if m.snap != nil {
			t = " at " + fmtT(m.snap.T)
		}
		m.do("marker " + strconv.Quote("mark "+strconv.Itoa(m.markers)+t))
	case key.Matches(msg, k.Topology):
		m.view = m.view.toggle(viewTopology)
	case key.Matches(msg, k.History):
		m.view = m.view.toggle(viewHistory)
	case key.Matches(msg, k.Help):
		// the help opens on its first page, turns to the next, closes after the last
		switch {
		case !m.help.ShowAll:
			m.help.ShowAll, m.helpPage = true, 0
		case m.helpPage+1 < len(m.helpPages()):
			m.helpPage++
		default:
			m.help.ShowAll = false
		}
	case key.Matches(msg, k.Quit) && m.hs.writing:
		// q cancels the recording being written; the next q quits. If the past
		// was written meanwhile (the header had not yet said so), the recording
		// it became is stopped and saved instead.
		name, err := m.c.ToggleRecording()
		m.refresh()
		if err != nil {
			m.say("✗ "+m.st.T("tui.say.recording")+" "+err.Error()+"; "+m.st.T("tui.say.qagain"), true)
		} else {
			m.say(m.st.T("tui.say.saved")+" "+name+"; "+m.st.T("tui.say.qagain"), false)
		}
	case key.Matches(msg, k.Quit):
		if m.c.Recording() != "" {
			m.mode = modeConfirm
			return nil
		}
		return tea.Quit
	}
	return nil
}

// focused is the focused pane if it owns keys of its own (the timeline and the
// feed scroll), or nil.
func (m *Model) focused() keyer {
	switch m.focus {
	case paneTimeline:
		return &m.timeline
	case paneTraffic:
		return m.traffic
	}
	return nil
}

// shown reports whether pane p is on screen in the current layout.
func (m *Model) shown(p paneID) bool {
	l := m.lay
	switch p {
	case paneNodes, paneTraffic:
		return true
	case paneMatrix:
		return !l.compact && l.matrixH > 0
	case paneAlerts:
		return !l.compact && l.alertsH > 0
	case paneStory:
		return !l.compact && l.storyH > 0
	}
	return !l.compact
}

// nextFocus moves the focus to the next pane on screen, in reading order.
func (m *Model) nextFocus() {
	for i := paneID(1); i <= nFocusable; i++ {
		if p := (m.focus + i) % nFocusable; m.shown(p) {
			m.setFocus(p)
			return
		}
	}
}

// setFocus focuses pane p: its border is coloured and its title marked ▸.
func (m *Model) setFocus(p paneID) {
	m.focus = p
	m.nodes.focused = p == paneNodes
	m.matrix.focused = p == paneMatrix
	m.timeline.focused = p == paneTimeline
	m.network.focused = p == paneNetwork
	m.traffic.focused = p == paneTraffic
	m.alerts.focused = p == paneAlerts
	m.story.focused = p == paneStory
}

// promptKey passes a key to the open prompt; the mode ends when the prompt closes.
func (m *Model) promptKey(msg tea.KeyPressMsg, submit func(string) error) tea.Cmd {
	done, cmd := m.prompt().key(msg, submit)
	if done {
		m.mode = modeNormal
	}
	return cmd
}

// command applies a line of the `:` command line.
func (m *Model) command(line string) error {
	if err := act(m.c, line); err != nil {
		return err
	}
	m.refresh()
	m.say("✓ "+line, false)
	return nil
}

// jumpTo shows the replay at the time typed after `g`.
func (m *Model) jumpTo(line string) error {
	t, err := parseJump(line)
	if err != nil {
		return err
	}
	m.seek.SeekTime(t)
	m.refresh()
	m.say(m.st.T("tui.say.jumped")+" "+fmtT(m.snap.T), false)
	return nil
}

// direction is 1 for forward and -1 for back.
func direction(forward bool) int {
	if forward {
		return 1
	}
	return -1
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
		m.say(m.st.T("tui.say.partempty"), true)
		return
	}
	m.mode = modeNormal
	m.sideA = map[node.ID]bool{}
	m.do("partition " + strings.Join(a, ",") + " | " + strings.Join(b, ","))
}

// selectID selects the node with id, if there is one.
func (m *Model) selectID(id int) bool {
	if m.snap == nil {
		return false
	}
	for i, n := range m.snap.Nodes {
		if int(n.ID) == id {
			m.sel = i
			return true
		}
	}
	return false
}

// pickID selects the node whose id was typed after `#`.
func (m *Model) pickID(line string) error {
	id, err := strconv.Atoi(strings.TrimPrefix(line, "n"))
	if err != nil || !m.selectID(id) {
		return fmt.Errorf("found %q, expected the id of a node", line)
	}
	return nil
}

// speeds is the ladder + and - climb; it always passes through ×1, and above its
// top is max (0, as fast as possible).
var speeds = []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}

func faster(x float64) float64 {
	if x <= 0 {
		return 0
	}
	for _, s := range speeds {
		if s > x*1.0001 {
			return s
		}
	}
	return 0
}

func slower(x float64) float64 {
	if x <= 0 {
		return speeds[len(speeds)-1]
	}
	for i := len(speeds) - 1; i >= 0; i-- {
		if speeds[i] < x*0.9999 {
			return speeds[i]
		}
	}
	return speeds[0]
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
	if err := act(m.c, cmd); err != nil {
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
	case modeCommand, modeJump, modeSelect:
		out = append(out, m.prompt().View(m.st))
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
		out = append(out, m.st.Prompt.Render(m.st.T("tui.part.partition"))+" "+m.st.T("tui.part.sidea")+" "+m.st.SideA.Render(side)+
			m.st.Muted.Render(" · ")+m.st.Key.Render("space")+" "+m.st.T("tui.part.toggle")+
			m.st.Muted.Render(" · ")+m.st.Key.Render("enter")+" "+m.st.T("tui.part.apply")+
			m.st.Muted.Render(" · ")+m.st.Key.Render("esc")+" "+m.st.T("tui.part.cancel"))
	case modeConfirm:
		out = append(out, m.st.Recording.Render(m.st.Lang.F("tui.quit.inprogress", m.hs.rec))+
			" — "+m.st.T("tui.quit.save")+" "+m.st.Key.Render("y")+"/"+m.st.Key.Render("n"))
	default:
		if m.flash != "" {
			s := m.st.Flash
			if m.flashBad {
				s = m.st.Error
			}
			out = append(out, s.Render(m.flash))
		}
	}
	out = append(out, m.keyBar()...)
	return out
}

// keyBar is the help: the full table after `?`, else one line that always ends
// with `? help • q quit`, however narrow the terminal, dropping other keys first.
func (m *Model) keyBar() []string {
	k := barKey{m.w, m.h, m.focus, m.help.ShowAll, m.helpPage}
	if m.bar.lines == nil || m.bar.key != k {
		m.bar.key, m.bar.lines = k, m.makeKeyBar()
	}
	return m.bar.lines
}

// barKey is what the key bar depends on: it is made again only when that changes
// (it is a tenth of a frame).
type barKey struct {
	w, h     int
	focus    paneID
	all      bool
	helpPage int
}

func (m *Model) makeKeyBar() []string {
	hk := m.helpKeys()
	if m.help.ShowAll {
		pages := m.helpPages()
		return pages[min(m.helpPage, len(pages)-1)]
	}
	keys := hk.ShortHelp()
	tail := []key.Binding{hk.k.Help, hk.k.Quit}
	keys = slices.DeleteFunc(keys, func(b key.Binding) bool {
		return slices.ContainsFunc(tail, func(t key.Binding) bool { return t.Help() == b.Help() })
	})
	end := m.help.ShortHelpView(tail)
	sep := m.help.Styles.ShortSeparator.Inline(true).Render(m.help.ShortSeparator)
	room := m.w - ansi.StringWidth(end) - ansi.StringWidth(sep)
	h := m.help
	h.SetWidth(max(room, 1))
	head := h.ShortHelpView(keys)
	// bubbles/help keeps adding keys past its width when its " …" does not fit
	// either (which texts of other lengths, such as translations, run into):
	// drop keys until the line fits.
	for len(keys) > 1 && ansi.StringWidth(head) > room {
		keys = keys[:len(keys)-1]
		head = h.ShortHelpView(keys)
	}
	if head == "" || room < 4 || ansi.StringWidth(head) > room {
		return []string{end}
	}
	return []string{head + sep + end}
}

// helpPages is the full help (`?`): the keys, the glyphs and what the mouse does,
// each page at most what leaves the panes their least height. The first page is
// the keys, with the glyphs above them when both fit, and the mouse between them
// when it fits too and leaves the panes the height of the full layout (16 lines,
// and one for a message). What does not fit goes on the pages after it, each led
// by a line that says which page it is; on the first, the key table's own `?` line
// says it ("help 1/2"), so that the panes keep their height. `?` turns to the
// next page, and on the last one closes the help.
func (m *Model) helpPages() [][]string {
	glyphs, mouse := glyphHelp(m.st, m.w), mouseHelp(m.st, m.w)
	room := max(m.h-m.topLines()-4, 1)
	hk := m.helpKeys()
	pack := func() (first []string, rest [][]string) {
		secs := m.keyTables(hk)
		keys := secs[0]
		rest = secs[1:]
		first = keys
		if len(glyphs)+len(first) <= room {
			first = slices.Concat(glyphs, first)
		} else {
			rest = append(rest, glyphs)
		}
		if len(mouse)+len(first) <= room && m.h-m.topLines()-len(first)-len(mouse)-1 >= 16 {
			k := len(first) - len(keys)
			first = slices.Concat(first[:k], mouse, first[k:])
		} else {
			rest = append(rest, mouse)
		}
		return first[:min(len(first), room)], rest
	}
	first, rest := pack()
	if len(rest) == 0 || room < 2 {
		return [][]string{first}
	}
	// the sections left, as many on a page as fit under its line
	var pages [][]string
	var cur []string
	for _, sec := range rest {
		if len(cur) > 0 && len(cur)+len(sec) > room-1 {
			pages = append(pages, cur)
			cur = nil
		}
		cur = append(cur, sec...)
	}
	pages = append(pages, cur)
	n := len(pages) + 1
	hk.k.Help.SetHelp(hk.k.Help.Help().Key, m.st.Lang.F("tui.help.page", 1, n))
	first, _ = pack()
	for i, p := range pages {
		turn := "tui.help.next"
		if i == len(pages)-1 {
			turn = "tui.help.close"
		}
		head := m.st.Title.Render(m.st.Lang.F("tui.help.page", i+2, n)) + " " + m.st.Muted.Render(m.st.T(turn))
		pages[i] = slices.Concat([]string{head}, p[:min(len(p), room-1)])
	}
	return slices.Concat([][]string{first}, pages)
}

// keyTables is the full table of keys cut, by its columns, into tables that each
// fit the width: the first goes on the help's first page, the others on the pages
// after it.
func (m *Model) keyTables(hk helpKeys) [][]string {
	wide := m.help
	wide.SetWidth(0) // measured whole: bubbles would cut the columns past the width
	groups := hk.FullHelp()
	var out [][]string
	for start := 0; start < len(groups); {
		k := start + 1
		for k < len(groups) && lipgloss.Width(wide.FullHelpView(groups[start:k+1])) <= m.w {
			k++
		}
		if t := wide.FullHelpView(groups[start:k]); t != "" {
			lines := strings.Split(t, "\n")
			for i, l := range lines {
				lines[i] = ansi.Truncate(l, m.w, "…")
			}
			out = append(out, lines)
		}
		start = k
	}
	if len(out) == 0 {
		out = [][]string{{""}}
	}
	return out
}

// helpKeys is the keys that help shows now.
func (m *Model) helpKeys() helpKeys {
	return helpKeys{k: m.keys, focus: m.focus, replay: m.seek != nil}
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
	m.progress.SetSize(w, 1)
	m.help.SetWidth(w)
	for _, p := range []*promptLine{&m.cmd, &m.jump, &m.pick} {
		p.setWidth(w)
	}
	n := len(m.snap.Nodes)
	m.nodes.setCount(n)
	bottom := len(m.bottomLines())
	l.bodyH = h - m.topLines() - bottom
	if w < 70 || l.bodyH < 16 {
		l.compact = true
		l.bodyH = max(l.bodyH, 3)
		l.nodesH = min(m.view.height(nodesHeight(n, w, max(3, l.bodyH/2)), n, l.bodyH/2), l.bodyH)
		l.trafficH = l.bodyH - l.nodesH
		m.nodes.SetSize(w, l.nodesH)
		m.topo.SetSize(w, l.nodesH)
		m.hist.SetSize(w, l.nodesH)
		m.traffic.SetSize(w, l.trafficH)
		m.lay = l
		return
	}
	B := l.bodyH
	l.nodesH = m.view.height(nodesHeight(n, w, max(5, B/2)), n, B/2)
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
	m.topo.SetSize(w, l.nodesH)
	m.hist.SetSize(w, l.nodesH)
	m.matrix.SetSize(l.leftW, l.matrixH)
	m.timeline.SetSize(l.leftW, l.timelineH)
	m.network.SetSize(l.rightW, l.networkH)
	m.traffic.SetSize(l.rightW, l.trafficH)
	m.alerts.SetSize(l.rightW, l.alertsH)
	m.story.SetSize(l.rightW, l.storyH)
	m.lay = l
	if !m.shown(m.focus) {
		m.setFocus(paneNodes)
	}
}

// topLines is how many lines lie above the panes: the header, the progress bar in a
// replay, and the alert banner or the story line.
func (m *Model) topLines() int {
	if m.seek != nil {
		return 3
	}
	return 2
}

// View renders the latest snapshot; it never calls the controller. It draws only
// when something changed since the last frame.
func (m *Model) View() tea.View {
	if m.dirty || m.frame == "" {
		m.frame, m.dirty = m.Render(), false
	}
	v := tea.NewView(m.frame)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeAllMotion // clicks, the wheel and the pointer (mouse.go)
	v.WindowTitle = "clusterlab"
	return v
}

// Render is the screen as a string (View without the terminal settings).
func (m *Model) Render() string {
	if m.snap == nil {
		return fit("clusterlab: "+m.st.T("tui.waiting"), m.w)
	}
	if m.lay.tooSmall {
		msg := m.st.Lang.F("tui.toosmall", m.w, m.h)
		return ansi.Truncate(msg, max(m.w, 1), "…")
	}
	s := m.snap
	lines := make([]string, 0, 4)
	lines = append(lines, m.header.View(s, m.hs))
	if m.seek != nil {
		lines = append(lines, m.progress.View(m.rs, s.T, m.hs.paused))
	}
	if m.hs.stopped != "" {
		// the run is over: why comes before any alert
		lines = append(lines, m.st.Error.Render(fit(ansi.Truncate(" ✗ "+m.hs.stopped, m.w, "…"), m.w)))
	} else if b := banner(m.st, s, m.w, time.Now().Before(m.clearedUntil)); b != "" {
		lines = append(lines, b)
	} else {
		lines = append(lines, storyLine(m.st, s, m.w, m.lay.storyH > 0))
	}
	marks := nodeMarks{sel: m.sel, hover: m.hover, partition: m.mode == modePartition, sideA: m.sideA}
	// the nodes' place draws a critical section for at least csHold of wall time
	ns := m.latch.apply(s)
	var body string
	l := m.lay
	if l.compact {
		body = lipgloss.JoinVertical(lipgloss.Left, m.withButtons(m.nodesOrView(ns, marks)), m.traffic.View(s))
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
		body = m.withButtons(m.nodesOrView(ns, marks)) + "\n" + beside(strings.Join(left, "\n"), strings.Join(right, "\n"))
	}
	out := strings.Join(lines, "\n") + "\n" + body
	for _, b := range m.bottomLines() {
		out += "\n" + fit(b, m.w)
	}
	return out
}

// beside puts two columns of panes side by side. Both are exactly as tall, and
// each of their lines exactly as wide as its box (box makes sure), so the lines are
// joined as they are instead of measured again (lipgloss.JoinHorizontal measures
// every line: a seventh of a 1,000-node frame); columns of other heights are
// joined by it.
func beside(left, right string) string {
	l, r := strings.Split(left, "\n"), strings.Split(right, "\n")
	if len(l) != len(r) {
		return lipgloss.JoinHorizontal(lipgloss.Top, left, right)
	}
	var b strings.Builder
	b.Grow(len(left) + len(right) + len(l))
	for i := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l[i])
		b.WriteString(r[i])
	}
	return b.String()
}

// nodesOrView is the pane in the nodes pane's place: the cards, the topology or the
// history strip.
func (m *Model) nodesOrView(s *trace.Snapshot, marks nodeMarks) string {
	switch m.view {
	case viewTopology:
		return m.topo.View(s, m.sel, m.nodes.focused)
	case viewHistory:
		return m.hist.View(s, m.sel, m.nodes.focused)
	}
	return m.nodes.View(s, marks)
}
