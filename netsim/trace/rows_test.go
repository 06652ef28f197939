package trace

import (
	"testing"

	"github.com/clusterlab/clusterlab/node"
)

// rowFolder applies events to a five-node election state, numbering them.
type rowFolder struct {
	st  *State
	seq uint64
}

func newRowFolder(family string) *rowFolder {
	return &rowFolder{st: NewState(Header{Info: Info{Family: family, IDs: []node.ID{1, 2, 3, 4, 5}}})}
}

func (f *rowFolder) apply(e Event) {
	f.seq++
	e.Seq = f.seq
	f.st.Apply(&e)
}

// all is the rows, as they are.
func all(l []Row) []Row { return l }

func (f *rowFolder) status(t int64, id node.ID, st node.Status) {
	f.apply(Event{T: t, Ev: StatusEv, Node: id, Status: &st})
}

// TestRowsKeepTheirPast: heartbeats do not count against the rows kept, so a minute
// of them leaves the election at the start in view; each list keeps its latest
// RowCap; and a snapshot's rows never change once taken (issue 23: the timeline
// went blank within seconds).
func TestRowsKeepTheirPast(t *testing.T) {
	f := newRowFolder("election")
	el, hb := node.Message{Type: "ELECTION"}, node.Message{Type: "HEARTBEAT"}
	f.apply(Event{T: 1000, Ev: Deliver, From: 1, To: 5, MID: 1, Msg: &el})
	first := f.st.Snapshot()
	firstRows := all(first.Rows)
	for i := range 60_000 { // a minute of heartbeats at a thousand a second
		f.apply(Event{T: 2000 + int64(i)*1000, Ev: Deliver, From: 5, To: node.ID(1 + i%4), MID: uint64(i + 2), Msg: &hb})
	}
	snap := f.st.Snapshot()
	rows, beats := all(snap.Rows), all(snap.Beats)
	if len(rows) != 1 || rows[0].Msg.Type != "ELECTION" || rows[0].T != 1000 {
		t.Fatalf("after a minute of heartbeats the rows are %+v, want the election alone", rows)
	}
	if len(beats) != RowCap || beats[RowCap-1].Seq != 60_001 || !beats[0].Beat {
		t.Fatalf("kept %d heartbeat rows ending with seq %d, want the latest %d", len(beats), beats[len(beats)-1].Seq, RowCap)
	}
	for i := range 3 * RowCap {
		f.apply(Event{T: 70_000_000 + int64(i), Ev: Deliver, From: 1, To: 2, MID: uint64(100_000 + i), Msg: &el})
	}
	rows2 := all(f.st.Snapshot().Rows)
	if len(rows2) != RowCap || rows2[0].Seq != 60_002+2*RowCap {
		t.Fatalf("kept %d rows from seq %d, want the latest %d", len(rows2), rows2[0].Seq, RowCap)
	}
	for i := range rows2 {
		if rows2[i].Seq != uint64(60_002+2*RowCap+i) {
			t.Fatalf("row %d is seq %d: the rows are not the latest in order", i, rows2[i].Seq)
		}
	}
	if got := all(snap.Rows); len(firstRows) != 1 || firstRows[0].Seq != 1 || len(got) != 1 || got[0].Seq != 1 {
		t.Fatal("a snapshot's rows changed after it was taken")
	}
}

// TestRowsAsTheyWere: each row carries the lanes of its own time (down, isolated,
// partition group), and the leader changes that status events make are rows with
// the status event's time.
func TestRowsAsTheyWere(t *testing.T) {
	f := newRowFolder("election")
	f.status(33_000, 5, node.Status{Leader: 5})
	f.apply(Event{T: 1_000_000, Ev: Crash, Node: 3})
	f.apply(Event{T: 2_000_000, Ev: Partition, Groups: [][]node.ID{{1, 2}, {3, 4, 5}}})
	f.apply(Event{T: 3_000_000, Ev: Recover, Node: 3, Inc: 2})
	f.status(3_366_000, 2, node.Status{Leader: 2})
	f.apply(Event{T: 4_000_000, Ev: Heal})
	f.apply(Event{T: 5_000_000, Ev: Crash, Node: 5})
	f.apply(Event{T: 5_000_000, Ev: Crash, Node: 2})
	rows := all(f.st.Snapshot().Rows)
	type want struct {
		kind  RowKind
		ev    string
		t     int64
		node  node.ID
		down3 bool
		g1    int
	}
	wants := []want{
		{RowLeader, StatusEv, 33_000, 5, false, 0},
		{RowEvent, Crash, 1_000_000, 3, true, 0},
		{RowEvent, Partition, 2_000_000, 0, true, 1},
		{RowEvent, Recover, 3_000_000, 3, false, 1},
		{RowLeader, StatusEv, 3_366_000, 2, false, 1},
		{RowEvent, Heal, 4_000_000, 0, false, 0},
		{RowEvent, Crash, 5_000_000, 5, false, 0},
		{RowEvent, Crash, 5_000_000, 2, false, 0},
		{RowNoLeader, Crash, 5_000_000, 0, false, 0},
	}
	if len(rows) != len(wants) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(wants), rows)
	}
	for i, w := range wants {
		r := rows[i]
		if r.Kind != w.kind || r.Ev != w.ev || r.T != w.t || r.Node != w.node || r.Lanes[2].Down != w.down3 || r.Lanes[0].Group != w.g1 {
			t.Errorf("row %d: kind %d %s t=%d %v, n3 down %v, n1 in group %d; want %+v", i, r.Kind, r.Ev, r.T, r.Node, r.Lanes[2].Down, r.Lanes[0].Group, w)
		}
	}
	if !rows[7].Lanes[1].Down || rows[6].Lanes[1].Down {
		t.Error("the rows of two crashes at one instant do not each show their own lanes")
	}
}

// TestRowsCriticalSections: in mutual exclusion, entering and leaving the critical
// section are rows, and a crash inside it leaves it; a clone goes on apart.
func TestRowsCriticalSections(t *testing.T) {
	f := newRowFolder("mutex")
	f.status(1_000_000, 2, node.Status{CS: node.CSWanted})
	f.status(1_010_000, 2, node.Status{CS: node.CSHeld})
	c := f.st.Clone()
	f.status(1_081_000, 2, node.Status{})
	f.status(1_085_000, 4, node.Status{CS: node.CSHeld})
	f.apply(Event{T: 1_090_000, Ev: Crash, Node: 4})
	rows := all(f.st.Snapshot().Rows)
	var got []RowKind
	for _, r := range rows {
		got = append(got, r.Kind)
	}
	want := []RowKind{RowCSEnter, RowCSLeave, RowCSEnter, RowEvent, RowCSLeave}
	if len(got) != len(want) {
		t.Fatalf("row kinds %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row kinds %v, want %v", got, want)
		}
	}
	if rows[1].T != 1_081_000 || rows[1].Node != 2 {
		t.Errorf("n2 left at %d (%v), want 1.081 s", rows[1].T, rows[1].Node)
	}
	c.Apply(&Event{Seq: 99, T: 2_000_000, Ev: StatusEv, Node: 3, Status: &node.Status{CS: node.CSHeld}})
	if cs := all(c.Snapshot().Rows); len(cs) != 2 || cs[1].Node != 3 || len(f.st.Snapshot().Rows) != 5 || all(f.st.Snapshot().Rows)[2].Node != 4 {
		t.Errorf("a clone's rows and the original's mix: clone %+v", cs)
	}
}

// TestRowsClone: a clone's rows go on apart from the original's, and neither's
// snapshots change after they are taken.
func TestRowsClone(t *testing.T) {
	f := newRowFolder("election")
	el := node.Message{Type: "ELECTION"}
	for i := range RowCap + 10 {
		f.apply(Event{T: int64(i), Ev: Deliver, From: 1, To: 2, Msg: &el})
	}
	before := f.st.Snapshot()
	c := f.st.Clone()
	c.Apply(&Event{Seq: 1 << 40, T: 1 << 40, Ev: Crash, Node: 3})
	f.apply(Event{T: 1 << 30, Ev: Heal})
	cr, or := c.Snapshot().Rows, f.st.Snapshot().Rows
	if len(cr) != RowCap || cr[RowCap-1].Ev != Crash || or[RowCap-1].Ev != Heal || cr[RowCap-2].Seq != or[RowCap-2].Seq {
		t.Fatalf("clone ends %s, original %s", cr[RowCap-1].Ev, or[RowCap-1].Ev)
	}
	if b := before.Rows; len(b) != RowCap || b[RowCap-1].Seq != uint64(RowCap+10) || b[0].Seq != 11 {
		t.Fatalf("a snapshot changed: %d rows from %d to %d", len(b), b[0].Seq, b[len(b)-1].Seq)
	}
}

// BenchmarkFoldDelivery folds heartbeat deliveries into a five-node state: the
// cost the timeline's rows add to every delivery a live run or a replay folds
// (~160 ns a delivery without the rows, measured on the commit before them).
func BenchmarkFoldDelivery(b *testing.B) {
	f := newRowFolder("election")
	hb := node.Message{Type: "HEARTBEAT"}
	b.ReportAllocs()
	for b.Loop() {
		f.apply(Event{T: int64(f.seq), Ev: Deliver, From: 5, To: 1, MID: f.seq, Msg: &hb})
	}
}
