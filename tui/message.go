package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// The messages in flight, one at a time (issue 30, "what if?"): [ and ] select
// the previous or next message on its way (or # and its id, #165, or a click on
// its letter in the topology), and then x drops it, d delays it and ! delivers it
// next, through the action grammar (drop #165, delay #165 30ms, deliver #165), so
// that what is done is recorded and verifies. The selected message is drawn in
// the selection's style where it travels (its letter in the topology, a row of
// its own at the timeline's foot), and its receiver's card says ◂#165.
//
// The messages in flight are those the world lists when the controller can
// (FlightLister: a live run, a fork), whenever they were sent; a replay offers
// those its picture's recent events show sent and not yet landed (see flights).

// inFlight lists the messages in flight that s's recent events show, in the
// order they were sent.
func inFlight(s *trace.Snapshot) []flight {
	if s == nil {
		return nil
	}
	fl, _ := flights(s, 1, 0)
	return fl
}

// flightsNow lists the messages in flight, in the order they were sent: every
// one, from the world, when the controller lists them; else those of the
// picture's recent events. One sent before them has no sending time (-1) and
// is drawn half way.
func (m *Model) flightsNow() []flight {
	recent := inFlight(m.snap)
	fl, ok := m.c.(FlightLister)
	if !ok {
		return recent
	}
	seen := make(map[uint64]flight, len(recent))
	for _, f := range recent {
		seen[f.mid] = f
	}
	all := fl.Flights()
	out := make([]flight, 0, len(all))
	for _, f := range all {
		if r, ok := seen[f.MID]; ok {
			out = append(out, r)
			continue
		}
		out = append(out, flight{from: f.From, to: f.To, typ: f.Type, frac: 0.5, mid: f.MID, sent: -1})
	}
	return out
}

// selectedFlight is the selected message, if it is still in flight.
func (m *Model) selectedFlight() (flight, bool) { return m.b.selFlight(m.snap) }

// selFlight is the selected message while it is in flight: as s's recent events
// show it, or, sent before them, as it was when selected, until they show it
// land.
func (b *board) selFlight(s *trace.Snapshot) (flight, bool) {
	if b.msg == 0 || s == nil {
		return flight{}, false
	}
	sent := false
	for i := range s.Recent {
		if e := &s.Recent[i]; e.MID == b.msg && !e.Local {
			switch e.Ev {
			case trace.Deliver, trace.Drop:
				return flight{}, false
			case trace.Send:
				sent = true
			}
		}
	}
	if !sent {
		return b.fl, true
	}
	for _, f := range inFlight(s) {
		if f.mid == b.msg {
			return f, true
		}
	}
	return flight{}, false
}

// forgetLanded drops the selection of a message that has landed (delivered or
// dropped) since it was selected; refresh calls it.
func (m *Model) forgetLanded() {
	if m.b.msg == 0 {
		return
	}
	if f, ok := m.selectedFlight(); ok {
		m.b.msgTo = f.to
		return
	}
	m.b.msg, m.b.msgTo = 0, 0
}

// selectMessage selects the next (]) or previous ([) message in flight, in the
// order they were sent, wrapping around.
func (m *Model) selectMessage(msg tea.KeyPressMsg) tea.Cmd {
	fl := m.flightsNow()
	if len(fl) == 0 {
		m.say("✗ "+m.st.T("tui.say.noflight"), true)
		return nil
	}
	i := -1
	for k, f := range fl {
		if f.mid == m.b.msg {
			i = k
		}
	}
	switch {
	case i < 0 && msg.String() == "[":
		i = len(fl) - 1
	case i < 0:
		i = 0
	case msg.String() == "[":
		i = (i + len(fl) - 1) % len(fl)
	default:
		i = (i + 1) % len(fl)
	}
	m.pickMessage(fl[i])
	return nil
}

// pickMessage selects f and says what can be done with it.
func (m *Model) pickMessage(f flight) {
	m.b.msg, m.b.msgTo, m.b.fl = f.mid, f.to, f
	m.say(m.st.Lang.F("tui.say.msgpicked", flightText(f)), false)
}

// flightText names a message in flight: #165 n2→n1 COORDINATOR.
func flightText(f flight) string {
	return "#" + strconv.FormatUint(f.mid, 10) + " " + f.from.String() + "→" + f.to.String() + " " + f.typ
}

// pickMessageID selects message #id from the # prompt.
func (m *Model) pickMessageID(line string) error {
	id, err := strconv.ParseUint(strings.TrimPrefix(line, "#"), 10, 64)
	if err != nil || id == 0 {
		return fmt.Errorf("found %q, expected a node id (n12, 12) or a message's id (#165)", line)
	}
	for _, f := range m.flightsNow() {
		if f.mid == id {
			m.pickMessage(f)
			return nil
		}
	}
	return errors.New(m.st.Lang.F("tui.say.notflying", id))
}

// onMessage applies an action to the selected message: format names its id.
func onMessage(format string) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		if f, ok := m.flying(); ok {
			m.do(fmt.Sprintf(format, f.mid))
			m.b.msg, m.b.msgTo = 0, 0
		}
		return nil
	}
}

// flying is the selected message when it is still in flight; otherwise it says
// why nothing can be done.
func (m *Model) flying() (flight, bool) {
	if m.b.msg == 0 {
		m.say("✗ "+m.st.T("tui.say.nomsg"), true)
		return flight{}, false
	}
	f, ok := m.stillFlying()
	if !ok {
		m.say("✗ "+m.st.Lang.F("tui.say.notflying", m.b.msg), true)
		m.b.msg, m.b.msgTo = 0, 0
	}
	return f, ok
}

// stillFlying is the selected message if it is in flight: as the world says,
// when the controller lists its messages (the picture may not yet show a
// landing), else as the picture shows it.
func (m *Model) stillFlying() (flight, bool) {
	if _, ok := m.c.(FlightLister); !ok {
		return m.selectedFlight()
	}
	for _, f := range m.flightsNow() {
		if f.mid == m.b.msg {
			return f, true
		}
	}
	return flight{}, false
}

// openDelay asks by how long to delay the selected message.
func (m *Model) openDelay(tea.KeyPressMsg) tea.Cmd {
	f, ok := m.flying()
	if !ok {
		return nil
	}
	m.mode = modeDelay
	m.delay.label = m.st.Lang.F("tui.prompt.delay", f.mid)
	return m.delay.open()
}

// delayBy delays the selected message by what was typed after d.
func (m *Model) delayBy(line string) error {
	f, ok := m.stillFlying()
	if !ok {
		return errors.New(m.st.Lang.F("tui.say.notflying", m.b.msg))
	}
	if err := m.command("delay #" + strconv.FormatUint(f.mid, 10) + " " + strings.TrimSpace(line)); err != nil {
		return err
	}
	m.b.msg, m.b.msgTo = 0, 0
	return nil
}

// fork turns the replay into a live run at the instant it shows (f): the
// recording's scenario runs again to there with its user actions, and goes on
// live, paused, with the dashboard's keys; the header says where it came from.
func (m *Model) fork(tea.KeyPressMsg) tea.Cmd {
	fk, ok := m.c.(Forker)
	if !ok {
		m.say("✗ "+m.st.T("tui.say.noforking"), true)
		return nil
	}
	_, at := m.seek.Pos()
	c, err := fk.Fork(at)
	if err != nil {
		m.say("✗ "+m.st.T("tui.key.fork")+": "+err.Error(), true)
		return nil
	}
	m.c.SetPaused(true)
	m.becomeLive(c)
	m.say(m.st.T("tui.say.forked"), false)
	return nil
}

// becomeLive makes the dashboard drive c, a live session, instead of a replay.
func (m *Model) becomeLive(c Controller) {
	m.c, m.seek, m.rs = c, nil, replayState{}
	m.keys = DefaultKeyMap()
	m.keys.localize(m.st.Lang, false)
	m.b.replay, m.hs.replay, m.hs.file = false, false, ""
	if fs, ok := c.(ForkSaver); ok {
		if file, at, ok := fs.ForkedFrom(); ok {
			m.hs.fork = m.st.Lang.F("tui.hdr.forked", shortPath(file), fmtT(at))
		}
	}
	m.bar.lines = nil
	m.refresh()
	m.relayout()
	m.dirty = true
}

// forked reports whether the dashboard drives a fork of a recording.
func (m *Model) forked() bool {
	fs, ok := m.c.(ForkSaver)
	if !ok {
		return false
	}
	_, _, ok = fs.ForkedFrom()
	return ok
}

// forkQuitKey answers q in a fork: y names the fork's recording and saves it, n
// removes it and quits, esc stays.
func (m *Model) forkQuitKey(msg tea.KeyPressMsg) tea.Cmd {
	mk := &m.mkeys
	switch {
	case key.Matches(msg, mk.Cancel):
		m.mode = modeNormal
	case key.Matches(msg, mk.Yes):
		m.mode = modeForkSave
		cmd := m.save.open()
		if fs, ok := m.c.(ForkSaver); ok {
			m.save.in.SetValue(fs.ForkFile())
			m.save.in.CursorEnd()
		}
		return cmd
	case key.Matches(msg, mk.Discard):
		if fs, ok := m.c.(ForkSaver); ok {
			fs.DiscardFork()
		}
		return tea.Quit
	}
	return nil
}

// saveFork saves the fork's recording under the name typed, and quits.
func (m *Model) saveFork(name string) error {
	fs, ok := m.c.(ForkSaver)
	if !ok {
		return errors.New(m.st.T("tui.say.noforking"))
	}
	if err := fs.SaveFork(name); err != nil {
		return err
	}
	m.quitting = true
	return nil
}

// shortPath is path as the header names it: relative to the working directory
// when it lies under it (a.jsonl, not /home/ana/lab/a.jsonl).
func shortPath(path string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(path) {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
