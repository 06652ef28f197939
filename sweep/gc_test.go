package sweep

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func gogc() int64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// TestGCPolicy: the percent lets the live heap reach the floor, never under the
// default; holding the policy twice and releasing it in any order (or twice)
// restores the process's own percent once the last holder is gone.
func TestGCPolicy(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{{0, 1600}, {1 << 20, 1600}, {4 << 20, 1500}, {16 << 20, 300}, {32 << 20, 100}, {1 << 30, 100}} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d MB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the policy leaves it alone")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	a := holdGC()
	if gogc() == 77 {
		t.Fatal("holding the policy left GOGC at 77")
	}
	b := holdGC()
	a()
	a()
	if gogc() == 77 {
		t.Fatal("GOGC restored while the policy is still held")
	}
	b()
	if got := gogc(); got != 77 {
		t.Fatalf("GOGC = %d after the last release, want 77", got)
	}
}
