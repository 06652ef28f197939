package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/clusterlab/clusterlab/internal/termtext"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// storyFresh is how long (virtual µs) a marker is the story line's text.
const storyFresh = 10_000_000

// storyPane narrates: the scenario's description, then each marker as its moment
// passes. Focused, it scrolls back through the markers.
type storyPane struct{ linePane }

func newStoryPane(b *board) *storyPane {
	p := &storyPane{newLinePane(b, true)}
	p.all = p.markLines
	return p
}

// markLines are the markers so far, wrapped.
func (p *storyPane) markLines(s *trace.Snapshot) []string {
	st := p.b.st
	var marks []string
	for _, m := range s.Markers {
		for _, l := range strings.Split(ansi.Wrap("❝ "+fmtT(m.T)+" "+termtext.Line(st.Lang.Marker(m.Text)), max(p.w-2, 1), ""), "\n") {
			marks = append(marks, st.Marker.Render(l))
		}
	}
	return marks
}

// View renders the pane; the newest markers win when space is short.
func (p *storyPane) View() string {
	s := p.b.snap
	st := p.b.st
	iw, ih := p.w-2, p.h-2
	marks := p.markLines(s)
	var desc []string
	if d := description(st, s); d != "" && iw > 0 {
		for _, l := range strings.Split(ansi.Wrap(d, iw, ""), "\n") {
			desc = append(desc, st.Story.Render(l))
		}
	}
	if len(marks) > ih {
		from, to := p.scroll.window(len(marks), ih)
		marks = marks[from:to]
	}
	room := ih - len(marks)
	if len(desc) > room {
		desc = desc[:max(room, 0)]
		if room > 0 {
			desc[room-1] = fit(ansi.Strip(desc[room-1]), iw-1) + "…"
			desc[room-1] = st.Story.Render(desc[room-1])
		}
	}
	title := st.T("tui.title.story")
	if s.Info.Name != "" {
		title += " · " + termtext.Line(s.Info.Name)
	}
	return box(st, title, append(desc, marks...), p.w, p.h, p.focused)
}

// storyLine is the one-line story: the freshest marker while it holds, or else the
// description (as much as fits) unless the Story pane already shows it
// (paneShown): the story appears once. A marker holds for storyFresh of virtual
// time, and no longer than until the script's next moment (a marker saying that
// the network is about to split is stale once it has split and healed), nor past
// the scenario's end, where its script is over (a live run goes on after it).
func storyLine(st *Styles, s *trace.Snapshot, w int, paneShown bool) string {
	if w <= 0 {
		return ""
	}
	over := s.Info.Until > 0 && s.T > s.Info.Until
	if k := len(s.Markers); k > 0 && !over && s.T-s.Markers[k-1].T <= storyFresh && s.Markers[k-1].T >= s.ScriptT {
		return fit(st.Marker.Render("❝ "+termtext.Line(st.Lang.Marker(s.Markers[k-1].Text))), w)
	}
	if paneShown {
		return fit("", w)
	}
	return fit(st.Story.Render(description(st, s)), w)
}

// description is the scenario's description on one line, in the reader's language,
// its control characters shown escaped (it comes from a file).
func description(st *Styles, s *trace.Snapshot) string {
	return termtext.Line(oneLine(st.Lang.Preset(s.Info.Name, s.Info.Description)))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
