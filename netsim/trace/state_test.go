package trace

import (
	"fmt"
	"testing"

	"github.com/clusterlab/clusterlab/node"
)

// TestStateBounded folds a long hostile session: far more alerts, markers and
// seconds of traffic than a State keeps. It keeps the latest, counts the rest, and
// its snapshot stops growing.
func TestStateBounded(t *testing.T) {
	st := NewState(Header{Info: Info{IDs: []node.ID{1, 2}}})
	seq := uint64(0)
	apply := func(e Event) uint64 {
		seq++
		e.Seq = seq
		st.Apply(&e)
		return seq
	}
	msg := node.Message{Type: "PING"}
	kinds := []string{"split-brain", "no-leader", "false-suspicion"}
	for i := range 5000 {
		at := int64(i) * 1_000_000
		apply(Event{T: at, Ev: Send, From: 1, To: 2, MID: uint64(i), Msg: &msg})
		apply(Event{T: at, Ev: Deliver, From: 1, To: 2, MID: uint64(i), Msg: &msg})
		apply(Event{T: at, Ev: Alert, Kind: kinds[i%3], Text: fmt.Sprint("alert ", i)})
		apply(Event{T: at, Ev: Marker, Text: fmt.Sprint("marker ", i)})
	}
	s := st.Snapshot()
	if len(s.Alerts) != AlertCap || len(s.Open) != AlertCap || len(s.Markers) != AlertCap {
		t.Fatalf("kept %d alerts, %d open, %d markers; want %d of each", len(s.Alerts), len(s.Open), len(s.Markers), AlertCap)
	}
	if s.AlertCount != 5000 || s.AlertKinds["split-brain"] != 1667 || s.AlertKinds["false-suspicion"] != 1666 {
		t.Fatalf("counted %d alerts, by kind %v", s.AlertCount, s.AlertKinds)
	}
	if last := s.Alerts[AlertCap-1].Text; last != "alert 4999" {
		t.Fatalf("the latest alert kept is %q", last)
	}
	if len(s.Rate) != RateCap || s.RateFrom != 5000-RateCap || s.Rate[RateCap-1] != 1 {
		t.Fatalf("rate: %d buckets from second %d, last %v", len(s.Rate), s.RateFrom, s.Rate[len(s.Rate)-1])
	}
}

// TestStateAlertLifecycle opens two alerts and clears one by its Seq: it leaves the
// open list, keeps its interval among the latest, and is the last cleared.
func TestStateAlertLifecycle(t *testing.T) {
	st := NewState(Header{Info: Info{IDs: []node.ID{1, 2}}})
	st.Apply(&Event{Seq: 1, T: 1_000_000, Ev: Alert, Kind: "split-brain", Text: "2 lead"})
	st.Apply(&Event{Seq: 2, T: 2_000_000, Ev: Alert, Kind: "no-leader", Text: "none"})
	st.Apply(&Event{Seq: 3, T: 5_610_000, Ev: AlertCleared, Kind: "split-brain", Ref: 1, Text: "one leader n2"})
	st.Apply(&Event{Seq: 4, T: 6_000_000, Ev: AlertCleared, Ref: 99}) // unknown: ignored
	s := st.Snapshot()
	if len(s.Open) != 1 || s.Open[0].Kind != "no-leader" || !s.Open[0].Open() {
		t.Fatalf("open: %+v", s.Open)
	}
	if a := s.Alerts[0]; a.Open() || a.Cleared != 5_610_000 || a.How != "one leader n2" {
		t.Fatalf("the cleared alert in the list: %+v", a)
	}
	if c := s.LastCleared; c.Seq != 1 || c.Cleared-c.T != 4_610_000 {
		t.Fatalf("last cleared: %+v", c)
	}
	// snapshots are copies: a later clear does not change an earlier snapshot
	st.Apply(&Event{Seq: 5, T: 7_000_000, Ev: AlertCleared, Ref: 2})
	if !s.Open[0].Open() || len(s.Open) != 1 || len(st.Snapshot().Open) != 0 {
		t.Fatal("a snapshot changed after it was taken")
	}
}

// TestStateRecentOwned checks that the recent events of a snapshot and of a clone
// keep their messages when the state folds on: the ring's messages are written
// over in place.
func TestStateRecentOwned(t *testing.T) {
	st := NewState(Header{Info: Info{IDs: []node.ID{1, 2}}})
	send := func(i int) {
		st.Apply(&Event{Seq: uint64(i + 1), Ev: Send, From: 1, To: 2, MID: uint64(i + 1), Msg: &node.Message{Type: "PING", Stamp: int64(i)}})
	}
	check := func(what string, evs []Event, from int) {
		t.Helper()
		for k, e := range evs {
			if e.Msg == nil || e.Msg.Stamp != int64(from+k) {
				t.Fatalf("%s: recent event %d has message %+v, want stamp %d", what, k, e.Msg, from+k)
			}
		}
	}
	for i := range 100 {
		send(i)
	}
	early, clone := st.Snapshot(), st.Clone()
	for i := 100; i < 100+2*RecentCap; i++ {
		send(i)
	}
	check("a snapshot, then more events", early.Recent, 0)
	check("a clone, then more events", clone.Snapshot().Recent, 0)
	for i := 100; i < 100+RecentCap+7; i++ {
		clone.Apply(&Event{Seq: uint64(i + 1), Ev: Send, From: 1, To: 2, MID: uint64(i + 1), Msg: &node.Message{Type: "PING", Stamp: int64(-i)}})
	}
	check("the state, its clone folded on", st.Snapshot().Recent, 100+RecentCap)
}
