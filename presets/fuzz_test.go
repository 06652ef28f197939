package presets

import (
	"testing"

	"github.com/clusterlab/clusterlab/internal/fuzzbound"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// FuzzParse checks that no scenario file makes the parser panic or hang, and that
// what it accepts resolves.
func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	for _, name := range Names() {
		data, _ := embedded.ReadFile("scenarios/" + name + ".toml")
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzbound.Input()()
		s, err := Parse("f.toml", data)
		if err != nil {
			return
		}
		if s.Nodes > 64 {
			return // resolving builds the algorithm for every node: keep the fuzzer fast
		}
		if _, err := s.Resolve(); err != nil {
			t.Fatalf("accepted scenario does not resolve: %v", err)
		}
	})
}

// FuzzAction checks that the action grammar never panics, and that whatever it
// accepts renders back to itself.
func FuzzAction(f *testing.F) {
	for _, s := range []string{"crash n1", "partition n1,n2 | n3", "cut n1->n2", "slow n2 10", "set latency uniform 5ms 20ms", `marker "x"`, "request n1 cs"} {
		f.Add(s)
	}
	ids := []node.ID{1, 2, 3}
	f.Fuzz(func(t *testing.T, s string) {
		defer fuzzbound.Input()()
		netsim.ParseAction(s, nil) // a scenario with no nodes: errors, never panics
		a, err := netsim.ParseAction(s, ids)
		if err != nil {
			return
		}
		b, err := netsim.ParseAction(a.String(), ids)
		if err != nil || b.String() != a.String() {
			t.Fatalf("%q → %q → %q (%v)", s, a.String(), b.String(), err)
		}
	})
}

// FuzzExpect checks that the expectation grammar never panics.
func FuzzExpect(f *testing.F) {
	for _, s := range []string{"leaders == 1", "agree n2", "no alert mutex", "sent ELECTION <= 4", "false-suspicions after gst == 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defer fuzzbound.Input()()
		netsim.ParseExpect(s, []node.ID{1, 2, 3})
	})
}
