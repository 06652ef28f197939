package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// TestAbbrevDistinct: types that share their first letters keep distinct short
// names in a narrow arrow.
func TestAbbrevDistinct(t *testing.T) {
	types := []trace.TypeCount{{Type: "ELECTION"}, {Type: "ELECTED"}, {Type: "ANSWER"}, {Type: "HEARTBEAT"}}
	for _, n := range []int{3, 4, 5, 6} {
		seen := map[string]string{}
		for _, tc := range types {
			a := abbrev(&node.Message{Type: tc.Type}, types, n)
			if len(a) > n {
				t.Errorf("%s at %d: %q is too long", tc.Type, n, a)
			}
			if o, ok := seen[a]; ok {
				t.Errorf("%s and %s both shorten to %q at %d", o, tc.Type, a, n)
			}
			seen[a] = tc.Type
		}
	}
	if a := abbrev(&node.Message{Type: "ANSWER"}, types, 4); a != "ANSW" {
		t.Errorf("ANSWER shortens to %q, want ANSW (no clash, no change)", a)
	}
}

// TestTimelineWideTimes: past 10,000 s the time column widens; the lanes stay whole
// and no row is cut.
func TestTimelineWideTimes(t *testing.T) {
	f := newFake(5, "omega", "detector")
	f.t = 12_345_000_000
	f.traffic(3)
	f.publish()
	m := sized(f, 100, 30)
	out := plain(m.timeline.View())
	checkBox(t, out, m.lay.leftW, m.lay.timelineH)
	if strings.Contains(out, "…") || !strings.Contains(out, "12345.") {
		t.Fatalf("timeline at 12,345 s:\n%s", out)
	}
}

// TestTabVisitsEveryPane: tab moves the focus through every pane on screen, in
// reading order, and the focused title is marked ▸.
func TestTabVisitsEveryPane(t *testing.T) {
	for _, c := range []struct {
		algo, fam string
		want      []string
	}{
		{"bully", "election", []string{"Nodes", "Timeline", "Network", "Traffic", "Alerts", "Story", "Nodes"}},
		{"omega", "detector", []string{"Nodes", "Suspects", "Timeline", "Network", "Traffic", "Alerts", "Story", "Nodes"}},
	} {
		m := sized(scenario(5, c.algo, c.fam), 160, 48)
		var got []string
		for range c.want {
			s := plain(m.Render())
			if n := strings.Count(s, "─ ▸ "); n != 1 {
				t.Fatalf("%s: %d titles marked ▸:\n%s", c.algo, n, s)
			}
			title := strings.Fields(s[strings.Index(s, "─ ▸ ")+len("─ ▸ "):])[0]
			got = append(got, title)
			m.Update(keyMsg("tab"))
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: tab visits %v, want %v", c.algo, got, c.want)
		}
	}
}

// TestStoryOnce: with the Story pane on screen the line under the header does not
// repeat the description; on a small screen that line carries it.
func TestStoryOnce(t *testing.T) {
	for _, c := range []struct {
		w, h, want int
	}{{160, 48, 1}, {80, 24, 1}} {
		m := sized(newFake(5, "bully", "election"), c.w, c.h)
		if n := strings.Count(plain(m.Render()), "A synthetic bully"); n != c.want {
			t.Errorf("at %d×%d the story appears %d times:\n%s", c.w, c.h, n, plain(m.Render()))
		}
	}
}

// TestCardFields: each family shows its own fields; a down node shows only when it
// went down and its incarnation.
func TestCardFields(t *testing.T) {
	el := cards(plain(sized(scenario(5, "bully", "election"), 160, 48).Render()))
	if strings.Contains(el["n2"], "sus") || !strings.Contains(el["n2"], "ldr n2") {
		t.Errorf("an election card:\n%s", el["n2"])
	}
	if c := el["n5"]; strings.Contains(c, "ldr") || !strings.Contains(c, "↓ ") || !strings.Contains(c, "inc 1") {
		t.Errorf("a down card:\n%s", c)
	}
	det := cards(plain(sized(scenario(5, "omega", "detector"), 160, 48).Render()))
	if c := det["n1"]; !strings.Contains(c, "sus n5") || !strings.Contains(c, "to 110ms") {
		t.Errorf("a detector card:\n%s", c)
	}
}

// TestAlertRowKeepsNodes: a narrow Alerts pane drops an alert's words, not the
// nodes it names.
func TestAlertRowKeepsNodes(t *testing.T) {
	m := sized(scenario(5, "bully", "election"), 160, 48)
	m.alerts.SetSize(40, 4)
	out := plain(m.alerts.View())
	if !strings.Contains(out, "split-brain … [n2 n4]") {
		t.Fatalf("a narrow alert row:\n%s", out)
	}
}

// TestShortLabels: where a type does not fit, an arrow shows the short name its
// algorithm registers (HB, ELEC, ELTD), or nothing; never the type cut short.
func TestShortLabels(t *testing.T) {
	for _, s := range algos.All() {
		for _, typ := range s.Messages {
			for n := 1; n < len(typ); n++ {
				got := shortLabel(s.Name, &node.Message{Type: typ}, nil, n)
				if got == "" {
					continue
				}
				if want := algos.Short(s.Name, typ); got != want {
					t.Errorf("%s %s in %d cells: %q, want its short name %q or nothing", s.Name, typ, n, got, want)
				}
			}
		}
	}
	if got := shortLabel("bully", &node.Message{Type: "HEARTBEAT"}, nil, 7); got != "HB" {
		t.Errorf("HEARTBEAT in 7 cells: %q, want HB", got)
	}
	// a type no algorithm registers gets at most four letters
	if got := shortLabel("bully", &node.Message{Type: "GOSSIPING"}, nil, 7); got != "GOSS" {
		t.Errorf("GOSSIPING in 7 cells: %q, want GOSS", got)
	}
}

var upperWord = regexp.MustCompile(`[A-Z_]+`)

// TestTimelineNoCutTypes: a bully run's timeline on a narrow terminal labels its
// arrows with whole types or short names, never a cut one such as HEARTBE.
func TestTimelineNoCutTypes(t *testing.T) {
	for _, w := range []int{80, 100, 120} {
		m := sized(scenario(5, "bully", "election"), w, 40)
		out := plain(m.timeline.View())
		for _, word := range upperWord.FindAllString(out, -1) {
			for _, typ := range []string{"HEARTBEAT", "COORDINATOR", "ELECTION", "ANSWER"} {
				if len(word) > 4 && len(word) < len(typ) && strings.HasPrefix(typ, word) {
					t.Errorf("at width %d the timeline shows %s cut to %q:\n%s", w, typ, word, out)
				}
			}
		}
	}
}

// TestMatrixFollowsSelection: at 1,000 nodes, selecting n500 brings both its row
// and its column into the suspect matrix (issue 23: the columns stayed n1…n10, so
// "everyone suspects n500" was never in view).
func TestMatrixFollowsSelection(t *testing.T) {
	f := newFake(1000, "heartbeat-dp", "detector")
	m := sized(f, 160, 48)
	for _, k := range []string{"#", "5", "0", "0", "enter"} {
		m.Update(keyMsg(k))
	}
	out := plain(m.matrix.View())
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || !strings.Contains(lines[1], "n500") {
		t.Fatalf("n500 is not among the matrix's columns:\n%s", out)
	}
	row := false
	for _, l := range lines[2:] {
		row = row || strings.HasPrefix(strings.TrimLeft(l, "│"), "n500")
	}
	if !row || !strings.Contains(lines[0], "of 1000") {
		t.Errorf("n500's row, or the window's title, is missing:\n%s", out)
	}
}
