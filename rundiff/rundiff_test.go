package rundiff

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/internal/rectest"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/session"
)

// run is a recording to make: a preset, a seed, user actions (as the dashboard
// records them) and where it stops (0: the scenario's until; before it, the
// recording ends as a quit dashboard's does).
type run struct {
	preset  string
	seed    uint64
	actions []netsim.Timed
	stop    time.Duration
	name    string
}

// record makes r's recording in dir.
func record(t testing.TB, dir string, r run) string {
	t.Helper()
	return rectest.Record(t, filepath.Join(dir, r.name+".jsonl"), r.preset, r.seed, r.actions, r.stop)
}

// events reads a recording whole, for the tests' own answers.
func events(t *testing.T, path string) *trace.Trace {
	t.Helper()
	tr, err := session.ReadTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// leaders is each process's leader at the end of a recording, as the
// dashboard's fold (trace.State) has it: an answer not made by this package.
func leaders(t *testing.T, path string) map[node.ID]node.ID {
	tr := events(t, path)
	st := trace.NewState(tr.Header)
	for i := range tr.Events {
		st.Apply(&tr.Events[i])
	}
	out := map[node.ID]node.ID{}
	for _, n := range st.Snapshot().Nodes {
		out[n.ID] = n.Status.Leader
	}
	return out
}

func compare(t *testing.T, a, b string) *Result {
	t.Helper()
	res, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSame(t *testing.T) {
	dir := t.TempDir()
	a := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "a"})
	b := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "b"})
	for _, pair := range [][2]string{{a, a}, {a, b}} {
		res := compare(t, pair[0], pair[1])
		if !res.Identical || res.First != nil || len(res.Header) > 0 || len(res.Nodes) > 0 || len(res.OnlyA)+len(res.OnlyB) > 0 {
			t.Errorf("%s and %s: %+v, want identical", pair[0], pair[1], res)
		}
		if res.A.Events == 0 || res.A.Events != res.B.Events || !res.A.Complete || res.A.EndReason != trace.EndUntil {
			t.Errorf("sides: %+v %+v", res.A, res.B)
		}
	}
}

// The fork of the issue: in bully-split-brain, a user drops the first
// COORDINATOR in flight after the partition and quits at 6s, while the
// partition still holds. The diff names that drop as the first difference, at
// its time, and the processes whose leader differs at the end.
func TestUserDrop(t *testing.T) {
	dir := t.TempDir()
	a := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "a"})
	var coord *trace.Event
	tr := events(t, a)
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Ev == trace.Send && e.Msg.Type == "COORDINATOR" && e.T >= 3_000_000 {
			coord = e
			break
		}
	}
	if coord == nil {
		t.Fatal("no COORDINATOR sent after the partition")
	}
	at := time.Duration(coord.T+1) * time.Microsecond
	drop, err := netsim.ParseAction(fmt.Sprintf("drop #%d", coord.MID), tr.Header.Info.IDs)
	if err != nil {
		t.Fatal(err)
	}
	b := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "b", stop: 6 * time.Second,
		actions: []netsim.Timed{{At: at, Action: drop}}})

	res := compare(t, a, b)
	d := res.First
	if res.Identical || d == nil {
		t.Fatalf("a fork with a drop: %+v", res)
	}
	want := Cause{Kind: CauseAction, Run: "b", Action: fmt.Sprintf("drop #%d", coord.MID), By: "user"}
	if d.Cause.Kind != want.Kind || d.Cause.Run != want.Run || d.Cause.Action != want.Action || d.Cause.By != want.By || d.Cause.Message != nil {
		t.Errorf("cause %+v, want %+v", d.Cause, want)
	}
	if d.B == nil || d.B.Ev != trace.Action || d.TUS != coord.T+1 || d.A == nil || d.A.Seq != d.Event || d.B.Seq != d.Event {
		t.Errorf("first difference: event %d at %d, A %+v, B %+v; want B's action at %d", d.Event, d.TUS, d.A, d.B, coord.T+1)
	}
	// Everything before it is the same in both files, line for line.
	la, lb := lines(t, a), lines(t, b)
	for i := range d.Event {
		if la[i] != lb[i] {
			t.Fatalf("line %d differs before the first difference named (event %d)", i+1, d.Event)
		}
	}
	if la[d.Event] == lb[d.Event] {
		t.Errorf("event %d, named as the first difference, is the same in both", d.Event)
	}
	if len(res.Header) > 0 {
		t.Errorf("a user's action is not in the header, yet %+v", res.Header)
	}
	// The leaders at the end, as the dashboard's fold has them.
	ea, eb := leaders(t, a), leaders(t, b)
	var differ []node.ID
	for _, id := range tr.Header.Info.IDs {
		if ea[id] != eb[id] {
			differ = append(differ, id)
		}
	}
	var named []node.ID
	for _, n := range res.Nodes {
		if n.Field == "leader" {
			named = append(named, n.Node)
			if n.A != nameOr(ea[n.Node]) || n.B != nameOr(eb[n.Node]) {
				t.Errorf("%s's leader: %q and %q, want %s and %s", n.Node, n.A, n.B, ea[n.Node], eb[n.Node])
			}
		}
	}
	if len(differ) == 0 || !slices.Equal(named, differ) {
		t.Errorf("nodes whose leader differs: %v, want %v", named, differ)
	}
	if !res.B.Complete || res.B.EndReason != trace.EndQuit || res.B.EndUS != 6_000_000 {
		t.Errorf("B's side: %+v", res.B)
	}
}

// lines is a file's lines, its header first.
func lines(t *testing.T, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")
}

func nameOr(id node.ID) string {
	if id == 0 {
		return ""
	}
	return id.String()
}

// Another seed: the runs part where a latency was drawn otherwise, and the diff
// names the message with when it was sent and when it landed in each run.
func TestSeedLatency(t *testing.T) {
	dir := t.TempDir()
	a := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "a"})
	b := record(t, dir, run{preset: "bully-split-brain", seed: 8, name: "b"})
	res := compare(t, a, b)
	if len(res.Header) != 1 || res.Header[0] != (session.FieldDiff{Path: "scenario.seed", A: "7", B: "8"}) {
		t.Errorf("header differences: %+v, want the seed", res.Header)
	}
	d := res.First
	if d == nil || d.Cause.Kind != CauseLatency || d.Cause.Message == nil {
		t.Fatalf("first difference %+v, want a latency", d)
	}
	m := d.Cause.Message
	// The message's own lines in each file.
	for _, side := range []struct {
		path string
		fate Fate
	}{{a, m.A}, {b, m.B}} {
		tr := events(t, side.path)
		want := Fate{What: "pending"}
		for _, e := range tr.Events {
			if e.MID != m.MID {
				continue
			}
			switch {
			case e.Ev == trace.Send:
				if e.T != m.SentUS || e.From != m.From || e.To != m.To || e.Msg.Type != m.Type {
					t.Errorf("%s: message %+v, its send is %+v", side.path, m, e)
				}
			case e.Ev == trace.Deliver && want.What == "pending":
				want = Fate{What: "delivered", AtUS: e.T}
			}
		}
		if side.fate != want {
			t.Errorf("%s: #%d's fate %+v, want %+v", side.path, m.MID, side.fate, want)
		}
	}
	first := m.A
	if d.Cause.Run == "b" {
		first = m.B
	}
	if first.AtUS != d.TUS || m.A == m.B {
		t.Errorf("the message landed first in %s at %d; the difference is at %d; fates %+v %+v", d.Cause.Run, first.AtUS, d.TUS, m.A, m.B)
	}
}

// rewrite changes one line of a recording (the end record's hash is left as it
// is: a diff does not verify).
func rewrite(t *testing.T, path, out string, change func(lines []string) []string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := change(strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"))
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// A delivery turned into a loss, and a copy delivered again: each named with
// the message, in the run where it happened.
func TestLossAndDup(t *testing.T) {
	dir := t.TempDir()
	a := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "a"})
	tr := events(t, a)
	// A delivery some way in, whose line comes strictly after the one before.
	k := 0
	for i := 100; i < len(tr.Events); i++ {
		if tr.Events[i].Ev == trace.Deliver && tr.Events[i].T > tr.Events[i-1].T {
			k = i
			break
		}
	}
	e := tr.Events[k]
	lost := rewrite(t, a, filepath.Join(dir, "lost.jsonl"), func(lines []string) []string {
		lines[k+1] = fmt.Sprintf(`{"seq":%d,"t":%d,"ev":"drop","from":"%s","to":"%s","mid":%d,"msg":{"type":%q},"reason":"loss"}`, e.Seq, e.T, e.From, e.To, e.MID, e.Msg.Type)
		return lines
	})
	res := compare(t, a, lost)
	d := res.First
	if d == nil || d.Event != e.Seq || d.Cause.Kind != CauseLoss || d.Cause.Run != "b" || d.Cause.Message == nil {
		t.Fatalf("a delivery made a loss: %+v", d)
	}
	if m := d.Cause.Message; m.MID != e.MID || m.A != (Fate{What: "delivered", AtUS: e.T}) || m.B != (Fate{What: "dropped", AtUS: e.T, Reason: "loss"}) {
		t.Errorf("the lost message: %+v", m)
	}

	// A copy of a message delivered earlier, delivered again just before line k.
	var prev trace.Event
	for i := k - 1; i >= 0; i-- {
		if tr.Events[i].Ev == trace.Deliver {
			prev = tr.Events[i]
			break
		}
	}
	dup := rewrite(t, a, filepath.Join(dir, "dup.jsonl"), func(lines []string) []string {
		lines[k+1] = fmt.Sprintf(`{"seq":%d,"t":%d,"ev":"deliver","from":"%s","to":"%s","mid":%d,"msg":{"type":%q},"dup":true}`, e.Seq, tr.Events[k-1].T, prev.From, prev.To, prev.MID, prev.Msg.Type)
		return lines
	})
	res = compare(t, a, dup)
	if d := res.First; d == nil || d.Cause.Kind != CauseDup || d.Cause.Run != "b" || d.Cause.Message.MID != prev.MID || d.TUS != tr.Events[k-1].T {
		t.Errorf("a copy delivered again: %+v", d)
	}
}

// One recording stops first: where its events end, or, with the same events,
// where its end record says.
func TestEnds(t *testing.T) {
	dir := t.TempDir()
	a := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "a"})
	b := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "b", stop: 5 * time.Second})
	res := compare(t, a, b)
	d := res.First
	if d == nil || d.Cause.Kind != CauseEnd || d.Cause.Run != "b" || d.B != nil || d.A == nil || d.TUS != 5_000_000 || d.Event != res.B.Events+1 {
		t.Errorf("B quit at 5s: %+v (B has %d events)", d, res.B.Events)
	}
	// The same events, an end record that says quit at another time.
	quit := rewrite(t, b, filepath.Join(dir, "quit.jsonl"), func(lines []string) []string {
		end := len(lines) - 1
		lines[end] = strings.Replace(strings.Replace(lines[end], `"t":5000000`, `"t":5500000`, 1), `"reason":"quit"`, `"reason":"interrupted"`, 1)
		return lines
	})
	res = compare(t, b, quit)
	if d := res.First; res.Identical || d == nil || d.Cause.Kind != CauseEnd || d.Cause.Run != "a" || d.A != nil || d.B != nil || d.TUS != 5_000_000 {
		t.Errorf("the same events, other ends: %+v", d)
	}
	// A file cut in the middle of a line: its events as far as they go.
	data, _ := os.ReadFile(b)
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	res = compare(t, a, cut)
	if d := res.First; d == nil || d.Cause.Kind != CauseEnd || d.Cause.Run != "b" || res.B.Complete {
		t.Errorf("a cut file: %+v, %+v", d, res.B)
	}
}

// Alerts raised in one run and not the other, and end states, against another
// preset of the same algorithm and processes.
func TestAlertsAndEndStates(t *testing.T) {
	dir := t.TempDir()
	a := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "a"})
	b := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "b", stop: 7 * time.Second})
	res := compare(t, a, b)
	// b stops during the split brain: A's clearing of it and what follows are
	// A's own; every alert B raised A raised too.
	count := func(path string) map[string]int {
		m := map[string]int{}
		for _, e := range events(t, path).Events {
			if e.Ev == trace.Alert {
				m[e.Kind+": "+e.Text]++
			}
		}
		return m
	}
	ca, cb := count(a), count(b)
	var want []string
	for k, n := range ca {
		if n > cb[k] {
			want = append(want, fmt.Sprintf("%s ×%d", k, n-cb[k]))
		}
	}
	var got []string
	for _, x := range res.OnlyA {
		got = append(got, fmt.Sprintf("%s: %s ×%d", x.Kind, x.Text, x.Count))
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) || len(res.OnlyB) != 0 {
		t.Errorf("alerts only in A: %v, want %v; only in B: %v", got, want, res.OnlyB)
	}
	total := 0
	for _, n := range ca {
		total += n
	}
	if res.A.Alerts != total || total == 0 {
		t.Errorf("A's alerts: %d, want %d", res.A.Alerts, total)
	}
	// n2 leads its minority at 7s; at 12s it follows n5 again.
	found := false
	for _, n := range res.Nodes {
		if n.Node == 2 && n.Field == "role" {
			found = n.B == "leader" && n.A != "leader"
		}
	}
	if !found {
		t.Errorf("end states: %+v, want n2 leader in B only", res.Nodes)
	}
}

func TestBadPairs(t *testing.T) {
	dir := t.TempDir()
	a := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "a"})
	ring := record(t, dir, run{preset: "hs", seed: 1, name: "ring"})
	var bp *BadPair
	if _, err := Compare(a, ring); !errors.As(err, &bp) || !strings.Contains(err.Error(), "expected two recordings of one algorithm") {
		t.Errorf("bully and ring: %v", err)
	}
	notTrace := filepath.Join(dir, "x.jsonl")
	os.WriteFile(notTrace, []byte("hello\n"), 0o644)
	if _, err := Compare(a, notTrace); err == nil || !strings.Contains(err.Error(), "x.jsonl:1: not a clusterlab trace") {
		t.Errorf("a file that is not a trace: %v", err)
	}
	broken := rewrite(t, a, filepath.Join(dir, "broken.jsonl"), func(lines []string) []string {
		lines[500] = `{"seq":500,`
		return lines
	})
	if _, err := Compare(a, broken); err == nil || !strings.Contains(err.Error(), "broken.jsonl:501:") {
		t.Errorf("a broken line: %v", err)
	}
}

// sampled is the most live heap seen while a diff reads.
var sampled uint64

// Two long recordings (several MB each) that part near their end: the diff
// holds no more of them than a process's state and a few lines.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("two long recordings: skipped in -short mode")
	}
	dir := t.TempDir()
	long := 2000 * time.Second
	a := record(t, dir, run{preset: "bully-split-brain", seed: 7, name: "a", stop: long})
	st, _ := os.Stat(a)
	tr := events(t, a)
	k := len(tr.Events) - 10
	e := tr.Events[k]
	tr = nil
	b := rewrite(t, a, filepath.Join(dir, "b.jsonl"), func(lines []string) []string {
		lines[k+1] += " " // the same event, another line
		return lines
	})
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	sampled = 0
	sample = func() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		sampled = max(sampled, ms.HeapAlloc)
	}
	defer func() { sample = nil }()
	res := compare(t, a, b)
	if res.First == nil || res.First.Event != e.Seq {
		t.Fatalf("first difference %+v, want event %d", res.First, e.Seq)
	}
	held := int64(sampled) - int64(before.HeapAlloc)
	t.Logf("two recordings of %d MB (%d events): %d kB held", st.Size()>>20, res.A.Events, held>>10)
	if held > 4<<20 || st.Size() < 12<<20 {
		t.Errorf("%d kB held while reading two recordings of %d MB", held>>10, st.Size()>>20)
	}
}

// BenchmarkCompare compares two recordings of 2,000 s of bully-split-brain
// (some 180,000 events, 17 MB each) that part near their end, both read to it:
// the cost of a diff per event of one recording.
func BenchmarkCompare(b *testing.B) {
	dir := b.TempDir()
	a := record(b, dir, run{preset: "bully-split-brain", seed: 7, name: "a", stop: 2000 * time.Second})
	data, err := os.ReadFile(a)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	lines[len(lines)-10] += " "
	other := filepath.Join(dir, "b.jsonl")
	if err := os.WriteFile(other, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var events uint64
	for b.Loop() {
		res, err := Compare(a, other)
		if err != nil || res.First == nil {
			b.Fatalf("%v %+v", err, res)
		}
		events = res.A.Events
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(uint64(b.N)*events), "ns/event")
}
