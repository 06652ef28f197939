package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/session"
)

// TestMarkdownSettingsAndCommand: the report gives the parameters (with defaults),
// the network, the command that re-runs the preset and the trace hash.
func TestMarkdownSettingsAndCommand(t *testing.T) {
	tr := record(t, "bully-split-brain")
	md := export(t, tr, Flags{Format: "md"})
	for _, want := range []string{
		"| heartbeat | 100ms |",
		"| t_proc | 5ms (default) |",
		"| latency | uniform 5ms 20ms |",
		"| GST | 0s: synchronous from the start |",
		"clusterlab sim --preset bully-split-brain --seed 7 --until 12s --record rerun.jsonl\n",
		"| Trace hash | `" + tr.Hash + "`",
		"; it ends at 12s: the run reached its end |",
		"| measured without heartbeats (",
		"| election | agreed at | leader | messages without heartbeats |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// The trace is named by its file name, not its path.
	o, err := ParseOptions(&tr.Header, Flags{Format: "md"})
	if err != nil {
		t.Fatal(err)
	}
	o.TraceName = "/home/student/course/hw.jsonl"
	var b strings.Builder
	if err := Write(&b, TraceSource(tr), o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "clusterlab verify hw.jsonl\n") || strings.Contains(b.String(), "/home/student") {
		t.Error("the report does not name the trace by its file name")
	}
	// A scenario that is no preset is re-run by verify.
	md = export(t, record(t, faultsFile), Flags{Format: "md"})
	if !strings.Contains(md, "it is not an embedded preset") || !strings.Contains(md, "clusterlab verify TRACE.jsonl") {
		t.Error("the faults scenario's report does not say how to re-run it")
	}
}

// TestMarkdownAlertIntervals pairs alerts with the alert-cleared events that
// close them; one never cleared runs to the end of the trace and says so.
func TestMarkdownAlertIntervals(t *testing.T) {
	tr := &trace.Trace{Header: trace.Header{Format: trace.Format, Version: trace.Version, Seed: 1,
		Info: trace.Info{Name: "alerts", Algorithm: "bully", Family: "election", IDs: []node.ID{1, 2, 3}}}}
	add := func(e trace.Event) {
		e.Seq = uint64(len(tr.Events) + 1)
		tr.Events = append(tr.Events, e)
	}
	add(trace.Event{T: 3_420_000, Ev: trace.Alert, Kind: "split-brain", Text: "2 leaders"})
	add(trace.Event{T: 4_000_000, Ev: trace.Alert, Kind: "no-leader", Text: "no leader"})
	add(trace.Event{T: 8_030_000, Ev: trace.AlertCleared, Ref: 1, Text: "one leader again"})
	add(trace.Event{T: 9_000_000, Ev: trace.Marker, Text: "end"})
	md := export(t, tr, Flags{Format: "md"})
	for _, want := range []string{
		"| split-brain | 3.42s | 8.03s | 4.61s | 2 leaders; cleared: one leader again |",
		"| no-leader | 4s | not cleared: runs to the end of the trace (9s) | at least 5s | no leader |",
		// no end record
		"**incomplete recording**",
		"clusterlab verify --partial TRACE.jsonl\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q in\n%s", want, md)
		}
	}
}

// TestMarkdownColumnsFitTheFamily: a mutex report has no leader or term column,
// an election report no critical-section column.
func TestMarkdownColumnsFitTheFamily(t *testing.T) {
	state := func(md string) string {
		_, s, _ := strings.Cut(md, "## State at ")
		s, _, _ = strings.Cut(s, "\n\n## ")
		return s
	}
	if s := state(export(t, record(t, "ricart"), Flags{Format: "md"})); strings.Contains(s, "leader") || strings.Contains(s, "term") || !strings.Contains(s, "| cs |") {
		t.Errorf("mutex state table:\n%s", s)
	}
	if s := state(export(t, record(t, "bully-split-brain"), Flags{Format: "md"})); !strings.Contains(s, "| leader |") || strings.Contains(s, "| cs |") {
		t.Errorf("election state table:\n%s", s)
	}
}

// TestMarkdownQuestions: a scenario's questions end the report, each with room
// for an answer.
func TestMarkdownQuestions(t *testing.T) {
	src := *record(t, "bully-split-brain")
	var sc map[string]any
	if err := json.Unmarshal(src.Header.Scenario, &sc); err != nil {
		t.Fatal(err)
	}
	sc["questions"] = []string{"Why does n2 lead | at 3.4s?", "How long is the split brain?"}
	b, _ := json.Marshal(sc)
	src.Header.Scenario = b
	md := export(t, &src, Flags{Format: "md"})
	_, tail, ok := strings.Cut(md, "\n## Questions\n")
	if !ok {
		t.Fatal("no questions section")
	}
	if strings.Contains(tail, "\n## ") || strings.Contains(tail, "```") {
		t.Error("the questions are not the end of the report")
	}
	for _, want := range []string{"### Question 1\n\nWhy does n2 lead \\| at 3.4s?\n\n**Answer:**\n", "### Question 2\n\nHow long is the split brain?\n"} {
		if !strings.Contains(tail, want) {
			t.Errorf("questions lack %q:\n%s", want, tail)
		}
	}
	if strings.Contains(export(t, record(t, "bully-split-brain"), Flags{Format: "md"}), "## Questions") {
		t.Error("a questions section without questions")
	}
}

var simCommand = regexp.MustCompile("clusterlab sim --preset (\\S+) --seed (\\d+) --until (\\S+) --record rerun.jsonl\n")

// TestMarkdownCommandReproduces runs the command the report gives (through the
// same session calls as `sim`) and checks that it records the same trace.
func TestMarkdownCommandReproduces(t *testing.T) {
	tr := record(t, "omega-crash")
	m := simCommand.FindStringSubmatch(export(t, tr, Flags{Format: "md"}))
	if m == nil {
		t.Fatal("no sim command in the report")
	}
	seed, _ := strconv.ParseUint(m[2], 10, 64)
	until, err := time.ParseDuration(m[3])
	if err != nil {
		t.Fatal(err)
	}
	s, cfg, err := session.Open(session.Source{Preset: m[1], Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	again := run(t, "rerun", s, cfg, until)
	if again.Hash != tr.Hash || len(again.Events) != len(tr.Events) {
		t.Errorf("the report's command records %d events, hash %s; the trace has %d, hash %s", len(again.Events), again.Hash, len(tr.Events), tr.Hash)
	}
}

// TestMarkdownCountsAsCSV: the report's table of messages by type and fate is
// the CSV's message table counted by type and fate, in every trace, duplicates
// and losses of both copies included (the report counted deliveries and drops,
// and said 36,297 dropped where the CSV had 36,292 dropped messages).
func TestMarkdownCountsAsCSV(t *testing.T) {
	column := map[string]string{"delivered": FateDelivered, "dropped": FateDropped, "in flight": FateInFlight, "duplicates delivered": "duplicates"}
	for name, tr := range allTraces(t) {
		for _, f := range []Flags{{}, {From: "1s", To: "2s"}} {
			f.Format = "csv"
			out, err := exportErr(tr, f)
			if err != nil {
				continue // nothing in the window
			}
			rows, _ := readCSV(t, out)
			want := map[string]map[string]int{}
			for _, r := range rows {
				if want[r["type"]] == nil {
					want[r["type"]] = map[string]int{}
				}
				c := want[r["type"]]
				c["sent"]++
				c[r["fate"]]++
				if r["fate"] == FateDropped {
					c[r["drop_reason"]]++
				}
				if d, err := strconv.Atoi(r["duplicates"]); err == nil {
					c["duplicates"] += d
				}
			}
			f.Format = "md"
			_, table, _ := strings.Cut(export(t, tr, f), "## Messages by type and fate\n\n")
			lines := strings.Split(table, "\n")
			got := map[string]map[string]int{}
			if strings.HasPrefix(lines[0], "| type |") {
				head := strings.Split(strings.Trim(lines[0], "| "), " | ")
				for _, l := range lines[2:] {
					if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| **") {
						break
					}
					cells := strings.Split(strings.Trim(l, "| "), " | ")
					c := map[string]int{}
					for i, h := range head[1:] {
						if n, _ := strconv.Atoi(cells[i+1]); n != 0 {
							if k, ok := column[h]; ok {
								h = k
							}
							c[h] = n
						}
					}
					got[cells[0]] = c
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %+v: the report counts\n%v\nthe CSV\n%v", name, f, got, want)
			}
		}
	}
}

// TestMarkdownAtScale: beyond 12 nodes the report folds what it says of every
// node: its diagram declares only the participants its lines are about, the state
// table has one row per run of nodes in the same state, and lists of ids fold
// runs ("n1…n20 (20 nodes)"); at 12 nodes and fewer it lists every node.
func TestMarkdownAtScale(t *testing.T) {
	md := export(t, record(t, scaleFiles[0]), Flags{Format: "md"})
	if !strings.Contains(md, "| Nodes | 20: n1…n20 (20 nodes) (mesh topology) |") {
		t.Error("the nodes are not folded in the header")
	}
	blocks := mdBlocks(md)
	if len(blocks) != 1 {
		t.Fatalf("%d diagrams", len(blocks))
	}
	var declared []string
	named := map[string]bool{}
	for _, l := range strings.Split(blocks[0], "\n") {
		l = strings.TrimSpace(l)
		if id, ok := strings.CutPrefix(l, "participant "); ok {
			declared = append(declared, id)
			continue
		}
		for _, id := range regexp.MustCompile(`n\d+`).FindAllString(l, -1) {
			named[id] = true
		}
	}
	if len(declared) == 0 || len(declared) >= 20 {
		t.Errorf("the diagram declares %d participants of 20", len(declared))
	}
	for _, id := range declared {
		if !named[id] {
			t.Errorf("participant %s is declared but no line is about it", id)
		}
	}
	_, state, _ := strings.Cut(md, "## State at ")
	state, _, _ = strings.Cut(state, "\n\n## ")
	rows := strings.Count(state, "\n| n")
	if rows >= 20 || !strings.Contains(state, "| n1…n19 (19 nodes) |") {
		t.Errorf("the state table has %d rows for 20 nodes:\n%s", rows, state)
	}
	small := export(t, record(t, "bully"), Flags{Format: "md"})
	ids := record(t, "bully").Header.Info.IDs
	if n := strings.Count(mdBlocks(small)[0], "participant "); n != len(ids) || strings.Contains(small, "…n") {
		t.Errorf("a report of %d nodes declares %d participants or folds ids", len(ids), n)
	}
}

// flurryTrace is n nodes that all name n<n> leader, a crash of it, and after its
// recovery the others naming n<n-1> and back n<n>, one node after the other, 40
// changes in turn: what a big bully's recovery looks like.
func flurryTrace(n int) *trace.Trace {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	top := node.ID(n)
	tr := &trace.Trace{Header: trace.Header{Format: trace.Format, Version: trace.Version, Seed: 1,
		Info: trace.Info{Name: "flurry", Algorithm: "bully", Family: "election", IDs: ids}}}
	add := func(e trace.Event) {
		e.Seq = uint64(len(tr.Events) + 1)
		tr.Events = append(tr.Events, e)
	}
	names := func(t int64, who, leader node.ID) {
		add(trace.Event{T: t, Ev: trace.StatusEv, Node: who, Status: &node.Status{Leader: leader, Role: "follower"}})
	}
	for _, id := range ids {
		names(1000, id, top)
	}
	add(trace.Event{T: 2000, Ev: trace.Crash, Node: top})
	add(trace.Event{T: 3000, Ev: trace.Recover, Node: top, Inc: 2})
	for i := range 40 {
		names(4000+int64(i), node.ID(i/2%(n-1)+1), top-1+node.ID(i%2))
	}
	return tr
}

// TestMarkdownLeaderFlurry: beyond FoldAbove nodes, more than FlurryAfter leader
// changes in a row are one row of the faults table, which says how many, until
// when, by whom, to which leaders and where the last one went (a 300-node bully's
// recovery made 173 rows); at FoldAbove nodes each change is its own row.
func TestMarkdownLeaderFlurry(t *testing.T) {
	table := func(md string) []string {
		_, s, _ := strings.Cut(md, "|---:|---|\n")
		s, _, _ = strings.Cut(s, "\n\n")
		return strings.Split(s, "\n")
	}
	rows := table(export(t, flurryTrace(20), Flags{Format: "md"}))
	want := []string{
		"| 1ms | leader change: n1…n20 (20 nodes) → leader n20 |",
		"| 2ms | crash n20 |",
		"| 3ms | recover n20 (incarnation 2) |",
		"| 4ms | 40 leader changes in a row, until 4.039ms, by n1…n19 (19 nodes), to n19, n20; the last: n1 → leader n20 (was n19) |",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("the faults table of 20 nodes:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	tr := flurryTrace(20)
	o, err := ParseOptions(&tr.Header, Flags{Format: "md"})
	if err != nil {
		t.Fatal(err)
	}
	o.Lang = lang.Pt
	var b bytes.Buffer
	if err := Write(&b, TraceSource(tr), o); err != nil {
		t.Fatal(err)
	}
	pt := table(b.String())
	if len(pt) != 4 || !strings.Contains(pt[3], "40 trocas de líder seguidas, até 4.039ms") {
		t.Errorf("the flurry in Portuguese: %q", pt)
	}
	if rows := table(export(t, flurryTrace(FoldAbove), Flags{Format: "md"})); len(rows) != 3+40 {
		t.Errorf("the faults table of %d nodes has %d rows, want a row per change (43)", FoldAbove, len(rows))
	}
}
