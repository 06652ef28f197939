package membudget

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]uint64{"2GiB": 2 << 30, "2g": 2 << 30, "1500MB": 1500 << 20, "512M": 512 << 20,
		"1.5 GiB": 3 << 29, "4096": 4096, "64mib": 64 << 20, "1T": 1 << 40} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "-1G", "2 GHz", "1e30G", "NaN", "Inf"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), "expected a size") {
			t.Errorf("Parse(%q): %v, want an error saying what is expected", in, err)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[uint64]string{2 << 30: "2.0 GiB", 3 << 29: "1.5 GiB", 512 << 20: "512 MiB", 900 << 10: "900 KiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestDefault: the default fits a laptop, and never exceeds Ceiling.
func TestDefault(t *testing.T) {
	if d := Default(); d < Floor || d > Ceiling {
		t.Fatalf("Default() = %s, want %s to %s", Bytes(d), Bytes(Floor), Bytes(Ceiling))
	}
}

// TestNeed: an estimate over the budget is refused with a line that says what,
// how big and what to change; none without a budget.
func TestNeed(t *testing.T) {
	defer Set(0)
	if err := Need("a world of 1,000,000 nodes (ring)", 1<<40, ""); err != nil {
		t.Fatalf("no budget, and yet: %v", err)
	}
	Set(1 << 30)
	if err := Need("a small thing", 1<<20, ""); err != nil {
		t.Fatal(err)
	}
	err := Need("a world of 1,000,000 nodes (ring)", 3<<30, "or lower the scenario's nodes")
	var ex *Exceeded
	if !errors.As(err, &ex) || !ex.Estimate {
		t.Fatalf("got %v, want *Exceeded", err)
	}
	want := "memory budget: a world of 1,000,000 nodes (ring) needs about 3.0 GiB, over the budget of 1.0 GiB (--max-memory raises it, or lower the scenario's nodes)"
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	// What the heap holds already is said when it counts.
	held := &Exceeded{What: "reading x.jsonl (3,612,535 events so far)", Size: 1 << 30, Estimate: true, Limit: 2 << 30, Held: 3 << 29}
	if got, want := held.Error(), "memory budget: reading x.jsonl (3,612,535 events so far) needs about 1.0 GiB more, beside the 1.5 GiB held, over the budget of 2.0 GiB (--max-memory raises it)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestCheckAndWatch: live data over the budget is found by Check and by Watch.
func TestCheckAndWatch(t *testing.T) {
	defer Set(0)
	Set(Floor)
	what := func() string { return "while holding a test's data" }
	var hold [][]byte
	for range 96 {
		hold = append(hold, make([]byte, 1<<20))
	}
	runtime.GC()
	err := Check(what, "")
	var ex *Exceeded
	if !errors.As(err, &ex) || ex.Size < Floor || !strings.Contains(err.Error(), "the heap reached") || !strings.Contains(err.Error(), "while holding") {
		t.Fatalf("Check: %v, want the heap over the budget", err)
	}
	got := make(chan *Exceeded, 1)
	stop := Watch(what, "", func(e *Exceeded) { got <- e })
	defer stop()
	select {
	case e := <-got:
		if e.Size < Floor {
			t.Errorf("Watch reported %s", Bytes(e.Size))
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Watch never saw the heap over the budget")
	}
	runtime.KeepAlive(hold)
	hold = nil
	runtime.GC()
	if err := Check(what, ""); err != nil {
		t.Errorf("after the data went: %v", err)
	}
}

// TestWatchStops: stop ends the goroutine, without a call.
func TestWatchStops(t *testing.T) {
	defer Set(0)
	Set(Ceiling)
	n := runtime.NumGoroutine()
	stop := Watch(func() string { return "" }, "", func(*Exceeded) { t.Error("over budget at rest") })
	time.Sleep(3 * WatchEvery)
	stop()
	stop()
	if runtime.NumGoroutine() > n {
		t.Errorf("%d goroutines after stop, %d before", runtime.NumGoroutine(), n)
	}
}
