package export

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// faultsFile is a scenario with every kind of fault (see its description).
const faultsFile = "testdata/faults.toml"

var (
	tracesMu sync.Mutex
	traces   = map[string]*trace.Trace{}
)

// record runs a preset (or, for a name ending in .toml, a scenario file) headless
// and returns its trace, recorded into memory and read back. Runs are cached.
func record(t testing.TB, name string) *trace.Trace {
	t.Helper()
	tracesMu.Lock()
	defer tracesMu.Unlock()
	if tr, ok := traces[name]; ok {
		return tr
	}
	src := session.Source{Preset: name}
	if strings.HasSuffix(name, ".toml") {
		src = session.Source{File: name}
	}
	s, cfg, err := session.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	tr := run(t, name, s, cfg, 0)
	traces[name] = tr
	return tr
}

// run runs cfg to until (0: its own) as `sim --record` does, end record included,
// and reads the recording back.
func run(t testing.TB, name string, s *presets.Scenario, cfg netsim.Config, until time.Duration) *trace.Trace {
	t.Helper()
	var buf bytes.Buffer
	rec, err := trace.NewRecorder(&buf, session.Header(s, cfg))
	if err != nil {
		t.Fatal(err)
	}
	_, now, err := session.RunContext(context.Background(), cfg, until, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.End(trace.EndUntil, node.Micros(now)); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadBytes(buf.Bytes(), name, session.ResolveHeader(name))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// allTraces is every preset and the faults scenario.
func allTraces(t *testing.T) map[string]*trace.Trace {
	out := map[string]*trace.Trace{faultsFile: record(t, faultsFile)}
	for _, name := range presets.Names() {
		out[name] = record(t, name)
	}
	return out
}

func export(t *testing.T, tr *trace.Trace, f Flags) string {
	t.Helper()
	out, err := exportErr(tr, f)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// exportErr is export returning the error.
func exportErr(tr *trace.Trace, f Flags) (string, error) {
	o, err := ParseOptions(&tr.Header, f)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	err = Write(&b, TraceSource(tr), o)
	return b.String(), err
}

// TestGolden compares every format of fixed traces with testdata/*.golden; run with
// -update to rewrite them after a deliberate change.
func TestGolden(t *testing.T) {
	cases := []struct {
		golden string
		trace  string
		flags  Flags
	}{
		{"quorum-amnesia.md", "quorum-amnesia", Flags{Format: "md"}},
		{"quorum-amnesia.mermaid", "quorum-amnesia", Flags{Format: "mermaid"}},
		{"quorum-amnesia.shiviz", "quorum-amnesia", Flags{Format: "shiviz"}},
		{"quorum-amnesia.csv", "quorum-amnesia", Flags{Format: "csv"}},
		{"quorum-amnesia-events.csv", "quorum-amnesia", Flags{Format: "csv", Table: "events"}},
		{"quorum-amnesia.cast", "quorum-amnesia", Flags{Format: "cast"}},
		{"omega-crash.md", "omega-crash", Flags{Format: "md"}},
		{"omega-crash-window.mermaid", "omega-crash", Flags{Format: "mermaid", From: "2950ms", To: "3200ms", Nodes: "n1,n2,n3"}},
		{"omega-crash-window.shiviz", "omega-crash", Flags{Format: "shiviz", From: "2950ms", To: "3200ms", Nodes: "n1,n2,n3"}},
		{"omega-crash-window.cast", "omega-crash", Flags{Format: "cast", From: "2900ms", To: "3300ms", Size: "100x30", FPS: 20}},
		{"faults.md", faultsFile, Flags{Format: "md"}},
		{"faults.mermaid", faultsFile, Flags{Format: "mermaid"}},
		{"maekawa.md", "maekawa", Flags{Format: "md"}},
	}
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			checkGolden(t, filepath.Join("testdata", c.golden+".golden"), export(t, record(t, c.trace), c.flags))
		})
	}
}

// checkGolden compares got with the golden file at path, or rewrites it with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d (run go test -update after a deliberate change):\n got  %.300q\n want %.300q", path, i+1, g, w)
			}
		}
	}
}

func TestParseOptionsErrors(t *testing.T) {
	tr := record(t, "quorum-amnesia")
	cases := []struct {
		flags Flags
		want  string
	}{
		{Flags{Format: "pdf"}, `--format "pdf": expected one of md, mermaid, shiviz, csv, cast, perfetto`},
		{Flags{Format: "md", From: "soon"}, `--from "soon": expected a virtual time such as 2s or 1500ms`},
		{Flags{Format: "md", To: "-1s"}, `--to "-1s": expected a virtual time such as 5s or 7500ms`},
		{Flags{Format: "md", From: "3s", To: "2s"}, `--to 2s is before --from 3s: expected --to at or after --from`},
		{Flags{Format: "md", Nodes: "n1,n9"}, `--nodes: found "n9", expected a comma-separated list of the trace's nodes (n1,n2,n3,n4,n5)`},
		{Flags{Format: "csv", Nodes: "n1,,n2"}, `--nodes: found "", expected a comma-separated list of the trace's nodes (n1,n2,n3,n4,n5)`},
		{Flags{Format: "cast", Size: "120by36"}, `--size "120by36": expected WIDTHxHEIGHT in cells such as 120x36 (at least 20x5)`},
		{Flags{Format: "cast", Size: "10x3"}, `--size "10x3": expected WIDTHxHEIGHT in cells such as 120x36 (at least 20x5)`},
		{Flags{Format: "cast", FPS: -2}, `--fps -2: expected frames per second from 1 to 60`},
		{Flags{Format: "cast", Idle: "a while"}, `--idle "a while": expected the longest pause to keep, such as 1s or 0 to keep every pause`},
		{Flags{Format: "cast", Nodes: "n1"}, `--nodes: not supported with --format cast, expected no --nodes (the dashboard shows every node)`},
		{Flags{Format: "csv", Table: "rows"}, `--table "rows": expected one of messages, events`},
		{Flags{Format: "md", Table: "events"}, `--table: not supported with --format md, expected --format csv`},
		{Flags{Format: "csv", Split: true}, `--split: not supported with --format csv, expected --format mermaid or md`},
	}
	for _, c := range cases {
		_, err := ParseOptions(&tr.Header, c.flags)
		if err == nil || err.Error() != c.want {
			t.Errorf("%+v: got error %v, want %q", c.flags, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: error has more than one line: %q", c.flags, err)
		}
	}
	o, err := ParseOptions(&tr.Header, Flags{Format: "cast", Size: "80X24", FPS: 5, Idle: "0", From: "1s", To: "2500ms", Nodes: ""})
	if err != nil {
		t.Fatal(err)
	}
	if c := o.Cast; c.Width != 80 || c.Height != 24 || c.FPS != 5 || c.Idle != 0 || o.Window.From != 1e6 || o.Window.To != 2.5e6 {
		t.Errorf("parsed %+v", o)
	}
	o, err = ParseOptions(&tr.Header, Flags{Format: "md", Nodes: "n3, 2,n3"})
	if err != nil {
		t.Fatal(err)
	}
	if got := joinIDs(o.Window.Nodes, ","); got != "n2,n3" {
		t.Errorf("--nodes n3,2,n3 gave %s, want n2,n3", got)
	}
}

// TestWindowKeep checks which events a window with nodes keeps.
func TestWindowKeep(t *testing.T) {
	w := Window{From: 100, To: 200, Nodes: []node.ID{1, 2}}
	msg := &node.Message{Type: "X"}
	cases := []struct {
		e    trace.Event
		keep bool
	}{
		{trace.Event{Seq: 1, T: 150, Ev: trace.Deliver, From: 1, To: 2, Msg: msg}, true},
		{trace.Event{Seq: 1, T: 150, Ev: trace.Deliver, From: 1, To: 3, Msg: msg}, false},
		{trace.Event{Seq: 1, T: 150, Ev: trace.Send, From: 3, To: 2, Msg: msg}, false},
		{trace.Event{Seq: 1, T: 99, Ev: trace.Send, From: 1, To: 2, Msg: msg}, false},
		{trace.Event{Seq: 1, T: 201, Ev: trace.Drop, From: 1, To: 2, Msg: msg}, false},
		{trace.Event{Seq: 1, T: 200, Ev: trace.Crash, Node: 2}, true},
		{trace.Event{Seq: 1, T: 150, Ev: trace.Crash, Node: 3}, false},
		{trace.Event{Seq: 1, T: 150, Ev: trace.Cut, From: 3, To: 1}, true},
		{trace.Event{Seq: 1, T: 150, Ev: trace.Cut, From: 3, To: 4}, false},
		{trace.Event{Seq: 1, T: 100, Ev: trace.Partition, Groups: [][]node.ID{{1}, {2, 3}}}, true},
		{trace.Event{Seq: 1, T: 150, Ev: trace.Alert, Kind: "k"}, true},
		{trace.Event{Seq: 1, T: 250, Ev: trace.Alert, Kind: "k"}, false},
	}
	for _, c := range cases {
		if got := w.Keep(&c.e); got != c.keep {
			t.Errorf("%+v: keep %v, want %v", c.e, got, c.keep)
		}
	}
	w.FirstSeq, w.LastSeq = 5, 6
	if w.Keep(&trace.Event{Seq: 4, T: 150, Ev: trace.Alert}) || !w.Keep(&trace.Event{Seq: 6, T: 150, Ev: trace.Alert}) {
		t.Error("FirstSeq/LastSeq not applied")
	}
	if !All().Whole() || w.Whole() {
		t.Error("Whole")
	}
}
