package export

import (
	"strings"
	"testing"
)

// checkMarkdownTables: every table row of a report has as many cells as its
// header (a "|" in a cell is escaped), and code blocks are closed.
func checkMarkdownTables(t *testing.T, name, md string) {
	t.Helper()
	cells := func(l string) int { return strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") }
	want, fence := 0, false
	for i, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(l, "|") {
			want = 0
			continue
		}
		if want == 0 {
			want = cells(l)
			continue
		}
		if got := cells(l); got != want {
			t.Fatalf("%s line %d: %d cells, the table has %d: %q", name, i+1, got-1, want-1, l)
		}
	}
	if fence {
		t.Fatalf("%s: a code block is left open", name)
	}
}

// TestEveryExportOfEveryTrace checks the formats whose other tests use a few
// traces over every preset: the report's tables, the event table's columns, and
// the asciicast's format (every cast is drawn, so not with -short).
// Mermaid, ShiViz, Perfetto and the message table have their own every-trace
// tests.
func TestEveryExportOfEveryTrace(t *testing.T) {
	for name, tr := range allTraces(t) {
		checkMarkdownTables(t, name, export(t, tr, Flags{Format: "md"}))
		rows, header := readCSV(t, export(t, tr, Flags{Format: "csv", Table: "events"}))
		checkColumns(t, rows, header)
		if len(rows) != len(tr.Events) {
			t.Errorf("%s: %d event rows, %d events", name, len(rows), len(tr.Events))
		}
		if testing.Short() {
			continue
		}
		// 2 frames a second keeps it quick; the other cast tests use other rates.
		w, h, evs := parseCast(t, export(t, tr, Flags{Format: "cast", FPS: 2}))
		if w != 120 || h != 36 || len(evs) < 2 {
			t.Errorf("%s: cast %dx%d with %d events", name, w, h, len(evs))
		}
	}
}
