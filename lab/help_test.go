package lab

import (
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/clusterlab/clusterlab/docs"
	"github.com/clusterlab/clusterlab/lang"
)

// TestHelpNamesItsGuide: every command has a guide that is a page of the binary,
// in the reader's language where it has one. (TestHelpLanguages checks that each
// command's --help ends with the line naming it.)
func TestHelpNamesItsGuide(t *testing.T) {
	var cli cmdLine
	p, err := newParser(&cli, lang.En, kong.Exit(func(int) {}))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *kong.Node, path []string)
	walk = func(n *kong.Node, path []string) {
		topic, ok := commandGuide[strings.Join(path[:min(len(path), 1)], "")]
		if !ok {
			t.Errorf("clusterlab %s: commandGuide names no guide for it", strings.Join(path, " "))
		}
		for _, l := range lang.All {
			if _, ok := pageFile(l, topic); !ok {
				t.Errorf("clusterlab %s: its guide %q is no page of docs/", strings.Join(path, " "), topic)
			}
		}
		for _, c := range n.Children {
			if !c.Hidden {
				walk(c, append(append([]string(nil), path...), c.Name))
			}
		}
	}
	walk(p.Model.Node, nil)
}

// TestHelpTopics: `help TOPIC` renders every page of docs/ (in each language:
// the student's and teacher's in pt and es are their own pages), as plain text
// for a pipe; a topic that is not a page is bad input naming the guides.
func TestHelpTopics(t *testing.T) {
	if len(topics()) < 10 {
		t.Fatalf("only %d guides embedded: %v", len(topics()), topics())
	}
	rendered := map[string]bool{}
	for _, topic := range topics() {
		for _, l := range lang.All {
			file, _ := pageFile(l, topic)
			if rendered[file] {
				continue // an English page that has no translation
			}
			rendered[file] = true
			page, err := pageText(l, topic)
			if err != nil {
				t.Fatal(err)
			}
			out, err := renderPage(page, 80, false)
			if err != nil {
				t.Fatalf("%s %s: %v", l, topic, err)
			}
			title := strings.TrimPrefix(strings.SplitN(page, "\n", 2)[0], "# ")
			title = strings.NewReplacer("`", "").Replace(title)
			if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(title), " ")) || strings.Contains(out, "\x1b[") {
				t.Errorf("%s %s: the plain rendering lacks the title %q or holds escapes:\n%s", l, topic, title, out[:min(len(out), 400)])
			}
		}
	}
	if p, _ := pageText(lang.Pt, "student"); !strings.HasPrefix(p, "# A primeira hora") {
		t.Errorf("help student in pt is not docs/pt/student.md: %.60q", p)
	}
	for _, bad := range []string{"nope", "../README", "pt/student", ""} {
		if _, err := pageText(lang.En, bad); err == nil || !strings.Contains(err.Error(), "expected one of the guides: ") {
			t.Errorf("help %q: %v", bad, err)
		}
	}
	// Every page of docs/ is in the binary.
	for _, dir := range []string{"../docs", "../docs/pt", "../docs/es"} {
		entries, _ := fs.Glob(os.DirFS(dir), "*.md")
		for _, e := range entries {
			name := strings.TrimPrefix(dir+"/"+e, "../docs/")
			if _, err := fs.Stat(docs.Pages, name); err != nil {
				t.Errorf("%s is not embedded", name)
			}
		}
	}
}
