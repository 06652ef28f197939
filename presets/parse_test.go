package presets

import (
	"strings"
	"testing"

	_ "github.com/clusterlab/clusterlab/algos/detector"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

const good = `name = "t"
algorithm = "heartbeat-dp"
nodes = 3
seed = 1

[params]
interval = "100ms"

[network]
latency = { dist = "uniform", min = "5ms", max = "20ms" }

[[script]]
at = "1s"
do = "crash n3"

[[expect]]
at = "2s"
that = "suspects n1 n3"
`

// TestBadScenarios checks the exact one-line error of each bad input.
func TestBadScenarios(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"unknown key", `seed = 1`, "seed = 1\ncolour = \"red\"", `t.toml:5:1: found unknown key "colour", expected one of the top-level keys: name, description, algorithm, nodes, ids, seed,`},
		{"unknown algorithm", `"heartbeat-dp"`, `"paxos"`, `t.toml:2:13: found algorithm "paxos", expected one of: `},
		{"bad node count", `nodes = 3`, `nodes = 0`, `t.toml:3:9: found nodes = 0, expected 1 to 4,096 for topology mesh (or ids = [...])`},
		{"bad duration param", `interval = "100ms"`, `interval = "fast"`, `t.toml:7:12: params.interval: found "fast", expected a duration such as "100ms"`},
		{"unknown param", `interval = "100ms"`, `intervl = "100ms"`, `t.toml:7:11: found unknown parameter "intervl" (did you mean "interval"?), expected one of the parameters of heartbeat-dp: interval, timeout, delta (clusterlab algos lists them)`},
		{"unknown node in action", `"crash n3"`, `"crash n9"`, `t.toml:14:13: found "n9", expected one of the scenario's nodes (n1 … n3)`},
		{"unknown verb", `"crash n3"`, `"smash n3"`, `t.toml:14:7: found "smash", expected an action: ` + netsim.Grammar},
		{"bad time", `at = "1s"`, `at = "soon"`, `t.toml:13:6: found at = "soon", expected a time such as "3s"`},
		{"bad expectation", `"suspects n1 n3"`, `"suspects n1"`, `t.toml:18:20: found the end, expected "suspects nA nB"`},
		{"bad latency", `dist = "uniform"`, `dist = "gaussian"`, `t.toml:10:20: found dist = "gaussian", expected one of constant, uniform, normal, exponential, pareto`},
		{"bad loss", `[network]`, "[network]\nloss = 1.5", `t.toml:10:8: found loss = 1.5, expected a probability from 0 to 1`},
		{"bad gst", `[network]`, "[network]\ngst = \"later\"", `t.toml:10:7: found gst = "later", expected "0s", "never" or a time up to 24h such as "10s"`},
		{"bad topology", `seed = 1`, "seed = 1\ntopology = \"star\"", `t.toml:5:12: found topology = "star", expected mesh, ring or graph`},
		{"bad toml", `nodes = 3`, `nodes = = 3`, `t.toml:3:9: found unexpected character U+003D '=' at start of value, expected valid TOML`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(good, tc.old, tc.new, 1)
			if src == good {
				t.Fatalf("replacement %q not found", tc.old)
			}
			_, err := Parse("t.toml", []byte(src))
			if err == nil {
				t.Fatal("no error")
			}
			if got := err.Error(); !strings.HasPrefix(got, tc.want) || strings.Contains(got, "\n") {
				t.Fatalf("error\n got: %s\nwant: %s", got, tc.want)
			}
		})
	}
}

func TestGoodScenarioResolves(t *testing.T) {
	s, err := Parse("t.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.IDs) != 3 || cfg.Net.Delta.String() != "50ms" || len(cfg.Script) != 1 || cfg.Script[0].Action.Node != 3 {
		t.Fatalf("resolved %+v", cfg)
	}
	// The resolved scenario round-trips through a trace header.
	back, err := FromJSON("h", cfg.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	cfg2, err := back.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if string(cfg2.Scenario) != string(cfg.Scenario) {
		t.Fatalf("header round trip changed the scenario:\n%s\n%s", cfg.Scenario, cfg2.Scenario)
	}
}

func TestBadActions(t *testing.T) {
	ids := []node.ID{1, 2, 3}
	for _, tc := range []struct{ in, want string }{
		{"", "col 1: found nothing, expected an action"},
		{"crash", `col 6: found the end, expected "crash nX"`},
		{"crash n1 n2", `col 10: found "n2", expected the end after "crash nX"`},
		{"cut n1-n2", `col 5: found "n1-n2", expected a link such as n1->n2`},
		{"cut n1->n1", `col 5: found "n1->n1", expected a link between two different nodes`},
		{"partition n1,n1 | n2", `col 14: found n1 twice, expected each node in one group`},
		{"partition n1,n2,n3", `col 11: found one group with every node, expected at least two groups`},
		{"partition n1 | | n2", `col 16: found an empty group, expected nodes such as n1,n2`},
		{"slow n2 0", `col 9: found "0", expected a whole factor from 1 to 1000`},
		{"set loss 2", `col 10: found "2", expected a probability from 0 to 1`},
		{"set loss nan", `col 10: found "nan", expected a probability from 0 to 1`},
		{"set speed 2", `col 5: found "speed", expected a knob: loss, dup or latency`},
		{"set latency uniform 5ms", `col 13: expected a latency such as`},
		{"request n2 lunch", `col 12: found "lunch", expected "election" or "cs"`},
		{"marker hello", `col 8: found hello, expected a quoted text such as marker "watch n5"`},
		{"recover x1", `col 9: found "x1", expected a node such as n1`},
	} {
		_, err := netsim.ParseAction(tc.in, ids)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ParseAction(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	for _, in := range []string{"crash n1", "partition n1,n2 | n3", "partition n1|n2,n3", "cut n1->n2", "slow n2 10",
		"set latency pareto 5ms 150ms 4s", "set loss 0.1", "request n3 cs", `marker "a \"quoted\" text"`, "heal", "gst", "isolate n3"} {
		a, err := netsim.ParseAction(in, ids)
		if err != nil {
			t.Errorf("ParseAction(%q): %v", in, err)
			continue
		}
		b, err := netsim.ParseAction(a.String(), ids)
		if err != nil || b.String() != a.String() {
			t.Errorf("%q renders as %q, which reads back as %q (%v)", in, a.String(), b.String(), err)
		}
	}
}

func TestPresetsParse(t *testing.T) {
	if len(Names()) < 3 {
		t.Fatalf("presets: %v", Names())
	}
}

// TestPerfectNeedsSynchrony: an algorithm on the perfect detector P is refused
// outside a synchronous, lossless run, with the reason, at the offending key.
func TestPerfectNeedsSynchrony(t *testing.T) {
	base := strings.Replace(strings.Replace(good, `"heartbeat-dp"`, `"perfect"`, 1), `interval = "100ms"`, `detect = "100ms"`, 1)
	why := "the perfect failure detector P needs a synchronous run"
	for _, tc := range []struct{ old, new, want string }{
		{`[network]`, "[network]\ngst = \"5s\"", `t.toml:10:7: found gst = "5s", expected "0s": ` + why},
		{`[network]`, "[network]\nloss = 0.1", `t.toml:10:8: found loss = 0.1, expected 0: ` + why},
		{`do = "crash n3"`, `do = "set loss 0.2"`, `t.toml:14:6: found "set loss 0.2", expected no loss: ` + why},
	} {
		_, err := Parse("t.toml", []byte(strings.Replace(base, tc.old, tc.new, 1)))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %s", tc.new, err, tc.want)
		}
	}
	s, err := Parse("t.toml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Resolve()
	if err != nil || cfg.CrashNotice.String() != "100ms" {
		t.Fatalf("resolved notice %v (%v), want 100ms", cfg.CrashNotice, err)
	}
}
