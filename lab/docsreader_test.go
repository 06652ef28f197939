package lab

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

var (
	// whoFor is how a page's first paragraph names its reader, in the three
	// languages of the guides.
	whoFor = regexp.MustCompile(`^(For |This page is for |Para quem |Para quien )`)
	// atTheEnd is how it says what the reader can do once through it.
	atTheEnd = regexp.MustCompile(`(?i)(at|by) the end of this page|ao fim desta página|al final de esta página`)
)

// TestDocsSayWhoFor: every page of docs/ opens, under its title, with whom it is
// for and what its reader can do at its end (issue 31), so that a newcomer knows
// at once whether to read on.
func TestDocsSayWhoFor(t *testing.T) {
	for _, page := range allDocPages(t) {
		if page == "README.md" {
			continue
		}
		data, err := os.ReadFile("../" + page)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.SplitN(strings.TrimSpace(string(data)), "\n\n", 3)
		if len(parts) < 2 || !strings.HasPrefix(parts[0], "# ") {
			t.Errorf("%s: no title and first paragraph", page)
			continue
		}
		first := strings.Join(strings.Fields(parts[1]), " ")
		if !whoFor.MatchString(first) || !atTheEnd.MatchString(first) {
			t.Errorf("%s: its first paragraph does not say whom it is for (\"For …\") and what they can do at its end (\"At the end of this page you can …\"):\n%s", page, first)
		}
	}
}

// TestCommandWithAPageOfItsOwn: a command with a guide of its own name (calc,
// docs/calc.md) ends its --help with that guide, not a broader one.
func TestCommandWithAPageOfItsOwn(t *testing.T) {
	for command, topic := range commandGuide {
		if command == "" {
			continue
		}
		if _, err := os.Stat("../docs/" + command + ".md"); err == nil && topic != command {
			t.Errorf("clusterlab %s --help names the guide %s, but docs/%s.md is its own", command, topic, command)
		}
	}
}
