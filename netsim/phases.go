package netsim

// The phases of a window, for a benchmark that tells what two processors can do
// for a run from the CPU time each goroutine spends in each phase, whatever else
// the machine runs (BenchmarkWorldMesh1000Phases): wall-clock ratios taken on a
// machine whose cores are busy measure the neighbours as much as the world.
const (
	phaseTake     = iota // taking the window's events off the queues
	phaseDispatch        // the processes' steps
	phaseMerge           // the merge, and the inserter's last messages
	phaseDone
)

// phaseHook, when set (by that benchmark only), is called by the world's
// goroutine as each phase of a window starts and when the window is done, and
// helperHook by the inserter's goroutine before and after each piece of work (a
// block of messages, a shard's share of a window). Nil in every run.
var (
	phaseHook  func(phase int)
	helperHook func(start bool)
)

func phase(k int) {
	if phaseHook != nil {
		phaseHook(k)
	}
}

func helping(start bool) {
	if helperHook != nil {
		helperHook(start)
	}
}
