package tui

import (
	"context"
	"errors"
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
	// Steady keeps the tick at FPS while the world is idle or paused, instead of
	// slowing it to save work: a dashboard that watches a world others act on
	// (a class served over SSH) learns of their actions only on its tick.
	Steady bool
	// Extra are keys of the embedding program's own (a class's language key).
	Extra []Extra
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

// paneID names the panes that take focus with tab, in reading order.
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

// noteFor is how long a controller's note (Noter) stays on the status line.
const noteFor = 15 * time.Second

// overFor is how long the banner says that an alert is over.
const overFor = 4 * time.Second

// burstHold is the wall time a drop's burst stays on the circle at least.
const burstHold = 500 * time.Millisecond

// tickMsg pulls the next snapshot.
type tickMsg time.Time

// Model is the dashboard: a Bubble Tea model whose View renders only the latest
// snapshot pulled from its Controller. It is a router: it lays the panes out,
// routes a key to the mode open, else to the focused pane, else to its own table
// of actions (actions.go), and turns actions into the controller's calls.
type Model struct {
	c     Controller
	opts  Options
	st    *Styles
	keys  KeyMap
	mkeys modeKeys
	help  help.Model

	b    *board // what the panes read: the picture, the selection
	snap *trace.Snapshot
	hs   headerState
	w, h int

	focus paneID
	mode  mode

	cmd  promptLine // the `:` command line
	jump promptLine // replay: `g`
	pick promptLine // `#`: a node id
	// d: by how long to delay the selected message; q in a fork: the name to
	// save it under
	delay, save promptLine

	seek     Seeker // nil unless replaying
	rs       replayState
	lastSeq  uint64 // the snapshot's Seq at the last refresh, to notice a seek back
	progress progressPane

	// ended is the alert whose end the banner announces, until endedUntil (wall
	// time); seenRow is the Seq of the newest timeline row looked at for ends
	ended      trace.AlertView
	endedUntil time.Time
	seenRow    uint64

	flash      string
	flashBad   bool
	flashUntil time.Time
	noted      string // the controller's last note (Noter), said once
	helpPage   int    // the page of the full help shown (helpPages)

	latch   csLatch          // draws a critical section for at least csHold
	clock   func() time.Time // wall time (tests set it)
	markers int              // markers put with `b`

	// storyPause pauses at each new story line (P); lastMarker is the Seq of the
	// newest marker seen
	storyPause bool
	lastMarker uint64
	// recordQuestion is R's question about a long past (modeRecord)
	recordQuestion string
	// quitting is set once a fork is saved: the dashboard quits
	quitting bool

	header   headerPane
	place    *placePane // the nodes' cards, or the topology or history in their place
	matrix   *matrixPane
	timeline *timelinePane
	network  *networkPane
	traffic  *trafficPane
	alerts   *alertsPane
	story    *storyPane
	panes    [nFocusable]pane

	lay layout
	bar struct { // the key bar as last made
		key   barKey
		lines []string
	}

	// frame is the last screen rendered; dirty says it must be drawn again, and
	// bottomDirty that only its bottom lines (a prompt being typed) must
	frame, upper string
	dirty        bool
	bottomDirty  bool
	bodyRenders  int // how many times the panes were drawn, for tests
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
		c: c, opts: opts, st: st, keys: DefaultKeyMap(), mkeys: newModeKeys(st.Lang), help: hm,
		cmd:      newPromptLine(":", st.T("tui.prompt.command"), st.Lang.F("tui.prompt.toolong", lineLimit)),
		jump:     newPromptLine(st.T("tui.prompt.jump"), "12.5s · 3s · 1500ms", st.Lang.F("tui.prompt.toolong", lineLimit)),
		pick:     newPromptLine(st.T("tui.prompt.select"), st.T("tui.prompt.selecthint"), st.Lang.F("tui.prompt.toolong", lineLimit)),
		delay:    newPromptLine("", "30ms · 1s", st.Lang.F("tui.prompt.toolong", lineLimit)),
		save:     newPromptLine(st.T("tui.prompt.savefork"), "fork.jsonl", st.Lang.F("tui.prompt.toolong", lineLimit)),
		header:   headerPane{st: st},
		progress: progressPane{st: st},
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
	m.opts.Extra = slices.Clone(opts.Extra) // their help is localized in place
	m.localizeExtra()
	m.b = &board{st: st, keys: &m.keys, replay: m.seek != nil}
	m.place, m.matrix, m.timeline = newPlacePane(m.b), newMatrixPane(m.b), newTimelinePane(m.b)
	m.network, m.traffic, m.alerts, m.story = newNetworkPane(m.b), newTrafficPane(m.b), newAlertsPane(m.b), newStoryPane(m.b)
	m.panes = [nFocusable]pane{paneNodes: m.place, paneMatrix: m.matrix, paneTimeline: m.timeline,
		paneNetwork: m.network, paneTraffic: m.traffic, paneAlerts: m.alerts, paneStory: m.story}
	m.setFocus(paneNodes)
	m.refresh()
	if m.snap != nil {
		// the past before the dashboard opened is not news: no banner for an
		// end that came before it, no pause at a story line already passed
		m.seenRow, m.endedUntil = lastRowSeq(m.snap), time.Time{}
		if k := len(m.snap.Markers); k > 0 {
			m.lastMarker = m.snap.Markers[k-1].Seq
		}
	}
	// heartbeats are the lesson of a failure detector and noise elsewhere
	m.hideHeartbeats(m.snap != nil && m.snap.Info.Family != "detector")
	return m
}

// hideHeartbeats hides or shows heartbeats in the timeline and the feed.
func (m *Model) hideHeartbeats(hide bool) {
	m.traffic.filter.hideHB, m.timeline.hideHB = hide, hide
}

// Init starts the tick and asks the terminal for its background, to pick the
// light palette on a light one.
func (m *Model) Init() tea.Cmd { return tea.Batch(m.tick(), tea.RequestBackgroundColor) }

// setPalette draws with the dark or the light palette from now on, unless the
// options gave styles of their own.
func (m *Model) setPalette(dark bool) {
	if m.opts.Styles != nil || m.st.pal.fg == "" {
		return
	}
	want := lightPalette
	if dark {
		want = darkPalette
	}
	if m.st.pal.fg == want.fg {
		return
	}
	l := m.st.Lang
	*m.st = *paletteStyles(want) // the panes hold m.st: they draw in it at once
	m.st.Lang = l
	m.help.Styles = m.st.Help
	m.place.nodes.dots = nil // styled looks, kept
	m.timeline.groupPens = nil
	m.bar.lines = nil
	m.dirty = true
}

// pausedTick is the tick while a live session is paused or idle: nothing changes
// but the status line and the clock, so such a dashboard does next to no work.
const pausedTick = 250 * time.Millisecond

// idleTick is the tick while a live session runs with nothing pending: the clock
// moves, once a second, and a key is answered at once all the same.
const idleTick = time.Second

func (m *Model) tick() tea.Cmd {
	d := time.Second / time.Duration(fps(m.opts))
	switch {
	case m.seek != nil || m.opts.Steady:
	case m.hs.paused || m.hs.stopped != "":
		d = pausedTick
	case m.snap != nil && m.snap.Idle:
		// running with nothing pending: only the clock moves
		d = idleTick
	}
	return tea.Tick(d, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// refresh pulls the latest snapshot and the controller's settings, and notices
// what the banner and the story pause need: an alert's end, a new story line.
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
	m.forgetLanded()
	m.timeline.flights = m.seek == nil && m.hs.paused
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
	m.place.hist.observe(m.snap)
	m.latch.observe(m.snap, m.clock())
	m.b.snap, m.b.left = m.snap, m.latch.left(m.snap)
	speed := m.hs.speed
	if speed <= 0 {
		speed = 1000
	}
	m.b.hold = int64(float64(burstHold.Microseconds()) * speed)
	if m.b.sel >= len(m.snap.Nodes) {
		m.b.sel = max(0, len(m.snap.Nodes)-1)
	}
	// a replay went back: what was scrolled to may be gone, and what the banner
	// and the story said is in the future
	rewound := m.seek != nil && m.snap.Seq < m.lastSeq
	m.lastSeq = m.snap.Seq
	if rewound {
		m.timeline.scroll, m.traffic.scroll = anchorScroll{}, anchorScroll{}
		m.seenRow, m.endedUntil = lastRowSeq(m.snap), time.Time{}
	} else {
		m.noticeEnds()
	}
	m.noticeStory(rewound)
	m.relayout()
}

// lastRowSeq is the Seq of the snapshot's newest timeline row.
func lastRowSeq(s *trace.Snapshot) uint64 {
	if n := len(s.Rows); n > 0 {
		return s.Rows[n-1].Seq
	}
	return 0
}

// noticeEnds looks at the timeline rows since the last refresh for alerts that
// ended, and has the banner announce the most severe of them for overFor: every
// end is shown, even when several end between two frames.
func (m *Model) noticeEnds() {
	s := m.snap
	var best *trace.Row
	for i := len(s.Rows) - 1; i >= 0; i-- {
		r := &s.Rows[i]
		if r.Seq <= m.seenRow {
			break
		}
		if r.Ev == trace.AlertCleared && r.Ext != nil && (best == nil || rank(r.Ext.Kind) < rank(best.Ext.Kind)) {
			best = r
		}
	}
	m.seenRow = max(m.seenRow, lastRowSeq(s))
	if best == nil {
		return
	}
	a := trace.AlertView{Event: trace.Event{Seq: best.Ext.Ref, Kind: best.Ext.Kind, T: -1}, Cleared: best.T, How: best.Ext.Text}
	for i := range s.Alerts {
		if s.Alerts[i].Seq == best.Ext.Ref {
			a.T, a.Text = s.Alerts[i].T, s.Alerts[i].Text
		}
	}
	m.ended, m.endedUntil = a, time.Now().Add(overFor)
}

// noticeStory pauses a live run or a replay at a new story line when P asked for
// it, for a teacher to talk over.
func (m *Model) noticeStory(rewound bool) {
	k := len(m.snap.Markers)
	if k == 0 {
		return
	}
	last := m.snap.Markers[k-1].Seq
	if last == m.lastMarker {
		return
	}
	fresh := last > m.lastMarker && !rewound
	m.lastMarker = last
	if fresh && m.storyPause {
		// a StoryStopper has stopped there itself
		if !m.hs.paused {
			m.c.SetPaused(true)
			m.hs.paused = true
		}
		m.say("⏸ "+m.st.T("tui.say.storypaused"), false)
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
		m.pull()
		return m, m.tick()
	case Refresh:
		m.pull()
		return m, nil
	case tea.BackgroundColorMsg:
		m.setPalette(msg.IsDark())
		return m, nil
	case tea.MouseMotionMsg:
		// the pointer moves often: a frame only when the node under it changes
		if m.hoverAt(msg.Mouse()) {
			m.dirty = true
		}
		return m, nil
	case tea.KeyPressMsg:
		lay, typing := m.lay, m.prompt() != nil
		cmd := m.key(msg)
		m.relayout()
		if typing && m.prompt() != nil && m.lay == lay {
			// a key typed into a prompt changes its line alone: the panes are
			// not drawn again, so that a paste of thousands of keys is cheap
			m.bottomDirty = true
		} else {
			m.dirty = true
		}
		return m, cmd
	case tea.MouseClickMsg, tea.MouseWheelMsg:
		m.dirty = true
		m.hoverAt(msg.(tea.MouseMsg).Mouse()) // the pointer is where it clicked
		cmd := m.mouse(msg.(tea.MouseMsg))
		m.relayout()
		return m, cmd
	}
	// cursor blinks, pastes and the like go to the input in use
	m.dirty = true
	var cmd tea.Cmd
	if p := m.prompt(); p != nil {
		cmd = p.update(msg)
	} else if m.mode == modeFilter {
		m.traffic.input, cmd = m.traffic.input.Update(msg)
	}
	return m, cmd
}

// pull takes the latest snapshot and lets what was shown for a while expire: a
// tick's work, or a Refresh's.
func (m *Model) pull() {
	m.refresh()
	if m.snap != m.lastSnap || m.hs != m.lastHS {
		m.lastSnap, m.lastHS, m.dirty = m.snap, m.hs, true
	}
	if !m.flashUntil.IsZero() && time.Now().After(m.flashUntil) {
		m.flash, m.flashUntil = "", time.Time{}
		m.relayout()
		m.dirty = true
	}
	if !m.endedUntil.IsZero() && time.Now().After(m.endedUntil) {
		m.endedUntil, m.dirty = time.Time{}, true
	}
	if m.latch.expire(m.clock()) {
		m.b.left = m.latch.left(m.snap)
		m.dirty = true
	}
}

// key handles one key press: ctrl+c quits at once; else the mode open (a prompt,
// a question, the help) has it, then the focused pane, then the root's actions.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Interrupt) {
		return tea.Quit
	}
	if ok, cmd := m.modeKey(msg); ok {
		return cmd
	}
	if ok, cmd := m.panes[m.focus].Update(msg); ok {
		return cmd
	}
	_, cmd := m.act(msg)
	return cmd
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

// moveFocus moves the focus by d panes on screen (1 next, -1 back), in reading
// order, round.
func (m *Model) moveFocus(d int) {
	for i := 1; i <= int(nFocusable); i++ {
		if p := paneID((int(m.focus) + d*i + 2*int(nFocusable)) % int(nFocusable)); m.shown(p) {
			m.setFocus(p)
			return
		}
	}
}

// setFocus focuses pane p: its border is coloured and its title marked ▸.
func (m *Model) setFocus(p paneID) {
	m.focus = p
	for i, q := range m.panes {
		q.setFocused(paneID(i) == p)
	}
}

// command applies a line of the `:` command line; a request the algorithm cannot
// take is refused as its key refuses it.
func (m *Model) command(line string) error {
	if why := m.refusal(line); why != "" {
		return errors.New(why)
	}
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

// selectID selects the node with id, if there is one.
func (m *Model) selectID(id int) bool {
	if m.snap == nil {
		return false
	}
	for i, n := range m.snap.Nodes {
		if int(n.ID) == id {
			m.b.sel = i
			return true
		}
	}
	return false
}

// pickID selects the node whose id was typed after `#`.
func (m *Model) pickID(line string) error {
	if strings.HasPrefix(line, "#") {
		return m.pickMessageID(line)
	}
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

// do applies an action through the controller and says how it went.
func (m *Model) do(cmd string) {
	if why := m.refusal(cmd); why != "" {
		m.say("✗ "+why, true)
		return
	}
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

// bottomLines are the mode's line or the status line (if any), and the key bar.
func (m *Model) bottomLines() []string {
	var out []string
	if line, _ := m.modeLine(); line != "" {
		out = append(out, line)
	} else if m.flash != "" {
		s := m.st.Flash
		if m.flashBad {
			s = m.st.Error
		}
		out = append(out, s.Render(m.flash))
	}
	return append(out, m.keyBar()...)
}

// keyBar is the help: the full table after `?`, else one line that always ends
// with `? help • q quit` (or a mode's own keys), however narrow the terminal,
// dropping other keys first.
func (m *Model) keyBar() []string {
	k := barKey{m.w, m.h, m.focus, m.help.ShowAll, m.helpPage, m.mode, m.hs.paused, m.place.view, m.b.msg != 0, m.seek != nil, m.watching() != ""}
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
	mode     mode
	paused   bool
	view     nodesView
	msg      bool // a message is selected
	replay   bool // a replay, not yet forked
	watching bool // the viewer only watches (Watcher)
}

func (m *Model) makeKeyBar() []string {
	if m.help.ShowAll {
		pages := m.helpPages()
		return pages[min(m.helpPage, len(pages)-1)]
	}
	if _, keys := m.modeLine(); keys != nil {
		return []string{m.shortView(keys, nil)}
	}
	return []string{m.shortView(m.shortKeys(), []key.Binding{m.keys.Help, m.keys.Quit})}
}

// shortView is keys on one line, as many as fit before tail, which always shows.
func (m *Model) shortView(keys, tail []key.Binding) string {
	end, sep := "", ""
	if len(tail) > 0 {
		end = m.help.ShortHelpView(tail)
		sep = m.help.Styles.ShortSeparator.Inline(true).Render(m.help.ShortSeparator)
	}
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
	switch {
	case head == "" || room < 4 || ansi.StringWidth(head) > room:
		return end
	case end == "":
		return head
	}
	return head + sep + end
}

// shortKeys are the keys the bar shows now: the focused pane's own first, then
// the root's for the state it is in (paused: resume and step; a replay: seeking).
func (m *Model) shortKeys() []key.Binding {
	k := &m.keys
	var out []key.Binding
	if m.focus != paneNodes {
		out = append(out, m.panes[m.focus].ShortHelp()...)
	}
	switch {
	case m.b.msg != 0:
		// a message selected: what can be done with it
		out = append(out, k.Drop, k.Delay, k.Deliver, k.Message, k.Pause)
	case m.seek != nil:
		out = append(out, k.Pause, k.Events, k.Seconds, k.Marks, k.Jump, k.Start, k.Finish, k.Fork)
	case m.hs.paused:
		out = append(out, withDesc(k.Pause, m.st.T("tui.key.resume")), k.Step, k.Select, k.Crash, k.Revive, k.Command, k.Focus)
	case m.focus != paneNodes:
		out = append(out, k.Focus, k.Crash, k.Pause, k.Command)
	default:
		out = append(out, k.Select, k.Crash, k.Revive, k.Partition, k.Heal, k.Pause, k.Command, k.Focus)
	}
	return m.forViewer(out)
}

// fullKeys are the columns of the full help: the dashboard's own keys, the focused
// pane's (the scrolling keys of every pane that scrolls, and for the nodes the
// arrows), then the root's other groups.
func (m *Model) fullKeys() [][]key.Binding {
	var cols [][]key.Binding
	for _, g := range m.actionGroups() {
		var col []key.Binding
		for _, a := range g {
			col = append(col, *a.key)
		}
		if col = m.forViewer(col); len(col) > 0 {
			cols = append(cols, col)
		}
	}
	var own []key.Binding
	for _, g := range m.panes[m.focus].FullHelp() {
		own = append(own, g...)
	}
	if m.focus == paneNodes || m.focus == paneMatrix {
		own = append(own, m.timeline.keys.full()...)
	}
	return slices.Concat(cols[:1], [][]key.Binding{own}, cols[1:])
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
	full := m.fullKeys()
	pack := func() (first []string, rest [][]string) {
		secs := m.keyTables(full)
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
	// the key table's own ? line says which page this is
	for _, col := range full {
		for i := range col {
			if col[i].Help() == m.keys.Help.Help() {
				col[i].SetHelp(col[i].Help().Key, m.st.Lang.F("tui.help.page", 1, n))
			}
		}
	}
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
func (m *Model) keyTables(groups [][]key.Binding) [][]string {
	wide := m.help
	wide.SetWidth(0) // measured whole: bubbles would cut the columns past the width
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
	m.place.nodes.setCount(n)
	bottom := len(m.bottomLines())
	l.bodyH = h - m.topLines() - bottom
	if w < 70 || l.bodyH < 16 {
		l.compact = true
		l.bodyH = max(l.bodyH, 3)
		l.nodesH = min(m.place.view.height(nodesHeight(n, w, max(3, l.bodyH/2)), n, l.bodyH/2), l.bodyH)
		l.trafficH = l.bodyH - l.nodesH
		m.place.SetSize(w, l.nodesH)
		m.traffic.SetSize(w, l.trafficH)
		m.lay = l
		return
	}
	B := l.bodyH
	l.nodesH = m.place.view.height(nodesHeight(n, w, max(5, B/2)), n, B/2)
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
	m.place.SetSize(w, l.nodesH)
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
// when something changed since the last frame, and only the bottom lines when a
// prompt alone changed.
func (m *Model) View() tea.View {
	switch {
	case m.dirty || m.frame == "":
		m.frame, m.dirty, m.bottomDirty = m.Render(), false, false
	case m.bottomDirty:
		m.frame, m.bottomDirty = m.upper+m.bottom(), false
	}
	v := tea.NewView(m.frame)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeAllMotion // clicks, the wheel and the pointer (mouse.go)
	v.WindowTitle = "clusterlab"
	return v
}

// Render is the screen as a string (View without the terminal settings).
func (m *Model) Render() string {
	m.upper = ""
	if m.snap == nil {
		return fit("clusterlab: "+m.st.T("tui.waiting"), m.w)
	}
	if m.lay.tooSmall {
		msg := m.st.Lang.F("tui.toosmall", m.w, m.h)
		return ansi.Truncate(msg, max(m.w, 1), "…")
	}
	m.bodyRenders++
	s := m.snap
	lines := make([]string, 0, 4)
	lines = append(lines, m.header.View(s, m.hs))
	if m.seek != nil {
		lines = append(lines, m.progress.View(m.rs, s.T, m.hs.paused))
	}
	if m.hs.stopped != "" {
		// the run is over: why comes before any alert
		lines = append(lines, m.st.Error.Render(fit(ansi.Truncate(" ✗ "+m.hs.stopped, m.w, "…"), m.w)))
	} else if b := m.bannerLine(); b != "" {
		lines = append(lines, b)
	} else if m.seek == nil && m.hs.paused && s.T == 0 {
		// a run that opens paused says how to start it
		lines = append(lines, fit(m.st.Flash.Render(m.st.T("tui.first.paused")), m.w))
	} else {
		lines = append(lines, storyLine(m.st, s, m.w, m.lay.storyH > 0))
	}
	var body string
	l := m.lay
	if l.compact {
		body = lipgloss.JoinVertical(lipgloss.Left, m.withButtons(m.place.View()), m.traffic.View())
	} else {
		left := []string{}
		if l.matrixH > 0 {
			left = append(left, m.matrix.View())
		}
		left = append(left, m.timeline.View())
		right := []string{m.network.View(), m.traffic.View()}
		if l.alertsH > 0 {
			right = append(right, m.alerts.View())
		}
		if l.storyH > 0 {
			right = append(right, m.story.View())
		}
		body = m.withButtons(m.place.View()) + "\n" + beside(strings.Join(left, "\n"), strings.Join(right, "\n"))
	}
	m.upper = strings.Join(lines, "\n") + "\n" + body
	return m.upper + m.bottom()
}

// bottom is the lines under the panes, each led by its newline.
func (m *Model) bottom() string {
	var b strings.Builder
	for _, l := range m.bottomLines() {
		b.WriteString("\n")
		b.WriteString(fit(l, m.w))
	}
	return b.String()
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
