package presets

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

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
// in time order, in memory that does not grow with the actions drawn; expanded up
// front, it died of out-of-memory at 7.8 GB.
func TestFaultsLazy(t *testing.T) {
	s, err := Parse("ring.toml", []byte("algorithm = \"ring\"\nnodes = 1000\ntopology = \"ring\"\nuntil = \"24h\"\n[faults]\ncrash_rate = \"0.2/s\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	src := cfg.Generated()
	afterResolve := heap()
	last, crashes := time.Duration(0), 0
	for range 1_000_000 {
		a, ok := src.Next()
		if !ok || a.At < last {
			t.Fatalf("action %v at %v after %v, or none", a.Action, a.At, last)
		}
		last = a.At
		if a.Action.Verb == "crash" {
			crashes++
		}
	}
	grew := int64(heap()) - int64(afterResolve)
	runtime.KeepAlive(src)
	t.Logf("resolve: %d kB; a million actions drawn (to t=%v): %d kB more", (afterResolve-before)>>10, last, grew>>10)
	if afterResolve-before > 16<<20 || grew > 1<<20 {
		t.Errorf("resolve took %d kB, drawing a million actions %d kB more", (afterResolve-before)>>10, grew>>10)
	}
	// 1000 processes at 0.2/s, down for 0.55 s on average: about 200 crashes a
	// second, so a million actions (half of them crashes) reach about 40 minutes.
	if last < 30*time.Minute || last > 60*time.Minute || crashes < 450_000 || crashes > 550_000 {
		t.Errorf("a million actions reach t=%v with %d crashes", last, crashes)
	}
}
