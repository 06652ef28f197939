package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// TestEndToEndWhatIf is issue 30's "done when", steps 1 to 3 and 5, with the real
// binary: (1) sim records bully-split-brain into a.jsonl; (2) replay a.jsonl goes
// (g) to the first COORDINATOR in flight after the partition, at T, forks (f),
// selects that message (# and its id), drops it (x), runs on to the scenario's
// end, where the fork pauses, and saves the fork as b.jsonl (q, y, the name);
// (3) verify accepts b.jsonl, and every event of a.jsonl up to T is in b.jsonl
// byte for byte; (5) presets show's file of the preset with the drop appended
// as a [[script]] (at = the drop's instant, T + 1µs, as the trace gives it in
// seconds; do = "drop #SEQ"), run by sim --record, records b.jsonl byte for
// byte: the same hash.
func TestEndToEndWhatIf(t *testing.T) {
	dir, bin := e2eBinary(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("clusterlab %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// 1
	run("sim", "--preset", "bully-split-brain", "--record", "a.jsonl")
	a := filepath.Join(dir, "a.jsonl")
	mid, at := firstSent(t, a, "COORDINATOR", 3_000_000)
	id := "#" + strconv.FormatUint(mid, 10)
	// 2
	x := openTerm(t, "whatif", dir, 120, 40, bin, "replay", "a.jsonl")
	x.waitFor("the replay", e2eWait, func(s string) bool { return strings.Contains(s, " │ t=") })
	x.keys("g")
	x.typed(strconv.FormatInt(at, 10) + "us")
	x.keys("Enter")
	x.waitFor("the replay at T", e2eWait, func(s string) bool { return strings.Contains(s, "t="+fmtT(at)) })
	x.keys("f")
	x.waitFor("the fork", e2eWait, func(s string) bool { return strings.Contains(s, "forked from a.jsonl at "+fmtT(at)) })
	x.keys("#")
	x.typed(id)
	x.keys("Enter")
	x.waitFor("the message selected", e2eWait, func(s string) bool {
		return strings.Contains(s, "n1 ◂"+id) && strings.Contains(s, id+" COORDINATOR")
	})
	x.keys("x")
	x.waitFor("the drop", e2eWait, func(s string) bool { return strings.Contains(s, "✓ drop "+id) })
	x.keys("+", "+", "+", "+", "space")
	x.waitFor("the fork paused at the scenario's end", time.Minute, func(s string) bool {
		return strings.Contains(s, "t=12.000s") && strings.Contains(s, "⏸ paused")
	})
	x.keys("q")
	x.waitFor("the question", e2eWait, func(s string) bool { return strings.Contains(s, "save its recording?") })
	x.keys("y")
	x.waitFor("the name", e2eWait, func(s string) bool { return strings.Contains(s, "save the fork as a-fork-1.jsonl") })
	x.keys("C-u")
	x.typed("b.jsonl")
	x.keys("Enter")
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("tmux", "has-session", "-t", x.name).Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("saving the fork did not quit; screen:\n%s", x.capture())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// 3
	if out := run("verify", "b.jsonl"); !strings.HasPrefix(out, "verified:") {
		t.Fatalf("verify b.jsonl: %s", out)
	}
	al, bl := fileLines(t, a), fileLines(t, filepath.Join(dir, "b.jsonl"))
	var d trace.Decoder
	n := 0
	for i, l := range al[1 : len(al)-1] {
		e, err := d.Decode([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		if e.T > at {
			break
		}
		if i+1 >= len(bl) || bl[i+1] != l {
			t.Fatalf("line %d of a.jsonl, at %s before the fork, is not in b.jsonl:\n a %s", i+2, fmtT(e.T), l)
		}
		n = i + 2
	}
	if n < 300 {
		t.Errorf("only %d lines are shared", n)
	}
	if want := `"ev":"action","text":"drop ` + id + `","by":"script"`; !strings.Contains(bl[n], want) {
		t.Errorf("the first line after the shared prefix is not the drop: %s", bl[n])
	}
	// 5: the time of the drop, from its line, in seconds as docs/what-if.md
	// says to write it
	var drop trace.Event
	if err := json.Unmarshal([]byte(bl[n]), &drop); err != nil || drop.T != at+1 {
		t.Fatalf("the drop is not at T + 1µs: %s", bl[n])
	}
	scn := run("presets", "show", "bully-split-brain")
	scn += fmt.Sprintf("\n[[script]]\nat = \"%ss\"\ndo = \"drop %s\"\n", strconv.FormatFloat(float64(drop.T)/1e6, 'f', -1, 64), id)
	if err := os.WriteFile(filepath.Join(dir, "whatif.toml"), []byte(scn), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "sim", "--file", "whatif.toml", "--record", "c.jsonl")
	cmd.Dir = dir
	cmd.Run() // its expectations are the preset's, and the drop changes the run: it may exit 1
	b, _ := os.ReadFile(filepath.Join(dir, "b.jsonl"))
	c, _ := os.ReadFile(filepath.Join(dir, "c.jsonl"))
	if !bytes.Equal(b, c) {
		cl := fileLines(t, filepath.Join(dir, "c.jsonl"))
		for i := range min(len(bl), len(cl)) {
			if bl[i] != cl[i] {
				t.Fatalf("the saved fork and the scripted drop's recording part at line %d:\n fork     %s\n scenario %s", i+1, bl[i], cl[i])
			}
		}
		t.Fatalf("the saved fork has %d lines, the scripted drop's recording %d", len(bl), len(cl))
	}
	var endB, endC trace.End
	json.Unmarshal([]byte(bl[len(bl)-1]), &endB)
	json.Unmarshal(c[bytes.LastIndexByte(c[:len(c)-1], '\n')+1:], &endC)
	if endB.Hash == "" || endB.Hash != endC.Hash || endB.Reason != trace.EndUntil {
		t.Errorf("the end records differ: %+v and %+v", endB, endC)
	}
}

// fileLines reads a file's lines.
func fileLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}
