package lab

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/term"

	"github.com/clusterlab/clusterlab/docs"
	"github.com/clusterlab/clusterlab/lang"
)

// helpCmd prints a guide's page in the terminal: the pages of docs/, embedded in
// the binary, in the reader's language where the page has a translation.
type helpCmd struct {
	Topic string `arg:"" optional:"" help:"${help_help_topic}"`
}

func (c helpCmd) Run() error {
	if c.Topic == "" {
		outln(ui.T("guide.topics"))
		for _, t := range topics() {
			outf("  %s\n", t)
		}
		return nil
	}
	page, err := pageText(ui, c.Topic)
	if err != nil {
		return badInput(err)
	}
	width, color := 80, false
	if term.IsTerminal(os.Stdout.Fd()) {
		if cols, _, err := term.GetSize(os.Stdout.Fd()); err == nil && cols > 20 {
			width = min(cols, 120)
		}
		color = os.Getenv("NO_COLOR") == ""
	}
	out, err := renderPage(page, width, color)
	if err != nil {
		return err
	}
	// The rendered page holds glamour's colours, and the pages are the binary's
	// own text: it goes to stdout as it is, not through the sanitiser.
	_, err = io.WriteString(stdout, out)
	return err
}

// topics lists the guides' names: the pages of docs/ without .md.
func topics() []string {
	entries, _ := fs.ReadDir(docs.Pages, ".")
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".md"); ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// pageFile is the page of topic in l: docs/pt/NAME.md where it exists, else the
// English docs/NAME.md.
func pageFile(l lang.Lang, topic string) (string, bool) {
	for _, p := range []string{string(l) + "/" + topic + ".md", topic + ".md"} {
		if l == lang.En && strings.Contains(p, "/") {
			continue
		}
		if _, err := fs.Stat(docs.Pages, p); err == nil {
			return p, true
		}
	}
	return "", false
}

// pageText is topic's page in l, or an error that lists the topics.
func pageText(l lang.Lang, topic string) (string, error) {
	p, ok := pageFile(l, topic)
	if !ok || strings.ContainsAny(topic, "/.") {
		return "", fmt.Errorf("help: found %q, expected one of the guides: %s", topic, strings.Join(topics(), ", "))
	}
	data, err := docs.Pages.ReadFile(p)
	if err != nil {
		return "", errors.New("help: " + err.Error())
	}
	return string(data), nil
}

// renderPage renders a page's Markdown for a terminal width columns wide: in
// colour (glamour's dark style), or plain for a pipe and NO_COLOR.
func renderPage(page string, width int, color bool) (string, error) {
	style := "notty"
	if color {
		style = "dark"
	}
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
	if err != nil {
		return "", err
	}
	return r.Render(page)
}

// commandGuide names the guide that covers each command (by its first word).
var commandGuide = map[string]string{
	"": "student", "run": "dashboard", "replay": "dashboard", "sim": "scenarios", "presets": "scenarios",
	"algos": "algorithms", "verify": "recordings", "export": "recordings", "sweep": "sweeps", "sweeps": "sweeps",
	"calc": "calc", "new": "own-algorithm", "check": "own-algorithm", "grade": "teacher", "explore": "finding-bugs",
	"shrink": "finding-bugs", "diff": "diff-json", "help": "student", "serve": "teaching",
}

// guideLine is the last line of a command's --help: the guide that covers it, and
// where to read it.
func guideLine(l lang.Lang, command string) string {
	topic := commandGuide[command]
	p, _ := pageFile(l, topic)
	return l.F("guide.line", topic, "docs/"+p)
}
