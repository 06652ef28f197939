package session

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// TestTimerLog notes random timer changes of three processes (several at one line,
// repeats of the timer as it is, timers stopped, several names, deadlines that go
// back) and checks the timer the packed log gives at every line against the changes
// kept whole, as the log kept them before it was packed.
func TestTimerLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const procs = 3
	tm := &Timers{runs: make([]timerLog, procs)}
	whole := make([][]timerAt, procs) // the reference: the former log
	names := []string{"election", "fd.check", "a timer with a long name"}
	var seq uint64
	for range 5000 {
		seq += uint64(rng.IntN(3)) // 0: another change at the same line
		k := rng.IntN(procs)
		var d node.Deadline
		switch r := whole[k]; {
		case rng.IntN(10) == 0: // stopped
		case len(r) > 0 && rng.IntN(4) == 0:
			d = r[len(r)-1].d // as it is
		default:
			d = node.Deadline{For: names[rng.IntN(len(names))], At: time.Duration(rng.Int64N(1e12)), Len: time.Duration(rng.Int64N(1e9))}
			if len(r) > 0 && rng.IntN(2) == 0 {
				d.At = r[len(r)-1].d.At + time.Duration(rng.Int64N(2e8)) - 1e8
			}
		}
		r := whole[k]
		switch {
		case len(r) == 0 && !d.Running(), len(r) > 0 && r[len(r)-1].d == d:
		case len(r) > 0 && r[len(r)-1].seq == seq:
			r[len(r)-1].d = d
		default:
			whole[k] = append(r, timerAt{seq, d})
		}
		if err := tm.note(k, seq, d); err != nil {
			t.Fatal(err)
		}
	}
	if err := tm.seal(); err != nil {
		t.Fatal(err)
	}
	for k := range procs {
		if got, want := tm.runs[k].n, len(whole[k]); got != want {
			t.Fatalf("process %d: %d changes packed, want %d", k, got, want)
		}
		j := 0
		for s := uint64(0); s <= seq+1; s++ {
			for j < len(whole[k]) && whole[k][j].seq <= s {
				j++
			}
			var want node.Deadline
			if j > 0 {
				want = whole[k][j-1].d
			}
			if got := tm.at(&tm.runs[k], s); got != want {
				t.Fatalf("process %d after line %d: timer %+v, want %+v", k, s, got, want)
			}
		}
	}
	perChange := float64(tm.bytes) / float64(len(whole[0])+len(whole[1])+len(whole[2]))
	t.Logf("%.1f bytes a change", perChange)
	if perChange > 16 {
		t.Errorf("%.1f bytes a change, want a packed log (the changes whole took 40)", perChange)
	}
}

// TestTimerBudget: past timerBytes of changes, the re-run of a recording gives an
// error that says so (a replay then shows no timeout bars, and its note says why)
// instead of holding memory in proportion to the recording.
func TestTimerBudget(t *testing.T) {
	defer func(b int) { timerBytes = b }(timerBytes)
	timerBytes = 1 << 20
	tm := &Timers{runs: make([]timerLog, 1)}
	var err error
	for i := 1; err == nil && i < 1<<20; i++ {
		err = tm.note(0, uint64(i), node.Deadline{For: "election", At: time.Duration(i) * time.Millisecond, Len: 150 * time.Millisecond})
	}
	if err == nil || !strings.Contains(err.Error(), "more than 1 MB of timer changes") {
		t.Fatalf("a million changes within a budget of 1 MB: %v", err)
	}
	if tm.bytes > timerBytes+64 {
		t.Fatalf("held %d bytes past the budget of %d", tm.bytes, timerBytes)
	}
}
