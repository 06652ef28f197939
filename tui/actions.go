package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/node"
)

// action is one of the root model's own keys, the keys that are no pane's: the
// binding, and what pressing it does. The root keeps them in one table (actions),
// grouped as the help lists them, instead of a switch.
type action struct {
	key *key.Binding
	do  func(m *Model, msg tea.KeyPressMsg) tea.Cmd
}

// actionGroups are the root's keys, in the groups the full help shows: the
// dashboard itself, seeking a recording, the selection and what acts on it, the
// network, running, and the views.
func (m *Model) actionGroups() [][]action {
	k := &m.keys
	play := []action{{&k.Events, (*Model).stepEvents}, {&k.Seconds, (*Model).seekSecond}, {&k.Marks, (*Model).seekMark},
		{&k.Jump, (*Model).openJump}, {&k.Start, (*Model).seekStart}, {&k.Finish, (*Model).seekFinish}, {&k.Fork, (*Model).fork}}
	run := []action{{&k.Pause, (*Model).togglePause}, {&k.Step, (*Model).step}, {&k.Faster, (*Model).faster},
		{&k.Slower, (*Model).slower}, {&k.StoryPause, (*Model).toggleStoryPause}, {&k.Record, (*Model).record}}
	if m.seek != nil {
		// a replay's play/pause goes with its seeking
		play, run = append(run[:1:1], play...), run[1:]
	}
	return [][]action{
		append([]action{{&k.Help, (*Model).openHelp}, {&k.Quit, (*Model).quit}, {&k.Focus, (*Model).focusNext}, {&k.Back, (*Model).focusBack}},
			m.extraActions()...),
		play,
		{{&k.Select, (*Model).selectDigit}, {&k.SelectID, (*Model).openPick}, {&k.Crash, onSelected("crash %s")},
			{&k.Revive, onSelected("recover %s")}, {&k.Slow, (*Model).toggleSlow}, {&k.Isolate, (*Model).toggleIsolate}},
		{{&k.Message, (*Model).selectMessage}, {&k.Drop, onMessage("drop #%d")}, {&k.Delay, (*Model).openDelay},
			{&k.Deliver, onMessage("deliver #%d")}},
		{{&k.Partition, (*Model).openPartition}, {&k.Heal, doing("heal")}, {&k.GST, doing("gst")},
			{&k.Election, (*Model).requestElection}, {&k.CS, (*Model).requestCS}, {&k.Marker, (*Model).putMarker}},
		run,
		{{&k.Topology, (*Model).toggleTopology}, {&k.History, (*Model).toggleHistory}, {&k.Command, (*Model).openCommand},
			{&k.Filter, (*Model).openFilter}, {&k.Heartbeat, (*Model).toggleHeartbeats}},
	}
}

// act runs the root's action for msg, if one matches. A watcher's keys that would
// act on the world say why they do not.
func (m *Model) act(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	for _, g := range m.actionGroups() {
		for _, a := range g {
			if key.Matches(msg, *a.key) {
				if why := m.watching(); why != "" && m.acts(a.key) {
					m.say("✗ "+why, true)
					return true, nil
				}
				return true, a.do(m, msg)
			}
		}
	}
	return false, nil
}

// watching is why this viewer may not act on the world, "" when it may.
func (m *Model) watching() string {
	if w, ok := m.c.(Watcher); ok && m.seek == nil {
		return w.Watching()
	}
	return ""
}

// acts reports whether key b acts on the world, rather than on the view.
func (m *Model) acts(b *key.Binding) bool {
	for _, a := range m.actingKeys() {
		if a == b {
			return true
		}
	}
	return false
}

// actingKeys are the keys that act on the world: the command line's and a
// message's too, which a watcher could only fill with actions refused.
func (m *Model) actingKeys() []*key.Binding {
	k := &m.keys
	return []*key.Binding{&k.Crash, &k.Revive, &k.Slow, &k.Isolate, &k.Partition, &k.Heal, &k.GST,
		&k.Election, &k.CS, &k.Marker, &k.Pause, &k.Step, &k.Faster, &k.Slower, &k.StoryPause, &k.Record,
		&k.Command, &k.Drop, &k.Delay, &k.Deliver}
}

// onSelected acts on the selected node: format names it.
func onSelected(format string) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		if n, ok := m.b.selected(); ok {
			m.do(fmt.Sprintf(format, n.ID))
		}
		return nil
	}
}

// doing applies an action that names no node.
func doing(cmd string) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.do(cmd)
		return nil
	}
}

// selectDigit selects n1…n9, or n10 for 0; a cluster without that node says so.
func (m *Model) selectDigit(msg tea.KeyPressMsg) tea.Cmd {
	id := int(msg.String()[0] - '0')
	if id == 0 {
		id = 10
	}
	if !m.selectID(id) && m.snap != nil {
		m.say("✗ "+m.st.Lang.F("tui.say.nonode", id, len(m.snap.Nodes)), true)
	}
	return nil
}

func (m *Model) openPick(tea.KeyPressMsg) tea.Cmd {
	m.mode = modeSelect
	return m.pick.open()
}

// toggleSlow makes the selected node ten times slower, or normal again.
func (m *Model) toggleSlow(tea.KeyPressMsg) tea.Cmd {
	if n, ok := m.b.selected(); ok {
		if n.Slow > 1 {
			m.do("slow " + n.ID.String() + " 1")
		} else {
			m.do("slow " + n.ID.String() + " 10")
		}
	}
	return nil
}

// toggleIsolate cuts the selected node off, or, when it is the network's only
// fault, heals it back; with other faults standing it says that h heals them all.
func (m *Model) toggleIsolate(tea.KeyPressMsg) tea.Cmd {
	n, ok := m.b.selected()
	if !ok {
		return nil
	}
	if !n.Isolated {
		m.do("isolate " + n.ID.String())
		return nil
	}
	alone := len(m.snap.Groups) == 0 && len(m.snap.Cuts) == 0
	for _, o := range m.snap.Nodes {
		alone = alone && (o.ID == n.ID || !o.Isolated)
	}
	if !alone {
		m.say("✗ "+m.st.Lang.F("tui.say.isolated", n.ID.String()), true)
		return nil
	}
	m.do("heal")
	return nil
}

func (m *Model) openPartition(tea.KeyPressMsg) tea.Cmd {
	m.mode = modePartition
	m.place.partition, m.place.sideA = true, map[node.ID]bool{}
	return nil
}

// requestElection asks the selected node to start an election; a mutual-exclusion
// algorithm has none, and says so.
func (m *Model) requestElection(tea.KeyPressMsg) tea.Cmd {
	if n, ok := m.b.selected(); ok {
		m.do("request " + n.ID.String() + " election")
	}
	return nil
}

// requestCS asks the selected node to enter the critical section.
func (m *Model) requestCS(tea.KeyPressMsg) tea.Cmd {
	if n, ok := m.b.selected(); ok {
		m.do("request " + n.ID.String() + " cs")
	}
	return nil
}

// refusal is why a request cannot be made of this algorithm ("" if it can): an
// election of a mutual-exclusion algorithm, a critical section of any other. The
// keys and the command line refuse alike.
func (m *Model) refusal(cmd string) string {
	if m.snap == nil {
		return ""
	}
	name, ok := requestName(cmd)
	mutex := m.snap.Info.Family == "mutex"
	switch {
	case !ok:
		return ""
	case name == "election" && mutex:
		return m.st.Lang.F("tui.say.noelection", m.snap.Info.Algorithm)
	case name == "cs" && !mutex:
		return m.st.Lang.F("tui.say.nocs", m.snap.Info.Algorithm)
	}
	return ""
}

// requestName is the request an action line makes ("request n1 cs"), if it is one.
func requestName(cmd string) (string, bool) {
	f := strings.Fields(cmd)
	if len(f) == 3 && strings.EqualFold(f[0], "request") {
		return strings.ToLower(f[2]), true
	}
	return "", false
}

// putMarker puts a numbered marker at the current instant.
func (m *Model) putMarker(tea.KeyPressMsg) tea.Cmd {
	m.markers++
	t := ""
	if m.snap != nil {
		t = " at " + fmtT(m.snap.T)
	}
	m.do("marker " + strconv.Quote("mark "+strconv.Itoa(m.markers)+t))
	return nil
}

// togglePause pauses or resumes; a replay at its end plays again from the start.
func (m *Model) togglePause(tea.KeyPressMsg) tea.Cmd {
	play := m.c.Paused()
	if play && m.seek != nil && m.rs.atEnd() {
		m.seek.SeekTime(0)
	}
	m.c.SetPaused(!play)
	m.refresh()
	return nil
}

// step handles the next instant while paused, or pauses.
func (m *Model) step(tea.KeyPressMsg) tea.Cmd {
	if !m.c.Paused() {
		m.c.SetPaused(true)
		m.say(m.st.T("tui.say.paused"), false)
	} else {
		m.c.Step()
	}
	m.refresh()
	return nil
}

func (m *Model) faster(tea.KeyPressMsg) tea.Cmd { return m.setSpeed(faster(m.c.Speed())) }
func (m *Model) slower(tea.KeyPressMsg) tea.Cmd { return m.setSpeed(slower(m.c.Speed())) }

func (m *Model) setSpeed(x float64) tea.Cmd {
	m.c.SetSpeed(x)
	m.refresh()
	m.say(m.st.T("tui.say.speed")+" "+speedText(m.hs.speed), false)
	return nil
}

// toggleStoryPause turns on or off the pause at each story line, for lectures.
func (m *Model) toggleStoryPause(tea.KeyPressMsg) tea.Cmd {
	m.storyPause = !m.storyPause
	if ss, ok := m.c.(StoryStopper); ok {
		ss.SetStoryStops(m.storyPause)
	}
	if m.storyPause {
		m.say("✓ "+m.st.T("tui.say.storypause"), false)
	} else {
		m.say(m.st.T("tui.say.storyplay"), false)
	}
	return nil
}

func (m *Model) toggleTopology(tea.KeyPressMsg) tea.Cmd {
	m.place.view = m.place.view.toggle(viewTopology)
	return nil
}

func (m *Model) toggleHistory(tea.KeyPressMsg) tea.Cmd {
	m.place.view = m.place.view.toggle(viewHistory)
	return nil
}

func (m *Model) openCommand(tea.KeyPressMsg) tea.Cmd {
	m.mode = modeCommand
	return m.cmd.open()
}

func (m *Model) openFilter(tea.KeyPressMsg) tea.Cmd {
	m.mode = modeFilter
	return m.traffic.openFilter()
}

// toggleHeartbeats hides or shows heartbeats in the timeline and the feed.
func (m *Model) toggleHeartbeats(tea.KeyPressMsg) tea.Cmd {
	m.hideHeartbeats(!m.timeline.hideHB)
	if m.timeline.hideHB {
		m.say(m.st.T("tui.say.hbhidden"), false)
	} else {
		m.say(m.st.T("tui.say.hbshown"), false)
	}
	return nil
}

func (m *Model) focusNext(tea.KeyPressMsg) tea.Cmd { m.moveFocus(1); return nil }
func (m *Model) focusBack(tea.KeyPressMsg) tea.Cmd { m.moveFocus(-1); return nil }

// openHelp opens the full help on its first page.
func (m *Model) openHelp(tea.KeyPressMsg) tea.Cmd {
	m.help.ShowAll, m.helpPage = true, 0
	return nil
}

// quit quits, asking first while a recording is made; q while the past of one is
// still being written cancels that first.
func (m *Model) quit(tea.KeyPressMsg) tea.Cmd {
	if m.hs.writing {
		// if the past was written meanwhile (the header had not yet said so),
		// the recording it became is stopped and saved instead
		name, err := m.c.ToggleRecording()
		m.refresh()
		if err != nil {
			m.say("✗ "+m.st.T("tui.say.recording")+" "+err.Error()+"; "+m.st.T("tui.say.qagain"), true)
		} else {
			m.say(m.st.T("tui.say.saved")+" "+name+"; "+m.st.T("tui.say.qagain"), false)
		}
		return nil
	}
	if sh, ok := m.c.(Sharer); ok && sh.Shared() {
		return tea.Quit // the world and its recording go on without this viewer
	}
	if m.forked() && m.c.Recording() != "" {
		m.mode = modeForkQuit
		return nil
	}
	if m.c.Recording() != "" {
		m.mode = modeConfirm
		return nil
	}
	return tea.Quit
}

// The replay's keys.

func (m *Model) stepEvents(msg tea.KeyPressMsg) tea.Cmd {
	m.c.SetPaused(true)
	m.seek.StepEvents(direction(msg.String() == "right"))
	m.refresh()
	return nil
}

func (m *Model) seekSecond(msg tea.KeyPressMsg) tea.Cmd {
	_, now := m.seek.Pos()
	m.seek.SeekTime(max(0, now+int64(direction(msg.String() == "]"))*1_000_000))
	m.refresh()
	return nil
}

func (m *Model) seekMark(msg tea.KeyPressMsg) tea.Cmd {
	next := msg.String() == "n"
	switch {
	case m.seek.NextMark(direction(next)):
		m.refresh()
		m.say(m.st.T("tui.say.markat")+" "+fmtT(m.snap.T), false)
	case next:
		m.say(m.st.T("tui.say.nolater"), false)
	default:
		m.say(m.st.T("tui.say.noearlier"), false)
	}
	return nil
}

func (m *Model) openJump(tea.KeyPressMsg) tea.Cmd {
	m.mode = modeJump
	m.jump.in.Placeholder = "12.5s · 3s · 1500ms (" + m.st.T("tui.prompt.endis") + " " + fmtT(m.rs.end) + ")"
	return m.jump.open()
}

// seekStart and seekFinish go to the start and the end of the recording, paused.
func (m *Model) seekStart(tea.KeyPressMsg) tea.Cmd {
	m.seekTo(0)
	return nil
}

func (m *Model) seekFinish(tea.KeyPressMsg) tea.Cmd {
	m.seekTo(m.rs.end)
	return nil
}

// direction is 1 for forward and -1 for back.
func direction(forward bool) int {
	if forward {
		return 1
	}
	return -1
}
