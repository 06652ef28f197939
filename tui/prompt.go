package tui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// promptLine is a one-line input at the bottom of the screen: the `:` command line,
// and the `g` jump to a time in a replay. Enter submits the line; an error keeps it
// open with the error beside it until the line changes; ↑/↓ recall the lines
// submitted before, newest first; esc closes it. A line that fails is cleared, with
// its error beside the prompt, and kept in the history to be recalled and fixed.
type promptLine struct {
	in      textinput.Model
	err     string
	history []string
	histIdx int
	// tooLong is what the line says when a key would take it past lineLimit
	tooLong string
	// label, when set, replaces the prompt as it opens (d's "delay #165 by ")
	label string
}

func newPromptLine(prompt, placeholder, tooLong string) promptLine {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	in.SetVirtualCursor(true)
	in.CharLimit = lineLimit
	return promptLine{in: in, tooLong: tooLong}
}

// open empties the line and focuses it.
func (p *promptLine) open() tea.Cmd {
	p.err = ""
	if p.label != "" {
		p.in.Prompt = p.label
	}
	p.in.SetValue("")
	p.histIdx = len(p.history)
	return p.in.Focus()
}

func (p *promptLine) close() {
	p.in.Blur()
	p.err = ""
}

// key handles a key press while the prompt is open. On enter, submit gets the
// trimmed line; its error stays beside the line. done reports that the prompt
// closed.
func (p *promptLine) key(msg tea.KeyPressMsg, submit func(line string) error) (done bool, cmd tea.Cmd) {
	switch msg.String() {
	case "esc":
		p.close()
		return true, nil
	case "enter":
		line := strings.TrimSpace(p.in.Value())
		if line == "" {
			p.close()
			return true, nil
		}
		err := submit(line)
		if len(p.history) == 0 || p.history[len(p.history)-1] != line {
			p.history = append(p.history, line)
		}
		p.histIdx = len(p.history)
		if err != nil {
			p.err = err.Error()
			p.in.SetValue("") // cleared, open for the next try
			return false, nil
		}
		p.close()
		return true, nil
	case "up":
		if p.histIdx > 0 {
			p.histIdx--
			p.in.SetValue(p.history[p.histIdx])
			p.in.CursorEnd()
		}
		return false, nil
	case "down":
		if p.histIdx < len(p.history)-1 {
			p.histIdx++
			p.in.SetValue(p.history[p.histIdx])
		} else {
			p.histIdx = len(p.history)
			p.in.SetValue("")
		}
		p.in.CursorEnd()
		return false, nil
	}
	before := p.in.Value()
	if before == "" && msg.Text == strings.TrimSpace(p.in.Prompt) {
		return false, nil // the key that opened the prompt, pressed again
	}
	if msg.Text != "" && len([]rune(before)) >= lineLimit {
		// a paste of thousands of keys stops at the limit, and says so
		p.err = p.tooLong
		return false, nil
	}
	p.in, cmd = p.in.Update(msg)
	if p.in.Value() != before {
		p.err = ""
	}
	return false, cmd
}

// setWidth gives the input the screen's width, so that placeholders show whole.
func (p *promptLine) setWidth(w int) {
	p.in.SetWidth(max(w-len([]rune(p.in.Prompt))-1, 1))
}

// update passes other messages (cursor blinks) to the input.
func (p *promptLine) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	return cmd
}

// View is the line, with the error if any: the error first, where the line is
// long, so that it is never cut off the screen.
func (p *promptLine) View(st *Styles) string {
	if p.err != "" {
		// the error takes the placeholder's place
		in := p.in
		in.Placeholder = ""
		n := len([]rune(in.Value()))
		if n > 40 {
			in.SetWidth(40)
			return st.Error.Render("✗ "+p.err) + "  " + in.View()
		}
		in.SetWidth(n + 1)
		return in.View() + "  " + st.Error.Render("✗ "+p.err)
	}
	return p.in.View()
}
