package sweep

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/lang"
)

// A grid of 1,000 cells: quick to check, but a check all the same.
const thousandCells = `base = "ring"
[set]
"params.initiators" = ["n1"]
[axes]
nodes = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
"network.loss" = [0.0, 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009]
"network.dup" = [0.0, 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009]
`

// TestCheckShowsProgress: the check of a grid's cells (every cell built before any
// run: seconds for 100,000 cells) draws its progress line where the runs' bar goes,
// in the reader's language, counts to the last cell, and erases the line when it
// is done, so that the runs' bar takes its place.
func TestCheckShowsProgress(t *testing.T) {
	defer func(q time.Duration) { checkQuiet = q }(checkQuiet)
	checkQuiet = 0 // drawn from the first cell; the real wait is for a big grid
	path := filepath.Join(t.TempDir(), "grid.toml")
	os.WriteFile(path, []byte(thousandCells), 0o644)
	for _, tc := range []struct {
		ui   lang.Lang
		want string
	}{
		{lang.En, "] checking cells 1000/1000 · "},
		{lang.Pt, "] verificando células 1000/1000 · "},
		{lang.Es, "] comprobando celdas 1000/1000 · "},
	} {
		var shown bytes.Buffer
		if _, err := Prepare(Options{File: path, Lang: tc.ui, Progress: &shown}); err != nil {
			t.Fatal(err)
		}
		out := shown.String()
		if !strings.HasPrefix(out, "\r[") || !strings.Contains(out, "["+strings.Repeat("█", 16)+tc.want) {
			t.Errorf("%s: the check's progress does not reach %q:\n%q", tc.ui, tc.want, out)
		}
		if !strings.HasSuffix(out, "\r\x1b[2K") {
			t.Errorf("%s: the check's line is not erased at its end:\n%q", tc.ui, out)
		}
		if strings.Contains(out, "\n") {
			t.Errorf("%s: the check's progress ends a line:\n%q", tc.ui, out)
		}
	}
}

// TestCheckQuietWhenQuick: a check that ends before checkQuiet draws nothing (a
// small grid, checked in milliseconds, leaves no line behind); without a progress
// writer (stderr not a terminal) the check draws nowhere.
func TestCheckQuietWhenQuick(t *testing.T) {
	defer func(q time.Duration) { checkQuiet = q }(checkQuiet)
	checkQuiet = time.Hour
	path := filepath.Join(t.TempDir(), "grid.toml")
	os.WriteFile(path, []byte(thousandCells), 0o644)
	var shown bytes.Buffer
	if _, err := Prepare(Options{File: path, Lang: lang.En, Progress: &shown}); err != nil {
		t.Fatal(err)
	}
	if shown.Len() != 0 {
		t.Errorf("a check quicker than checkQuiet drew %q", shown.String())
	}
	checkQuiet = 0
	if _, err := Prepare(Options{File: path, Lang: lang.En}); err != nil {
		t.Fatal(err)
	}
}
