package lab

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/tui"
)

const dashboardPage = "../docs/dashboard.md"

// TestDashboardPage checks docs/dashboard.md against the dashboard: every key of
// the live and the replay key maps is in its tables, every glyph the help lists
// (the cards' legend and each pane's) is in its glyph table, and NO_COLOR is
// documented; then it runs the page's commands as a student would, the dashboards
// in tmux.
func TestDashboardPage(t *testing.T) {
	data, err := os.ReadFile(dashboardPage)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, km := range []tui.KeyMap{tui.DefaultKeyMap(), tui.ReplayKeyMap()} {
		for _, b := range keyBindings(km) {
			if b.Enabled() && !strings.Contains(page, "`"+b.Help().Key+"`") {
				t.Errorf("%s: the key %s (%s) is not in it", dashboardPage, b.Help().Key, b.Help().Desc)
			}
		}
	}
	var glyphs []string
	for _, k := range []string{"tui.legend.up", "tui.legend.leader", "tui.legend.down", "tui.legend.held", "tui.legend.left",
		"tui.legend.token", "tui.legend.slow", "tui.legend.isolated", "tui.legend.timer", "tui.legend.arrow", "tui.legend.given",
		"tui.legend.downsince"} {
		glyphs = append(glyphs, strings.Fields(lang.En.T(k))[0])
	}
	for _, k := range []string{"tui.glyph.timeline", "tui.glyph.traffic", "tui.glyph.suspects", "tui.glyph.topology",
		"tui.glyph.history", "tui.glyph.replay", "tui.glyph.header", "tui.glyph.message"} {
		_, items, _ := strings.Cut(lang.En.T(k), ":")
		for _, item := range strings.Split(strings.TrimSpace(items), "  ") {
			glyphs = append(glyphs, strings.Fields(item)[0])
		}
	}
	for _, g := range glyphs {
		for _, r := range g {
			if r >= 0x80 && !strings.ContainsRune(page, r) {
				t.Errorf("%s: the glyph %c (of %q) is not in it", dashboardPage, r, g)
			}
		}
	}
	if !strings.Contains(page, "NO_COLOR=1") {
		t.Errorf("%s does not document NO_COLOR", dashboardPage)
	}
	if testing.Short() {
		return
	}
	dir, bin := buildBinary(t)
	for _, b := range docBlocks(t, dashboardPage) {
		if b.lang != "sh" {
			continue
		}
		run, _ := commands(b)
		for _, c := range run {
			if dashboard(c.args) {
				if _, err := exec.LookPath("tmux"); err != nil {
					t.Skip("tmux is not installed: the page's dashboards are not opened (apt-get install tmux)")
				}
				openDashboard(t, dir, bin, c.args)
				continue
			}
			if out, code := runCLI(t, dir, bin, c.args...); code != 0 {
				t.Fatalf("%s:%d: clusterlab %s exits %d:\n%s", dashboardPage, c.line, strings.Join(c.args, " "), code, out)
			}
		}
	}
}

// keyBindings are every binding of a key map.
func keyBindings(k tui.KeyMap) []key.Binding {
	var out []key.Binding
	v := reflect.ValueOf(k)
	for i := range v.NumField() {
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out = append(out, b)
		}
	}
	return out
}

// TestNoColor opens the dashboard with NO_COLOR=1 in tmux: the screen has no
// colour at all (no 256-colour or true-colour sequence), yet its glyphs are there.
func TestNoColor(t *testing.T) {
	if testing.Short() {
		t.Skip("opens the dashboard in tmux; skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install tmux)")
	}
	dir, bin := buildBinary(t)
	name := "clusterlab-nocolor-" + filepath.Base(dir)
	if out, err := exec.Command("tmux", "new-session", "-d", "-s", name, "-x", "120", "-y", "40", "-c", dir,
		"env", "TERM=xterm-256color", "NO_COLOR=1", bin, "run", "--preset", "bully-split-brain", "--speed", "4").CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	defer exec.Command("tmux", "kill-session", "-t", name).Run()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, _ := exec.Command("tmux", "capture-pane", "-e", "-p", "-t", name).CombinedOutput()
		s := string(out)
		if strings.Contains(s, "★") && strings.Contains(s, "split-brain") {
			if c := regexp.MustCompile(`\x1b\[[0-9;]*[34]8;[25];[0-9;]*m`).FindString(s); c != "" {
				t.Fatalf("with NO_COLOR=1 the screen has colour %q:\n%s", c, s)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no split brain on screen after 20 s:\n%s", s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
