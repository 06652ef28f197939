package sweep

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// heapFloor is the heap a sweep lets grow before the garbage collector runs: 64 MB.
//
// A sweep's runs are small worlds, each a few MB live, each allocating its world
// anew. Under the default policy (collect when the heap doubles, at 4 MB at least)
// ring-complexity collected 30 times in 0.2 s and the collector took 15 % of the
// CPU. With one job that cost is hidden: the collector's workers run on the idle
// core, so one job used 1.3 cores and two jobs could be at most 2/1.3 = 1.5 times
// faster. With the floor the collector takes 1–4 %. Above the floor the default
// rule holds (the heap may double past what is live), so memory stays bounded by
// jobs × one run, plus at most these 64 MB. A GOGC set in the environment wins.
const heapFloor = 64 << 20

var gcPolicy struct {
	sync.Mutex
	holders int
	prev    int // the percent to restore
}

// holdGC applies the sweep's policy until the function it returns is called. It
// may be held by several callers at once; the last to release restores the
// percent the process had.
func holdGC() (release func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	gcPolicy.Lock()
	defer gcPolicy.Unlock()
	if gcPolicy.holders == 0 {
		gcPolicy.prev = debug.SetGCPercent(gcPercent(liveHeap()))
	}
	gcPolicy.holders++
	return sync.OnceFunc(func() {
		gcPolicy.Lock()
		defer gcPolicy.Unlock()
		if gcPolicy.holders--; gcPolicy.holders == 0 {
			debug.SetGCPercent(gcPolicy.prev)
		}
	})
}

// tuneGC sets the percent again from the heap live now (a run has ended), while
// the policy is held.
func tuneGC() {
	gcPolicy.Lock()
	defer gcPolicy.Unlock()
	if gcPolicy.holders > 0 {
		debug.SetGCPercent(gcPercent(liveHeap()))
	}
}

// gcPercent is the GOGC that lets a heap with live bytes reach heapFloor before
// a collection: at least the default 100, at most 1600 (before the first
// collection nothing is known live, and 1600 makes the runtime's own minimum heap
// 64 MB).
func gcPercent(live uint64) int {
	switch {
	case live == 0:
		return 1600
	case live >= heapFloor/2:
		return 100
	}
	return min(1600, int(100*(heapFloor-live)/live))
}

// liveHeap is the heap the last collection found live (0 before the first).
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
