package trace

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

func record(t *testing.T, evs []Event) []byte {
	var buf bytes.Buffer
	r, err := NewRecorder(&buf, Header{Seed: 7, Info: Info{Name: "t", IDs: []node.ID{1, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		r.Record(&evs[i])
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTripAndHash(t *testing.T) {
	evs := sample(50)
	data := record(t, evs)
	tr, err := ReadBytes(data, "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 50 || tr.Truncated || tr.Header.Seed != 7 || tr.Header.Format != Format {
		t.Fatalf("read %d events, truncated %v, header %+v", len(tr.Events), tr.Truncated, tr.Header)
	}
	h := NewHasher()
	for i := range evs {
		h.Record(&evs[i])
	}
	if h.Sum() != tr.Hash {
		t.Fatalf("hash of written events %s, of read lines %s", h.Sum(), tr.Hash)
	}
	if strings.Contains(strings.SplitN(string(data), "\n", 2)[0], "time") {
		t.Fatal("the header mentions a time")
	}
}

// TestTruncatedTail cuts a trace mid-line, as a killed recorder leaves it.
func TestTruncatedTail(t *testing.T) {
	data := record(t, sample(20))
	cut := data[:len(data)-10]
	tr, err := ReadBytes(cut, "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Truncated || len(tr.Events) != 19 {
		t.Fatalf("truncated=%v with %d events, want true with 19", tr.Truncated, len(tr.Events))
	}
	// A bad line that is not the last is an error naming it.
	lines := strings.Split(string(data), "\n")
	lines[5] = `{"seq": oops}`
	_, err = ReadBytes([]byte(strings.Join(lines, "\n")), "t.jsonl")
	if err == nil || !strings.HasPrefix(err.Error(), "t.jsonl:6: bad event line") {
		t.Fatalf("error %v, want t.jsonl:6: bad event line", err)
	}
}

func TestNotATrace(t *testing.T) {
	for _, in := range []string{"", "hello\n", `{"format":"other"}` + "\n", `{"format":"clusterlab-trace","version":9}` + "\n"} {
		if _, err := ReadBytes([]byte(in), "x.jsonl"); err == nil || !strings.HasPrefix(err.Error(), "x.jsonl:1: ") {
			t.Errorf("%q: error %v", in, err)
		}
	}
}

// TestRecorderFlushes checks that events reach the file within about 100 ms without
// Close, which is what a process killed with -9 relies on.
func TestRecorderFlushes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRecorder(f, Header{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	evs := sample(3)
	for i := range evs {
		r.Record(&evs[i])
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(path)
		if tr, err := ReadBytes(data, path); err == nil && len(tr.Events) == 3 {
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
	var buf bytes.Buffer
	r, _ := NewRecorder(&buf, Header{Info: Info{IDs: []node.ID{1}}})
	evs := sample(3)
	for i := range evs {
		r.Record(&evs[i])
	}
	r.Close()
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"clusterlab-trace","version":1}` + "\n" + `{"seq":1,"ev":"crash","node":"n1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := NewReader(bytes.NewReader(data), "f")
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
