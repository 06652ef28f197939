package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
)

// hashesFile pins every export of every trace (see TestExportHashes).
const hashesFile = "testdata/export-hashes.txt"

// scaleFiles are scenarios beyond the presets' sizes, with duplication: the
// exports at scale.
var scaleFiles = []string{"testdata/scale.toml", "testdata/scale-mutex.toml"}

// exportVariants are the exports TestExportHashes pins for one trace: every
// format of the whole trace, the report split and in Portuguese, the diagram in
// parts, and every format of a window (the middle third of the recording, the first
// half of the nodes; the cast takes the time span only) and of the first half of
// the recording.
func exportVariants(tr *trace.Trace) []struct {
	name  string
	flags Flags
	l     lang.Lang
	parts bool
} {
	type v = struct {
		name  string
		flags Flags
		l     lang.Lang
		parts bool
	}
	var out []v
	for _, f := range Formats {
		out = append(out, v{name: f, flags: Flags{Format: f}})
	}
	out = append(out,
		v{name: "csv-events", flags: Flags{Format: "csv", Table: "events"}},
		v{name: "md-split", flags: Flags{Format: "md", Split: true}},
		v{name: "md-pt", flags: Flags{Format: "md"}, l: lang.Pt},
		v{name: "mermaid-parts", flags: Flags{Format: "mermaid"}, parts: true},
	)
	var end int64
	if n := len(tr.Events); n > 0 {
		end = tr.Events[n-1].T
	}
	from, to := fmtT(end/3), fmtT(2*end/3)
	ids := tr.Header.Info.IDs
	nodes := joinIDs(ids[:max(2, len(ids)/2)], ",")
	for _, f := range Formats {
		fl := Flags{Format: f, From: from, To: to, Nodes: nodes}
		if f == "cast" {
			fl.Nodes = ""
		}
		out = append(out, v{name: f + "-window", flags: fl})
	}
	for _, f := range Formats {
		out = append(out, v{name: f + "-firsthalf", flags: Flags{Format: f, To: fmtT(end / 2)}})
	}
	out = append(out,
		v{name: "csv-events-window", flags: Flags{Format: "csv", Table: "events", From: from, To: to, Nodes: nodes}},
		v{name: "md-split-window", flags: Flags{Format: "md", Split: true, From: from, To: to, Nodes: nodes}},
		v{name: "mermaid-parts-window", flags: Flags{Format: "mermaid", From: from, To: to, Nodes: nodes}, parts: true},
	)
	return out
}

// renderVariant is one variant's output, or its error as text.
func renderVariant(tr *trace.Trace, f Flags, l lang.Lang, parts bool) string {
	o, err := ParseOptions(&tr.Header, f)
	if err != nil {
		return "error: " + err.Error()
	}
	o.Lang = l
	if parts {
		ps, err := MermaidParts(TraceSource(tr), o.Window)
		if err != nil {
			return "error: " + err.Error()
		}
		return strings.Join(ps, "\n%% part\n")
	}
	var b bytes.Buffer
	if err := Write(&b, TraceSource(tr), o); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

// TestExportHashes pins every export of every preset, of the faults scenario and
// of the scale scenarios by its SHA-256: the exports stream now, and each must
// write the same bytes as before, unless a change is deliberate (then run with
// -update and say why in the commit).
func TestExportHashes(t *testing.T) {
	if testing.Short() {
		t.Skip("every export of every trace: skipped in -short mode")
	}
	names := append(append([]string{faultsFile}, scaleFiles...), presets.Names()...)
	var lines []string
	for _, name := range names {
		tr := record(t, name)
		for _, v := range exportVariants(tr) {
			out := renderVariant(tr, v.flags, v.l, v.parts)
			if dir := os.Getenv("CLUSTERLAB_EXPORT_DUMP"); dir != "" {
				// to compare the bytes of a changed export: dump them before and after
				os.WriteFile(filepath.Join(dir, filepath.Base(name)+"."+v.name), []byte(out), 0o644)
			}
			sum := sha256.Sum256([]byte(out))
			lines = append(lines, fmt.Sprintf("%s %s %s", filepath.Base(name), v.name, hex.EncodeToString(sum[:8])))
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(hashesFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(hashesFile)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	want := strings.Split(strings.TrimSpace(string(data)), "\n")
	have := strings.Split(strings.TrimSpace(got), "\n")
	for _, l := range have {
		if !slices.Contains(want, l) {
			t.Errorf("%s: not the pinned export (run go test -update after a deliberate change)", l)
		}
	}
	if len(want) != len(have) {
		t.Errorf("%d exports pinned, %d made", len(want), len(have))
	}
}
