package sweep

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// checkTables fails t for every bad table row of md (see tableProblems) and
// returns how many cells hold a |.
func checkTables(t *testing.T, md []byte) int {
	t.Helper()
	problems, pipes := tableProblems(md)
	for _, p := range problems {
		t.Error(p)
	}
	return pipes
}

// tableProblems parses md as GitHub-flavoured Markdown and checks every table row:
// each cell of the header's count comes from the row's own text (a row with fewer
// cells gets empty ones added), and the last of them ends where the row ends (a
// row with more cells, as an unescaped | makes, loses the rest). It also counts
// the cells that hold a |.
func tableProblems(md []byte) (problems []string, pipes int) {
	doc := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser().Parse(text.NewReader(md))
	tables := 0
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *east.Table:
			tables++
		case *east.TableHeader, *east.TableRow:
			var last text.Segment
			cells := 0
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if c.Lines().Len() == 0 {
					problems = append(problems, fmt.Sprintf("a table row has fewer cells than its header: %q", rowText(md, last)))
					return ast.WalkSkipChildren, nil
				}
				last = c.Lines().At(0)
				cells++
				if strings.Contains(string(c.Text(md)), "|") || bytes.Contains(last.Value(md), []byte(`\|`)) {
					pipes++
				}
			}
			end := bytes.IndexByte(md[last.Stop:], '\n')
			if end < 0 {
				end = len(md) - last.Stop
			}
			if rest := strings.TrimSpace(string(md[last.Stop : last.Stop+end])); rest != "|" {
				problems = append(problems, fmt.Sprintf("a table row has more cells than its header (%d): %q is left over in %q", cells, rest, rowText(md, last)))
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if tables == 0 {
		problems = append(problems, "report.md has no table")
	}
	return problems, pipes
}

// rowText is the line a segment lies on.
func rowText(md []byte, s text.Segment) string {
	start := bytes.LastIndexByte(md[:s.Start], '\n') + 1
	end := bytes.IndexByte(md[s.Start:], '\n')
	if end < 0 {
		return string(md[start:])
	}
	return string(md[start : s.Start+end])
}

// TestCheckTablesFindsBadRows: the check sees a | left unescaped and a row short
// of cells, and passes an escaped one.
func TestCheckTablesFindsBadRows(t *testing.T) {
	good := "| a | b |\n|---|---|\n| 3(\\|V\\|−1) | x |\n"
	if problems, n := tableProblems([]byte(good)); len(problems) > 0 || n != 1 {
		t.Errorf("an escaped |: %v, %d cells with a |; want none and 1", problems, n)
	}
	for _, bad := range []string{"| a | b |\n|---|---|\n| 3(|V|−1) | x |\n", "| a | b |\n|---|---|\n| x |\n"} {
		if problems, _ := tableProblems([]byte(bad)); len(problems) != 1 {
			t.Errorf("%q: %v, want one problem", bad, problems)
		}
	}
}
