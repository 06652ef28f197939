package session

import (
	"fmt"

	"github.com/clusterlab/clusterlab/internal/membudget"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// foldBytesPerNode is what folding a recording holds per process and state kept:
// the node's view (trace.NodeView, 200 bytes, and the status it points to) and its
// index entry.
const foldBytesPerNode = 320

// NeedFold is needFold, for a command that folds a recording itself (export).
func NeedFold(path string, hdr trace.Header, states int) error { return needFold(path, hdr, states) }

// needFold refuses to fold path, whose header says hdr, into states copies of its
// state when the memory budget cannot hold them: checked as soon as the header is
// read, so that a header edited to say a million nodes costs nothing.
func needFold(path string, hdr trace.Header, states int) error {
	n := len(hdr.Info.IDs)
	return membudget.Need(fmt.Sprintf("folding %s, whose header says %s nodes,", path, trace.Thousands(n)),
		uint64(n)*uint64(states)*foldBytesPerNode, "")
}

// checkRun is the memory budget's look at the heap between two slices of a run (the
// process's watch samples it too, between them): what grew, at what point of the
// run, for the one line the run stops with.
func checkRun(w *netsim.World, what string) error {
	return membudget.Check(func() string {
		return fmt.Sprintf("while %s went on (at t=%v, %s events pending)", what, w.Now(), netsim.Thousands(w.Pending()))
	}, "")
}
