package lab

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/clusterlab/clusterlab/grading"
	"github.com/clusterlab/clusterlab/session"
)

// grade: mark a folder of homework recordings, one row per file.

type gradeCmd struct {
	Dir    string `arg:"" help:"${help_grade_dir}" type:"existingdir"`
	Rubric string `help:"${help_grade_rubric}" type:"existingfile" placeholder:"FILE"`
	Out    string `help:"${help_grade_out}" default:"grades.csv" placeholder:"FILE"`
	Force  bool   `help:"${help_force}"`
	Jobs   int    `help:"${help_grade_jobs}"`
}

func (c *gradeCmd) Run() error {
	sig := catchSignals()
	defer sig.stop()
	var rubric *grading.Rubric
	if c.Rubric != "" {
		var err error
		if rubric, err = grading.LoadRubric(c.Rubric); err != nil {
			return badInput(err)
		}
	}
	files, err := grading.Files(c.Dir)
	if err != nil {
		return badInput(err)
	}
	if len(files) == 0 {
		return badInput(fmt.Errorf("%s: found no recordings, expected files ending in .jsonl, .jsonl.gz or .jsonl.zst", c.Dir))
	}
	if !strings.HasSuffix(c.Out, ".csv") {
		return badInput(fmt.Errorf("--out: found %q, expected a file name ending in .csv (the summary goes beside it, in .md)", c.Out))
	}
	mdPath := strings.TrimSuffix(c.Out, ".csv") + ".md"
	inputs := files
	if c.Rubric != "" {
		inputs = append([]string{c.Rubric}, files...)
	}
	csvOut, err := session.CreateOutput(c.Out, c.Force, inputs...)
	if err != nil {
		return badInput(fmt.Errorf("--out: %w", err))
	}
	defer csvOut.Abort()
	mdOut, err := session.CreateOutput(mdPath, c.Force, inputs...)
	if err != nil {
		return badInput(fmt.Errorf("--out: %w", err))
	}
	defer mdOut.Abort()

	rows, err := grading.Grade(sig.ctx, files, rubric, c.Jobs, ui)
	if sig.interrupted() {
		return sig.err()
	}
	if err != nil {
		return err
	}
	for _, r := range rows {
		outf("%-10s %s: %s\n", r.Verdict, filepath.Base(r.File), r.Reason)
	}
	// An output that cannot be written exits 3, naming it, as every command's.
	if err := grading.WriteCSV(csvOut, rows); err != nil {
		return ioError(c.Out, err)
	}
	if err := grading.WriteMarkdown(mdOut, c.Dir, rubric, rows, ui); err != nil {
		return ioError(mdPath, err)
	}
	if err := csvOut.Commit(); err != nil {
		return ioError(c.Out, err)
	}
	if err := mdOut.Commit(); err != nil {
		return ioError(mdPath, err)
	}
	failed := grading.Failed(rows)
	outln(ui.F("grade.summary", len(rows), len(rows)-failed, failed, c.Out, mdPath))
	if failed > 0 {
		return checkFailed(errors.New(ui.F("grade.err.failed", failed, len(rows))))
	}
	return nil
}
