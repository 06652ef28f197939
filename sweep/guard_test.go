package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestSweepFileGuards: a sweep file has a scenario file's guards. A device, a
// pipe, a folder, a file over presets.MaxFileBytes and a missing file each get one
// line naming the file, at once (a FIFO is never opened, so nothing waits for a
// writer), and none of it is read into memory.
func TestSweepFileGuards(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// 200 MB, sparse: it takes no room on the disk.
	if err := f.Truncate(200 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	missing := filepath.Join(dir, "missing.toml")
	for _, c := range []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: found a device, pipe or directory, expected a sweep file (TOML)"},
		{fifo, fifo + ": found a device, pipe or directory, expected a sweep file (TOML)"},
		{dir, dir + ": found a device, pipe or directory, expected a sweep file (TOML)"},
		{big, big + ": found a file over 1,048,576 bytes, expected a sweep file of at most 1,048,576 bytes"},
		{missing, missing + ": found no such file, expected a sweep file (TOML)"},
	} {
		_, err := LoadFile(c.path)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.path, err, c.want)
		}
	}
	// A key given twice, and an editor's byte-order mark, are said as such.
	for _, c := range []struct{ src, want string }{
		{"base = \"ring\"\nbase = \"ring\"\n", "t.toml:2:1: found base a second time, expected each key once"},
		{"base = \"ring\"\n[axes]\nnodes = [4]\nnodes = [8]\n", "t.toml:4:1: found nodes a second time, expected each key once"},
		{"\uFEFFbase = \"ring\"\n", "t.toml:1:1: found a byte-order mark (U+FEFF), expected TOML without it: save the file as UTF-8 without BOM"},
	} {
		if _, err := Parse("t.toml", []byte(c.src), ""); err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
	// The base scenario a sweep file names has the same guards.
	sw := filepath.Join(dir, "s.toml")
	os.WriteFile(sw, []byte("file = \"fifo.toml\"\n"), 0o644)
	if _, err := LoadFile(sw); err == nil || !strings.Contains(err.Error(), "found a device, pipe or directory, expected a scenario file") {
		t.Errorf("a sweep whose base is a FIFO: %v", err)
	}
}

// TestNamesStayInside: a sweep's name names its output folder, and a plot's
// metric its files: a name that would lead out of the folder is refused where it
// is written.
func TestNamesStayInside(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"name = \"../../../x\"\nbase = \"ring\"\n", `t.toml:1:8: found name = "../../../x", expected a plain name`},
		{"name = \"/etc/x\"\nbase = \"ring\"\n", `t.toml:1:8: found name = "/etc/x", expected a plain name`},
		{"name = \".hidden\"\nbase = \"ring\"\n", `t.toml:1:8: found name = ".hidden", expected a plain name`},
		{"base = \"ring\"\n[axes]\nnodes = [4]\n[[plot]]\nx = \"nodes\"\ny = \"sent./../../../x\"\n", `t.toml:6:5: found y = "sent./../../../x", expected one of the metrics`},
	} {
		_, err := Parse("t.toml", []byte(c.src), "")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s…", c.src, err, c.want)
		}
	}
	// A file's own name is the sweep's name when it gives none, made plain.
	s, err := Parse("../we ird.toml", []byte("base = \"ring\"\n"), "")
	if err != nil || s.Name != "sweep" {
		t.Errorf("a sweep file named \"we ird.toml\": name %q (%v), want sweep", s.Name, err)
	}
}

// TestOutFolderChecks: --out on a file, or under one, gets one line saying so (not
// Go's "stat …: not a directory"); an earlier sweep's results are refused without
// --force.
func TestOutFolderChecks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, c := range []struct{ out, want string }{
		{file, "--out: " + file + " is a file; expected a folder for the outputs"},
		{filepath.Join(file, "sub"), "--out: " + filepath.Join(file, "sub") + " lies under a file; expected a folder for the outputs"},
	} {
		_, err := openFolder(c.out, false)
		var bad *BadInput
		if !errors.As(err, &bad) || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "stat ") {
			t.Errorf("--out %s: got %v, want bad input %q…", c.out, err, c.want)
		}
	}
	done := filepath.Join(dir, "done")
	os.Mkdir(done, 0o755)
	os.WriteFile(filepath.Join(done, ResultsFile), []byte("run\n"), 0o644)
	if _, err := openFolder(done, false); err == nil || !strings.Contains(err.Error(), "already holds a sweep's results") {
		t.Errorf("an earlier sweep's folder without --force: %v", err)
	}
	f, err := openFolder(done, true)
	if err != nil {
		t.Fatalf("an earlier sweep's folder with --force: %v", err)
	}
	f.abort()
}

// TestSecondWriterRefused: while one sweep writes a folder, another sweep to the
// same folder is refused at once, naming the first one's process; once the first
// has ended, the folder is free again.
func TestSecondWriterRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	first, err := openFolder(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = openFolder(dir, true) // even with --force
	var bad *BadInput
	if !errors.As(err, &bad) || !strings.Contains(err.Error(), "another sweep (process ") || !strings.Contains(err.Error(), "is writing "+dir) {
		t.Errorf("a second writer: got %v, want it refused", err)
	}
	first.abort()
	second, err := openFolder(dir, false)
	if err != nil {
		t.Fatalf("after the first ended: %v", err)
	}
	second.abort()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("an aborted sweep left %v in its folder", left)
	}
}

// TestConcurrentSweepsOneFolder: two whole sweeps started at once into one folder:
// exactly one writes it, and every file there is that one's.
func TestConcurrentSweepsOneFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	a, b := smallRingComplexity(t, "seeds = 1"), smallRingComplexity(t, "seeds = 2")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, s := range []*Sweep{a, b} {
		wg.Go(func() {
			p, err := NewPlan(s, Shard{})
			if err == nil {
				testDPI(p)
				_, err = p.RunTo(context.Background(), dir, false, 1, nil, nil, false)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("two sweeps into one folder: errors %v and %v, want exactly one refused", errs[0], errs[1])
	}
	seeds, _ := os.ReadFile(filepath.Join(dir, SeedsFile))
	results, _ := os.ReadFile(filepath.Join(dir, ResultsFile))
	rows := strings.Count(string(results), "\n") - 1
	if want := map[bool]string{true: "1\n", false: "1\n2\n"}[errs[0] == nil]; string(seeds) != want || rows != 8*len(strings.Fields(want)) {
		t.Errorf("the folder mixes the two sweeps: seeds.txt %q, %d rows of results", seeds, rows)
	}
}

// TestKilledSweepLeavesNoRefusal: what a sweep killed at any point leaves (the
// lock file, the temporary folder, files moved into place before results.csv)
// does not make the next sweep refuse the folder as holding results, and is
// cleaned up by it.
func TestKilledSweepLeavesNoRefusal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	os.MkdirAll(filepath.Join(dir, tmpPrefix+"123"), 0o700)
	os.WriteFile(filepath.Join(dir, tmpPrefix+"123", ResultsFile), []byte("partial"), 0o644)
	os.WriteFile(filepath.Join(dir, lockName), []byte("99999\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ReportFile), []byte("moved before the kill"), 0o644)
	p := plan(t, "ring-complexity", 1, 1, Shard{})
	writeDir(t, p, dir, 1)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ReportFile)); strings.Contains(string(b), "moved before the kill") {
		t.Error("report.md is the killed sweep's")
	}
}

// TestJobsRange: --jobs takes 1 to MaxJobs (Options.Jobs 0 means every core only
// when --jobs is left out: a typed 0 is refused).
func TestJobsRange(t *testing.T) {
	for _, j := range []int{0, -1, MaxJobs + 1, 10000, 1e9} {
		if err := CheckJobs(j); err == nil || !strings.HasPrefix(err.Error(), "--jobs: found ") {
			t.Errorf("--jobs %d: %v", j, err)
		}
	}
	for _, j := range []int{1, 2, MaxJobs} {
		if err := CheckJobs(j); err != nil {
			t.Errorf("--jobs %d: %v", j, err)
		}
	}
}

// TestDiskErrorsAreIOErrors: a full disk while writing a CSV or another output is
// an IOError naming the file (the command exits 3 on it), not a failed run.
func TestDiskErrorsAreIOErrors(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here: the disk-full case cannot be made")
	}
	c := createCSV("/dev/full", "/dev/full", []string{"run", "x"})
	for range 10000 {
		c.row([]string{"1", "2"})
	}
	err := c.close()
	var ioe *IOError
	if !errors.As(err, &ioe) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "/dev/full") {
		t.Errorf("a CSV on a full disk: got %v, want an IOError with ENOSPC and the path", err)
	}
	err = (&folder{dir: "/dev", tmp: "/dev"}).write("full", []byte("report"))
	if !errors.As(err, &ioe) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "/dev/full") {
		t.Errorf("a file on a full disk: got %v, want an IOError with ENOSPC and the path", err)
	}
}

// bigGrid is a sweep file of 100,000 valid cells: seconds of checking. It is the
// thousand cells' grid (progress_test.go) with two more axes of ten.
const bigGrid = thousandCells + `"params.retry" = ["10ms", "11ms", "12ms", "13ms", "14ms", "15ms", "16ms", "17ms", "18ms", "19ms"]
until = ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "11s", "12s"]
`

// TestCheckStopsWhenCancelled: the check of a big grid's cells (every cell built
// once before any run) stops when its context is cancelled, with the cause, instead
// of building the rest; a signal then does not wait for it.
func TestCheckStopsWhenCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.toml")
	os.WriteFile(path, []byte(bigGrid), 0o644)
	ctx, cancel := context.WithCancelCause(context.Background())
	built := 0
	var once sync.Once
	// Cancelled from inside the check, after its first cells: no timing involved.
	cellBuilt = func() {
		once.Do(func() { cancel(errors.New("SIGINT")) })
		built++
	}
	defer func() { cellBuilt = nil }()
	_, err := Open(ctx, path, "")
	var stopped *Stopped
	if !errors.As(err, &stopped) || stopped.Error() != "stopped by SIGINT" {
		t.Fatalf("a check cancelled: got %v, want stopped by SIGINT", err)
	}
	if built > 1000 {
		t.Errorf("the check built %d of 100,000 cells after it was cancelled at the first", built)
	}
}
