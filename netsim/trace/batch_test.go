package trace

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/node"
)

// TestBatchCopiesWhatTheWorldReuses records events the way the world makes them:
// one Event, one Message, one Status with its Suspects and Counters, all written
// over for every event. A batch's lines must be those of the events as they were
// when added, through several batches on the same reused arrays (Reset) and past
// the arrays' first room (so that earlier copies point into arrays that were grown).
func TestBatchCopiesWhatTheWorldReuses(t *testing.T) {
	var (
		e    Event
		m    node.Message
		s    node.Status
		ok   bool
		want []byte
		got  []byte
		wenc Encoder
		genc Encoder
	)
	suspects := make([]node.ID, 0, 64)
	counters := make([]node.Counter, 0, 8)
	groups := [][]node.ID{{1, 2}, {3}}
	b := NewBatch()
	for i := 1; i <= 3*BatchEvents+7; i++ {
		e = Event{Seq: uint64(i), T: int64(i / 3)}
		switch i % 5 {
		case 0:
			m = node.Message{Type: "PING", ID: node.ID(i % 7), Term: int64(i), List: node.IDList("")}
			e.Ev, e.From, e.To, e.MID, e.Msg = Send, 1, 2, uint64(i), &m
		case 1:
			suspects = suspects[:0]
			for k := 0; k < i%40; k++ { // sometimes more ids than the batch had room for
				suspects = append(suspects, node.ID(k+1))
			}
			counters = append(counters[:0], node.Counter{Name: "queue", Value: int64(i)})
			s = node.Status{Role: "leader", Leader: node.ID(i % 9), Suspects: suspects, Counters: counters, CS: node.CSWanted}
			e.Ev, e.Node, e.Status = StatusEv, 3, &s
		case 2:
			groups[1][0] = node.ID(i)
			e.Ev, e.Groups = Partition, groups
		case 3:
			ok = i%2 == 0
			e.Ev, e.Text, e.OK = Expect, "leader n3", &ok
		default:
			e.Ev, e.Node, e.Name = TimerEv, 2, "fd.check"
		}
		want = wenc.Append(want, &e)
		b.Add(&e)
		if b.Full() || i == 3*BatchEvents+7 {
			// The world has written over e, m, s and the slices since: the batch
			// must not see it.
			got = b.Encode(&genc, got)
			b.Reset()
		}
		// Write over everything the event pointed to, as the world's next event does.
		m, s, ok = node.Message{Type: "OTHER"}, node.Status{Role: "other"}, !ok
		for k := range suspects {
			suspects[k] = 99
		}
		for k := range counters {
			counters[k] = node.Counter{Name: "x", Value: -1}
		}
		groups[0][0] = 42
	}
	if !bytes.Equal(got, want) {
		a, b := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range min(len(a), len(b)) {
			if !bytes.Equal(a[i], b[i]) {
				t.Fatalf("line %d:\n got %s\nwant %s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(a), len(b))
	}
	if b.Len() != 0 {
		t.Fatalf("Len %d after Reset", b.Len())
	}
}

// TestBatchMatchesAppendLine adds random events, every field and escape included, to
// batches emptied at random points, writes over everything each event pointed to
// once it is added, and holds the batches' lines to the events' lines as they were.
func TestBatchMatchesAppendLine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := NewBatch()
		var enc Encoder
		var got, want []byte
		for i := rapid.IntRange(1, 40).Draw(t, "n"); i > 0; i-- {
			e := genEvent(t)
			want = AppendLine(want, e)
			b.Add(e)
			scribble(e)
			if rapid.IntRange(0, 4).Draw(t, "reset") == 0 {
				got = b.Encode(&enc, got)
				b.Reset()
			}
		}
		got = b.Encode(&enc, got)
		if !bytes.Equal(got, want) {
			t.Fatalf("batch\n%s\nAppendLine\n%s", got, want)
		}
	})
}

// scribble writes over what e points to, as the world's next event does.
func scribble(e *Event) {
	if e.Msg != nil {
		*e.Msg = node.Message{Type: "scribbled", ID: 77}
	}
	if e.Status != nil {
		for i := range e.Status.Suspects {
			e.Status.Suspects[i] = 77
		}
		for i := range e.Status.Counters {
			e.Status.Counters[i] = node.Counter{Name: "scribbled"}
		}
		*e.Status = node.Status{Role: "scribbled"}
	}
	for _, g := range e.Groups {
		for i := range g {
			g[i] = 77
		}
	}
	if e.OK != nil {
		*e.OK = !*e.OK
	}
}
