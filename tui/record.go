package tui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"
)

// Sizer is a Controller that can say how much of the past R would write: how many
// events so far and, about, how many bytes. R asks before it writes a long past
// (issue 24: 12.4 GB written in a minute without a word).
type Sizer interface {
	PastSize() (events uint64, bytes int64)
}

// askAbove is the size of a past that R writes without asking.
const askAbove = 20 << 20

// record starts recording the session from its start, asking first when the past
// is long; it stops a recording in progress, or cancels one whose past is being
// written.
func (m *Model) record(tea.KeyPressMsg) tea.Cmd {
	if sz, ok := m.c.(Sizer); ok && m.c.Recording() == "" {
		if events, bytes := sz.PastSize(); bytes > askAbove {
			m.recordQuestion = m.st.Lang.F("tui.record.ask", events, sizeText(bytes))
			m.mode = modeRecord
			return nil
		}
	}
	m.startRecording()
	return nil
}

// startRecording toggles the recording and says how it went.
func (m *Model) startRecording() {
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
}

// sizeText is a size in bytes as people read it: "340 KB", "12.4 GB".
func sizeText(b int64) string {
	units := []string{"B", "KB", "MB", "GB", "TB"}
	x, u := float64(b), 0
	for x >= 1000 && u < len(units)-1 {
		x /= 1000
		u++
	}
	prec := 0
	if u > 0 && x < 10 {
		prec = 1
	}
	return strconv.FormatFloat(x, 'f', prec, 64) + " " + units[u]
}
