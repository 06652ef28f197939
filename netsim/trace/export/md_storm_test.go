package export

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// stormTrace is an alert storm as a ◊P run of n nodes before GST makes one: 30
// rounds of 20 heartbeats, each delivery followed by 10 false suspicions (every
// other one cleared 5 µs later) and, every fourth, a no-leader alert; 6,000 false
// suspicions and 150 no-leader alerts in all, some ten between two messages.
func stormTrace(n int) *trace.Trace {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	tr := &trace.Trace{Header: trace.Header{Format: trace.Format, Version: trace.Version, Seed: 1,
		Info: trace.Info{Name: "storm", Algorithm: "heartbeat-dp", Family: "detector", IDs: ids, Topology: "mesh"}}}
	add := func(e trace.Event) uint64 {
		e.Seq = uint64(len(tr.Events) + 1)
		tr.Events = append(tr.Events, e)
		return e.Seq
	}
	id := func(k int) node.ID { return node.ID(k%n + 1) }
	mid, pair := uint64(0), 0
	for r := range 30 {
		t0 := int64(r) * 10_000
		first := mid + 1
		for i := range 20 {
			mid++
			add(trace.Event{T: t0, Ev: trace.Send, From: id(r*20 + i), To: id(r*20 + i + 1), MID: mid, Msg: &node.Message{Type: "HEARTBEAT"}})
		}
		for i := range 20 {
			at := t0 + 1000 + 20*int64(i)
			m := first + uint64(i)
			add(trace.Event{T: at, Ev: trace.Deliver, From: id(r*20 + i), To: id(r*20 + i + 1), MID: m, Msg: &node.Message{Type: "HEARTBEAT"}})
			var clear []uint64
			for j := range 10 {
				pair++
				a, b := id(pair), id(pair*7+3)
				seq := add(trace.Event{T: at, Ev: trace.Alert, Node: a, Kind: "false-suspicion", Text: fmt.Sprintf("%s suspects %s, which is up (before GST)", a, b)})
				if j%2 == 0 {
					clear = append(clear, seq)
				}
			}
			if i%4 == 0 {
				add(trace.Event{T: at, Ev: trace.Alert, Kind: "no-leader", Text: "live nodes do not agree on a live leader"})
			}
			for _, ref := range clear {
				add(trace.Event{T: at + 5, Ev: trace.AlertCleared, Node: id(pair), Kind: "false-suspicion", Ref: ref, Text: "false suspicion over"})
			}
		}
	}
	return tr
}

var excerptEvents = regexp.MustCompile(`events (\d+) to (\d+)`)

// TestMarkdownAlertStorm: in an alert storm, the report's diagram draws the first
// excerptAlerts alerts of each kind and one note for the others, with their
// count (the alerts among the excerpt's events less those drawn), in the
// report's language; the Alerts section counts each kind with its first and last
// time before the rows it lists. Before, the excerpt of 40 messages carried
// hundreds of alert notes (473 in a 300-node heartbeat-dp run before GST).
func TestMarkdownAlertStorm(t *testing.T) {
	tr := stormTrace(300)
	for _, tc := range []struct {
		l    lang.Lang
		more string
	}{
		{lang.En, `Note over n\d+,n\d+: (\d+) more alerts in this excerpt, not drawn: see the Alerts section\n`},
		{lang.Pt, `Note over n\d+,n\d+: mais (\d+) alertas neste trecho, não desenhados: veja a seção Alertas\n`},
		{lang.Es, `Note over n\d+,n\d+: (\d+) alertas más en este extracto, sin dibujar: vea la sección Alertas\n`},
	} {
		o, err := ParseOptions(&tr.Header, Flags{Format: "md"})
		if err != nil {
			t.Fatal(err)
		}
		o.Lang = tc.l
		var b bytes.Buffer
		if err := Write(&b, TraceSource(tr), o); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		blocks := mdBlocks(md)
		if len(blocks) != 1 {
			t.Fatalf("%s: %d diagrams", tc.l, len(blocks))
		}
		block := blocks[0]
		checkMermaid(t, block)
		notes := strings.Count(block, "Note over")
		fs, nl := strings.Count(block, " "+tc.l.AlertKindIn("false-suspicion")+": "), strings.Count(block, " "+tc.l.AlertKindIn("no-leader")+": ")
		if fs != excerptAlerts || nl != excerptAlerts || notes != 2*excerptAlerts+1 {
			t.Errorf("%s: the excerpt draws %d false-suspicion and %d no-leader alerts in %d notes, want %d of each and one more note:\n%s",
				tc.l, fs, nl, notes, excerptAlerts, block)
		}
		m := regexp.MustCompile(tc.more).FindStringSubmatch(block)
		if m == nil {
			t.Fatalf("%s: no note counts the alerts not drawn:\n%s", tc.l, block)
		}
		span := excerptEvents.FindStringSubmatch(block)
		from, _ := strconv.ParseUint(span[1], 10, 64)
		to, _ := strconv.ParseUint(span[2], 10, 64)
		in := 0
		for _, e := range tr.Events {
			if e.Ev == trace.Alert && e.Seq >= from && e.Seq <= to {
				in++
			}
		}
		if got, _ := strconv.Atoi(m[1]); got != in-2*excerptAlerts || got < 100 {
			t.Errorf("%s: the note counts %d alerts not drawn; events %d to %d hold %d alerts, %d of them drawn", tc.l, got, from, to, in, 2*excerptAlerts)
		}
		if !strings.HasSuffix(block, m[0]) {
			t.Errorf("%s: the note is not the excerpt's last line:\n%s", tc.l, block)
		}
		if tc.l == lang.En {
			want := "By kind, from the first to the last:\n\n| alert | alerts | first | last |\n|---|---:|---:|---:|\n" +
				"| false-suspicion | 6000 | 1ms | 291.38ms |\n| no-leader | 150 | 1ms | 291.32ms |\n\nThe first 50, in order:\n\n| alert | start |"
			if !strings.Contains(md, want) {
				_, alerts, _ := strings.Cut(md, "## Alerts")
				t.Errorf("the Alerts section does not count each kind with its first and last time:%.1500s", alerts)
			}
		}
	}
	// A report whose excerpt holds few alerts draws them all.
	for _, name := range []string{"bully-split-brain", "dp-gst"} {
		if md := export(t, record(t, name), Flags{Format: "md"}); strings.Contains(md, "more alerts in this excerpt") || strings.Contains(md, "By kind, from") {
			t.Errorf("%s: a report of few alerts folds them", name)
		}
	}
}
