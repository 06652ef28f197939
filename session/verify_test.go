package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// recordPreset records a headless run of a preset, end record included, and returns
// the file's lines.
func recordPreset(t testing.TB, name, path string) []string {
	t.Helper()
	return recordRun(t, Source{Preset: name}, 0, path)
}

// recordRun records a headless run of src to until (the scenario's if 0) the way
// `sim --record` does, and returns the file's lines (of a plain file).
func recordRun(t testing.TB, src Source, until time.Duration, path string) []string {
	t.Helper()
	return recordAdjusted(t, src, until, path, nil)
}

// recordAdjusted is recordRun with the run's configuration changed by adjust, if not
// nil, after the scenario is resolved (user actions, say: the header does not hold
// them).
func recordAdjusted(t testing.TB, src Source, until time.Duration, path string, adjust func(*netsim.Config)) []string {
	t.Helper()
	s, cfg, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	if adjust != nil {
		adjust(&cfg)
	}
	out, err := CreateOutput(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Abort()
	rec, err := Record(out, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, now, err := RunContext(context.Background(), cfg, until, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.End(trace.EndUntil, node.Micros(now)); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func verify(t testing.TB, path string, partial bool) *Verdict {
	t.Helper()
	v, err := Verify(context.Background(), path, VerifyOptions{Partial: partial})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// TestVerifyEveryPreset records each preset headless and verifies it.
func TestVerifyEveryPreset(t *testing.T) {
	dir := t.TempDir()
	for _, name := range presets.Names() {
		path := filepath.Join(dir, name+".jsonl")
		lines := recordPreset(t, name, path)
		if !strings.HasPrefix(lines[len(lines)-1], `{"ev":"end","events":`) || !strings.HasSuffix(lines[len(lines)-1], `"reason":"until"}`) {
			t.Fatalf("%s: last line %s, want the end record", name, lines[len(lines)-1])
		}
		if v := verify(t, path, false); !v.OK || v.Prefix || v.Events != len(lines)-2 {
			t.Errorf("%s: %s\n recorded %s\n re-run   %s", name, v.Reason, v.Recorded, v.Rerun)
		}
	}
}

// write writes lines as a trace file, cutting cut bytes off its end.
func write(t testing.TB, dir, name string, lines []string, cut int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	all := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(p, []byte(all[:len(all)-cut]), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// edit returns a copy of lines with line i (0 is the header) changed by replacing
// old with new once; the test fails if old is not there.
func edit(t *testing.T, lines []string, i int, old, new string) []string {
	t.Helper()
	if !strings.Contains(lines[i], old) {
		t.Fatalf("line %d has no %q: %s", i+1, old, lines[i])
	}
	out := append([]string(nil), lines...)
	out[i] = strings.Replace(out[i], old, new, 1)
	return out
}

// TestVerifyRefuses edits, cuts and extends a recording in every way the issue names
// and checks each verdict: never verified, with the line and the field.
func TestVerifyRefuses(t *testing.T) {
	dir := t.TempDir()
	lines := recordPreset(t, "omega-crash", filepath.Join(dir, "hw.jsonl"))
	n := len(lines) - 2 // events
	endLine := len(lines)
	at := 40
	for !strings.Contains(lines[at], `"from":"n1"`) {
		at++
	}
	lastT := func(ls []string) string {
		tr, err := trace.ReadBytes([]byte(strings.Join(ls, "\n")+"\n"), "x", nil)
		if err != nil {
			t.Fatal(err)
		}
		return fmtUS(tr.Events[len(tr.Events)-1].T)
	}
	deleted := append(append([]string(nil), lines[:60]...), lines[61:]...)
	dup := append(append([]string(nil), lines...), lines[endLine-1])
	swapped := append([]string(nil), lines...)
	swapped[endLine-1], swapped[endLine-2] = swapped[endLine-2], swapped[endLine-1]
	for _, tc := range []struct {
		name  string
		lines []string
		cut   int
		want  string
		line  int
		field string
	}{
		{"cut at a line boundary", lines[:1000], 0,
			fmt.Sprintf("incomplete recording: the first 999 events match the re-run; it stops at t=%s", lastT(lines[:1000])), 1001, ""},
		{"header only", lines[:1], 0, "incomplete recording: the first 0 events match the re-run; it stops at t=0s", 2, ""},
		{"cut mid-line", lines[:500], 7, "incomplete recording: the first 498 events match the re-run", 500, ""},
		{"no end record", lines[:n+1], 0, fmt.Sprintf("incomplete recording: the first %d events match", n), n + 2, ""},
		{"seed edited", edit(t, lines, 0, `"seed":42`, `"seed":43`), 0, "differs from the re-run", 0, ""},
		{"name edited", edit(t, lines, 0, `"name":"omega-crash"`, `"name":"omega-crush"`), 0,
			"end record field hash", endLine, "hash"},
		{"program edited", edit(t, lines, 0, `"program":"clusterlab `, `"program":"clusterlab x`), 0, "end record field hash", endLine, "hash"},
		{"header field removed", edit(t, lines, 0, `"topology":"mesh",`, ``), 0,
			`header field scenario.topology: found nothing, expected "mesh"`, 1, "scenario.topology"},
		{"header field added", edit(t, lines, 0, `"seed":42`, `"seed":42,"extra":1`), 0, `unknown key "extra"`, 1, ""},
		{"event edited", edit(t, lines, at, `"from":"n1"`, `"from":"n3"`), 0,
			fmt.Sprintf("edited.jsonl:%d: field from differs from the re-run", at+1), at + 1, "from"},
		{"event time edited", edit(t, lines, at, `"t":`, `"t":1`), 0, "field t differs", at + 1, "t"},
		{"line deleted", deleted, 0, "edited.jsonl:61: found seq 61, expected 60 (a line is missing, repeated or moved)", 61, ""},
		{"end events edited", edit(t, lines, endLine-1, `"events":`, `"events":1`), 0, "end record field events", endLine, ""},
		{"end hash edited", edit(t, lines, endLine-1, `"hash":"`, `"hash":"0`), 0, "end record field hash", endLine, "hash"},
		{"end reason edited", edit(t, lines, endLine-1, `"reason":"until"`, `"reason":"quit"`), 0, "", 0, ""},
		{"end time edited", edit(t, lines, endLine-1, `"t":`, `"t":1`), 0, "", 0, ""},
		{"end record duplicated", dup, 0, "found a line after the end record", endLine + 1, ""},
		{"end record moved up", swapped, 0, "found a line after the end record", endLine, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := verify(t, write(t, dir, "edited.jsonl", tc.lines, tc.cut), false)
			if v.OK || !strings.Contains(v.Reason, tc.want) || (tc.line != 0 && v.Line != tc.line) || (tc.field != "" && v.Field != tc.field) {
				t.Errorf("verdict %+v\nwant it to say %q at line %d, field %q", v, tc.want, tc.line, tc.field)
			}
		})
	}
	// --partial accepts a verified prefix, and only that.
	v := verify(t, write(t, dir, "cut.jsonl", lines[:1000], 0), true)
	if !v.OK || !v.Prefix || v.Events != 999 {
		t.Errorf("--partial on a cut recording: %+v", v)
	}
	v = verify(t, write(t, dir, "edited-cut.jsonl", edit(t, lines, at, `"from":"n1"`, `"from":"n3"`)[:1000], 0), true)
	if v.OK {
		t.Errorf("--partial accepted an edited prefix: %+v", v)
	}
	v = verify(t, write(t, dir, "whole.jsonl", lines, 0), true)
	if !v.OK || v.Prefix {
		t.Errorf("--partial on a whole recording: %+v", v)
	}
}

// TestVerifyUserActionsAsFound records a run with user actions, which verify's
// first reading finds while the re-run is under way: the re-run takes each before
// it reaches its time, and the recording verifies. Then one action's line is moved
// later in the file, past times the reading has handed over: the re-run is made
// again with every action known, and the verdict names the line the action was
// moved from, as a re-run started after the whole reading would.
func TestVerifyUserActionsAsFound(t *testing.T) {
	dir := t.TempDir()
	lines := recordAdjusted(t, Source{Preset: "omega-crash"}, 0, filepath.Join(dir, "hw.jsonl"), func(cfg *netsim.Config) {
		cfg.UserActions = []netsim.Timed{
			{At: 1500 * time.Millisecond, Action: netsim.Action{Verb: "crash", Node: 2}},
			{At: 6 * time.Second, Action: netsim.Action{Verb: "recover", Node: 2}},
		}
	})
	if v := verify(t, write(t, dir, "hw.jsonl", lines, 0), false); !v.OK {
		t.Fatalf("the recording with user actions: %+v", v)
	}
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"text":"crash n2","by":"user"`) })
	if at < 0 || at+2*publishEvery >= len(lines)-1 {
		t.Fatalf("the user action's line is at %d of %d lines", at, len(lines))
	}
	moved := slices.Insert(slices.Delete(slices.Clone(lines), at, at+1), at+2*publishEvery, lines[at])
	want := fmt.Sprintf("moved.jsonl:%d: found seq %d, expected %d", at+1, at+1, at)
	check := func(v *Verdict) {
		t.Helper()
		if v.OK || v.Line != at+1 || !strings.Contains(v.Reason, want) {
			t.Fatalf("verdict %+v\nwant it to say %q", v, want)
		}
	}
	check(verify(t, write(t, dir, "moved.jsonl", moved, 0), false))
}

// TestVerifyFarFutureEdit edits the time of a line to centuries ahead: verify must
// report it without simulating that far, whether or not the end record is there.
func TestVerifyFarFutureEdit(t *testing.T) {
	dir := t.TempDir()
	lines := recordPreset(t, "omega-crash", filepath.Join(dir, "hw.jsonl"))
	last := len(lines) - 2
	for _, ls := range [][]string{lines, lines[:last+1]} {
		ls = edit(t, ls, last, `"t":`, `"t":900000000000000`)
		done := make(chan *Verdict)
		go func() { done <- verify(t, write(t, dir, "far.jsonl", ls, 0), false) }()
		select {
		case v := <-done:
			if v.OK || !strings.Contains(v.Reason, fmt.Sprintf("far.jsonl:%d", last+1)) {
				t.Fatalf("verdict %+v", v)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("verify is simulating the edited far future")
		}
	}
}

// TestVerifyEditedNodeCount edits the node count in the header of a cut recording
// (no end record, so the hash cannot tell): verify must answer at once, with the
// line, and without building the edited world's storm. 1,700 processes on a full
// mesh that each send a heartbeat to every other at start make 2.9 million messages
// at t=0, over the guard (their timers come on top): refused before the re-run, on
// line 1 (before the guard, this re-run took gigabytes). 300 are under it: the
// re-run starts, and stops at the first line that differs.
func TestVerifyEditedNodeCount(t *testing.T) {
	dir := t.TempDir()
	lines := recordPreset(t, "omega-crash", filepath.Join(dir, "oc.jsonl"))[:1000]
	for _, tc := range []struct {
		nodes int
		want  string
		line  int // 0: any line after the header
	}{
		{1700, "pending events at t=0 (1,700 nodes, mesh), expected at most 2,000,000 (the event-storm guard; --max-pending raises it)", 1},
		{300, "differs from the re-run", 0},
	} {
		path := write(t, dir, "cut.jsonl", edit(t, lines, 0, `"nodes":5,`, fmt.Sprintf(`"nodes":%d,`, tc.nodes)), 0)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		v := verify(t, path, false)
		runtime.ReadMemStats(&after)
		if tc.line == 1 && !strings.Contains(v.Reason, "cut.jsonl:1: found a scenario whose start makes about ") {
			t.Errorf("%d nodes: %s", tc.nodes, v.Reason)
		}
		if v.OK || !strings.Contains(v.Reason, tc.want) || (tc.line != 0 && v.Line != tc.line) || v.Line < 1 {
			t.Errorf("%d nodes: verdict %+v\nwant it to say %q at line %d", tc.nodes, v, tc.want, tc.line)
		}
		if tc.line == 0 && !strings.Contains(v.Reason, fmt.Sprintf("cut.jsonl:%d: field ", v.Line)) {
			t.Errorf("%d nodes: the reason does not name line %d: %s", tc.nodes, v.Line, v.Reason)
		}
		if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 256 {
			t.Errorf("%d nodes: verify allocated %d MB, expected at most 256", tc.nodes, mb)
		}
	}
}

// haltAfter is a sink that halts its world after n events.
type haltAfter struct {
	w       *netsim.World
	n, seen int
}

func (h *haltAfter) Record(*trace.Event) {
	if h.seen++; h.seen == h.n {
		h.w.Halt()
	}
}

// TestHaltStopsTheRun: a sink that halts the world (verify's comparer at a
// difference) stops the run at the end of the window under way, long before its end.
func TestHaltStopsTheRun(t *testing.T) {
	_, cfg, err := Open(Source{Preset: "omega-crash"})
	if err != nil {
		t.Fatal(err)
	}
	h := &haltAfter{n: 100}
	w, err := netsim.New(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	h.w = w
	w.RunUntil(cfg.Until)
	if w.Now() >= cfg.Until || h.seen > 1000 || w.Step() {
		t.Errorf("halted after %d events, the world went on to t=%v and %d events", h.n, w.Now(), h.seen)
	}
}

// TestVerifyCompressed records to .gz and .zst, verifies both, and cuts the
// compressed file: what remains is an incomplete recording.
func TestVerifyCompressed(t *testing.T) {
	dir := t.TempDir()
	plain := recordPreset(t, "omega-crash", filepath.Join(dir, "p.jsonl"))
	for _, ext := range []string{".gz", ".zst"} {
		path := filepath.Join(dir, "c.jsonl"+ext)
		recordPreset(t, "omega-crash", path)
		data, _ := os.ReadFile(path)
		if len(data) > len(strings.Join(plain, "\n"))/4 {
			t.Errorf("%s: %d bytes for %d of plain text: not compressed", ext, len(data), len(strings.Join(plain, "\n")))
		}
		if v := verify(t, path, false); !v.OK || v.Events != len(plain)-2 {
			t.Errorf("%s: %+v", ext, v)
		}
		tr, err := ReadTrace(path)
		if err != nil || tr.End == nil || len(tr.Events) != len(plain)-2 {
			t.Fatalf("%s: read back %v", ext, err)
		}
		// The same file under a plain name is still read: by its first bytes.
		renamed := filepath.Join(dir, "renamed"+ext+".jsonl")
		os.WriteFile(renamed, data, 0o644)
		if v := verify(t, renamed, false); !v.OK {
			t.Errorf("%s renamed: %+v", ext, v)
		}
		cut := filepath.Join(dir, "cut"+ext)
		os.WriteFile(cut, data[:len(data)/2], 0o644)
		if v := verify(t, cut, false); v.OK || !strings.Contains(v.Reason, "incomplete recording") {
			t.Errorf("%s cut in half: %+v", ext, v)
		}
		// An edited event, compressed again: the second reading, which takes the
		// content the first one decompressed, finds it at its line.
		lines := slices.Clone(plain)
		k := len(lines) / 2
		lines[k] = strings.Replace(lines[k], `"seq":`, `"seq":1`, 1)
		edited := filepath.Join(dir, "edited.jsonl"+ext)
		f, err := os.Create(edited)
		if err != nil {
			t.Fatal(err)
		}
		z := compressByName(edited, f).(compressor)
		io.WriteString(z, strings.Join(lines, "\n")+"\n")
		z.Close()
		f.Close()
		if v := verify(t, edited, false); v.OK || v.Line != k+1 {
			t.Errorf("%s with line %d edited: %+v", ext, k+1, v)
		}
	}
}

// TestKeeperKeepsWhatWasRead reads bytes through a keeper in small reads: under its
// limit it gives them all back, across its blocks; over it, or before the end, none.
func TestKeeperKeepsWhatWasRead(t *testing.T) {
	data := make([]byte, 3*keepBlock+12345)
	for i := range data {
		data[i] = byte(i * 7)
	}
	for _, c := range []struct {
		max       int
		readToEnd bool
		keeps     bool
	}{{4 * keepBlock, true, true}, {len(data), true, true}, {len(data) - 1, true, false}, {4 * keepBlock, false, false}} {
		k := &keeper{r: bytes.NewReader(data), max: c.max}
		tf := &traceFile{kept: k}
		if _, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{k}, make([]byte, 1000)); err != nil {
			t.Fatal(err)
		}
		r := tf.Kept(c.readToEnd)
		if (r != nil) != c.keeps {
			t.Fatalf("max %d, read to the end %v: kept %v, want %v", c.max, c.readToEnd, r != nil, c.keeps)
		}
		if r == nil {
			continue
		}
		if got, _ := io.ReadAll(r); !bytes.Equal(got, data) {
			t.Fatalf("max %d: kept %d bytes, not the %d read", c.max, len(got), len(data))
		}
	}
}

// parsed is what a trace says, for comparing an edited file with the original.
func parsed(path string) (*trace.Trace, bool) {
	tr, err := ReadTrace(path)
	if err != nil {
		return nil, false
	}
	tr.Hash = ""
	return tr, true
}

// TestVerifyRandomEdits makes random edits (a byte changed, a line dropped,
// duplicated or swapped, the file cut) to recordings of several presets, and checks
// that verify never says "verified" unless the parsed content is unchanged.
func TestVerifyRandomEdits(t *testing.T) {
	edits := 1000
	if testing.Short() {
		edits = 150
	}
	dir := t.TempDir()
	type rec struct {
		path  string
		data  []byte
		trace *trace.Trace
	}
	var recs []rec
	for _, r := range []struct {
		preset string
		until  time.Duration
	}{{"omega-crash", 2 * time.Second}, {"bully", time.Second}, {"ricart", time.Second}, {"chang-roberts", 0}} {
		path := filepath.Join(dir, r.preset+".jsonl")
		if _, err := presets.Load(r.preset); err != nil {
			continue
		}
		recordRun(t, Source{Preset: r.preset}, r.until, path)
		data, _ := os.ReadFile(path)
		tr, _ := parsed(path)
		recs = append(recs, rec{path, data, tr})
	}
	if len(recs) < 3 {
		t.Fatalf("only %d presets recorded", len(recs))
	}
	rng := newRand(20261123)
	kinds := map[string]int{}
	for i := 0; i < edits; i++ {
		r := recs[rng.IntN(len(recs))]
		data, kind := randomEdit(rng, r.data)
		kinds[kind]++
		path := filepath.Join(dir, "edit.jsonl")
		os.WriteFile(path, data, 0o644)
		v, err := Verify(context.Background(), path, VerifyOptions{})
		if err != nil || !v.OK {
			continue
		}
		if got, ok := parsed(path); !ok || !reflect.DeepEqual(got, r.trace) {
			t.Fatalf("edit %d (%s of %s) changed the content, and verify says %+v", i, kind, r.path, v)
		}
	}
	t.Logf("edits: %v; events per recording: %v", kinds, func() (n []int) {
		for _, r := range recs {
			n = append(n, len(r.trace.Events))
		}
		return n
	}())
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// randomEdit makes one random edit of a file: a byte changed, a line dropped,
// duplicated or swapped with another, or the file cut.
func randomEdit(rng *rand.Rand, data []byte) ([]byte, string) {
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	join := func(ls []string) []byte { return []byte(strings.Join(ls, "")) }
	switch k := rng.IntN(5); k {
	case 0:
		out := append([]byte(nil), data...)
		i := rng.IntN(len(out))
		out[i] ^= byte(1 + rng.IntN(255))
		return out, "byte"
	case 1:
		i := rng.IntN(len(lines))
		return join(append(append([]string(nil), lines[:i]...), lines[i+1:]...)), "drop"
	case 2:
		i := rng.IntN(len(lines))
		out := append(append([]string(nil), lines[:i+1]...), lines[i:]...)
		return join(out), "duplicate"
	case 3:
		out := append([]string(nil), lines...)
		i, j := rng.IntN(len(out)), rng.IntN(len(out))
		if rng.IntN(2) == 0 && i+1 < len(out) {
			j = i + 1
		}
		out[i], out[j] = out[j], out[i]
		return join(out), "swap"
	default:
		return append([]byte(nil), data[:rng.IntN(len(data))]...), "cut"
	}
}

// encoderCheck is a sink that holds the recorder's hand-written encoder to
// encoding/json on every event it sees.
type encoderCheck struct {
	t   *testing.T
	n   int
	buf []byte
}

func (c *encoderCheck) Record(e *trace.Event) {
	c.n++
	c.buf = trace.AppendLine(c.buf[:0], e)
	want, err := json.Marshal(e)
	if err != nil {
		c.t.Fatal(err)
	}
	if !bytes.Equal(c.buf, append(want, '\n')) {
		c.t.Fatalf("event %d: hand-written %s\nencoding/json %s", c.n, c.buf, want)
	}
}

// TestEncoderEveryPreset checks the recorder's bytes against encoding/json's for every
// event of every preset.
func TestEncoderEveryPreset(t *testing.T) {
	for _, name := range presets.Names() {
		_, cfg, err := Open(Source{Preset: name})
		if err != nil {
			t.Fatal(err)
		}
		c := &encoderCheck{t: t}
		if _, err := Run(cfg, 0, c); err != nil {
			t.Fatal(err)
		}
		if c.n < 10 {
			t.Fatalf("%s: only %d events", name, c.n)
		}
	}
}

// fillHasher is a trace.Filler that hashes every event the way a trace.Hasher does,
// through a batch: the ones it lends room for and the ones it is given.
type fillHasher struct {
	b      *trace.Batch
	enc    trace.Encoder
	lines  []byte
	h      *trace.Hasher
	filled int
}

func (f *fillHasher) Record(e *trace.Event) {
	f.b.Reset()
	f.b.Add(e)
	f.hash()
}

func (f *fillHasher) Fill() (*trace.Event, *node.Message) {
	f.b.Reset()
	return f.b.Fill()
}

func (f *fillHasher) Filled() {
	f.b.Filled()
	f.filled++
	f.hash()
}

func (f *fillHasher) hash() {
	f.lines = f.b.Encode(&f.enc, f.lines[:0])
	f.h.AddLine(f.lines[:len(f.lines)-1])
}

// TestFilledEventsEveryPreset checks that the events the world fills in a sink's
// own room (trace.Filler: a recording, verify's re-run) are those it builds for
// any other sink, byte for byte, over every preset.
func TestFilledEventsEveryPreset(t *testing.T) {
	filled := 0
	for _, name := range presets.Names() {
		_, cfg, err := Open(Source{Preset: name})
		if err != nil {
			t.Fatal(err)
		}
		built := trace.NewHasher()
		if _, err := Run(cfg, 0, built); err != nil {
			t.Fatal(err)
		}
		f := &fillHasher{b: trace.NewBatch(), h: trace.NewHasher()}
		if _, err := Run(cfg, 0, f); err != nil {
			t.Fatal(err)
		}
		if f.h.Count() != built.Count() || f.h.Sum() != built.Sum() {
			t.Fatalf("%s: %d events (%d filled), hash %s; built for a sink: %d events, hash %s", name, f.h.Count(), f.filled, f.h.Sum(), built.Count(), built.Sum())
		}
		filled += f.filled
	}
	if filled < 10000 {
		t.Fatalf("only %d events filled in place over every preset", filled)
	}
}

// TestLineTime reads the time of event lines as the recorder writes them, and of
// none in another form.
func TestLineTime(t *testing.T) {
	for _, c := range []struct {
		line string
		t    int64
		ok   bool
	}{
		{`{"seq":12,"t":4517866,"ev":"deliver"}`, 4517866, true},
		{`{"seq":1,"t":0,"ev":"send"}`, 0, true},
		{`{"seq":3,"t":-5,"ev":"send"}`, -5, true},
		{`{"t":5,"seq":3,"ev":"send"}`, 0, false},
		{`{"seq":3, "t":5}`, 0, false},
		{`{"seq":3,"t":}`, 0, false},
		{`{"seq":3,"t":99999999999999999999}`, 0, false},
	} {
		if got, ok := lineTime([]byte(c.line)); got != c.t || ok != c.ok {
			t.Errorf("lineTime(%s) = %d, %v; expected %d, %v", c.line, got, ok, c.t, c.ok)
		}
	}
}

// rehash gives a recording's lines with the end record's hash made again for
// them, as if they had been recorded so.
func rehash(lines []string) []string {
	h := trace.NewHasher()
	h.Header([]byte(lines[0]))
	for _, l := range lines[1 : len(lines)-1] {
		h.AddLine([]byte(l))
	}
	out := slices.Clone(lines)
	end := len(out) - 1
	out[end] = regexp.MustCompile(`"hash":"[0-9a-f]+"`).ReplaceAllString(out[end], `"hash":"`+h.Sum()+`"`)
	return out
}

// stopInside runs w, whose interrupt always fires, until it stands inside an
// instant (or reaches until), and returns where it stands.
func stopInside(w *netsim.World, until time.Duration) (time.Duration, uint64) {
	for {
		w.RunUntil(until)
		if at, before := w.Position(); before > 0 || at >= until {
			return at, before
		}
	}
}

// denseMesh writes a scenario whose instants are dense: 400 processes that
// heartbeat each other, 160,000 messages at once when they start (and every
// 100 ms), more than the dashboard's world takes of one instant in a window
// (netsim's cutWork).
func denseMesh(t *testing.T, dir string) string {
	t.Helper()
	scn := filepath.Join(dir, "mesh.toml")
	text := `name = "mesh"
algorithm = "heartbeat-dp"
nodes = 400
seed = 3
until = "40ms"

[params]
interval = "100ms"
timeout = "150ms"

[network]
latency = { dist = "uniform", min = "5ms", max = "20ms" }
`
	if err := os.WriteFile(scn, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return scn
}

// TestVerifyActionInsideInstant records a run with a user action taken inside a
// dense instant (a 400-node mesh's heartbeats, 160,000 messages at once, which the
// dashboard's world stops inside of for a key): the action's line carries its
// place, and the recording verifies. Moving the place by one event, or dropping
// it, is found. A recording of format version 5 (no places) still verifies.
func TestVerifyActionInsideInstant(t *testing.T) {
	dir := t.TempDir()
	scn := denseMesh(t, dir)
	_, cfg, err := Open(Source{File: scn})
	if err != nil {
		t.Fatal(err)
	}
	w, err := netsim.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.SetInterrupt(func() bool { return true })
	at, before := stopInside(w, cfg.Until)
	w.Close()
	if before == 0 {
		t.Fatalf("the world did not stop inside an instant (at %v)", at)
	}
	lines := recordAdjusted(t, Source{File: scn}, 0, filepath.Join(dir, "hw.jsonl"), func(cfg *netsim.Config) {
		cfg.UserActions = []netsim.Timed{{At: at, Before: before, Action: netsim.Action{Verb: "crash", Node: 7}}}
	})
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"by":"user"`) })
	place := fmt.Sprintf(`"before":%d`, before)
	if i < 0 || !strings.Contains(lines[i], place) || !strings.Contains(lines[i-1], fmt.Sprintf(`"t":%d,`, at.Microseconds())) || !strings.Contains(lines[i+1], fmt.Sprintf(`"t":%d,`, at.Microseconds())) {
		t.Fatalf("the user action's line (%d) is not inside its instant with %s", i, place)
	}
	if v := verify(t, write(t, dir, "hw.jsonl", lines, 0), false); !v.OK {
		t.Fatalf("the recording with an action inside an instant: %+v", v)
	}
	for name, to := range map[string]string{"moved": fmt.Sprintf(`,"before":%d`, before+1), "dropped": ""} {
		// Without its place the action goes before the whole instant, whose first
		// line then differs; one event later, its own line does. (With the hash
		// made again: else the hash finds the edit first.)
		if v := verify(t, write(t, dir, name+".jsonl", rehash(edit(t, lines, i, ","+place, to)), 0), false); v.OK || v.Line > i+1 || v.Line < 2 {
			t.Errorf("the action's place %s: verdict %+v, expected a difference at line %d or before, inside its instant", name, v, i+1)
		}
	}

	// Version 5: a recording with header and hash as version 5 wrote them.
	old := recordAdjusted(t, Source{Preset: "omega-crash"}, 0, filepath.Join(dir, "v6.jsonl"), nil)
	old = rehash(edit(t, old, 0, fmt.Sprintf(`"version":%d`, trace.Version), `"version":5`))
	if v := verify(t, write(t, dir, "v5.jsonl", old, 0), false); !v.OK {
		t.Fatalf("a version 5 recording: %+v", v)
	}
}

// TestVerifyHostilePlace gives a user action a place no run has (after every
// event of its instant, or before the instant's first), hash made again: verify
// says the file is not its re-run, naming a line.
func TestVerifyHostilePlace(t *testing.T) {
	dir := t.TempDir()
	lines := recordAdjusted(t, Source{Preset: "omega-crash"}, 0, filepath.Join(dir, "hw.jsonl"), func(cfg *netsim.Config) {
		cfg.UserActions = []netsim.Timed{{At: 1500 * time.Millisecond, Action: netsim.Action{Verb: "crash", Node: 2}}}
	})
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"by":"user"}`) })
	if i < 0 {
		t.Fatal("no user action in the recording")
	}
	for _, before := range []string{"1", "18446744073709551615"} {
		edited := rehash(edit(t, lines, i, `"by":"user"}`, `"by":"user","before":`+before+`}`))
		v := verify(t, write(t, dir, "place.jsonl", edited, 0), false)
		t.Logf("before %s: %s", before, v.Reason)
		if v.OK || v.Line < 2 || !strings.Contains(v.Reason, "re-run") {
			t.Errorf("before %s: verdict %+v, expected a line that differs from the re-run", before, v)
		}
	}
}

// TestVerifyCompletion: a recording stopped at 3.4 s of bully's 14 s verifies, and
// its verdict says where it ended and which expectations were never evaluated; a
// whole one is complete.
func TestVerifyCompletion(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.jsonl")
	recordRun(t, Source{Preset: "bully"}, 3400*time.Millisecond, short)
	v := verify(t, short, false)
	if !v.OK || v.Completion.Complete() || len(v.Completion.Missing) != 3 || v.Completion.EndT != 3_400_000 {
		t.Fatalf("stopped at 3.4s: %+v", v)
	}
	var b strings.Builder
	v.Print(&b)
	if want := "; ended at 3.4s of 14s; 3 of 4 expectations not evaluated\n"; !strings.HasPrefix(b.String(), "verified: ") || !strings.HasSuffix(b.String(), want) {
		t.Errorf("Print: %q, want it to end with %q", b.String(), want)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	recordRun(t, Source{Preset: "bully"}, 0, whole)
	if v := verify(t, whole, false); !v.OK || !v.Completion.Complete() {
		t.Fatalf("whole: %+v", v)
	}
}
