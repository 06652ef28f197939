package export

import (
	"errors"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// mermaidModules is where .ci/run installs Mermaid and jsdom for the parse test;
// CLUSTERLAB_NODE_MODULES overrides it.
func mermaidModules() string {
	if d := os.Getenv("CLUSTERLAB_NODE_MODULES"); d != "" {
		return d
	}
	d, _ := filepath.Abs("../../../.ci/node/node_modules")
	return d
}

// mermaidExports is the diagrams the parse test gives Mermaid, keyed by a file
// name: the escaping test's diagram, the parts of omega-crash's whole diagram (over
// the limit, so split), the homework report's diagram (bully-split-brain) and that
// of an alert storm (stormTrace); with all, every part of every trace's whole
// diagram and every diagram of its reports, plain and split. Mermaid's parser needs
// about 2 s of CPU per 50,000 characters (4 s to load), so all (some 600,000
// characters) is for CI (CLUSTERLAB_MERMAID=all, set by .ci/run); the structure
// test (TestMermaidEveryTrace) checks every diagram in every run.
func mermaidExports(t *testing.T, all bool) map[string]string {
	out := map[string]string{}
	seen := map[string]bool{}
	add := func(name, d string) {
		if !seen[d] {
			seen[d] = true
			out[name] = d
		}
	}
	for name, tr := range allTraces(t) {
		name = strings.TrimSuffix(filepath.Base(name), ".toml")
		if all || name == "omega-crash" {
			parts, err := MermaidParts(TraceSource(tr), All())
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i, p := range parts {
				add(name+"-"+strconv.Itoa(i+1)+".mmd", p)
			}
		}
		for _, split := range []bool{false, true} {
			if !all && (split || name != "bully-split-brain") {
				continue
			}
			md := export(t, tr, Flags{Format: "md", Split: split})
			for i, block := range mdBlocks(md) {
				add(name+"-md-"+strconv.FormatBool(split)+"-"+strconv.Itoa(i+1)+".mmd", block)
			}
		}
	}
	// The report's diagram of an alert storm: its alerts folded into one note.
	add("storm-md.mmd", mdBlocks(export(t, stormTrace(300), Flags{Format: "md"}))[0])
	var b strings.Builder
	if err := Mermaid(&b, TraceSource(escapesTrace()), All()); err != nil {
		t.Fatal(err)
	}
	add("escapes.mmd", b.String())
	return out
}

// mdBlocks is the Mermaid blocks of a report.
func mdBlocks(md string) []string {
	var out []string
	for {
		var block string
		var ok bool
		if _, md, ok = strings.Cut(md, "```mermaid\n"); !ok {
			return out
		}
		block, md, _ = strings.Cut(md, "```\n")
		out = append(out, block)
	}
}

var partEvents = regexp.MustCompile(`events (\d+) to (\d+)`)

// TestMermaidSize: no diagram is over Mermaid's limit; a whole trace too big is
// refused with its size and the ways out, and its parts cover every arrow once,
// in time order, with the numbering going on.
func TestMermaidSize(t *testing.T) {
	over := 0
	for name, tr := range allTraces(t) {
		err := Mermaid(&strings.Builder{}, TraceSource(tr), All())
		parts, perr := MermaidParts(TraceSource(tr), All())
		if perr != nil {
			t.Fatalf("%s: %v", name, perr)
		}
		whole := 0 // the arrows of the whole diagram: a delivery or a drop each
		for i := range tr.Events {
			if e := &tr.Events[i]; e.Ev == trace.Deliver && !e.Local || e.Ev == trace.Drop {
				whole++
			}
		}
		if len(parts) > 1 {
			over++
			var r *RefusedError
			if !errors.As(err, &r) || !strings.Contains(err.Error(), "passes Mermaid's limit of 50000 characters at ") ||
				!strings.Contains(err.Error(), "--from/--to") || !strings.Contains(err.Error(), "--nodes") || !strings.Contains(err.Error(), "--split") {
				t.Errorf("%s: %d parts, error %v", name, len(parts), err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		arrows, last := 0, 0
		for i, p := range parts {
			if n := jsLen(p); n > MermaidMaxText {
				t.Errorf("%s part %d: %d characters", name, i+1, n)
			}
			checkMermaid(t, p)
			if i > 0 && !strings.Contains(p, "\n    autonumber "+strconv.Itoa(arrows+1)+"\n") {
				t.Errorf("%s part %d: numbering does not go on from %d", name, i+1, arrows)
			}
			arrows += strings.Count(p, "->>") + strings.Count(p, "-x")
			if len(parts) > 1 {
				m := partEvents.FindStringSubmatch(p)
				if m == nil {
					t.Fatalf("%s part %d names no events", name, i+1)
				}
				from, _ := strconv.Atoi(m[1])
				to, _ := strconv.Atoi(m[2])
				if from <= last || to < from {
					t.Errorf("%s part %d: events %d to %d after %d", name, i+1, from, to, last)
				}
				last = to
			}
		}
		if arrows != whole {
			t.Errorf("%s: the parts draw %d arrows, the whole diagram %d", name, arrows, whole)
		}
	}
	if over == 0 {
		t.Error("no preset is over the limit; the refusal is untested")
	}
}

// TestMermaidParsesInMermaid runs Mermaid's own parser (under node, with jsdom)
// over the diagrams of mermaidExports. It needs node and the npm packages that
// .ci/run installs (npm install --prefix .ci/node mermaid@11 jsdom).
func TestMermaidParsesInMermaid(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: Mermaid's parser under node is slow to start")
	}
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: Mermaid's own parser cannot run (.ci/run installs it)")
	}
	mods := mermaidModules()
	for _, p := range []string{"mermaid/package.json", "jsdom/package.json"} {
		if _, err := os.Stat(filepath.Join(mods, p)); err != nil {
			t.Skipf("%s is missing: run `npm install --prefix .ci/node mermaid@11 jsdom` (as .ci/run does) or set CLUSTERLAB_NODE_MODULES", filepath.Join(mods, p))
		}
	}
	dir := t.TempDir()
	files := []string{"testdata/mermaid-parse.mjs", mods}
	for name, d := range mermaidExports(t, os.Getenv("CLUSTERLAB_MERMAID") == "all") {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	// A file Mermaid must refuse, so that the test can fail.
	bad := filepath.Join(dir, "bad.mmd")
	os.WriteFile(bad, []byte("sequenceDiagram\n    n1->>: x\n    end\n"), 0o644)
	files = append(files, bad)
	out, _ := exec.Command(nodeBin, files...).CombinedOutput()
	ok := 0
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		switch {
		case strings.HasPrefix(l, "ok "):
			ok++
		case strings.HasPrefix(l, "error "+bad+":"): // checked below
		default:
			t.Errorf("Mermaid: %s", l)
		}
	}
	if !strings.Contains(string(out), "error "+bad+":") {
		t.Errorf("Mermaid accepted a broken diagram; the parser is not running:\n%s", out)
	}
	if ok != len(files)-3 {
		t.Errorf("Mermaid parsed %d of %d diagrams:\n%s", ok, len(files)-3, out)
	}
	t.Logf("Mermaid's parser accepted %d diagrams and refused the broken one", ok)
}
