package presets

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	_ "github.com/clusterlab/clusterlab/algos/all"
)

// hostile holds every bad scenario file the lab has met, each with the one line it
// must get: file:line:col, what was found, what was expected. The head of each file
// is the same two lines, so the line numbers below start at 3 for the case's own
// text unless it replaces them.
var hostile = []struct {
	name, text, want string
}{
	// Ids, at the offending element.
	{"duplicate id", "algorithm = \"bully\"\nids = [1, 2, 2]", `h.toml:2:14: found id 2 a second time (first at 2:11), expected distinct ids`},
	{"negative id", "algorithm = \"bully\"\nids = [1, -2, 3]", `h.toml:2:11: found id -2, expected an id from 1 to 1,000,000,000`},
	{"zero id", "algorithm = \"bully\"\nids = [0]", `h.toml:2:8: found id 0, expected an id from 1 to 1,000,000,000`},
	{"empty ids", "algorithm = \"bully\"\nids = []", `h.toml:2:7: found ids = [], expected at least one id such as ids = [1, 2, 3]`},
	{"huge id", "algorithm = \"bully\"\nids = [99999999999999999999]", `h.toml:2:8: found 99999999999999999999 in ids, expected an id from 1 to 1,000,000,000`},
	{"id not a number", "algorithm = \"bully\"\nids = [1, \"a\"]", `h.toml:2:11: found "a" in ids, expected an id from 1 to 1,000,000,000`},
	{"ids not a list", "algorithm = \"bully\"\nids = \"x\"", `h.toml:2:7: found ids = "x", expected a list such as [1, 2, 3]`},
	{"nodes and ids disagree", "algorithm = \"bully\"\nnodes = 2\nids = [1, 2, 3]", `h.toml:2:9: found nodes = 2 with 3 ids, expected one or the other`},
	// Node counts and their limit.
	{"no nodes", "algorithm = \"bully\"\nnodes = 0", `h.toml:2:9: found nodes = 0, expected 1 to 4,096 for topology mesh (or ids = [...])`},
	{"too many nodes", "algorithm = \"bully\"\nnodes = 5000", `h.toml:2:9: found nodes = 5000, expected 1 to 4,096 for topology mesh (or ids = [...])`},
	{"nodes as text", "algorithm = \"bully\"\nnodes = \"three\"", `h.toml:2:9: found nodes = "three", expected a whole number such as 5`},
	{"nodes too large", "algorithm = \"bully\"\nnodes = 99999999999999999999", `h.toml:2:9: found nodes = 99999999999999999999, expected a whole number such as 5`},
	// Seeds: no Go type in the message.
	{"negative seed", "algorithm = \"bully\"\nnodes = 3\nseed = -1", `h.toml:3:8: found seed = -1, expected a whole number from 0 to 18446744073709551615`},
	{"fractional seed", "algorithm = \"bully\"\nnodes = 3\nseed = 1.5", `h.toml:3:8: found seed = 1.5, expected a whole number from 0 to 18446744073709551615`},
	// Graphs.
	{"unknown node in edges", "algorithm = \"yoyo\"\nnodes = 3\ntopology = \"graph\"\nedges = [[\"n1\",\"n2\"],[\"n2\",\"n7\"]]", `h.toml:4:28: found "n7", expected one of the scenario's nodes (n1 … n3)`},
	{"edge with one end", "algorithm = \"yoyo\"\nnodes = 3\ntopology = \"graph\"\nedges = [[\"n1\",\"n2\"],[\"n3\"]]", `h.toml:4:22: found an edge with 1 ends, expected two such as ["n1", "n2"]`},
	{"edge to itself", "algorithm = \"yoyo\"\nnodes = 2\ntopology = \"graph\"\nedges = [[\"n1\",\"n1\"]]", `h.toml:4:16: found the edge n1–n1, expected two different nodes`},
	{"disconnected graph", "algorithm = \"yoyo\"\nnodes = 4\ntopology = \"graph\"\nedges = [[\"n1\",\"n2\"],[\"n3\",\"n4\"]]", `h.toml:4:9: found n3 unreachable from n1 over the edges, expected a connected graph: yoyo needs every node to reach every other`},
	{"degree above n-1", "algorithm = \"bully\"\nnodes = 4\ndegree = 10\ntopology = \"graph\"", `h.toml:3:10: found degree = 10, expected 1 to 3 (nodes − 1)`},
	{"degree too large for a big graph", "algorithm = \"bully\"\nnodes = 1000000\ndegree = 999999\ntopology = \"graph\"", `h.toml:3:10: found degree = 999999, expected 1 to 16 for 1,000,000 nodes (at most 8,386,560 links in all, as many as the largest mesh)`},
	{"negative degree", "algorithm = \"bully\"\nnodes = 4\ndegree = -1\ntopology = \"graph\"", `h.toml:3:10: found degree = -1, expected 1 to 3 (nodes − 1)`},
	{"graph without edges", "algorithm = \"bully\"\nnodes = 4\ntopology = \"graph\"", `h.toml:3:12: found topology = "graph" without edges or degree, expected edges = [["n1","n2"], …] or degree = 3`},
	{"edges on a mesh", "algorithm = \"bully\"\nnodes = 2\nedges = [[\"n1\",\"n2\"]]", `h.toml:3:9: found edges with topology = "mesh", expected topology = "graph"`},
	// Parameters naming nodes.
	{"unknown initiator", "algorithm = \"bully\"\nnodes = 3\n[params]\ninitiators = [\"n1\", \"n9\"]", `h.toml:4:21: params.initiators: found "n9", expected one of the scenario's nodes (n1 … n3)`},
	// Links.
	{"link to an unknown node", "algorithm = \"bully\"\nnodes = 3\n[[links]]\nfrom = \"n1\"\nto = \"n8\"", `h.toml:5:6: found to = "n8", expected another of the scenario's nodes (n1 … n3)`},
	{"link from an unknown node", "algorithm = \"bully\"\nnodes = 3\n[[links]]\nfrom = \"x\"\nto = \"n2\"", `h.toml:4:8: found from = "x", expected one of the scenario's nodes (n1 … n3)`},
	{"link without to", "algorithm = \"bully\"\nnodes = 3\n[[links]]\nfrom = \"n1\"", `h.toml:3:1: found [[links]] without to, expected to = "n2"`},
	{"link loss above 1", "algorithm = \"bully\"\nnodes = 3\n[[links]]\nfrom = \"n1\"\nto = \"n2\"\nloss = 2.0", `h.toml:6:8: found loss = 2, expected a probability from 0 to 1`},
	{"link latency min above max", "algorithm = \"bully\"\nnodes = 3\n[[links]]\nfrom = \"n1\"\nto = \"n2\"\n[links.latency]\ndist = \"uniform\"\nmin = \"5s\"\nmax = \"1s\"", `h.toml:8:7: found min = "5s" above max = "1s", expected min <= max`},
	// Script and expectations.
	{"script without at", "algorithm = \"bully\"\nnodes = 3\n\n[[script]]\ndo = \"crash n1\"", `h.toml:4:1: found [[script]] without at, expected at = "3s" (a time up to until = "20s")`},
	{"script without do", "algorithm = \"bully\"\nnodes = 3\n[[script]]\nat = \"1s\"", `h.toml:3:1: found [[script]] without do, expected do = "crash n1" (an action)`},
	{"script after until", "algorithm = \"bully\"\nnodes = 3\nuntil = \"2s\"\n[[script]]\nat = \"10s\"\ndo = \"crash n1\"", `h.toml:5:6: found at = "10s", expected a time up to until = "2s" (the run ends there)`},
	{"expectation after until", "algorithm = \"bully\"\nnodes = 3\nuntil = \"2s\"\n[[expect]]\nat = \"10s\"\nthat = \"agree n3\"", `h.toml:5:6: found at = "10s", expected a time up to until = "2s" (the run ends there)`},
	{"expectation without that", "algorithm = \"bully\"\nnodes = 3\n[[expect]]\nat = \"1s\"", `h.toml:3:1: found [[expect]] without that, expected that = "agree n5" (an expectation)`},
	{"script at as a number", "algorithm = \"bully\"\nnodes = 3\n[[script]]\nat = 5\ndo = \"crash n1\"", `h.toml:4:6: found at = 5, expected a quoted string such as "3s"`},
	// Times and their ranges.
	{"until of 0", "algorithm = \"bully\"\nnodes = 3\nuntil = \"0s\"", `h.toml:3:9: found until = "0s", expected a duration from 1µs to 24h such as "20s"`},
	{"until too long", "algorithm = \"bully\"\nnodes = 3\nuntil = \"100000h\"", `h.toml:3:9: found until = "100000h", expected a duration from 1µs to 24h such as "20s"`},
	{"negative until", "algorithm = \"bully\"\nnodes = 3\nuntil = \"-1s\"", `h.toml:3:9: found until = "-1s", expected a duration from 1µs to 24h such as "20s"`},
	{"delta of 0", "algorithm = \"bully\"\nnodes = 3\n[network]\ndelta = \"0s\"", `h.toml:4:9: found delta = "0s", expected a duration from 1µs to 1h such as "50ms"`},
	{"settle too long", "algorithm = \"bully\"\nnodes = 3\n[monitors]\nsettle = \"2h\"", `h.toml:4:10: found settle = "2h", expected a duration from 0s to 1h such as "3s"`},
	// The network.
	{"latency min above max", "algorithm = \"bully\"\nnodes = 3\n[network]\nlatency = { dist = \"uniform\", min = \"50ms\", max = \"20ms\" }", `h.toml:4:37: found min = "50ms" above max = "20ms", expected min <= max`},
	{"latency mean outside", "algorithm = \"bully\"\nnodes = 3\n[network.latency]\ndist = \"normal\"\nmin = \"5ms\"\nmean = \"50ms\"\nmax = \"20ms\"", `h.toml:6:8: found latency { dist = "normal", min = "5ms", mean = "50ms", max = "20ms" }, expected min <= mean <= max`},
	{"latency too long", "algorithm = \"bully\"\nnodes = 3\n[network]\nlatency = { dist = \"uniform\", min = \"5ms\", max = \"2h\" }", `h.toml:4:50: found max = "2h", expected a duration from 0s to 1h such as "20ms"`},
	{"pareto from 0", "algorithm = \"bully\"\nnodes = 3\n[network]\nlatency = { dist = \"pareto\", min = \"0s\", mean = \"5ms\", max = \"1s\" }", `h.toml:4:36: found min = "0s", expected min > 0 for a pareto latency`},
	{"latency as a number", "algorithm = \"bully\"\nnodes = 3\n[network]\nlatency = 3", `h.toml:4:11: found latency = 3, expected a table such as { dist = "uniform", min = "5ms", max = "20ms" }`},
	{"loss above 1", "algorithm = \"bully\"\nnodes = 3\n[network]\nloss = 1.5", `h.toml:4:8: found loss = 1.5, expected a probability from 0 to 1`},
	{"negative dup", "algorithm = \"bully\"\nnodes = 3\n[network]\ndup = -0.1", `h.toml:4:7: found dup = -0.1, expected a probability from 0 to 1`},
	{"loss as text", "algorithm = \"bully\"\nnodes = 3\n[network]\nloss = \"x\"", `h.toml:4:8: found loss = "x", expected a number from 0 to 1 such as 0.1`},
	{"loss not a number", "algorithm = \"bully\"\nnodes = 3\n[network]\nloss = nan", `h.toml:4:8: found loss = NaN, expected a probability from 0 to 1`},
	{"link dup infinite", "algorithm = \"bully\"\nnodes = 3\n[[links]]\nfrom = \"n1\"\nto = \"n2\"\ndup = inf", `h.toml:6:7: found dup = +Inf, expected a probability from 0 to 1`},
	// Algorithm parameters: each number and duration within its range.
	{"cs_rate too high", "algorithm = \"ricart\"\nnodes = 3\n[params]\ncs_rate = 1e12", `h.toml:4:11: params.cs_rate: found cs_rate = 1e12, expected 0 to 10000 per second`},
	{"cs_rate negative", "algorithm = \"ricart\"\nnodes = 3\n[params]\ncs_rate = -1", `h.toml:4:11: params.cs_rate: found cs_rate = -1, expected 0 to 10000 per second`},
	{"cs_rate not a number", "algorithm = \"ricart\"\nnodes = 3\n[params]\ncs_rate = nan", `h.toml:4:11: params.cs_rate: found cs_rate = NaN, expected a finite number`},
	{"duration parameter too long", "algorithm = \"bully\"\nnodes = 3\n[params]\nheartbeat = \"2h\"", `h.toml:4:13: params.heartbeat: found heartbeat = "2h", expected 1µs to 1h`},
	// Unknown keys: the keys valid there, and a near miss.
	{"unknown top-level key", "algorithm = \"bully\"\nnodes = 3\ncolr = 1", `h.toml:3:1: found unknown key "colr", expected one of the top-level keys: name, description, algorithm, nodes, ids, seed, until, topology, edges, degree, order, faults, params, network, monitors, links, script, expect`},
	{"typo in [network]", "algorithm = \"bully\"\nnodes = 3\n[network]\nlos = 0.1", `h.toml:4:1: found unknown key "los" (did you mean "loss"?), expected one of the keys of [network]: latency, loss, dup, gst, delta, pre_gst`},
	{"typo in a table name", "algorithm = \"bully\"\nnodes = 3\n[monitor]\nsettle = \"1s\"", `h.toml:3:2: found unknown key "monitor" (did you mean "monitors"?), expected one of the top-level keys:`},
	{"typo in a latency", "algorithm = \"bully\"\nnodes = 3\n[network]\nlatency = { dist = \"uniform\", mn = \"5ms\", max = \"20ms\" }", `h.toml:4:31: found unknown key "mn" (did you mean "min"?), expected one of the keys of [network.latency]: dist, min, mean, max`},
	{"unknown table with a sub-table", "algorithm = \"bully\"\nnodes = 3\n[pa.rams]\nx = 1", `h.toml:3:2: found unknown key "pa", expected one of the top-level keys:`},
	{"unknown key in a sub-table", "algorithm = \"bully\"\nnodes = 3\n[network.pre_gst]\nlos = 0.1", `h.toml:4:1: found unknown key "los" (did you mean "loss"?), expected one of the keys of [network.pre_gst]: latency, loss`},
	// Not TOML at all.
	{"bad toml", "algorithm = \"bully\"\nnodes = = 3", `h.toml:2:9: found unexpected character U+003D '=' at start of value, expected valid TOML`},
	{"binary junk", "\x00\x01\x02", `h.toml:1:1: found`},
	{"a key given twice", "algorithm = \"bully\"\nnodes = 3\nnodes = 4", `h.toml:3:1: found nodes a second time, expected each key once in its table`},
	{"a key given twice in a table", "algorithm = \"bully\"\nnodes = 3\n[network]\nloss = 0.1\nloss = 0.2", `h.toml:5:1: found loss a second time, expected each key once in its table`},
	{"a byte-order mark", "\ufeffalgorithm = \"bully\"\nnodes = 3", `h.toml:1:1: found a byte-order mark (U+FEFF) at the start of the file, expected plain UTF-8: remove the byte-order mark`},
	{"a crash rate of 1e9/s", "algorithm = \"bully\"\nnodes = 3\n[faults]\ncrash_rate = \"1e9/s\"", `h.toml:4:14: found "1e9/s", expected at most 1000/s per process`},
	{"an interval of 0s", "algorithm = \"heartbeat-dp\"\nnodes = 3\nparams = { interval = \"0s\" }", `h.toml:3:23: params.interval: found interval = "0s", expected 1µs to 1h`},
}

// TestHostileScenarios checks the exact one-line error of every hostile input, and
// that no message leaks a Go type or package name.
func TestHostileScenarios(t *testing.T) {
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("h.toml", []byte(tc.text+"\n"))
			if err == nil {
				t.Fatalf("accepted:\n%s", tc.text)
			}
			got := err.Error()
			if !strings.HasPrefix(got, tc.want) || strings.Contains(got, "\n") {
				t.Fatalf("error\n got: %s\nwant: %s", got, tc.want)
			}
			_, msg, _ := strings.Cut(strings.TrimPrefix(got, "h.toml:"), ": ")
			for _, leak := range []string{"presets.", "netsim.", "struct", "int64", "uint64", "float64", "[]int", "[]string", "toml:", "Go "} {
				if strings.Contains(msg, leak) {
					t.Fatalf("%q leaks %q", msg, leak)
				}
			}
		})
	}
}

// TestHostileFiles: devices, pipes and huge files get one line at once, without
// being read whole.
func TestHostileFiles(t *testing.T) {
	dir := t.TempDir()
	big := dir + "/big.toml"
	if err := os.WriteFile(big, make([]byte, MaxFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := dir + "/fifo.toml"
	hasFIFO := exec.Command("mkfifo", fifo).Run() == nil
	for _, tc := range []struct{ file, want string }{
		{"/dev/zero", "/dev/zero: found a device, pipe or directory, expected a scenario file (TOML)"},
		{"/dev/urandom", "/dev/urandom: found a device, pipe or directory, expected a scenario file (TOML)"},
		{dir, dir + ": found a device, pipe or directory, expected a scenario file (TOML)"},
		{fifo, fifo + ": found a device, pipe or directory, expected a scenario file (TOML)"},
		{big, big + ": found a file over 1,048,576 bytes, expected a scenario file of at most 1,048,576 bytes"},
	} {
		if tc.file == fifo && !hasFIFO {
			continue
		}
		if _, err := os.Stat(tc.file); err != nil {
			continue // no such device here
		}
		done := make(chan error, 1)
		go func() {
			_, err := LoadFile(tc.file)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || err.Error() != tc.want {
				t.Errorf("LoadFile(%s) = %v, want %s", tc.file, err, tc.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("LoadFile(%s) still reading after 5s", tc.file)
		}
	}
}

// TestHostileHeaders: the scenario a trace header carries gets the same kind of
// one-line error, with no Go type in it.
func TestHostileHeaders(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"algorithm":"bully","nodes":"five"}`, `t.jsonl:1: found a JSON string for the scenario's nodes in the header, expected a whole number such as 5`},
		{`{"algorithm":"bully","nodes":3,"network":{"loss":"x"}}`, `t.jsonl:1: found a JSON string for the scenario's network.loss in the header, expected a number from 0 to 1 such as 0.1`},
		{`{"algorithm":"bully","nodes":3,"colour":1}`, `t.jsonl:1: found the unknown key "colour" in the header's scenario, expected a key of the scenario format`},
		{`{"algorithm":"bully",`, `t.jsonl:1: found a scenario in the header that is not valid JSON (unexpected EOF), expected the scenario as the recording wrote it`},
		{`{"algorithm":"bully","nodes":3,"until":"0s"}`, `t.jsonl:1:1: found until = "0s", expected a duration from 1µs to 24h such as "20s"`},
	} {
		_, err := FromJSON("t.jsonl", []byte(tc.json))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.json, err, tc.want)
		}
	}
}
