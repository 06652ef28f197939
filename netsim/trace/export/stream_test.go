package export

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/internal/race"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// meshSource is a heartbeat mesh made up as it is read, never held: every 100 ms
// each of n nodes sends a HEARTBEAT to every other, delivered 5 to 20 ms later;
// rounds of them. It notes the live heap every sample events (after a collection),
// so that a test sees what an export holds while it reads.
type meshSource struct {
	h              trace.Header
	n, rounds      int
	sample         int
	maxHeap        uint64
	events, passes int
	alerts         bool // each round also an alert and its clearing per pair
	delay          int  // rounds a message waits before its delivery (then 5 to 20 ms more)
}

func newMeshSource(n, rounds int) *meshSource {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	return &meshSource{h: trace.Header{Format: trace.Format, Version: trace.Version, Program: "test",
		Info: trace.Info{Name: "mesh", Algorithm: "heartbeat-dp", Family: "detector", IDs: ids, Topology: "mesh",
			Latency: "uniform 5ms 20ms", Until: int64(rounds) * 100_000}}, n: n, rounds: rounds, sample: 40_000}
}

func (s *meshSource) Header() *trace.Header { return &s.h }
func (s *meshSource) Open() (Stream, error) {
	s.passes++
	return &meshStream{s: s}, nil
}

type meshStream struct {
	s     *meshSource
	round int
	buf   []trace.Event // the round's events, in order
	seq   uint64
	mid   uint64
}

func (m *meshStream) next() (*trace.Event, bool) {
	for len(m.buf) == 0 {
		if m.round == m.s.rounds+m.s.delay {
			return nil, false
		}
		t0 := int64(m.round) * 100_000
		var sends, delivers []trace.Event
		for i := 1; i <= m.s.n; i++ {
			for j := 1; j <= m.s.n; j++ {
				if i == j {
					continue
				}
				if r := m.round - m.s.delay; r >= 0 && m.s.delay > 0 {
					// the message round r sent from i to j, made again
					mid := uint64(r*m.s.n*(m.s.n-1) + (i-1)*(m.s.n-1) + j - min(1, j/i))
					msg := &node.Message{Type: "HEARTBEAT", Stamp: int64(r + 1)}
					delivers = append(delivers, trace.Event{T: t0 + 5_000 + int64(mid*7919%15_000), Ev: trace.Deliver, From: node.ID(i), To: node.ID(j), MID: mid, Msg: msg})
				}
				if m.round >= m.s.rounds {
					continue
				}
				if m.s.alerts {
					text := node.ID(i).String() + " suspects " + node.ID(j).String() + ", which is up"
					sends = append(sends, trace.Event{T: t0, Ev: trace.Alert, Node: node.ID(i), Kind: "false-suspicion", Text: text},
						trace.Event{T: t0, Ev: trace.AlertCleared, Node: node.ID(i), Kind: "false-suspicion", Text: "over"})
				}
				m.mid++
				msg := &node.Message{Type: "HEARTBEAT", Stamp: int64(m.round + 1)}
				sends = append(sends, trace.Event{T: t0, Ev: trace.Send, From: node.ID(i), To: node.ID(j), MID: m.mid, Msg: msg})
				if m.s.delay == 0 {
					delivers = append(delivers, trace.Event{T: t0 + 5_000 + int64(m.mid*7919%15_000), Ev: trace.Deliver, From: node.ID(i), To: node.ID(j), MID: m.mid, Msg: msg})
				}
			}
		}
		slices.SortStableFunc(delivers, func(a, b trace.Event) int { return int(a.T - b.T) })
		m.buf = append(sends, delivers...)
		m.round++
	}
	e := &m.buf[0]
	m.buf = m.buf[1:]
	m.seq++
	e.Seq = m.seq
	if e.Ev == trace.AlertCleared {
		e.Ref = e.Seq - 1 // the alert just before
	}
	if m.s.events++; m.s.events%m.s.sample == 0 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		m.s.maxHeap = max(m.s.maxHeap, ms.HeapAlloc)
	}
	return e, true
}

func (m *meshStream) Next(e *trace.Event) error {
	x, ok := m.next()
	if !ok {
		return io.EOF
	}
	*e = *x
	return nil
}

func (m *meshStream) Scan() (*trace.Event, error) {
	x, ok := m.next()
	if !ok {
		return nil, io.EOF
	}
	return x, nil
}

func (m *meshStream) Tail() Tail {
	rounds := m.s.rounds + m.s.delay
	return Tail{Events: int(m.seq), Last: int64(rounds-1)*100_000 + 20_000, End: &trace.End{Ev: trace.EndEv, Events: m.seq, T: int64(rounds) * 100_000, Reason: trace.EndUntil}}
}
func (m *meshStream) Close() error { return nil }

// TestExportsHoldNoTrace exports a 40-node mesh of 150,000 events (100,000 under
// the race detector), made up as it is read, in every format, and checks the live
// heap while it reads: each export holds what its format needs (a state per node,
// the messages on their way, a window of events, the CSV's 8 MB of rows in
// memory), not the trace (some 300 bytes an event). Before the exports streamed,
// the trace was read whole first: 45 MB here.
func TestExportsHoldNoTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("150,000 events in every format: skipped in -short mode")
	}
	const limit = 16 << 20
	rounds := 96 // of 40·39 messages, two events each
	if race.Enabled {
		rounds = 64
	}
	for _, f := range []Flags{{Format: "md"}, {Format: "mermaid", Split: true}, {Format: "shiviz", Force: true}, {Format: "csv"},
		{Format: "csv", Table: "events"}, {Format: "perfetto", Force: true}, {Format: "cast", FPS: 1}} {
		src := newMeshSource(40, rounds)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		o, err := ParseOptions(src.Header(), f)
		if err != nil {
			t.Fatal(err)
		}
		if f.Split {
			err = mermaidSplitDiscard(src, o.Window)
		} else {
			err = Write(io.Discard, src, o)
		}
		if err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		if src.events < rounds*1560 {
			t.Fatalf("%+v: read %d events", f, src.events)
		}
		t.Logf("%+v: held %d kB", f, (int64(src.maxHeap)-int64(before.HeapAlloc))>>10)
		if held := int64(src.maxHeap) - int64(before.HeapAlloc); held > limit {
			t.Errorf("%+v: %d MB held while reading %d events (%d readings), over %d MB", f, held>>20, src.events/src.passes, src.passes, limit>>20)
		}
	}
}

// TestFewAlertsHeld: of 60,800 alerts (each cleared, among as many messages),
// the md report keeps the AlertRows it lists, counts the others, and counts each
// kind with its first and last time (it kept every
// alert and every clearing: some 30 MB here), and Perfetto's first reading keeps
// what the alert tracks' layout needs in a log that moves to a temporary file
// beyond 256 kB (it kept a copy of each alert, 19 MB, then some 80 bytes an
// alert; TestPerfettoAlertsHeldFlat checks it no longer grows).
func TestFewAlertsHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("60,800 alerts: skipped in -short mode")
	}
	for _, f := range []Flags{{Format: "md"}, {Format: "perfetto", Force: true}} {
		src := newMeshSource(20, 160) // 380 alerts and 380 messages a round
		src.alerts, src.sample = true, 20_000
		var out strings.Builder // md's report
		spans := &lineCounter{want: `"cat":"alert","ph":"X"`}
		w := io.Writer(&out)
		if f.Format == "perfetto" {
			w = spans
		}
		held := exportHeld(t, src, f, w)
		t.Logf("%s: held %d kB", f.Format, held>>10)
		if held > 8<<20 {
			t.Errorf("%s: %d MB held while reading %d alerts", f.Format, held>>20, src.events/2/src.passes)
		}
		if f.Format == "md" && (!strings.Contains(out.String(), "60800 alerts: false-suspicion 60800.") ||
			!strings.Contains(out.String(), "| false-suspicion | 60800 | 0s | 15.9s |") ||
			!strings.Contains(out.String(), "| … | | | | … 60750 more |") || strings.Count(out.String(), "| false-suspicion | ") != 1+AlertRows) {
			t.Errorf("the alerts section is not the first %d alerts and a count of the others:\n%.2000s", AlertRows, out.String())
		}
		if f.Format == "perfetto" && spans.n != 60800 {
			t.Errorf("perfetto: %d alert slices, want 60800", spans.n)
		}
	}
}

// lineCounter counts the lines written to it that hold want, keeping none.
type lineCounter struct {
	want    string
	partial []byte // the line being written
	n       int
}

func (c *lineCounter) Write(b []byte) (int, error) {
	for rest := b; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			c.partial = append(c.partial, rest...)
			break
		}
		c.partial = append(c.partial, rest[:i]...)
		if bytes.Contains(c.partial, []byte(c.want)) {
			c.n++
		}
		c.partial, rest = c.partial[:0], rest[i+1:]
	}
	return len(b), nil
}

// TestTooBigRefusedFirst: a ShiViz log or a Perfetto trace over what a browser
// opens is refused before a byte of it is written, naming the ways out, and
// --force writes it; a Mermaid diagram over its limit is refused where it passes
// it, the rest of the trace unread.
func TestTooBigRefusedFirst(t *testing.T) {
	defer func(s, p int64) { ShiVizMaxBytes, PerfettoMaxBytes = s, p }(ShiVizMaxBytes, PerfettoMaxBytes)
	ShiVizMaxBytes, PerfettoMaxBytes = 1<<20, 1<<20
	for _, format := range []string{"shiviz", "perfetto"} {
		src := newMeshSource(20, 20) // 15,200 events, logs of a few MB
		var out strings.Builder
		o, _ := ParseOptions(src.Header(), Flags{Format: format})
		err := Write(&out, src, o)
		var r *RefusedError
		if !errors.As(err, &r) || !strings.Contains(err.Error(), "--from/--to") || !strings.Contains(err.Error(), "--nodes") || !strings.Contains(err.Error(), "--force") {
			t.Errorf("%s: error %v, want a refusal that names --from/--to, --nodes and --force", format, err)
		}
		if out.Len() > 0 || src.passes != 1 {
			t.Errorf("%s: refused after writing %d bytes, %d readings", format, out.Len(), src.passes)
		}
		o.Force = true
		if err := Write(&out, src, o); err != nil || out.Len() < 1<<20 {
			t.Errorf("%s --force: %d bytes, %v", format, out.Len(), err)
		}
	}
	src := newMeshSource(20, 20)
	err := Mermaid(io.Discard, src, All())
	if !strings.Contains(fmtErr(err), "passes Mermaid's limit of 50000 characters at") || src.events > 15_200/4 {
		t.Errorf("mermaid: read %d events of 15,200 to refuse (%v)", src.events, err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
