package export

import (
	"testing"

	"pgregory.net/rapid"
)

// TestMidMapIsAMap: a midMap answers as a map does, whatever the order of puts
// and deletes, for ids near each other and far apart.
func TestMidMapIsAMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var m midMap[int]
		want := map[uint64]int{}
		next := uint64(1)
		for i := range rapid.IntRange(0, 300).Draw(t, "ops") {
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0, 1: // a new id, usually the next
				mid := next
				if rapid.IntRange(0, 20).Draw(t, "far") == 0 {
					mid = rapid.Uint64().Draw(t, "mid")
				} else {
					next++
				}
				m.put(mid, i)
				want[mid] = i
			case 2: // an end
				for mid := range want {
					m.del(mid)
					delete(want, mid)
					break
				}
			case 3:
				mid := rapid.Uint64Range(0, next+2).Draw(t, "look")
				v, ok := m.get(mid)
				w, wok := want[mid]
				if ok != wok || v != w {
					t.Fatalf("get(%d) = %d, %v; want %d, %v", mid, v, ok, w, wok)
				}
			}
			if m.size() != len(want) {
				t.Fatalf("size %d, want %d", m.size(), len(want))
			}
		}
		seen := 0
		m.each(func(mid uint64, v int) {
			seen++
			if want[mid] != v {
				t.Fatalf("each gave %d=%d, want %d", mid, v, want[mid])
			}
		})
		if seen != len(want) {
			t.Fatalf("each gave %d ids, want %d", seen, len(want))
		}
	})
}

// TestSeconds: virtual times as exact decimal seconds.
func TestSeconds(t *testing.T) {
	for us, want := range map[int64]string{0: "0", 1: "0.000001", 3155817: "3.155817", 100_000_000: "100", -1_500_000: "-1.5", 2_000_010: "2.00001"} {
		if got := seconds(us); got != want {
			t.Errorf("seconds(%d) = %q, want %q", us, got, want)
		}
	}
}
