package trace

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/internal/cputime"
	"github.com/clusterlab/clusterlab/internal/fuzzbound"
	"github.com/clusterlab/clusterlab/node"
)

// marshalLine is the reference AppendLine is held to.
func marshalLine(t interface{ Fatal(...any) }, e *Event) []byte {
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func genID(t *rapid.T, label string) node.ID {
	return node.ID(rapid.IntRange(-2, 5000).Draw(t, label))
}

func genIDs(t *rapid.T, label string) []node.ID {
	if rapid.IntRange(0, 5).Draw(t, label+"-nil") == 0 {
		return nil
	}
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) node.ID { return genID(t, "id") }), 0, 4).Draw(t, label)
}

// genString draws strings with what JSON must escape: quotes, controls, HTML,
// invalid UTF-8, U+2028.
func genString(t *rapid.T, label string) string {
	alpha := rapid.SampledFrom([]string{"", "a", "PING", `"`, `\`, "<", ">", "&", "\n", "\t", "\b", "\f", "\r", "\x00", "\x1f", "\x7f",
		"é", "\u2028", "\u2029", "\xff", "\xe2\x80", "💥", " ", "n1"})
	parts := rapid.SliceOfN(alpha, 0, 6).Draw(t, label)
	var b bytes.Buffer
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}

func genEvent(t *rapid.T) *Event {
	e := &Event{
		Seq: rapid.Uint64().Draw(t, "seq"), T: rapid.Int64().Draw(t, "t"), Ev: genString(t, "ev"),
		Node: genID(t, "node"), From: genID(t, "from"), To: genID(t, "to"), MID: rapid.Uint64Range(0, 3).Draw(t, "mid"),
		Dup: rapid.Bool().Draw(t, "dup"), Local: rapid.Bool().Draw(t, "local"),
		Reason: genString(t, "reason"), Name: genString(t, "name"), Value: genString(t, "value"),
		Inc: rapid.Int64Range(-2, 3).Draw(t, "inc"), Kind: genString(t, "kind"), Text: genString(t, "text"),
		By: genString(t, "by"), Before: rapid.Uint64Range(0, 3).Draw(t, "before"), Ref: rapid.Uint64Range(0, 3).Draw(t, "ref"),
	}
	if rapid.Bool().Draw(t, "has-msg") {
		e.Msg = &node.Message{Type: genString(t, "type"), ID: genID(t, "mid-id"), Term: rapid.Int64Range(-1, 2).Draw(t, "term"),
			Stamp: rapid.Int64Range(-1, 2).Draw(t, "ts"), Flag: rapid.Bool().Draw(t, "flag"),
			List: node.IDList(rapid.SampledFrom([]string{"", "1", "1,2,30", "x", "3,,4"}).Draw(t, "list"))}
	}
	if rapid.Bool().Draw(t, "has-groups") {
		e.Groups = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) []node.ID { return genIDs(t, "group") }), 0, 3).Draw(t, "groups")
	}
	if rapid.Bool().Draw(t, "has-status") {
		s := &node.Status{Role: genString(t, "role"), Leader: genID(t, "leader"), Suspects: genIDs(t, "suspects"),
			Term: rapid.Int64Range(-1, 2).Draw(t, "sterm"), Inc: rapid.Int64Range(-1, 2).Draw(t, "sinc"),
			CS: node.CSState(rapid.IntRange(0, 5).Draw(t, "cs"))}
		for i := rapid.IntRange(-1, 2).Draw(t, "counters"); i >= 0; i-- {
			s.Counters = append(s.Counters, node.Counter{Name: genString(t, "cname"), Value: rapid.Int64().Draw(t, "cvalue")})
		}
		e.Status = s
	}
	if rapid.Bool().Draw(t, "has-ok") {
		ok := rapid.Bool().Draw(t, "ok")
		e.OK = &ok
	}
	return e
}

// TestEncoderMatchesJSON holds the hand-written encoder to encoding/json's bytes on
// random events, every field and every escape included.
func TestEncoderMatchesJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := genEvent(t)
		if got, want := AppendLine(nil, e), marshalLine(t, e); !bytes.Equal(got, want) {
			t.Fatalf("hand-written %s\nencoding/json %s", got, want)
		}
	})
}

// TestStreamEncoderMatches holds Encoder to AppendLine on streams of events whose
// seq, t and message id mostly follow on (one more, the same, one more) and
// sometimes jump, across every change of length and sign and the ends of the
// ranges, and whose message types mostly repeat.
func TestStreamEncoderMatches(t *testing.T) {
	edges := []uint64{0, 1, 8, 9, 10, 98, 99, 100, 999, 9999, 99999, 1e18 - 1, 1e19 - 1, 1e19, math.MaxUint64 - 1, math.MaxUint64}
	rapid.Check(t, func(t *rapid.T) {
		var c Encoder
		var got, want []byte
		seq, tm := rapid.SampledFrom(edges).Draw(t, "seq0"), int64(rapid.SampledFrom(edges).Draw(t, "t0"))
		mid := rapid.SampledFrom(edges).Draw(t, "mid0")
		types := []string{"HEARTBEAT", "ELECTION", `a"b`, ""}
		for i := rapid.IntRange(1, 30).Draw(t, "n"); i > 0; i-- {
			e := genEvent(t)
			// Message ids that mostly follow on, as a broadcast's, and types that
			// mostly repeat.
			switch rapid.IntRange(0, 4).Draw(t, "mid-step") {
			case 0:
				mid = rapid.SampledFrom(edges).Draw(t, "mid")
			case 1:
				mid = 0
			default:
				mid++
			}
			e.MID = mid
			if e.Msg != nil && rapid.Bool().Draw(t, "usual-type") {
				e.Msg.Type = rapid.SampledFrom(types).Draw(t, "type")
			}
			if rapid.Bool().Draw(t, "no-node") {
				e.Node = node.None
			}
			if rapid.IntRange(0, 2).Draw(t, "message-like") > 0 {
				// As a run's message events are: what Encoder writes by words.
				e.Ev = rapid.SampledFrom([]string{Send, Deliver, Drop}).Draw(t, "kind")
				e.Node, e.Name, e.Value, e.Inc, e.Groups, e.Status, e.Kind, e.Text, e.By, e.Before, e.OK, e.Ref = 0, "", "", 0, nil, nil, "", "", "", 0, nil, 0
				e.From = node.ID(rapid.SampledFrom([]int{1, 9, 10, 99, 100, 4096, 1 << 40}).Draw(t, "from"))
				e.To = node.ID(rapid.SampledFrom([]int{1, 9, 10, 99, 100, 4096, 1 << 40}).Draw(t, "to"))
				if e.Msg == nil {
					e.Msg = &node.Message{Type: "HEARTBEAT"}
				}
				if rapid.Bool().Draw(t, "no-list") {
					e.Msg.List = ""
				}
				if rapid.Bool().Draw(t, "no-reason") {
					e.Reason = ""
				}
			}
			switch rapid.IntRange(0, 5).Draw(t, "seq-step") {
			case 0:
				seq = rapid.SampledFrom(edges).Draw(t, "seq")
			case 1:
				seq = rapid.Uint64().Draw(t, "seq")
			default:
				seq++
			}
			switch rapid.IntRange(0, 4).Draw(t, "t-step") {
			case 0:
				tm = int64(rapid.SampledFrom(edges).Draw(t, "t"))
			case 1:
				tm = rapid.Int64().Draw(t, "t")
			case 2:
				tm++
			}
			e.Seq, e.T = seq, tm
			got, want = c.Append(got, e), AppendLine(want, e)
			if !bytes.Equal(got, want) {
				t.Fatalf("stream encoder %s\nAppendLine     %s", got, want)
			}
		}
	})
}

// FuzzEncoder holds the encoder to encoding/json on arbitrary strings.
func FuzzEncoder(f *testing.F) {
	f.Add("PING", "a<b>&\"c\\", uint64(1), int64(2))
	f.Fuzz(func(t *testing.T, typ, text string, seq uint64, tm int64) {
		defer fuzzbound.Input()()
		e := &Event{Seq: seq, T: tm, Ev: text, Msg: &node.Message{Type: typ}, Text: text, Status: &node.Status{Role: typ}}
		if got, want := AppendLine(nil, e), marshalLine(t, e); !bytes.Equal(got, want) {
			t.Fatalf("hand-written %s\nencoding/json %s", got, want)
		}
	})
}

func BenchmarkAppendLine(b *testing.B) {
	m := node.Message{Type: "HEARTBEAT", Stamp: 3}
	e := &Event{Seq: 123456, T: 987654321, Ev: Deliver, From: 3, To: 7, MID: 4242, Msg: &m}
	var buf []byte
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			buf = AppendLine(buf[:0], e)
		}
	})
	// A recording's usual line: a send in a 16-process heartbeat run.
	send := &Event{Seq: 41234, T: 8123456, Ev: Send, From: 12, To: 5, MID: 20345, Msg: &node.Message{Type: "HEARTBEAT", Stamp: 812}}
	b.Run("send", func(b *testing.B) {
		for b.Loop() {
			buf = AppendLine(buf[:0], send)
		}
	})
	b.Run("stream", func(b *testing.B) {
		// What a recording does: seq one more each line, t the same every other line.
		var c Encoder
		for b.Loop() {
			send.Seq++
			send.T += int64(send.Seq & 1)
			buf = c.Append(buf[:0], send)
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			buf = append(buf[:0], marshalLine(b, e)...)
		}
	})
}

// TestAppendUintEdges checks the numbers at every change of length, where counting
// digits could be off by one, against strconv.
func TestAppendUintEdges(t *testing.T) {
	vals := []uint64{0, math.MaxUint64, math.MaxUint64 - 1, 1 << 63}
	for p := uint64(1); ; p *= 10 {
		vals = append(vals, p-1, p, p+1)
		if p > math.MaxUint64/10 {
			break
		}
	}
	for _, v := range vals {
		if got, want := string(appendUint([]byte("x"), v)), "x"+strconv.FormatUint(v, 10); got != want {
			t.Errorf("appendUint(%d) = %s, expected %s", v, got, want)
		}
		if v <= math.MaxInt64 {
			for _, s := range []int64{int64(v), -int64(v)} {
				if got, want := string(appendInt(nil, s)), strconv.FormatInt(s, 10); got != want {
					t.Errorf("appendInt(%d) = %s, expected %s", s, got, want)
				}
			}
		}
	}
	if got, want := string(appendInt(nil, math.MinInt64)), strconv.FormatInt(math.MinInt64, 10); got != want {
		t.Errorf("appendInt(MinInt64) = %s, expected %s", got, want)
	}
	// Every number below 10^5, and then a stride through the eight-digit range,
	// each appended at the end of a full slice and of one with room.
	var buf []byte
	for v := uint64(0); v < 1e8; v += max(1, v/1e5*997) {
		want := strconv.AppendUint(nil, v, 10)
		if got := appendUint(nil, v); string(got) != string(want) {
			t.Fatalf("appendUint(%d) = %s, expected %s", v, got, want)
		}
		if buf = appendUint(append(buf[:0], 'x'), v); string(buf[1:]) != string(want) {
			t.Fatalf("appendUint(%d) = %s, expected %s", v, buf[1:], want)
		}
	}
}

// heartbeatEvents is a stream of events like a 16-node heartbeat detector's
// recording: each node's heartbeat timer and its broadcast (message ids one after
// the other), the deliveries later in another order, now and then a check timer
// and a status change.
func heartbeatEvents(n int) []Event {
	const nodes = 16
	var evs []Event
	seq, mid := uint64(0), uint64(0)
	add := func(e Event) {
		seq++
		e.Seq = seq
		evs = append(evs, e)
	}
	for wave := int64(0); len(evs) < n; wave++ {
		t := 100_000 * (wave + 1)
		first := mid + 1
		for from := node.ID(1); from <= nodes; from++ {
			add(Event{T: t, Ev: TimerEv, Node: from, Name: "fd.heartbeat"})
			for to := node.ID(1); to <= nodes; to++ {
				if to != from {
					mid++
					add(Event{T: t, Ev: Send, From: from, To: to, MID: mid, Msg: &node.Message{Type: "HEARTBEAT", Stamp: wave + 1}})
				}
			}
		}
		for k := uint64(0); first+k <= mid; k++ {
			m := first + (k*7919)%(mid-first+1) // another order
			from := node.ID((m-first)/(nodes-1) + 1)
			to := node.ID((m-first)%(nodes-1) + 1)
			if to >= from {
				to++
			}
			add(Event{T: t + 5000 + int64(k)*60, Ev: Deliver, From: from, To: to, MID: m, Msg: &node.Message{Type: "HEARTBEAT", Stamp: wave + 1}})
			if k%97 == 0 {
				add(Event{T: t + 5000 + int64(k)*60, Ev: TimerEv, Node: to, Name: "fd.check"})
				add(Event{T: t + 5000 + int64(k)*60, Ev: StatusEv, Node: to, Status: &node.Status{Role: "monitor", Suspects: []node.ID{from}, Counters: []node.Counter{{Name: "mistakes", Value: wave}}}})
			}
		}
	}
	return evs[:n]
}

// BenchmarkEncode encodes a recording's stream of events (see heartbeatEvents),
// as the recorder does, and reports the time per event: wall (ns/event) and the
// process's CPU time (cpu-ns/event; the loop allocates nothing, so no collector
// runs beside it), which a machine busy with other work disturbs less.
func BenchmarkEncode(b *testing.B) {
	evs := heartbeatEvents(1 << 16)
	var buf []byte
	bytes := 0
	cpu := cputime.Process()
	for b.Loop() {
		var c Encoder
		buf = buf[:0]
		for i := range evs {
			buf = c.Append(buf, &evs[i])
			if len(buf) > 1<<20 {
				bytes += len(buf)
				buf = buf[:0]
			}
		}
		bytes += len(buf)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
	b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(b.N*len(evs)), "cpu-ns/event")
	b.ReportMetric(float64(bytes)/float64(b.N*len(evs)), "B/event")
}
