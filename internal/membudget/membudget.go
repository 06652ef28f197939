// Package membudget holds the memory budget: how much heap a command may hold
// before it stops with a one-line error, instead of running the machine out of
// memory until Go's runtime dies with "fatal error: out of memory" (which no
// program can catch, and which a class sharing a lab machine would all feel).
//
// The budget is process-wide, as the heap is. The command line sets it (Set, from
// --max-memory); a program that never sets it has none, and every check passes. It
// is enforced three ways:
//
//   - Need, before something big is built: a world of N nodes, the states a
//     replay keeps. The estimate is refused at once, before any of it is allocated,
//     so that a header edited to say a million nodes costs nothing.
//   - Check, at safe points of a long loop (reading a trace, running a world): the
//     heap as the last collection found it, against the budget.
//   - Watch, a goroutine that samples the heap, for whatever grows between safe
//     points.
//
// Set also gives the Go collector the budget (plus a margin) as its soft memory
// limit, so that garbage is collected before the budget is taken for live data.
package membudget

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Ceiling is the largest default budget: 2 GiB of heap, which with the runtime's own
// memory and the collector's margin keeps a command under about 3 GB of RSS, room
// beside a desktop on a 2-core, 8 GB laptop.
const Ceiling = 2 << 30

// Floor is the smallest budget Set accepts: below it the program itself does not fit.
const Floor = 64 << 20

var limit atomic.Uint64

// userLimit is the collector's soft limit as the program started (GOMEMLIMIT, or
// none).
var userLimit = debug.SetMemoryLimit(-1)

// Set sets the budget in bytes; 0 turns it off. It also sets the collector's soft
// limit a quarter above it, unless GOMEMLIMIT gave a lower one.
func Set(n uint64) {
	limit.Store(n)
	soft := userLimit
	if n > 0 {
		soft = min(int64(min(n+n/4, math.MaxInt64/2)), userLimit)
	}
	debug.SetMemoryLimit(soft)
}

// Limit is the budget in bytes, 0 when there is none.
func Limit() uint64 { return limit.Load() }

// Default is the budget a command gets without --max-memory: Ceiling, or less on a
// smaller machine: a quarter of its memory, half of its cgroup's limit, a third
// of the process's address-space limit (ulimit -v, prlimit --as: the Go runtime
// maps about a gigabyte of address space beyond its heap).
func Default() uint64 {
	d := uint64(Ceiling)
	if total := physical(); total > 0 {
		d = min(d, total/4)
	}
	if cg := cgroupLimit(); cg > 0 {
		d = min(d, cg/2)
	}
	if as := addressLimit(); as > 0 {
		d = min(d, as/3)
	}
	return max(d, Floor)
}

// physical is the machine's memory in bytes, 0 if unknown.
func physical() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if kb, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
			if err == nil {
				return n << 10
			}
		}
	}
	return 0
}

// cgroupLimit is the memory limit of the process's cgroup (v2), 0 if none.
func cgroupLimit() uint64 {
	data, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return 0 // "max"
	}
	return n
}

// Parse reads a size such as "2GiB", "1500MB", "512M" or "2g" (k, m, g, t and
// their -iB and -B forms are powers of 1024: memory is sold in them).
func Parse(s string) (uint64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	num := strings.TrimRight(t, "kmgtib ")
	unit := strings.TrimSpace(t[len(num):])
	shift, ok := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20,
		"g": 30, "gb": 30, "gib": 30, "t": 40, "tb": 40, "tib": 40}[unit]
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if !ok || err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("found %q, expected a size such as 2GiB or 1500MiB", s)
	}
	b := v * float64(uint64(1)<<shift)
	if b >= 1<<62 {
		return 0, fmt.Errorf("found %q, expected a size below 4 EiB", s)
	}
	return uint64(b), nil
}

// Bytes writes a size for people: "2.0 GiB", "512 MiB", "900 KiB".
func Bytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
}

// Exceeded is the error of a command stopped by the budget.
type Exceeded struct {
	// What grew, or would have: "a world of 1,000,000 nodes (ring)", "reading
	// x.jsonl (4,100,000 events so far)".
	What string
	// Size is the estimate (Estimate) or the heap reached.
	Size     uint64
	Estimate bool
	Limit    uint64
	// Held is what the heap held when an estimate was refused.
	Held uint64
	// Fix is what else than --max-memory would help, if anything: "or lower the
	// scenario's nodes".
	Fix string
}

func (e *Exceeded) Error() string {
	fix := "--max-memory raises it"
	if e.Fix != "" {
		fix += ", " + e.Fix
	}
	if e.Estimate && e.Held > e.Limit/16 {
		return fmt.Sprintf("memory budget: %s needs about %s more, beside the %s held, over the budget of %s (%s)", e.What, Bytes(e.Size), Bytes(e.Held), Bytes(e.Limit), fix)
	}
	if e.Estimate {
		return fmt.Sprintf("memory budget: %s needs about %s, over the budget of %s (%s)", e.What, Bytes(e.Size), Bytes(e.Limit), fix)
	}
	return fmt.Sprintf("memory budget: the heap reached %s %s, over the budget of %s (%s)", Bytes(e.Size), e.What, Bytes(e.Limit), fix)
}

// Need refuses to build something of about size bytes when what the heap holds
// now and size together pass the budget. what names it; fix says what else than
// --max-memory would help ("" for nothing).
func Need(what string, size uint64, fix string) error {
	l := limit.Load()
	if l == 0 {
		return nil
	}
	live, _ := heap()
	if live+size <= l {
		return nil
	}
	return &Exceeded{What: what, Size: size, Estimate: true, Limit: l, Held: live, Fix: fix}
}

// Check reports the budget passed, if it is: the heap's live data, as the last
// collection found it, over the budget, or everything on the heap well over it
// (a collection is due). what says what the caller is doing ("while reading
// x.jsonl, 4,100,000 events so far"); it is called only then.
func Check(what func() string, fix string) error {
	l := limit.Load()
	if l == 0 {
		return nil
	}
	if h, over := overBudget(l); over {
		return &Exceeded{What: what(), Size: h, Limit: l, Fix: fix}
	}
	return nil
}

func overBudget(l uint64) (uint64, bool) {
	live, all := heap()
	switch {
	case live > l:
		return live, true
	case all > l+l/2:
		return all, true
	}
	return live, false
}

var samples = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
var sampleMu sync.Mutex

// heap is the live heap at the last collection and everything on the heap now.
func heap() (live, all uint64) {
	sampleMu.Lock()
	defer sampleMu.Unlock()
	metrics.Read(samples)
	return value(samples[0]), value(samples[1])
}

func value(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
}

// WatchEvery is how often Watch samples the heap.
const WatchEvery = 20 * time.Millisecond

// Watch samples the heap every WatchEvery until stop, and calls over once, from
// its own goroutine, if the budget is passed: for what grows between the checks
// of a command's safe points (see Check). what says what the command is doing.
// Without a budget it does nothing.
func Watch(what func() string, fix string, over func(*Exceeded)) (stop func()) {
	l := limit.Load()
	if l == 0 {
		return func() {}
	}
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(WatchEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if h, bad := overBudget(l); bad {
					over(&Exceeded{What: what(), Size: h, Limit: l, Fix: fix})
					return
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done); <-exited })
	}
}
