package grading

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/lang"
)

// CSVHeader names grades.csv's columns. The verdicts are the same words in every
// language; the reasons are in the language the grader chose.
var CSVHeader = []string{"file", "verdict", "reason", "scenario", "algorithm", "nodes", "events", "hash"}

// WriteCSV writes one row per file.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader)
	for _, r := range rows {
		cw.Write([]string{filepath.Base(r.File), string(r.Verdict), r.Reason, r.Scenario, r.Algorithm,
			strconv.Itoa(r.Nodes), strconv.Itoa(r.Events), r.Hash})
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the summary a teacher reads: the rubric, the counts by
// verdict, and a table of the files.
func WriteMarkdown(w io.Writer, dir string, r *Rubric, rows []Row, l lang.Lang) error {
	var b strings.Builder
	title := l.T("grade.md.title")
	if r != nil && r.Title != "" {
		title = r.Title
	}
	fmt.Fprintf(&b, "# %s\n\n", mdCell(title))
	fmt.Fprintf(&b, "%s\n\n", l.F("grade.md.folder", mdCell(dir), len(rows), len(rows)-Failed(rows)))
	if r != nil {
		fmt.Fprintf(&b, "%s\n\n", l.T("grade.md.rubric"))
		for _, q := range r.Require {
			fmt.Fprintf(&b, "- %s\n", mdCell(Describe(q, l)))
		}
		b.WriteString("\n")
	} else {
		fmt.Fprintf(&b, "%s\n\n", l.T("grade.md.norubric"))
	}
	counts := map[Verdict]int{}
	for _, row := range rows {
		counts[row.Verdict]++
	}
	var parts []string
	for _, v := range []Verdict{Pass, Fail, Edited, Cut, Foreign, Unreadable} {
		if counts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, counts[v]))
		}
	}
	fmt.Fprintf(&b, "%s\n\n", strings.Join(parts, " · "))
	fmt.Fprintf(&b, "| %s |\n|---|---|---|---|---|\n", strings.Join([]string{l.T("grade.md.file"), l.T("grade.md.verdict"), l.T("grade.md.reason"), l.T("grade.md.scenario"), l.T("grade.md.hash")}, " | "))
	for _, row := range rows {
		hash := row.Hash
		if len(hash) > 12 {
			hash = "`" + hash[:12] + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", mdCell(filepath.Base(row.File)), row.Verdict, mdCell(row.Reason), mdCell(row.Scenario), hash)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCell makes a text safe in a Markdown table cell: one line, no pipes.
func mdCell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}
