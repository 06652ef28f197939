package presets

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/internal/race"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

const faulty = `name = "f"
algorithm = "heartbeat-dp"
nodes = 4
seed = 3
until = "30s"

[faults]
crash_rate = "0.5/s"
down_for = {dist = "uniform", min = "100ms", max = "1s"}
nodes = ["n1", "n2"]
partition_rate = "0.1/s"
`

// TestFaultsExpandFromTheSeed: the generator gives the same script for the same seed,
// another for another seed, alternates crash and recover per node, only touches the
// listed nodes and stays inside the run.
func TestFaultsExpandFromTheSeed(t *testing.T) {
	script := func(seed uint64) string {
		s, err := Parse("f.toml", []byte(faulty))
		if err != nil {
			t.Fatal(err)
		}
		s.Seed = seed
		cfg, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		if len(cfg.Script) != 0 || cfg.Generated == nil {
			t.Fatalf("the faults were expanded up front: %d script actions", len(cfg.Script))
		}
		var b strings.Builder
		down := map[node.ID]bool{}
		last := time.Duration(0)
		src := cfg.Generated()
		for st, ok := src.Next(); ok; st, ok = src.Next() {
			if st.At < last || st.At >= cfg.Until {
				t.Fatalf("action %v at %v out of order or past the end", st.Action, st.At)
			}
			last = st.At
			switch st.Action.Verb {
			case "crash", "recover":
				if st.Action.Node != 1 && st.Action.Node != 2 {
					t.Fatalf("crashed %v, which is not listed", st.Action.Node)
				}
				if down[st.Action.Node] == (st.Action.Verb == "crash") {
					t.Fatalf("%v at %v: crash and recover do not alternate", st.Action, st.At)
				}
				down[st.Action.Node] = st.Action.Verb == "crash"
			}
			fmt.Fprintf(&b, "%v %v\n", st.At, st.Action)
		}
		return b.String()
	}
	a, b, c := script(3), script(3), script(4)
	if a != b {
		t.Fatal("the same seed gave two scripts")
	}
	if a == c {
		t.Fatal("two seeds gave the same script")
	}
	for _, verb := range []string{"crash n1", "recover n2", "partition", "heal"} {
		if !strings.Contains(a, verb) {
			t.Errorf("no %q in 30s at these rates:\n%s", verb, a)
		}
	}
}

func TestOrder(t *testing.T) {
	for _, tc := range []struct {
		order string
		want  []node.ID
	}{{"increasing", []node.ID{1, 2, 3, 4}}, {"decreasing", []node.ID{4, 3, 2, 1}}, {"bit-reversal", []node.ID{4, 2, 3, 1}}} {
		s, err := Parse("o.toml", []byte("algorithm = \"heartbeat-dp\"\nids = [3, 1, 4, 2]\norder = \""+tc.order+"\"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.NodeIDs(); !slices.Equal(got, tc.want) {
			t.Errorf("order %s: %v, want %v", tc.order, got, tc.want)
		}
	}
	s, err := Parse("o.toml", []byte("algorithm = \"heartbeat-dp\"\nnodes = 16\norder = \"random\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ids := s.NodeIDs(); slices.IsSorted(ids) || !slices.Equal(slices.Sorted(slices.Values(ids)), (&Scenario{Nodes: 16}).NodeIDs()) {
		t.Errorf("random order: %v", ids)
	}
}

func TestBadFaults(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"order = \"sideways\"", `b.toml:3:9: found order = "sideways", expected increasing, decreasing, random, bit-reversal`},
		{"[faults]\ncrash_rate = \"often\"", `b.toml:4:14: found "often", expected a rate such as "0.2/s"`},
		{"[faults]\ncrash_rate = \"1e9/s\"", `b.toml:4:14: found "1e9/s", expected at most 1000/s per process`},
		{"[faults]\npartition_rate = \"2/ms\"", `b.toml:4:18: found "2/ms", expected at most 1000/s`},
		{"[faults]\nnodes = [\"n9\"]", `b.toml:4:10: found "n9", expected one of the scenario's nodes`},
		{"[faults]\ndown_for = {dist = \"uniform\", min = \"1s\", max = \"1ms\"}", `b.toml:4:37: found min = "1s" above max = "1ms", expected min <= max`},
	} {
		_, err := Parse("b.toml", []byte("algorithm = \"heartbeat-dp\"\nnodes = 3\n"+tc.text+"\n"))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.text, err, tc.want)
		}
	}
}

// TestFaultsLazy: the case, a 1000-node ring with crash_rate = "0.2/s" for
// 24 hours (35 million actions), resolves at once and draws its actions as asked,
// in time order, in memory that does not grow with the actions drawn (the first
// world's pass that finds where each process's draws begin keeps nothing but
// those places); expanded up front, it died of out-of-memory at 7.8 GB.
func TestFaultsLazy(t *testing.T) {
	nodes, draws := 1000, 1_000_000
	if race.Enabled {
		// The first world's pass over the 35 million draws takes a minute
		// under the race detector: a tenth of it here, whole in .ci/run's
		// plain pass.
		nodes, draws = 100, 100_000
	}
	s, err := Parse("ring.toml", []byte(fmt.Sprintf("algorithm = \"ring\"\nnodes = %d\ntopology = \"ring\"\nuntil = \"24h\"\n[faults]\ncrash_rate = \"0.2/s\"\n", nodes)))
	if err != nil {
		t.Fatal(err)
	}
	heap := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	before := heap()
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	src := cfg.Generated()
	afterResolve := heap()
	last, crashes := time.Duration(0), 0
	for range draws {
		a, ok := src.Next()
		if !ok || a.At < last {
			t.Fatalf("action %v at %v after %v, or none", a.Action, a.At, last)
		}
		last = a.At
		if a.Action.Verb == "crash" {
			crashes++
		}
	}
	grew := heap() - afterResolve
	runtime.KeepAlive(src)
	t.Logf("resolve and the first world's source: %d kB; %d actions drawn (to t=%v): %d kB more", (afterResolve-before)>>10, draws, last, grew>>10)
	if afterResolve-before > 16<<20 || grew > 1<<20 {
		t.Errorf("resolve took %d kB, drawing %d actions %d kB more", (afterResolve-before)>>10, draws, grew>>10)
	}
	// Each process at 0.2/s, down for 0.55 s on average: a thousand make about
	// 200 crashes a second, so a million actions (half of them crashes) reach
	// about 40 minutes; a hundred, a tenth as many in as long.
	if last < 30*time.Minute || last > 60*time.Minute || crashes < draws*45/100 || crashes > draws*55/100 {
		t.Errorf("%d actions reach t=%v with %d crashes", draws, last, crashes)
	}
}

// expandFaults is the generator's definition as it was written before it became
// lazy: every action drawn up front from one source, then sorted by time. The lazy
// generator must give exactly its actions, in its order, so that the runs (and the
// sweeps' figures) of scenarios with [faults] stay what they were.
func expandFaults(s *Scenario, ids []node.ID, until time.Duration) []netsim.Timed {
	f := s.Faults
	r := rand.New(rand.NewPCG(s.Seed, 0x6661756c7473))
	down, _ := f.DownFor.resolve()
	crash, _ := ParseRate(f.CrashRate)
	part, _ := ParseRate(f.PartitionRate)
	gap := func(rate float64) time.Duration {
		return time.Duration(r.ExpFloat64() / rate * float64(time.Second)).Round(time.Microsecond)
	}
	var out []netsim.Timed
	add := func(at time.Duration, a netsim.Action) { out = append(out, netsim.Timed{At: at, Action: a}) }
	victims := ids
	if len(f.Nodes) > 0 {
		victims = nil
		for _, n := range f.Nodes {
			id, _ := node.ParseID(n)
			victims = append(victims, id)
		}
	}
	victims = slices.Compact(slices.Sorted(slices.Values(victims)))
	for _, id := range victims {
		for t := time.Duration(0); crash > 0; {
			if t += gap(crash); t >= until {
				break
			}
			add(t, netsim.Action{Verb: "crash", Node: id})
			if t += down.Sample(r).Round(time.Microsecond); t >= until {
				break
			}
			add(t, netsim.Action{Verb: "recover", Node: id})
		}
	}
	for t := time.Duration(0); part > 0 && len(ids) > 1; {
		if t += gap(part); t >= until {
			break
		}
		add(t, netsim.Action{Verb: "partition", Groups: netsim.TwoSides(ids, r)})
		if t += down.Sample(r).Round(time.Microsecond); t >= until {
			break
		}
		add(t, netsim.Action{Verb: "heal"})
	}
	slices.SortStableFunc(out, func(x, y netsim.Timed) int { return cmp.Compare(x.At, y.At) })
	return out
}

// TestFaultsAsDefined: the lazy generator gives the definition's actions exactly,
// for crashes alone, partitions alone, both, listed processes and rates that make
// many actions share an instant.
func TestFaultsAsDefined(t *testing.T) {
	for _, tc := range []string{
		"nodes = 5\nuntil = \"60s\"\n[faults]\ncrash_rate = \"0.5/s\"\n",
		"nodes = 5\nuntil = \"60s\"\n[faults]\npartition_rate = \"0.3/s\"\n",
		"nodes = 6\nuntil = \"2m\"\n[faults]\ncrash_rate = \"0.2/s\"\npartition_rate = \"0.1/s\"\nnodes = [\"n4\", \"n2\", \"n2\"]\n",
		"nodes = 40\nuntil = \"5s\"\n[faults]\ncrash_rate = \"200/s\"\npartition_rate = \"100/s\"\ndown_for = { dist = \"constant\", mean = \"0s\" }\n",
	} {
		for _, seed := range []uint64{1, 7, 42} {
			s, err := Parse("f.toml", []byte("algorithm = \"heartbeat-dp\"\nseed = "+fmt.Sprint(seed)+"\n"+tc))
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := s.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			want := expandFaults(s, s.NodeIDs(), cfg.Until)
			var got []netsim.Timed
			for range 2 { // a second world draws the same
				got = got[:0]
				src := cfg.Generated()
				for a, ok := src.Next(); ok; a, ok = src.Next() {
					got = append(got, a)
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("seed %d, %q:\n got %d actions %v\nwant %d actions %v", seed, tc, len(got), head(got), len(want), head(want))
				}
			}
			if len(want) < 5 {
				t.Errorf("seed %d, %q: only %d actions", seed, tc, len(want))
			}
		}
	}
}

func head(ts []netsim.Timed) []netsim.Timed { return ts[:min(len(ts), 8)] }

// TestFaultsEnd: faults.end draws the generator's last action before it,
// schedules the world's restore there (netsim.Config.FaultsEnd), is written into
// the trace header's scenario only when set, and is refused outside 0 to until
// with the key's place.
func TestFaultsEnd(t *testing.T) {
	resolve := func(text string) netsim.Config {
		s, err := Parse("f.toml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	last := func(cfg netsim.Config) time.Duration {
		var at time.Duration
		src := cfg.Generated()
		for st, ok := src.Next(); ok; st, ok = src.Next() {
			at = st.At
		}
		return at
	}
	plain := resolve(faulty)
	if plain.FaultsEnd != nil || strings.Contains(string(plain.Scenario), `"end"`) {
		t.Fatalf("without end: FaultsEnd %v, header %s", plain.FaultsEnd, plain.Scenario)
	}
	if last(plain) < 10*time.Second {
		t.Fatalf("the generator's last action is at %v: the test needs one after 10s", last(plain))
	}
	ended := resolve(faulty + "end = \"10s\"\n")
	if ended.FaultsEnd == nil || *ended.FaultsEnd != 10*time.Second || !strings.Contains(string(ended.Scenario), `"end":"10s"`) {
		t.Fatalf("with end: FaultsEnd %v, header %s", ended.FaultsEnd, ended.Scenario)
	}
	if at := last(ended); at >= 10*time.Second {
		t.Errorf("the generator drew an action at %v, after the end of every fault", at)
	}
	alone := resolve("name = \"e\"\nalgorithm = \"bully\"\nnodes = 3\nuntil = \"5s\"\n[faults]\nend = \"0s\"\n")
	if alone.Generated != nil || alone.FaultsEnd == nil || *alone.FaultsEnd != 0 {
		t.Errorf("[faults] with end alone: generator %v, end %v", alone.Generated != nil, alone.FaultsEnd)
	}
	for _, c := range []struct{ end, want string }{
		{`"31s"`, `f.toml:12:7: found end = "31s", expected a time up to until = "30s" (the run ends there)`},
		{`"-1s"`, `f.toml:12:7: found end = "-1s", expected a time such as "3s"`},
		{`"soon"`, `f.toml:12:7: found end = "soon", expected a time such as "3s"`},
	} {
		_, err := Parse("f.toml", []byte(faulty+"end = "+c.end+"\n"))
		if err == nil || err.Error() != c.want {
			t.Errorf("end = %s: %v, expected %s", c.end, err, c.want)
		}
	}
}
