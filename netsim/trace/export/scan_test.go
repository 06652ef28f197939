package export

import (
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"pgregory.net/rapid"
)

// TestMidMapIsAMap: a midMap answers as a map does, whatever the order of puts
// and deletes, for ids near each other and far apart.
func TestMidMapIsAMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var m midMap[int]
		want := map[uint64]int{}
		next := uint64(1)
		for i := range rapid.IntRange(0, 300).Draw(t, "ops") {
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0, 1: // a new id, usually the next
				mid := next
				if rapid.IntRange(0, 20).Draw(t, "far") == 0 {
					mid = rapid.Uint64().Draw(t, "mid")
				} else {
					next++
				}
				m.put(mid, i)
				want[mid] = i
			case 2: // an end
				for mid := range want {
					m.del(mid)
					delete(want, mid)
					break
				}
			case 3:
				mid := rapid.Uint64Range(0, next+2).Draw(t, "look")
				v, ok := m.get(mid)
				w, wok := want[mid]
				if ok != wok || v != w {
					t.Fatalf("get(%d) = %d, %v; want %d, %v", mid, v, ok, w, wok)
				}
			}
			if m.size() != len(want) {
				t.Fatalf("size %d, want %d", m.size(), len(want))
			}
		}
		seen := 0
		m.each(func(mid uint64, v int) {
			seen++
			if want[mid] != v {
				t.Fatalf("each gave %d=%d, want %d", mid, v, want[mid])
			}
		})
		if seen != len(want) {
			t.Fatalf("each gave %d ids, want %d", seen, len(want))
		}
	})
}

// TestPeekLikeDecode: a first reading's peek of a line is what decoding the line
// says, for the recorder's lines and for lines written otherwise.
func TestPeekLikeDecode(t *testing.T) {
	msg := &node.Message{Type: "A\"B", ID: 3, List: "1,2"}
	evs := []trace.Event{
		{Seq: 1, T: 5, Ev: trace.Send, From: 1, To: 2, MID: 7, Msg: msg},
		{Seq: 2, T: 6, Ev: trace.Drop, From: 1, To: 2, MID: 7, Msg: msg, Dup: true, Reason: "down"},
		{Seq: 3, T: 6, Ev: trace.Deliver, From: 2, To: 2, MID: 9, Msg: msg, Local: true},
		{Seq: 4, T: 7, Ev: trace.StatusEv, Node: 3, Status: &node.Status{Leader: 3}},
		{Seq: 5, T: 8, Ev: trace.AlertCleared, Ref: 2, Text: "x"},
		{Seq: 6, T: 9, Ev: trace.Cut, From: 4, To: 1},
	}
	for _, e := range evs {
		var got, want peek
		var scratch trace.Event
		line := trace.AppendLine(nil, &e)
		if !peekLine(line[:len(line)-1], &got, &scratch) {
			t.Fatalf("%s: not read", line)
		}
		peekOf(&e, &want)
		if got != want {
			t.Errorf("%s: peek %+v, want %+v", line, got, want)
		}
	}
	// A line in another order is decoded whole.
	var p peek
	var scratch trace.Event
	if !peekLine([]byte(`{"t":3,"seq":1,"ev":"send","msg":{"type":"X"},"mid":4,"to":"n2","from":"n1"}`), &p, &scratch) || p.mid != 4 || p.from != 1 || p.to != 2 || p.t != 3 {
		t.Errorf("a line in another order: peek %+v", p)
	}
	if peekLine([]byte(`not json`), &p, &scratch) {
		t.Error("a line that is not JSON was read")
	}
}

// TestSeconds: virtual times as exact decimal seconds.
func TestSeconds(t *testing.T) {
	for us, want := range map[int64]string{0: "0", 1: "0.000001", 3155817: "3.155817", 100_000_000: "100", -1_500_000: "-1.5", 2_000_010: "2.00001"} {
		if got := seconds(us); got != want {
			t.Errorf("seconds(%d) = %q, want %q", us, got, want)
		}
	}
}
