package trace

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/internal/fuzzbound"
	"github.com/clusterlab/clusterlab/node"
)

func sample(n int) []Event {
	var out []Event
	for i := 1; i <= n; i++ {
		m := node.Message{Type: "PING", ID: 2}
		out = append(out, Event{Seq: uint64(i), T: int64(i * 1000), Ev: Send, From: 1, To: 2, MID: uint64(i), Msg: &m})
	}
	return out
}

// testScenario stands for a scenario in these tests: the trace package does not read
// scenarios, a Resolver does.
var testScenario = []byte(`{"name":"t","seed":7}`)

// resolve is a Resolver for testScenario: two nodes, 1 s.
func resolve(h *Header) error {
	h.Seed, h.Info = 7, Info{Name: "t", IDs: []node.ID{1, 2}, Until: 1e6}
	return nil
}

// record writes evs as a whole recording, end record included, unless end is "".
func record(t testing.TB, evs []Event, end string) ([]byte, *Recorder) {
	var buf bytes.Buffer
	r, err := NewRecorder(&buf, Header{Program: "test", Scenario: testScenario})
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		r.Record(&evs[i])
	}
	if end != "" {
		if err := r.End(end, evs[len(evs)-1].T); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), r
}

func TestRoundTripAndHash(t *testing.T) {
	evs := sample(50)
	data, rec := record(t, evs, EndUntil)
	tr, err := ReadBytes(data, "t.jsonl", resolve)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 50 || tr.Truncated || tr.Header.Seed != 7 || tr.Header.Format != Format || tr.Header.Info.Name != "t" {
		t.Fatalf("read %d events, truncated %v, header %+v", len(tr.Events), tr.Truncated, tr.Header)
	}
	if tr.End == nil || tr.End.Events != 50 || tr.End.Reason != EndUntil || tr.End.T != evs[49].T || tr.End.Hash != tr.Hash || rec.Hash() != tr.Hash {
		t.Fatalf("end record %+v, hash read %s, recorded %s", tr.End, tr.Hash, rec.Hash())
	}
	// The recording's hash is the header line's and the events'.
	lines := strings.SplitAfter(string(data), "\n")
	h := NewHasher()
	h.Header([]byte(strings.TrimSuffix(lines[0], "\n")))
	for i := range evs {
		h.Record(&evs[i])
	}
	if h.Sum() != tr.Hash {
		t.Fatalf("hash of written events %s, of read lines %s", h.Sum(), tr.Hash)
	}
	head := lines[0]
	for _, gone := range []string{"time", `"seed"`, `"info"`} {
		if strings.Contains(strings.Replace(head, string(testScenario), "", 1), gone) {
			t.Fatalf("the header mentions %s beside the scenario: %s", gone, head)
		}
	}
	if !strings.HasPrefix(lines[len(lines)-2], `{"ev":"end","events":50,"hash":"`+tr.Hash+`","t":50000,"reason":"until"}`) {
		t.Fatalf("end record %s", lines[len(lines)-2])
	}
}

// TestTruncatedTail cuts a trace mid-line, as a killed recorder leaves it.
func TestTruncatedTail(t *testing.T) {
	data, _ := record(t, sample(20), "")
	cut := data[:len(data)-10]
	tr, err := ReadBytes(cut, "t.jsonl", resolve)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Truncated || len(tr.Events) != 19 || tr.End != nil {
		t.Fatalf("truncated=%v with %d events, want true with 19", tr.Truncated, len(tr.Events))
	}
	// A bad line that is not the last is an error naming it.
	lines := strings.Split(string(data), "\n")
	lines[5] = `{"seq": oops}`
	_, err = ReadBytes([]byte(strings.Join(lines, "\n")), "t.jsonl", resolve)
	if err == nil || !strings.HasPrefix(err.Error(), "t.jsonl:6: bad event line") {
		t.Fatalf("error %v, want t.jsonl:6: bad event line", err)
	}
}

func TestNotATrace(t *testing.T) {
	for _, in := range []string{"", "hello\n", `{"format":"other"}` + "\n", `{"format":"clusterlab-trace","version":9}` + "\n",
		`{"format":"clusterlab-trace","version":1,"seed":7,"info":{},"scenario":{}}` + "\n",
		`{"format":"clusterlab-trace","version":3}` + "\n", strings.Repeat("x", MaxLine+10)} {
		if _, err := ReadBytes([]byte(in), "x.jsonl", resolve); err == nil || !strings.HasPrefix(err.Error(), "x.jsonl:1: ") {
			t.Errorf("%.60q: error %v", in, err)
		}
	}
}

// zeros is an endless stream of zero bytes, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestHostileLines reads a good recording changed in each way a reader must refuse,
// and checks the error names the line and what was expected.
func TestHostileLines(t *testing.T) {
	data, _ := record(t, sample(10), EndUntil)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	with := func(i int, line string) string {
		out := append([]string(nil), lines...)
		out[i] = line
		return strings.Join(out, "\n") + "\n"
	}
	ev := func(i int, old, new string) string {
		if !strings.Contains(lines[i], old) {
			t.Fatalf("line %d has no %q", i+1, old)
		}
		return with(i, strings.Replace(lines[i], old, new, 1))
	}
	end := len(lines) - 1
	noEnd := strings.Join(lines[:end], "\n") + "\n"
	for _, tc := range []struct{ name, in, want string }{
		{"seq out of order", ev(3, `"seq":3`, `"seq":4`), "t.jsonl:4: found seq 4, expected 3"},
		{"time goes back", ev(3, `"t":3000`, `"t":1000`), "t.jsonl:4: found t=1000, expected at least 2000"},
		{"negative time", ev(1, `"t":1000`, `"t":-5`), "t.jsonl:2: found t=-5, expected at least 0"},
		{"time 1e17 with an end record", ev(end-1, `"t":10000`, `"t":100000000000000000`), "t.jsonl:11: found t=100000000000000000, expected at most 86400000000 (24h, the longest run)"},
		{"time 1e17 without an end record", strings.Replace(noEnd, `"t":10000`, `"t":100000000000000000`, 1), "t.jsonl:11: found t=100000000000000000, expected at most 86400000000"},
		{"time past 24h without an end record", strings.Replace(noEnd, `"t":10000`, `"t":86400000001`, 1), "t.jsonl:11: found t=86400000001, expected at most 86400000000"},
		{"time past the run's until", strings.Replace(strings.Replace(noEnd, `"t":10000`, `"t":3000000`, 1), `"scenario":`, `"until_us":2000000,"scenario":`, 1),
			"t.jsonl:11: found a time after the run's until (given on the command line), 2s, and there is no end record"},
		{"a run's until past 24h", ev(0, `"scenario":`, `"until_us":86400000001,"scenario":`), "t.jsonl:1: header field until_us: found 86400000001, expected 1 to 86400000000"},
		{"a negative run's until", ev(0, `"scenario":`, `"until_us":-1,"scenario":`), "t.jsonl:1: header field until_us: found -1"},
		{"time of max int64", ev(end-1, `"t":10000`, `"t":9223372036854775807`), "t.jsonl:11: found t=9223372036854775807, expected at most 86400000000"},
		{"time over int64", ev(end-1, `"t":10000`, `"t":9223372036854775808`), `t.jsonl:11: bad event line (field "t" has the wrong type`},
		{"end time past 24h", ev(end, `"t":10000`, `"t":86400000001`), "t.jsonl:12: end record field t: found 86400000001, expected at most 86400000000"},
		{"end time of max int64", ev(end, `"t":10000`, `"t":9223372036854775807`), "t.jsonl:12: end record field t: found 9223372036854775807, expected at most"},
		{"unknown kind", ev(2, `"ev":"send"`, `"ev":"teleport"`), `t.jsonl:3: found event kind "teleport", expected one of action, alert, alert-cleared`},
		{"unknown node", ev(2, `"to":"n2"`, `"to":"n9"`), "t.jsonl:3: found node n9, expected one of the header's 2 nodes"},
		{"bad node", ev(2, `"to":"n2"`, `"to":"x"`), `t.jsonl:3: bad event line (bad node id "x", expected n<number>)`},
		{"wrong type", ev(2, `"mid":2`, `"mid":"two"`), `t.jsonl:3: bad event line (field "mid" has the wrong type: found a JSON string)`},
		{"message without msg", ev(2, `,"msg":{"type":"PING","id":"n2"}`, ``), `t.jsonl:3: found a send event without "msg"`},
		{"line over the limit", with(2, `{"seq":2,"t":2000,"ev":"log","node":"n1","text":"`+strings.Repeat("a", MaxLine)+`"}`), "t.jsonl:3: found a line longer than 1048576 bytes"},
		{"line after the end", string(data) + lines[1] + "\n", "t.jsonl:13: found a line after the end record"},
		{"an empty line", with(3, ""), "t.jsonl:4: found an empty line, expected one JSON event"},
		{"empty lines after the header", lines[0] + strings.Repeat("\n", 1000), "t.jsonl:2: found an empty line, expected one JSON event"},
		{"end events", ev(end, `"events":10`, `"events":9`), "t.jsonl:12: end record field events: found 9, expected 10"},
		{"end reason", ev(end, `"reason":"until"`, `"reason":"bored"`), `t.jsonl:12: end record field reason: found "bored"`},
		{"end time", ev(end, `"t":10000`, `"t":9000`), "t.jsonl:12: end record field t: found 9000, expected at least the last event's 10000"},
		{"end unknown field", ev(end, `"reason"`, `"x":1,"reason"`), "t.jsonl:12: bad end record"},
		{"end hash", ev(end, `"hash":"`, `"hash":"0`), "t.jsonl:12: end record field hash"},
		{"event edited under the hash", ev(4, `"mid":4`, `"mid":5`), "t.jsonl:12: end record field hash"},
		{"place on a send", ev(2, `"mid":2`, `"mid":2,"before":3`), `t.jsonl:3: found "before" on a send event, expected it only on a user action`},
		{"cleared without ref", ev(2, `"ev":"send"`, `"ev":"alert-cleared"`), `t.jsonl:3: found a alert-cleared event without "ref" naming an earlier line`},
	} {
		_, err := ReadBytes([]byte(tc.in), "t.jsonl", resolve)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v\nwant %s", tc.name, err, tc.want)
		}
	}
	// A run's until given on the command line (sim --until) lets a recording cut
	// short hold times past the scenario's until, up to it.
	if _, err := ReadBytes([]byte(strings.Replace(strings.Replace(noEnd, `"t":10000`, `"t":3000000`, 1), `"scenario":`, `"until_us":5000000,"scenario":`, 1)), "t.jsonl", resolve); err != nil {
		t.Errorf("a run's until of 5s, no end record, a time of 3s: %v", err)
	}
	// An alert-cleared naming an earlier alert is read.
	ok := ev(3, `"ev":"send","from":"n1","to":"n2","mid":3,"msg":{"type":"PING","id":"n2"}`, `"ev":"alert-cleared","ref":2,"text":"over"`)
	noHash := strings.Join(strings.Split(ok, "\n")[:end], "\n") + "\n"
	if tr, err := ReadBytes([]byte(noHash), "t.jsonl", resolve); err != nil || tr.Events[2].Ref != 2 {
		t.Errorf("alert-cleared: %v", err)
	}
}

// TestEndlessInput reads an endless stream of zeros: one error, at once, in bounded
// memory.
func TestEndlessInput(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := NewReader(zeros{}, "/dev/zero", resolve)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.HasPrefix(err.Error(), "/dev/zero:1: found a first line longer than") {
		t.Fatalf("error %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Fatalf("allocated %d bytes refusing an endless line", alloc)
	}
}

// TestRecorderFlushes checks that events reach the file within about 100 ms of a
// Flush, without Close, which is what a process killed with -9 relies on when its
// world has stopped (a paused dashboard).
func TestRecorderFlushes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRecorder(f, Header{Scenario: testScenario})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	evs := sample(3)
	for i := range evs {
		r.Record(&evs[i])
	}
	r.Flush()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(path)
		if tr, err := ReadBytes(data, path, resolve); err == nil && len(tr.Events) == 3 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("events were not flushed to the file")
}

func TestFold(t *testing.T) {
	st := NewState(Header{Info: Info{IDs: []node.ID{1, 2, 3}, GST: 0}})
	m := node.Message{Type: "ELECTION"}
	for _, e := range []Event{
		{Seq: 1, T: 10, Ev: Send, From: 1, To: 2, MID: 1, Msg: &m},
		{Seq: 2, T: 20, Ev: Crash, Node: 3},
		{Seq: 3, T: 30, Ev: Partition, Groups: [][]node.ID{{1}, {2, 3}}},
		{Seq: 4, T: 40, Ev: StatusEv, Node: 1, Status: &node.Status{Role: "leader", Leader: 1}},
		{Seq: 5, T: 50, Ev: Deliver, From: 1, To: 2, MID: 1, Msg: &m},
		{Seq: 6, T: 60, Ev: Alert, Kind: "split-brain", Text: "x"},
	} {
		st.Apply(&e)
	}
	s := st.Snapshot()
	if n3, _ := s.Node(3); n3.Up {
		t.Fatal("n3 should be down")
	}
	if n2, _ := s.Node(2); n2.Group != 2 {
		t.Fatalf("n2 group %d", n2.Group)
	}
	if ls := s.Leaders(); len(ls) != 1 || ls[0] != 1 {
		t.Fatalf("leaders %v", ls)
	}
	if s.InFlight != 0 || len(s.Types) != 1 || s.Types[0].Sent != 1 || s.Types[0].Delivered != 1 || len(s.Alerts) != 1 {
		t.Fatalf("snapshot %+v", s)
	}
	// A snapshot is a copy: folding more does not change it.
	st.Apply(&Event{Seq: 7, T: 70, Ev: Recover, Node: 3, Inc: 2})
	if n3, _ := s.Node(3); n3.Up {
		t.Fatal("snapshot changed after it was taken")
	}
}

// FuzzRead checks that no input makes the reader panic or hang.
func FuzzRead(f *testing.F) {
	data, _ := record(f, sample(3), EndQuit)
	f.Add(data)
	f.Add([]byte(`{"format":"clusterlab-trace","version":3,"scenario":{}}` + "\n" + `{"seq":1,"ev":"crash","node":"n1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzbound.Input()()
		rd, err := NewReader(bytes.NewReader(data), "f", resolve)
		if err != nil {
			return
		}
		st := NewState(rd.Header)
		for {
			var e Event
			if err := rd.Next(&e); err != nil {
				if err != io.EOF && !strings.HasPrefix(err.Error(), "f:") {
					t.Fatalf("error without a place: %v", err)
				}
				return
			}
			st.Apply(&e)
		}
	})
}

// TestHashersAgree: a hasher that hashes its batches in a goroutine and one that
// hashes them inline give the recording's hash, over enough lines for several
// batches.
func TestHashersAgree(t *testing.T) {
	evs := sample(5000)
	data, rec := record(t, evs, "")
	if len(data) < 3*hashBatch {
		t.Fatalf("%d bytes of lines: fewer than three batches", len(data))
	}
	header := strings.SplitN(string(data), "\n", 2)[0]
	for _, c := range []struct {
		name string
		h    *Hasher
	}{{"goroutine", NewHasher()}, {"inline", inlineHasher()}} {
		name, h := c.name, c.h
		h.Header([]byte(header))
		for i := range evs {
			h.Record(&evs[i])
		}
		if got := h.Sum(); got != rec.Hash() {
			t.Errorf("%s hasher: %s, recording %s", name, got, rec.Hash())
		}
	}
}

func inlineHasher() *Hasher {
	h := NewHasher()
	h.Inline()
	return h
}

// TestSkipSame reads a recording partly by lines and partly by spans skipped whole,
// with the hash in a goroutine and inline: the count, the line number and the hash
// (checked against the end record) are those of reading it all by lines. A span
// that differs anywhere, or that runs into the end record, is not skipped, and the
// reader goes on from where it was.
func TestSkipSame(t *testing.T) {
	evs := sample(3000)
	data, rec := record(t, evs, EndUntil)
	lines := strings.SplitAfter(string(data), "\n")
	events := lines[1 : len(lines)-2] // without the header, the end record and the "" after it
	for _, inline := range []bool{false, true} {
		r, err := NewReader(bytes.NewReader(data), "t.jsonl", resolve)
		if err != nil {
			t.Fatal(err)
		}
		if inline {
			r.HashInline()
		}
		next := 0
		for step := 1; next < len(events); step++ {
			if step%3 == 0 {
				if _, err := r.NextLine(); err != nil {
					t.Fatal(err)
				}
				next++
				continue
			}
			n := min(step*7, len(events)-next)
			span := []byte(strings.Join(events[next:next+n], ""))
			if n > 1 {
				changed := bytes.Clone(span)
				changed[len(changed)-3]++ // in the span's last line
				if r.SkipSame(changed, n) {
					t.Fatalf("skipped a span whose last line differs, at event %d", next+1)
				}
			}
			if !r.SkipSame(span, n) {
				t.Fatalf("did not skip the %d events from %d", n, next+1)
			}
			next += n
		}
		if r.SkipSame([]byte(lines[len(lines)-2]), 1) {
			t.Fatal("skipped the end record")
		}
		if _, err := r.NextLine(); err != io.EOF {
			t.Fatalf("after the last event: %v, expected the end (the end record checks the hash)", err)
		}
		if r.Count() != 3000 || r.Line() != 3002 || r.Hash() != rec.Hash() {
			t.Fatalf("inline %v: count %d, line %d, hash %s; expected 3000, 3002, %s", inline, r.Count(), r.Line(), r.Hash(), rec.Hash())
		}
	}
}

// TestRecorderFilled records events through Fill and Filled, as the world does,
// mixed with Record: the file is the one Record alone writes, and events filled
// after End are ignored, as recorded ones are.
func TestRecorderFilled(t *testing.T) {
	evs := sample(1500) // about three batches
	want, _ := record(t, evs, EndUntil)
	var buf bytes.Buffer
	r, err := NewRecorder(&buf, Header{Program: "test", Scenario: testScenario})
	if err != nil {
		t.Fatal(err)
	}
	fill := func(e *Event) {
		slot, m := r.Fill()
		*slot = *e
		if e.Msg != nil {
			*m = *e.Msg
			slot.Msg = m
		}
		r.Filled()
	}
	for i := range evs {
		if i%5 == 0 {
			r.Record(&evs[i])
		} else {
			fill(&evs[i])
		}
	}
	if err := r.End(EndUntil, evs[len(evs)-1].T); err != nil {
		t.Fatal(err)
	}
	fill(&evs[0])
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) || r.Count() != 1500 {
		t.Fatalf("filled recording: %d events, %d bytes; recorded: 1500 events, %d bytes", r.Count(), buf.Len(), len(want))
	}
}

// TestMultiFills: a Multi with a recorder among its sinks lends the recorder's room,
// and gives the filled events to the others: the recording is the one Record
// alone writes, and the other sink sees every event.
func TestMultiFills(t *testing.T) {
	evs := sample(1500)
	want, rec := record(t, evs, "")
	var buf bytes.Buffer
	r, err := NewRecorder(&buf, Header{Program: "test", Scenario: testScenario})
	if err != nil {
		t.Fatal(err)
	}
	h := NewHasher()
	f, ok := Multi(h, r).(Filler)
	if !ok {
		t.Fatal("a Multi with a recorder is not a Filler")
	}
	for i := range evs {
		if i%7 == 0 {
			f.Record(&evs[i])
			continue
		}
		e, m := f.Fill()
		*e = evs[i]
		*m = *evs[i].Msg
		e.Msg = m
		f.Filled()
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	check := NewHasher()
	for i := range evs {
		check.Record(&evs[i])
	}
	if !bytes.Equal(buf.Bytes(), want) || r.Hash() != rec.Hash() || h.Count() != 1500 || h.Sum() != check.Sum() {
		t.Fatalf("through a Multi: %d bytes recorded (%d alone), the other sink %d events, hash %s (%s)", buf.Len(), len(want), h.Count(), h.Sum(), check.Sum())
	}
}
