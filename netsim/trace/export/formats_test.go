package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// shivizEvent is one parsed event of a ShiViz log.
type shivizEvent struct {
	host  string
	clock map[string]uint64
	text  string
}

// parseShiViz reads a log the way ShiViz does with ShiVizRegex.
func parseShiViz(t *testing.T, log string) []shivizEvent {
	t.Helper()
	first, rest, _ := strings.Cut(log, "\n")
	if first != ShiVizRegex {
		t.Fatalf("first line %q, want the regex %q", first, ShiVizRegex)
	}
	delim, rest, _ := strings.Cut(rest, "\n")
	if delim != "" {
		t.Fatalf("second line %q, want an empty multiple-executions delimiter", delim)
	}
	// ShiViz's (?<name>…) is Go's (?P<name>…); every line ends with \n.
	re := regexp.MustCompile(strings.ReplaceAll(ShiVizRegex, "(?<", "(?P<"))
	matches := re.FindAllStringSubmatch(rest, -1)
	if want := strings.Count(rest, "\n") / 2; len(matches) != want || len(matches) == 0 {
		t.Fatalf("the regex matches %d events, want %d (two lines each)", len(matches), want)
	}
	var out []shivizEvent
	for _, m := range matches {
		ev := shivizEvent{host: m[re.SubexpIndex("host")], text: m[re.SubexpIndex("event")]}
		if err := json.Unmarshal([]byte(m[re.SubexpIndex("clock")]), &ev.clock); err != nil {
			t.Fatalf("clock %q: %v", m[re.SubexpIndex("clock")], err)
		}
		out = append(out, ev)
	}
	return out
}

var midRE = regexp.MustCompile(`\(mid (\d+)\)`)

// checkShiVizClocks checks ShiViz's rules (modelGraph.js) over every event: each
// host's own entry starts at 1 and rises by exactly 1 per event, and is in its own
// clock; every host named in a clock exists; no entry exceeds the number of events
// that host has; and there is no cycle, because every entry names an event logged
// on an earlier line. It also checks how the export builds clocks: a receive is the
// element-wise max of the host's previous clock and the sender's clock at the send,
// then a tick; any other event is a tick. It returns the number of events per host.
func checkShiVizClocks(t *testing.T, evs []shivizEvent) map[string]uint64 {
	t.Helper()
	prev := map[string]map[string]uint64{}
	count := map[string]uint64{}
	sends := map[string]map[string]uint64{}
	for i, ev := range evs {
		p := prev[ev.host]
		want := map[string]uint64{}
		for h, v := range p {
			want[h] = v
		}
		if strings.HasPrefix(ev.text, "recv ") {
			m := midRE.FindStringSubmatch(ev.text)
			if m == nil {
				t.Fatalf("event %d: receive without a message id: %q", i, ev.text)
			}
			if sc, ok := sends[m[1]]; ok {
				for h, v := range sc {
					want[h] = max(want[h], v)
				}
			}
		}
		want[ev.host]++
		if len(want) != len(ev.clock) {
			t.Fatalf("event %d (%s %q): clock %v, want %v", i, ev.host, ev.text, ev.clock, want)
		}
		for h, v := range want {
			if ev.clock[h] != v {
				t.Fatalf("event %d (%s %q): clock %v, want %v", i, ev.host, ev.text, ev.clock, want)
			}
		}
		for h, v := range ev.clock {
			if v == 0 {
				t.Fatalf("event %d: zero entry for %s", i, h)
			}
			if h != ev.host && v > count[h] {
				t.Fatalf("event %d: entry %s:%d names an event %s has not logged (it has %d)", i, h, v, h, count[h])
			}
		}
		count[ev.host]++
		if ev.clock[ev.host] != count[ev.host] {
			t.Fatalf("event %d: own entry %d, want %d", i, ev.clock[ev.host], count[ev.host])
		}
		prev[ev.host] = ev.clock
		if _, ok := ev.clock[ev.host]; !ok {
			t.Fatalf("event %d: host %s not in its own clock %v", i, ev.host, ev.clock)
		}
		if strings.HasPrefix(ev.text, "send ") {
			m := midRE.FindStringSubmatch(ev.text)
			if m == nil {
				t.Fatalf("event %d: send without a message id: %q", i, ev.text)
			}
			sends[m[1]] = ev.clock
		}
	}
	return count
}

// TestShiVizClocks checks the clock rules over every event of every preset and of
// the faults scenario, whole and in a window, and that each host logs exactly the
// events the format promises.
func TestShiVizClocks(t *testing.T) {
	for name, tr := range allTraces(t) {
		t.Run(name, func(t *testing.T) {
			evs := parseShiViz(t, export(t, tr, Flags{Format: "shiviz"}))
			count := checkShiVizClocks(t, evs)
			want := map[string]uint64{}
			all := func() {
				for _, id := range tr.Header.Info.IDs {
					want[id.String()]++
				}
			}
			for i := range tr.Events {
				e := &tr.Events[i]
				switch e.Ev {
				case trace.Send:
					want[e.From.String()]++
				case trace.Deliver:
					want[e.To.String()]++
				case trace.Crash, trace.Recover, trace.StatusEv, trace.Log, trace.Request, trace.Isolate:
					want[e.Node.String()]++
				case trace.Knob:
					if e.Name == "slow" {
						want[e.Node.String()]++
					}
				case trace.Cut:
					want[e.From.String()]++
					want[e.To.String()]++
				case trace.Partition:
					for _, g := range e.Groups {
						for _, id := range g {
							want[id.String()]++
						}
					}
				case trace.Heal, trace.GST, trace.Marker, trace.Alert, trace.AlertCleared:
					all()
				}
			}
			if fmt.Sprint(count) != fmt.Sprint(want) {
				t.Errorf("events per host %v, want %v", count, want)
			}
			// a window past the end is refused
			if _, err := exportErr(tr, Flags{Format: "shiviz", From: "100s", To: "110s"}); err == nil || err.Error() != "no events between 100s and 110s" {
				t.Errorf("empty window: %v", err)
			}
			// a window: later half, two or three nodes
			ids := tr.Header.Info.IDs
			nodes := joinIDs(ids[len(ids)/2:], ",")
			end := tr.Events[len(tr.Events)-1].T
			out, err := exportErr(tr, Flags{Format: "shiviz", From: fmt.Sprintf("%dus", end/2), Nodes: nodes})
			var r *RefusedError
			if errors.As(err, &r) {
				return // quiet late halves (a finished election) log nothing
			} else if err != nil {
				t.Fatal(err)
			}
			win := parseShiViz(t, out)
			checkShiVizClocks(t, win)
			for _, ev := range win {
				if !strings.Contains(nodes, ev.host) {
					t.Fatalf("window of %s logs an event of %s", nodes, ev.host)
				}
			}
		})
	}
}

// TestShiVizFaultsAreEvents: the faults scenario's partition, heal, crash, recover
// and markers are events of the processes they concern, and the log's first line
// is ShiViz's default regex, so pasting it parses the same.
func TestShiVizFaultsAreEvents(t *testing.T) {
	if ShiVizRegex != `(?<event>.*)\n(?<host>\S*) (?<clock>{.*})` {
		t.Errorf("regex %q is not ShiViz's default", ShiVizRegex)
	}
	evs := parseShiViz(t, export(t, record(t, faultsFile), Flags{Format: "shiviz"}))
	seen := map[string]map[string]bool{}
	for _, ev := range evs {
		word, _, _ := strings.Cut(ev.text, " ")
		if seen[word] == nil {
			seen[word] = map[string]bool{}
		}
		seen[word][ev.host] = true
	}
	var b bytes.Buffer
	tr := escapesTrace()
	tr.Events = append(tr.Events, trace.Event{Seq: uint64(len(tr.Events) + 1), T: 40, Ev: trace.Marker, Text: "{looks like a clock}"})
	if err := ShiViz(&b, TraceSource(tr), All()); err != nil {
		t.Fatal(err)
	}
	checkShiVizClocks(t, parseShiViz(t, b.String()))
	for word, hosts := range map[string]string{"partition": "n1 n2 n3 n4", "heal": "n1 n2 n3 n4", "crash": "n1", "recover": "n1", "marker:": "n1 n2 n3 n4"} {
		if got := strings.Join(slices.Sorted(maps.Keys(seen[word])), " "); got != hosts {
			t.Errorf("%s logged by %q, want %q", word, got, hosts)
		}
	}
}

// TestShiVizRevivedNodeKeepsCounting: n1 crashes and recovers in the faults
// scenario; its first event after recovering continues its count.
func TestShiVizRevivedNodeKeepsCounting(t *testing.T) {
	evs := parseShiViz(t, export(t, record(t, faultsFile), Flags{Format: "shiviz"}))
	var last uint64
	seen := false
	for _, ev := range evs {
		if ev.host != "n1" {
			continue
		}
		if strings.HasPrefix(ev.text, "recover ") {
			seen = true
			if ev.clock["n1"] != last+1 || last < 2 {
				t.Fatalf("recover has own entry %d after %d", ev.clock["n1"], last)
			}
		}
		last = ev.clock["n1"]
	}
	if !seen {
		t.Fatal("no recover event for n1")
	}
}

// mermaidLine is every statement the Mermaid export writes.
var mermaidLine = regexp.MustCompile(`^(sequenceDiagram|    %% .*|    autonumber( \d+)?|    participant n\d+|` +
	`\s+n\d+(->>|-x)n\d+: (?P<msg>.+)|\s+Note over n\d+(,n\d+)?: (?P<note>.+)|    rect rgba\([\d, .]+\)|    end)$`)

var entity = regexp.MustCompile(`#\d+;`)

// checkMermaid checks that every line is a known statement, that message and note
// texts are safe (after removing entity codes: no ";", "#", "%" or "<", and no word
// "end"), and that rect and end pair up.
func checkMermaid(t *testing.T, diagram string) {
	t.Helper()
	depth := 0
	for i, l := range strings.Split(strings.TrimSuffix(diagram, "\n"), "\n") {
		m := mermaidLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %d: not a statement of the export: %q", i+1, l)
		}
		text := m[mermaidLine.SubexpIndex("msg")] + m[mermaidLine.SubexpIndex("note")]
		plain := entity.ReplaceAllString(text, "")
		if strings.ContainsAny(plain, ";#%<>") {
			t.Fatalf("line %d: unescaped character in %q", i+1, l)
		}
		for _, w := range strings.FieldsFunc(plain, func(r rune) bool { return !isWordRune(r) }) {
			if strings.EqualFold(w, "end") {
				t.Fatalf("line %d: bare word end in %q", i+1, l)
			}
		}
		switch strings.TrimSpace(l) {
		case "end":
			depth--
			if depth < 0 {
				t.Fatalf("line %d: end without rect", i+1)
			}
		default:
			if strings.HasPrefix(strings.TrimSpace(l), "rect ") {
				if depth > 0 {
					t.Fatalf("line %d: nested rect", i+1)
				}
				depth++
			}
		}
	}
	if depth != 0 {
		t.Fatal("rect left open")
	}
}

// escapesTrace has ";", "#", "end" and other troublemakers in marker, alert and
// message texts.
func escapesTrace() *trace.Trace {
	ids := []node.ID{1, 2, 3}
	tr := &trace.Trace{Header: trace.Header{Format: trace.Format, Version: trace.Version, Seed: 1,
		Info: trace.Info{Name: "escapes", Algorithm: "omega", Family: "detector", IDs: ids}}}
	add := func(e trace.Event) {
		e.Seq = uint64(len(tr.Events) + 1)
		tr.Events = append(tr.Events, e)
	}
	nasty := []string{
		"end",
		"End of phase 1; then # 2",
		"a;b#c end",
		"the end.",
		"%%{init: {'theme':'dark'}}%%",
		"<br>line<script>",
		"style n1 fill:#f00;",
		"classDef x fill:#f00;",
		"multi\nline end",
	}
	msg := &node.Message{Type: "END"}
	add(trace.Event{T: 1, Ev: trace.Send, From: 1, To: 2, MID: 1, Msg: msg})
	add(trace.Event{T: 2, Ev: trace.Deliver, From: 1, To: 2, MID: 1, Msg: msg})
	add(trace.Event{T: 3, Ev: trace.Partition, Groups: [][]node.ID{{1}, {2, 3}}})
	for i, s := range nasty {
		add(trace.Event{T: int64(10 + i), Ev: trace.Marker, Text: s})
		add(trace.Event{T: int64(10 + i), Ev: trace.Alert, Kind: "split;brain#end", Text: s})
	}
	add(trace.Event{T: 30, Ev: trace.Heal})
	add(trace.Event{T: 31, Ev: trace.Send, From: 2, To: 3, MID: 2, Msg: &node.Message{Type: "a;b#end"}})
	add(trace.Event{T: 32, Ev: trace.Drop, From: 2, To: 3, MID: 2, Msg: &node.Message{Type: "a;b#end"}, Reason: "loss"})
	return tr
}

// TestMermaidEscaping puts ";", "#", "end" and other troublemakers into marker and
// alert texts and checks that the diagram still parses as the statements it means.
func TestMermaidEscaping(t *testing.T) {
	tr := escapesTrace()
	var b bytes.Buffer
	if err := Mermaid(&b, TraceSource(tr), All()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	checkMermaid(t, out)
	for _, want := range []string{
		"    rect rgba(255, 99, 71, 0.15)\n",
		"        Note over n1,n3: marker: #101;nd\n",
		"        Note over n1,n3: marker: #69;nd of phase 1#59; then #35; 2\n",
		"        Note over n1,n3: alert split#59;brain#35;#101;nd: a#59;b#35;c #101;nd\n",
		"        Note over n1,n3: marker: the #101;nd.\n",
		"        Note over n1,n3: marker: #60;br#62;line#60;script#62;\n",
		"        Note over n1,n3: marker: #115;tyle n1 fill:#35;f00#59;\n",
		"        Note over n1,n3: marker: multi line #101;nd\n",
		"    end\n    Note over n1,n3: heal\n",
		"    n1->>n2: #69;ND\n",
		"    n2-xn3: a#59;b#35;#101;nd (lost: loss)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if got := mmText("wrap: x"); got != "#119;rap: x" {
		t.Errorf("mmText(wrap: x) = %q, want the directive broken", got)
	}
	// Words that merely contain "end" stay as they are.
	if got := mmText("endless backend ending"); got != "endless backend ending" {
		t.Errorf("mmText changed words containing end: %q", got)
	}
}

// TestMermaidEveryTrace checks the statements of every trace's diagram, and of the
// diagram embedded in its report.
func TestMermaidEveryTrace(t *testing.T) {
	for name, tr := range allTraces(t) {
		t.Run(name, func(t *testing.T) {
			parts, err := MermaidParts(TraceSource(tr), All())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range parts {
				checkMermaid(t, p)
			}
			out := parts[0]
			ids := slices.Sorted(slices.Values(tr.Header.Info.IDs))
			for i, l := range strings.Split(out, "\n")[3 : 3+len(ids)] {
				if l != "    participant "+ids[i].String() {
					t.Fatalf("participant line %q, want %v in id order", l, ids[i])
				}
			}
			md := export(t, tr, Flags{Format: "md"})
			_, block, ok := strings.Cut(md, "```mermaid\n")
			block, _, ok2 := strings.Cut(block, "```\n")
			if !ok || !ok2 {
				t.Fatal("no mermaid block in the report")
			}
			checkMermaid(t, block)
			if n := strings.Count(block, "->>") + strings.Count(block, "-x"); n > DiagramMessages {
				t.Errorf("report diagram has %d messages, want at most %d", n, DiagramMessages)
			}
		})
	}
}

// readCSV reads a CSV export back with encoding/csv and returns its rows as maps
// from column to cell, and the header.
func readCSV(t *testing.T, out string) ([]map[string]string, []string) {
	t.Helper()
	if !strings.Contains(out, "\r\n") || strings.Contains(strings.ReplaceAll(out, "\r\n", ""), "\n") {
		t.Error("rows should end with CRLF (RFC 4180)")
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var maps []map[string]string
	for _, row := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = row[i]
		}
		maps = append(maps, m)
	}
	return maps, rows[0]
}

// checkColumns: no column is always empty, and a column that holds integers
// holds nothing else (no 207.0).
func checkColumns(t *testing.T, rows []map[string]string, header []string) {
	t.Helper()
	for _, h := range header {
		used, ints, other := false, 0, 0
		for _, r := range rows {
			v := r[h]
			if v == "" {
				continue
			}
			used = true
			if _, err := strconv.ParseInt(v, 10, 64); err == nil {
				ints++
			} else {
				other++
				if strings.HasSuffix(v, ".0") {
					t.Errorf("column %s: %q, an integer written as a float", h, v)
				}
			}
		}
		if !used {
			t.Errorf("column %s is always empty", h)
		}
		if ints > 0 && other > 0 && !strings.HasSuffix(h, "_s") && h != "value" && h != "text" && h != "reason" {
			t.Errorf("column %s mixes %d integers with %d other values", h, ints, other)
		}
	}
}

// TestCSVMessages: one row per message sent in the window, with its fate matching
// the trace, in every preset and the faults scenario.
func TestCSVMessages(t *testing.T) {
	for name, tr := range allTraces(t) {
		out, err := exportErr(tr, Flags{Format: "csv"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.ContainsFunc(tr.Events, func(e trace.Event) bool { return e.Ev == trace.Send }) {
			// A trace without messages has a table without rows: its header only.
			if out != "mid,type,from,to,sent_s,delivered_s,fate,drop_reason\r\n" {
				t.Errorf("%s has no messages: table %q, want the header alone", name, out)
			}
			continue
		}
		rows, header := readCSV(t, out)
		if got := strings.Join(header[:len(MessageColumns)], ","); got != "mid,type,from,to,sent_s,delivered_s,fate,drop_reason" {
			t.Fatalf("%s: header %s", name, got)
		}
		checkColumns(t, rows, header[len(MessageColumns):])
		fates := map[string]string{}
		sends := 0
		for i := range tr.Events {
			e := &tr.Events[i]
			mid := strconv.FormatUint(e.MID, 10)
			switch e.Ev {
			case trace.Send:
				sends++
			case trace.Deliver:
				if fates[mid] != "local" && fates[mid] != "delivered" {
					fates[mid] = "delivered"
					if e.Local {
						fates[mid] = "local"
					}
				}
			case trace.Drop:
				if fates[mid] == "" {
					fates[mid] = "dropped " + e.Reason
				}
			}
		}
		if len(rows) != sends {
			t.Fatalf("%s: %d rows, %d sends", name, len(rows), sends)
		}
		for _, r := range rows {
			want := fates[r["mid"]]
			if want == "" {
				want = "in-flight"
			}
			got := strings.TrimSpace(r["fate"] + " " + r["drop_reason"])
			if got != want {
				t.Fatalf("%s: message %s is %q, want %q", name, r["mid"], got, want)
			}
			if (r["delivered_s"] != "") != (r["fate"] == "delivered" || r["fate"] == "local") {
				t.Fatalf("%s: message %s: delivered_s %q with fate %s", name, r["mid"], r["delivered_s"], r["fate"])
			}
		}
	}
}

// TestCSVEvents reads the event table back: one row per event, seconds in t_s,
// the counters in columns of their own, no empty column.
func TestCSVEvents(t *testing.T) {
	tr := record(t, faultsFile)
	rows, header := readCSV(t, export(t, tr, Flags{Format: "csv", Table: "events"}))
	checkColumns(t, rows, header)
	if len(rows) != len(tr.Events) {
		t.Fatalf("%d rows, want %d events", len(rows), len(tr.Events))
	}
	counters := 0
	for i, r := range rows {
		e := &tr.Events[i]
		if r["seq"] != strconv.FormatUint(e.Seq, 10) || r["t_s"] != seconds(e.T) || r["ev"] != e.Ev {
			t.Fatalf("row %d: %v for event %+v", i+1, r, e)
		}
		if e.Msg != nil && r["type"] != e.Msg.Type {
			t.Fatalf("row %d: type %q, want %q", i+1, r["type"], e.Msg.Type)
		}
		if e.Ev == trace.Marker && r["text"] != e.Text {
			t.Fatalf("row %d: text %q, want %q", i+1, r["text"], e.Text)
		}
		if e.Ev == trace.Partition && r["groups"] != "n1 n2 | n3 n4" {
			t.Fatalf("row %d: groups %q", i+1, r["groups"])
		}
		if e.Status != nil {
			for _, c := range e.Status.Counters {
				counters++
				if r["counter_"+c.Name] != strconv.FormatInt(c.Value, 10) {
					t.Fatalf("row %d: counter_%s = %q, want %d", i+1, c.Name, r["counter_"+c.Name], c.Value)
				}
			}
		}
	}
	if counters == 0 {
		t.Error("no counters in the faults scenario; the counter columns are untested")
	}
	if got := seconds(3155817); got != "3.155817" {
		t.Errorf("seconds(3155817) = %q", got)
	}
	// A window of n3 and n4 after GST.
	rows, _ = readCSV(t, export(t, tr, Flags{Format: "csv", Table: "events", From: "1s", Nodes: "n3,n4"}))
	for _, r := range rows {
		ts, _ := strconv.ParseFloat(r["t_s"], 64)
		for _, c := range []string{"node", "from", "to"} {
			if v := r[c]; v != "" && v != "n3" && v != "n4" && (c == "node" || r["ev"] != trace.Cut) {
				t.Fatalf("window n3,n4 has %v", r)
			}
		}
		if ts < 1 {
			t.Fatalf("window from 1s has %v", r)
		}
	}
}

// TestMarkdownTextbook checks the measured and textbook counts of the mutual
// exclusion presets, which run without failures: they must agree where the
// algorithm has no self-messages or contention extras.
func TestMarkdownTextbook(t *testing.T) {
	for _, c := range []struct{ preset, want string }{
		{"ricart", "| textbook: 2(N−1), N = 5 | 8 |"},
		{"ricart", "| measured: 360 sent / 45 | 8 |"},
		{"lamport", "| textbook: 3(N−1), N = 5 | 12 |"},
		{"lamport", "| measured: 552 sent / 46 | 12 |"},
		{"central", "| textbook: 3: REQUEST, GRANT, RELEASE (none when the coordinator itself enters), N = 5 | 3 |"},
		{"maekawa", "| textbook: 3(\\|V\\|−1), \\|V\\| = 5 on average over the entries, N = 9 | 12 |"},
		{"omega-crash", "Elections: 2 "},
		{"omega-crash", "| n1 | 3s | 3.16669s | 166.69ms |"},
		{"tokenring", "| textbook | see the textbook figures below |"},
		// the registry's figures, the same the sweeps use, with their sources
		{"tokenring", "| per_entry.total | ≥ 1 | ≥ 1: messages per entry (1 to ∞: the token goes round whether anyone wants it or not) | Tanenbaum & van Steen 2007 (2nd ed.), §6.3 (comparison of the algorithms) |"},
		{"ricart", "| per_entry.total | = 8 | = 2(N−1): messages per entry | Ricart & Agrawala 1981; course notes 002, \"Comparação dos algoritmos\" |"},
		{"bully", "| sent.COORDINATOR | = 4 |"},
	} {
		md := export(t, record(t, c.preset), Flags{Format: "md"})
		if !strings.Contains(md, c.want) {
			t.Errorf("%s report lacks %q", c.preset, c.want)
		}
	}
}

// TestEmptyAndMalformedTraces: a trace with no events is refused in every format,
// and one with events the reader would refuse exports without panicking.
func TestEmptyAndMalformedTraces(t *testing.T) {
	hdr := trace.Header{Format: trace.Format, Version: trace.Version, Info: trace.Info{Name: "x", Algorithm: "ricart", Family: "mutex", IDs: []node.ID{1, 2}}}
	empty := &trace.Trace{Header: hdr}
	bad := &trace.Trace{Header: hdr, Events: []trace.Event{
		{Seq: 1, T: 1, Ev: trace.Send, From: 1, To: 2, MID: 1},
		{Seq: 2, T: 2, Ev: trace.StatusEv, Node: 1},
		{Seq: 3, T: 3, Ev: trace.Deliver, From: 1, To: 2, MID: 1},
		{Seq: 4, T: 4, Ev: trace.Crash, Node: 9},
		{Seq: 5, T: 5, Ev: trace.Crash, Node: 1},
	}}
	for _, f := range Formats {
		o, err := ParseOptions(&empty.Header, Flags{Format: f})
		if err != nil {
			t.Fatal(err)
		}
		var r *RefusedError
		if err := Write(io.Discard, TraceSource(empty), o); !errors.As(err, &r) || err.Error() != "no events in the trace" {
			t.Errorf("%s of an empty trace: error %v, want a refusal", f, err)
		}
		out := export(t, bad, Flags{Format: f, Table: map[string]string{"csv": "events"}[f]})
		if out == "" {
			t.Errorf("%s of a malformed trace: empty output", f)
		}
		if f == "cast" {
			parseCast(t, out)
		}
		if f == "shiviz" {
			checkShiVizClocks(t, parseShiViz(t, out))
		}
	}
}

// TestEmptyWindow: a window past the end, or of nodes with nothing in it, is
// refused in every format with one line saying where there is nothing.
func TestEmptyWindow(t *testing.T) {
	tr := record(t, "quorum-amnesia")
	for _, c := range []struct {
		flags Flags
		want  string
	}{
		{Flags{From: "100s", To: "110s"}, "no events between 100s and 110s"},
		{Flags{From: "100s"}, "no events between 100s and the end ("},
		{Flags{From: "2500ms", To: "2500001us"}, "no events between 2.5s and 2.500001s"},
	} {
		for _, f := range Formats {
			c.flags.Format = f
			o, err := ParseOptions(&tr.Header, c.flags)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			err = Write(&b, TraceSource(tr), o)
			var r *RefusedError
			if !errors.As(err, &r) || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%s %+v: error %v, want %q", f, c.flags, err, c.want)
			}
		}
	}
}
