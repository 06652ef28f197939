package netsim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/session"
)

// TestObservedTextFolds: beyond 12 nodes, what an expectation observed names at
// most 8 nodes, those that decide it first, and counts the others (agree n100000
// wrote a 1.7 MB line); at 12 nodes and fewer it names every node, as before.
func TestObservedTextFolds(t *testing.T) {
	run := func(nodes string) []netsim.Result {
		file := filepath.Join(t.TempDir(), "s.toml")
		os.WriteFile(file, []byte(`name = "fold"
algorithm = "bully"
nodes = `+nodes+`
seed = 7
until = "1500ms"

[network]
latency = { dist = "uniform", min = "5ms", max = "30ms" }

[[script]]
at = "1s"
do = "isolate n3"

[[expect]]
that = "agree n`+nodes+`"
[[expect]]
that = "leaders == 1"
[[expect]]
that = "suspects n1 n2"
`), 0o644)
		_, cfg, err := session.Open(session.Source{File: file})
		if err != nil {
			t.Fatal(err)
		}
		sum, err := session.Run(cfg, cfg.Until, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sum.Expectations
	}
	big := run("40")
	agree := big[0].Got
	if !strings.HasPrefix(agree, "n3→") || !strings.HasSuffix(agree, " and 32 more") || strings.Count(agree, "→") != 8 {
		t.Errorf("agree n40 observed %q: want n3 (isolated, it disagrees) first, 8 nodes named, 32 more counted", agree)
	}
	if got := big[1].Got; !strings.HasPrefix(got, "2 leaders [n3 n40]") {
		t.Errorf("leaders == 1 observed %q", got)
	}
	small := run("12")
	if agree := small[0].Got; strings.Count(agree, "→") != 12 || strings.Contains(agree, "more") {
		t.Errorf("agree n12 observed %q: want all 12 nodes, in order", agree)
	}
}
