//go:build linux

package netsim

import (
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/clusterlab/clusterlab/internal/cputime"
)

// threadCPU is the CPU time of the calling thread.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3 /* CLOCK_THREAD_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// BenchmarkWorldMesh1000Phases runs BenchmarkWorldMesh1000's 1,000-node mesh
// (heartbeat-dp, 100 ms heartbeats, 10–20 ms links) for 300 virtual ms after its
// first wave, with one processor and with two, and tells from CPU times what two
// processors do for it, the load of the machine aside. The world's goroutine and the
// inserter's are each locked to a thread, whose own CPU clock counts only what it
// ran. With one processor the world's thread does all the work (x1-cpu-s). With
// two, each window's phases are timed: taking its events (the world's share and
// the inserter's, side by side), the steps (the world's share, and the other
// threads' CPU time meanwhile), the merge (the world's, and the inserter's
// inserts beside it); the slower side of each phase, summed over the windows, is
// the time two idle processors would take (x2-path-s), hand-overs aside. path-x is
// the ratio, the figure of the "P2 ÷ P1" that a busy machine does not
// disturb; wall-x is the wall-clock ratio of the same two runs, which it does.
func BenchmarkWorldMesh1000Phases(b *testing.B) {
	for range b.N {
		cpu1, wall1 := meshPhases(b, 1)
		path2, wall2 := meshPhases(b, 2)
		b.ReportMetric(cpu1.Seconds(), "x1-cpu-s")
		b.ReportMetric(path2.Seconds(), "x2-path-s")
		b.ReportMetric(float64(cpu1)/float64(path2), "path-x")
		b.ReportMetric(float64(wall1)/float64(wall2), "wall-x")
	}
}

// meshPhases runs the mesh with procs processors and returns the critical path of
// its windows (see BenchmarkWorldMesh1000Phases), and the wall time.
func meshPhases(b *testing.B, procs int) (path, wall time.Duration) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w, err := New(MeshConfig(b, 1000), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(150 * time.Millisecond)
	// The inserter's goroutine started in the first wave: it locks itself to
	// its thread at its first piece of work from now on, which is not counted.
	var helper, helperFrom time.Duration
	locked := false
	helperHook = func(start bool) {
		switch {
		case !locked:
			if start {
				runtime.LockOSThread()
				locked = true
				helperFrom = -1
			}
		case start:
			helperFrom = threadCPU()
		case helperFrom >= 0:
			helper += threadCPU() - helperFrom
		}
	}
	var at [4]time.Duration // the world's thread at each phase
	var procAt [4]time.Duration
	var helperAt time.Duration
	phaseHook = func(k int) {
		at[k], procAt[k] = threadCPU(), cputime.Process()
		switch k {
		case phaseTake:
			helperAt = helper
		case phaseDispatch:
			path += max(at[phaseDispatch]-at[phaseTake], helper-helperAt)
			helperAt = helper
		case phaseMerge:
			world := at[phaseMerge] - at[phaseDispatch]
			path += max(world, procAt[phaseMerge]-procAt[phaseDispatch]-world)
		case phaseDone:
			path += max(at[phaseDone]-at[phaseMerge], helper-helperAt)
		}
	}
	defer func() { phaseHook, helperHook = nil, nil }()
	start, cpu := time.Now(), threadCPU()
	w.RunUntil(w.Now() + 300*time.Millisecond)
	wall = time.Since(start)
	if procs == 1 {
		return threadCPU() - cpu, wall
	}
	return path, wall
}
