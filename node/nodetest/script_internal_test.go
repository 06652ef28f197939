package nodetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/clusterlab/clusterlab/algos/detector"
	_ "github.com/clusterlab/clusterlab/algos/mutex"
)

const sample = `# A comment before the first command.
cluster nodes=2
----

# The coordinator grants its own request at once.
request n1 cs
----
n1 request cs
  timer cs.hold 50ms
  status role=coordinator cs=held entries=1 granted_to=1 queue=0

state
----
----
n1 role=coordinator cs=held entries=1 granted_to=1 queue=0

n2 role=participant cs=released entries=0
----
----

# A trailing comment.
`

// A script reads back into what it was: its comments, blank lines and both
// forms of output, so that a rewrite changes only outputs.
func TestScriptRoundTrip(t *testing.T) {
	sc, err := parseScript("x.txt", sample)
	if err != nil {
		t.Fatal(err)
	}
	var outs []string
	for _, c := range sc.cmds {
		outs = append(outs, c.want)
	}
	if got := sc.render(outs); got != sample {
		t.Fatalf("render gives\n%s\nwant\n%s", got, sample)
	}
	if n := len(sc.cmds); n != 4 || sc.cmds[2].want != "n1 role=coordinator cs=held entries=1 granted_to=1 queue=0\n\nn2 role=participant cs=released entries=0\n" {
		t.Fatalf("parsed %d commands, the third expecting %q", n, sc.cmds[2].want)
	}
}

func writeScript(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A script whose outputs are right passes; one with a wrong output is named at
// the command's line, with both outputs; a rewrite writes what the commands
// give, after which it passes and keeps its comments.
func TestScriptDiffAndRewrite(t *testing.T) {
	// The sample's state output is what central gives, blank line aside.
	// Without a blank line in it, the output is written in the short form.
	fixed := strings.Replace(sample, "----\n----\nn1 role=coordinator cs=held entries=1 granted_to=1 queue=0\n\nn2 role=participant cs=released entries=0\n----\n----\n",
		"----\nn1 role=coordinator cs=held entries=1 granted_to=1 queue=0\nn2 role=participant cs=released entries=0\n", 1)
	if fixed == sample {
		t.Fatal("the sample has changed: fix this test")
	}
	if diffs, err := runScript(writeScript(t, fixed), "central", false); err != nil || len(diffs) != 0 {
		t.Fatalf("a right script: %v %v", diffs, err)
	}
	p := writeScript(t, sample)
	diffs, err := runScript(p, "central", false)
	if err != nil || len(diffs) != 1 || !strings.Contains(diffs[0], "s.txt:12: state: the output differs") {
		t.Fatalf("want one difference at line 12, got %q, %v", diffs, err)
	}
	if _, err := runScript(p, "central", true); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if string(data) != fixed {
		t.Fatalf("rewritten:\n%s\nwant\n%s", data, fixed)
	}
}

// Bad scripts and bad commands are one-line errors naming the file and line.
func TestScriptErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"cluster nodes=2\nstart\n", "s.txt:2: found \"start\", expected ---- after the command \"cluster nodes=2\""},
		{"----\n", "s.txt:1: found ----, expected a command before it"},
		{"cluster nodes=2\n----\n----\nx\n", "s.txt:1: the output of \"cluster nodes=2\" never ends"},
		{"start\n----\n", "s.txt:1: start: found \"start\" before any cluster"},
		{"cluster nodes=2\n----\n\nfly n1\n----\n", "s.txt:4: fly n1: found \"fly\", expected one of cluster, start"},
		{"cluster nodes=2\n----\n\ncrash n9\n----\n", "s.txt:4: crash n9: found \"n9\", expected a process n1 to n2"},
		{"cluster nodes=2 cs_hold=fast\n----\n", "s.txt:1: cluster nodes=2 cs_hold=fast: params.cs_hold"},
		{"cluster nodes=2\n----\n\ntick soon\n----\n", "s.txt:4: tick soon: found \"soon\", expected a duration"},
	} {
		_, err := runScript(writeScript(t, tc.text), "central", false)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// tick fires the timers due in deadline order, each at its deadline, and
// leaves those due later armed.
func TestClusterTick(t *testing.T) {
	c := NewCluster("central")
	for _, cmd := range []string{"cluster nodes=3 cs_hold=30ms", "start", "request n1 cs"} {
		if _, err := c.Do(cmd); err != nil {
			t.Fatal(err)
		}
	}
	out, err := c.Do("tick 29ms")
	if err != nil || out != "" {
		t.Fatalf("tick 29ms: %q %v, want nothing fired", out, err)
	}
	out, _ = c.Do("tick 1ms")
	if !strings.HasPrefix(out, "n1 timer cs.hold\n") {
		t.Fatalf("tick 1ms: %q, want cs.hold fired", out)
	}
	if c.now != 30e6 {
		t.Fatalf("now %v, want 30ms", c.now)
	}
}

// A command that would go on for ever (a tick of years, messages that never
// stop) is an error that says so.
func TestClusterBounds(t *testing.T) {
	c := NewCluster("heartbeat-dp")
	for _, cmd := range []string{"cluster nodes=3", "start"} {
		if _, err := c.Do(cmd); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Do("tick 100000h"); err == nil || !strings.Contains(err.Error(), "expected a shorter tick") {
		t.Fatalf("tick 100000h: %v", err)
	}
}
