package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/tui"
)

// updateDocs is set to write the README's screenshot and docs/topology.cast anew
// instead of failing when they are stale:
//
//	CLUSTERLAB_UPDATE_DOCS=1 go test ./lab -run 'TestREADMEScreenshot|TestTopologyCast'
var updateDocs = os.Getenv("CLUSTERLAB_UPDATE_DOCS") != ""

// runMain runs the command line in-process, its output discarded, and fails on a
// non-zero exit.
func runMain(t *testing.T, args ...string) {
	t.Helper()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	stdout := os.Stdout
	os.Stdout = null
	code := Main(args)
	os.Stdout = stdout
	if code != 0 {
		t.Fatalf("clusterlab %s exits %d", strings.Join(args, " "), code)
	}
}

// screenshotAt is the instant of the README's screenshot of the default demo: the
// coordinator n5 crashed at 4.0 s and the others run their election timers down.
const screenshotAt = 4_356_000

// TestREADMEScreenshot draws the default demo at 4.356 s, 100×30, from a recording
// (the same picture the live dashboard draws at that instant, its timeout bars
// found by re-running the recording), and checks that the README's screenshot is
// that picture: a change to the dashboard that leaves the README stale fails here.
func TestREADMEScreenshot(t *testing.T) {
	if testing.Short() {
		t.Skip("records and re-runs the demo; skipped in -short mode")
	}
	rec := filepath.Join(t.TempDir(), "demo.jsonl")
	runMain(t, "sim", "--preset", defaultPreset, "--record", rec)
	r, err := session.OpenReplay(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	select {
	case <-r.TimersRan():
	case <-time.After(time.Minute):
		t.Fatal("the re-run for the timeout bars did not end in a minute")
	}
	r.SeekTime(screenshotAt)
	var b strings.Builder
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.NoTTY}
	w.WriteString(tui.Screen(r.Snapshot(), 100, 30))
	shot := b.String()

	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## The dashboard\n")
	open := strings.Index(text[start:], "\n```\n") + start + len("\n```\n")
	end := strings.Index(text[open:], "```\n") + open
	if start < 0 || open < start || end < open {
		t.Fatal("README.md: no screenshot block under '## The dashboard'")
	}
	if got := text[open:end]; got != shot+"\n" {
		if updateDocs {
			if err := os.WriteFile("../README.md", []byte(text[:open]+shot+"\n"+text[end:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("README.md's screenshot is stale (CLUSTERLAB_UPDATE_DOCS=1 writes it anew); the dashboard draws:\n%s\nthe README shows:\n%s", shot, got)
	}
}

// TestTopologyCast makes docs/topology.cast again with the two commands the README
// shows, and checks that the file is what they make.
func TestTopologyCast(t *testing.T) {
	if testing.Short() {
		t.Skip("records and exports the split-brain lesson; skipped in -short mode")
	}
	dir := t.TempDir()
	rec, cast := filepath.Join(dir, "split.jsonl"), filepath.Join(dir, "topology.cast")
	runMain(t, "sim", "--preset", "bully-split-brain", "--record", rec)
	runMain(t, "export", rec, "--format", "cast", "--view", "topology", "--fps", "5", "--from", "2.5s", "--to", "9s", "-o", cast)
	made, err := os.ReadFile(cast)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := os.ReadFile("../docs/topology.cast")
	if err != nil {
		t.Fatal(err)
	}
	if string(made) != string(kept) {
		if updateDocs {
			if err := os.WriteFile("../docs/topology.cast", made, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("docs/topology.cast is stale (CLUSTERLAB_UPDATE_DOCS=1 writes it anew): %d bytes kept, %d made", len(kept), len(made))
	}
}
