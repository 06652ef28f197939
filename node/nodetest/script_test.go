package nodetest_test

import (
	"testing"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func TestScriptCentral(t *testing.T) {
	nodetest.RunScript(t, "testdata/central.txt", "central")
}
