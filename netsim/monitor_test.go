package netsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

func TestAlertTextsNameAtMostEight(t *testing.T) {
	ids := make([]node.ID, 4000)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	for _, c := range []struct {
		ids   []node.ID
		total int
		want  string
	}{
		{ids[:2], 2, "n1, n2"},
		{ids[:8], 8, "n1, n2, n3, n4, n5, n6, n7, n8"},
		{ids[:9], 9, "n1, n2, n3, n4, n5, n6, n7, n8 and 1 more"},
		{ids, 4000, "n1, n2, n3, n4, n5, n6, n7, n8 and 3,992 more"},
		{ids[:8], 1234567, "n1, n2, n3, n4, n5, n6, n7, n8 and 1,234,559 more"},
	} {
		if got := nodeList(c.ids, c.total); got != c.want {
			t.Errorf("nodeList(%d of %d) = %q, want %q", len(c.ids), c.total, got, c.want)
		}
	}
	for d, want := range map[time.Duration]string{4610 * time.Millisecond: "4.61 s", 710 * time.Millisecond: "710 ms", 895 * time.Microsecond: "0.895 ms"} {
		if got := lasted(d); got != want {
			t.Errorf("lasted(%v) = %q, want %q", d, got, want)
		}
	}
}

// labConfig is a lossless cluster of n processes running algo.
func labConfig(t interface{ Fatal(...any) }, algo string, n int, params map[string]any, lat Latency, topo string) Config {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	spec, f, err := algos.Build(algo, ids, params)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Name: algo, Spec: spec, Factory: f, IDs: ids, Seed: 1, Topology: topo,
		Net: Net{Latency: lat, Delta: 50 * time.Millisecond}, Monitors: DefaultMonitors}
}

// recount is what the monitors' incremental figures must equal: the same figures
// counted over every process from scratch.
func recount(w *World) (live, leaders int, follow map[node.ID]int, suspected map[node.ID]int, terms map[int64][]int) {
	follow, suspected, terms = map[node.ID]int{}, map[node.ID]int{}, map[int64][]int{}
	for _, p := range w.procs {
		if !p.up {
			continue
		}
		live++
		follow[p.status.Leader]++
		if p.status.Leader == p.id {
			leaders++
			terms[p.status.Term] = append(terms[p.status.Term], p.idx)
		}
		for _, s := range p.status.Suspects {
			suspected[s]++
		}
	}
	return
}

func checkFigures(t *rapid.T, w *World) {
	m := w.mon
	live, leaders, follow, suspected, terms := recount(w)
	if m.live != live || m.leaders != leaders || m.believed != len(follow) {
		t.Fatalf("t=%v: live %d leaders %d beliefs %d, recounted %d %d %d", w.now, m.live, m.leaders, m.believed, live, leaders, len(follow))
	}
	var sum int64
	for id, k := range follow {
		sum += int64(id) * int64(k)
		if m.follow[id] != k {
			t.Fatalf("t=%v: %d follow %v, recounted %d", w.now, m.follow[id], id, k)
		}
	}
	if sum != m.sumLeader || len(m.follow) != len(follow) {
		t.Fatalf("t=%v: beliefs %v (sum %d), recounted %v (sum %d)", w.now, m.follow, m.sumLeader, follow, sum)
	}
	if len(m.suspectedBy) != len(suspected) {
		t.Fatalf("t=%v: suspected %v, recounted %v", w.now, m.suspectedBy, suspected)
	}
	for id, k := range suspected {
		if m.suspectedBy[id] != k {
			t.Fatalf("t=%v: %v suspected by %d, recounted %d", w.now, id, m.suspectedBy[id], k)
		}
	}
	if m.terms {
		if len(m.termLeaders) != len(terms) {
			t.Fatalf("t=%v: term leaders %v, recounted %v", w.now, m.termLeaders, terms)
		}
		for term, ls := range terms {
			if !slices.Equal(m.termLeaders[term], ls) {
				t.Fatalf("t=%v: term %d led by %v, recounted %v", w.now, term, m.termLeaders[term], ls)
			}
		}
	}
}

// TestIncrementalFiguresMatchRecount: through crashes, revivals, partitions and
// heals, one event at a time, the monitors' running figures equal a recount, and
// every alert-cleared event closes an open alert of its kind, once.
func TestIncrementalFiguresMatchRecount(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		algo := rapid.SampledFrom([]string{"bully", "raft", "omega", "heartbeat-dp", "ricart", "central"}).Draw(rt, "algo")
		n := rapid.IntRange(2, 8).Draw(rt, "n")
		cfg := labConfig(rt, algo, n, nil, Latency{Dist: "uniform", Min: time.Millisecond, Mean: 10 * time.Millisecond, Max: 20 * time.Millisecond}, "")
		cfg.Seed = rapid.Uint64Range(1, 1000).Draw(rt, "seed")
		at := time.Duration(0)
		for i := rapid.IntRange(0, 6).Draw(rt, "faults"); i > 0; i-- {
			at += time.Duration(rapid.IntRange(50, 800).Draw(rt, "gap")) * time.Millisecond
			id := cfg.IDs[rapid.IntRange(0, n-1).Draw(rt, "node")]
			var a Action
			switch rapid.IntRange(0, 3).Draw(rt, "verb") {
			case 0:
				a = Action{Verb: "crash", Node: id}
			case 1:
				a = Action{Verb: "recover", Node: id}
			case 2:
				a = Action{Verb: "partition", Groups: [][]node.ID{{id}}}
			default:
				a = Action{Verb: "heal"}
			}
			cfg.Script = append(cfg.Script, Timed{At: at, Action: a})
		}
		sink := &collect{}
		w, err := New(cfg, sink)
		if err != nil {
			rt.Fatal(err)
		}
		defer w.Close()
		for w.Step() && w.now < at+2*time.Second {
			checkFigures(rt, w)
		}
		open := map[uint64]string{}
		for _, e := range sink.evs {
			switch e.Ev {
			case trace.Alert:
				open[e.Seq] = e.Kind
			case trace.AlertCleared:
				if open[e.Ref] != e.Kind {
					rt.Fatalf("alert-cleared %q (kind %s) refers to line %d, which is no open alert of that kind", e.Text, e.Kind, e.Ref)
				}
				delete(open, e.Ref)
			}
		}
	})
}

// lifecycle runs cfg to until and returns its alerts and alert-cleared events. It
// checks that the summary's alert log says the same.
func lifecycle(t *testing.T, cfg Config, until time.Duration) (alerts, cleared []trace.Event) {
	t.Helper()
	sink := &collect{}
	w, err := New(cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(until)
	defer func() {
		log := w.Summary().Alerts
		if len(log) != len(alerts) {
			t.Fatalf("summary has %d alerts, the trace %d", len(log), len(alerts))
		}
		for i, a := range alerts {
			want := AlertRecord{AtUS: a.T, Kind: a.Kind, Text: a.Text, ClearedUS: -1}
			for _, c := range cleared {
				if c.Ref == a.Seq {
					want.ClearedUS, want.Cleared = c.T, c.Text
				}
			}
			if log[i] != want {
				t.Errorf("summary alert %+v, want %+v", log[i], want)
			}
		}
	}()
	for _, e := range sink.evs {
		switch e.Ev {
		case trace.Alert:
			alerts = append(alerts, e)
		case trace.AlertCleared:
			cleared = append(cleared, e)
		}
	}
	return alerts, cleared
}

func script(t *testing.T, ids []node.ID, lines ...string) []Timed {
	var out []Timed
	for _, l := range lines {
		var at string
		fmt.Sscan(l, &at)
		d, err := time.ParseDuration(at)
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseAction(l[len(at)+1:], ids)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Timed{At: d, Action: a})
	}
	return out
}

// TestSplitBrainAndNoLeaderClear: bully split by a partition has two leaders, and
// the minority disagrees with the majority; after the heal n5 leads alone and both
// alerts are closed, naming their alerts' lines and how they ended.
func TestSplitBrainAndNoLeaderClear(t *testing.T) {
	cfg := labConfig(t, "bully", 5, nil, Latency{Dist: "uniform", Min: 5 * time.Millisecond, Mean: 12500 * time.Microsecond, Max: 20 * time.Millisecond}, "")
	cfg.Script = script(t, cfg.IDs, "3s partition n1,n2 | n3,n4,n5", "8s heal")
	alerts, cleared := lifecycle(t, cfg, 12*time.Second)
	byKind := map[string]trace.Event{}
	for _, a := range alerts {
		byKind[a.Kind] = a
	}
	for kind, how := range map[string]string{"split-brain": "one leader n5", "no-leader": "every live node follows n5"} {
		a, ok := byKind[kind]
		if !ok {
			t.Fatalf("no %s alert: %v", kind, alerts)
		}
		found := false
		for _, c := range cleared {
			if c.Ref == a.Seq {
				found = true
				want := fmt.Sprintf("over after %s: %s", lasted(time.Duration(c.T-a.T)*time.Microsecond), how)
				if c.Kind != kind || c.T < 8_000_000 || !strings.Contains(c.Text, want) {
					t.Errorf("%s cleared by %+v, want after the heal with %q", kind, c, want)
				}
			}
		}
		if !found {
			t.Errorf("%s alert %q (line %d) never cleared: %v", kind, a.Text, a.Seq, cleared)
		}
	}
}

// puppet is an algorithm whose status the test sets by requests: "lead", "follow
// nX", "none", "term K", "want", "hold", "release", "suspect nX", "trust nX",
// "elect" (counts an election it started). It lets each monitor be driven into
// and out of its condition exactly.
type puppet struct{ st node.Status }

func (p *puppet) Step(env *node.Env, ev node.Event) {
	if ev.Kind != node.Request {
		return
	}
	verb, arg, _ := strings.Cut(ev.Name, " ")
	id, _ := node.ParseID(arg)
	switch verb {
	case "lead":
		p.st.Leader = env.Self()
	case "follow":
		p.st.Leader = id
	case "none":
		p.st.Leader = node.None
	case "term":
		k, _ := strconv.Atoi(arg)
		p.st.Term = int64(k)
	case "want":
		p.st.CS = node.CSWanted
	case "hold":
		p.st.CS = node.CSHeld
	case "release":
		p.st.CS = node.CSNone
	case "suspect":
		p.st.Suspects = append(slices.Clone(p.st.Suspects), id)
	case "trust":
		p.st.Suspects = slices.DeleteFunc(slices.Clone(p.st.Suspects), func(q node.ID) bool { return q == id })
	case "elect":
		n, _ := p.st.Counter("elections")
		p.st.Counters = []node.Counter{{Name: "elections", Value: n + 1}}
	}
}

func (p *puppet) Status() node.Status { return p.st }

// puppets runs n puppets through steps ("1s n2 lead", "2s crash n3") and returns
// the alert and alert-cleared events as "t kind text" lines, alert-cleared ones
// with the time of the alert they refer to.
func puppets(t *testing.T, n int, terms bool, steps ...string) []string {
	t.Helper()
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	cfg := Config{Name: "puppets", Spec: algos.Spec{Name: "puppet", Terms: terms}, IDs: ids, Seed: 1,
		Factory:  func(node.ID) node.Algorithm { return &puppet{} },
		Net:      Net{Latency: Latency{Dist: "constant", Min: time.Millisecond, Mean: time.Millisecond, Max: time.Millisecond}, Delta: 50 * time.Millisecond},
		Monitors: DefaultMonitors}
	end := time.Duration(0)
	for _, s := range steps {
		f := strings.Fields(s)
		at, err := time.ParseDuration(f[0])
		if err != nil {
			t.Fatal(err)
		}
		end = max(end, at)
		var a Action
		if id, ok := node.ParseID(f[1]); ok && strings.HasPrefix(f[1], "n") {
			a = Action{Verb: "request", Node: id, What: strings.Join(f[2:], " ")}
		} else if a, err = ParseAction(strings.Join(f[1:], " "), ids); err != nil {
			t.Fatal(err)
		}
		cfg.Script = append(cfg.Script, Timed{At: at, Action: a})
	}
	alerts, cleared := lifecycle(t, cfg, end+10*time.Second)
	at := map[uint64]int64{}
	var out []string
	for _, e := range slices.Concat(alerts, cleared) {
		if e.Ev == trace.Alert {
			at[e.Seq] = e.T
			out = append(out, fmt.Sprintf("%v alert %s: %s", time.Duration(e.T)*time.Microsecond, e.Kind, e.Text))
			continue
		}
		if _, ok := at[e.Ref]; !ok {
			t.Errorf("%q refers to line %d, no alert before it", e.Text, e.Ref)
		}
		out = append(out, fmt.Sprintf("%v cleared %s (alert of %v): %s", time.Duration(e.T)*time.Microsecond, e.Kind, time.Duration(at[e.Ref])*time.Microsecond, e.Text))
	}
	slices.SortStableFunc(out, func(a, b string) int {
		da, _ := time.ParseDuration(strings.Fields(a)[0])
		db, _ := time.ParseDuration(strings.Fields(b)[0])
		return int(da - db)
	})
	return out
}

func TestAlertLifecycles(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		terms bool
		steps []string
		want  []string
	}{{
		name:  "split brain ends with one leader",
		n:     3,
		steps: []string{"1s n1 lead", "1s n2 lead", "1s n3 follow n1", "2s n2 follow n1"},
		want: []string{
			"1.2s alert split-brain: 2 live nodes lead at once: n1, n2",
			"2s cleared split-brain (alert of 1.2s): split brain over after 800 ms: one leader n1",
		},
	}, {
		name:  "split brain ends when a leader crashes, no leader when the rest agree",
		n:     3,
		steps: []string{"1s n1 lead", "1s n2 lead", "1s n3 follow n1", "2s crash n1", "9s n3 follow n2"},
		want: []string{
			"1.2s alert split-brain: 2 live nodes lead at once: n1, n2",
			"2s cleared split-brain (alert of 1.2s): split brain over after 800 ms: one leader n2",
			"4s alert no-leader: live nodes do not agree on a live leader: n2→n2, n3→n1",
			"9s cleared no-leader (alert of 4s): no leader over after 5.00 s: every live node follows n2",
		},
	}, {
		name:  "an election that stalls before any leader is seen",
		n:     3,
		steps: []string{"1s n1 elect", "1500ms n2 elect"},
		want: []string{
			"4.5s alert no-leader: live nodes do not agree on a live leader: n1→-, n2→-, n3→-",
		},
	}, {
		name:  "a slow election that keeps moving is left alone",
		n:     3,
		steps: []string{"1s n1 elect", "3s n2 elect", "5s n3 elect", "7s n1 lead", "7s n2 follow n1", "7s n3 follow n1"},
		want:  nil,
	}, {
		name:  "two leaders of one term",
		n:     3,
		terms: true,
		steps: []string{"1s n1 term 2", "1s n2 term 2", "1s n3 follow n1", "1s n1 lead", "1s n2 lead", "3s n2 follow n1"},
		want: []string{
			"1s alert split-brain: n1 and n2 both lead term 2",
			"3s cleared split-brain (alert of 1s): split brain over after 2.00 s: only n1 leads term 2",
		},
	}, {
		name:  "mutual exclusion restored",
		n:     3,
		steps: []string{"1s n1 hold", "1s n2 hold", "1s n3 hold", "1500ms n2 release", "2s crash n3"},
		want: []string{
			"1s alert mutex: 2 nodes hold the critical section at once: n1, n2",
			"1s alert mutex: 3 nodes hold the critical section at once: n1, n2, n3",
			"2s cleared mutex (alert of 1s): mutual exclusion violation over after 1.00 s: n1 holds the critical section",
			"2s cleared mutex (alert of 1s): mutual exclusion violation over after 1.00 s: n1 holds the critical section",
		},
	}, {
		name:  "starvation ends by entering, by giving up, by crashing",
		n:     3,
		steps: []string{"0s n1 want", "0s n2 want", "0s n3 want", "6s n1 hold", "7s n2 release", "8s crash n3"},
		want: []string{
			"5s alert starvation: n1 has waited 5s for the critical section",
			"5s alert starvation: n2 has waited 5s for the critical section",
			"5s alert starvation: n3 has waited 5s for the critical section",
			"6s cleared starvation (alert of 5s): starvation over after 1.00 s: n1 entered the critical section after waiting 6.00 s",
			"7s cleared starvation (alert of 5s): starvation over after 2.00 s: n2 no longer waits for the critical section",
			"8s cleared starvation (alert of 5s): starvation over after 3.00 s: n3 went down",
		},
	}, {
		name:  "false suspicions end by trust, by the suspect's crash, by the suspecter's",
		n:     4,
		steps: []string{"1s n1 suspect n2", "1s n1 suspect n3", "1s n4 suspect n2", "2s n1 trust n2", "3s crash n3", "4s crash n4"},
		want: []string{
			"1s alert false-suspicion: n1 suspects n2, which is up (after GST)",
			"1s alert false-suspicion: n1 suspects n3, which is up (after GST)",
			"1s alert false-suspicion: n4 suspects n2, which is up (after GST)",
			"2s cleared false-suspicion (alert of 1s): false suspicion over after 1.00 s: n1 no longer suspects n2",
			"3s cleared false-suspicion (alert of 1s): false suspicion over after 2.00 s: n3 is down now, as n1 suspected",
			"4s cleared false-suspicion (alert of 1s): false suspicion over after 3.00 s: n4 went down",
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			got := puppets(t, c.n, c.terms, c.steps...)
			if !slices.Equal(got, c.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(c.want, "\n\t"))
			}
		})
	}
}

// TestAutoSettleScales: the default settle time grows with the election on a ring,
// so a correct 4,000-node Chang-Roberts run with 1 ms links (about 12 s, of which
// the last 4 s carry ELECTED round the ring after the winner knows) raises no
// alert, where a fixed 3 s raised no-leader at 11 s. On small clusters and meshes
// it stays 3 s.
func TestAutoSettleScales(t *testing.T) {
	ms := Latency{Dist: "constant", Min: time.Millisecond, Mean: time.Millisecond, Max: time.Millisecond}
	uni := Latency{Dist: "uniform", Min: 5 * time.Millisecond, Mean: 12500 * time.Microsecond, Max: 20 * time.Millisecond}
	for _, c := range []struct {
		algo, topo string
		n          int
		lat        Latency
		want       time.Duration
	}{
		{"bully", "mesh", 5, uni, 3 * time.Second},
		{"bully", "mesh", 1000, uni, 3 * time.Second},
		{"ring", "ring", 8, uni, 3 * time.Second},
		{"ring", "ring", 4000, ms, 12 * time.Second},
		{"ring", "mesh", 4000, ms, 12 * time.Second}, // the logical ring, whatever the links
		{"ring", "ring", 100, Latency{Dist: "pareto", Min: time.Millisecond, Mean: 100 * time.Millisecond, Max: 4 * time.Second}, 15 * time.Second}, // Δ bounds the delay
	} {
		cfg := labConfig(t, c.algo, c.n, nil, c.lat, c.topo)
		w, err := New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.mon.settle(); got != c.want {
			t.Errorf("%s on a %d-node %s: settle %v, want %v", c.algo, c.n, c.topo, got, c.want)
		}
		w.Close()
	}
	if testing.Short() {
		t.Skip("the 4,000-node runs are skipped with -short")
	}
	for _, settle := range []time.Duration{SettleAuto, 3 * time.Second} {
		cfg := labConfig(t, "ring", 4000, map[string]any{"initiators": []any{"n1"}}, ms, "ring")
		cfg.Monitors.Settle = settle
		w, err := New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.RunUntil(20 * time.Second)
		w.Close()
		st, _ := w.Status(1)
		alerts := w.Summary().Alerts
		if settle == SettleAuto && (len(alerts) > 0 || st.Leader != 4000) {
			t.Errorf("auto settle: n1 follows %v, alerts %v; want n4000 and none", st.Leader, alerts)
		}
		if settle != SettleAuto && len(alerts) == 0 {
			t.Errorf("settle 3s raised no alert: the run does not show what the automatic settle is for")
		}
	}
}
