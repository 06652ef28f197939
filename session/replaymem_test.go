package session

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestReplayHoldsNoLines opens two recordings of one scenario, one four times as
// long as the other (dp-gst on 8 nodes for 10 and 40 virtual s), and measures the
// live heap each open Replay holds once its timeout bars' re-run is over and it has
// sought to the middle: its kept states (told apart by dropping them; how many a
// replay keeps at most, TestReplaySeek checks), and the rest, its index (a place every blockEvents
// lines, the marks) and its packed timer changes. The longer one's rest may hold a
// twentieth of the bytes its file has more at most: a replay that kept the lines
// would hold them all.
func TestReplayHoldsNoLines(t *testing.T) {
	dir := t.TempDir()
	held := func(until time.Duration) (size, rest int64) {
		path := filepath.Join(dir, fmt.Sprintf("r%d.jsonl", int(until.Seconds())))
		recordNodes(t, path, 8, until)
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		before := liveHeap()
		r := openTimed(t, path)
		defer r.Close()
		r.SeekTime(r.End() / 2)
		all := liveHeap() - before
		r.mu.Lock()
		kept := len(r.cps)
		r.cps = nil
		r.mu.Unlock()
		rest = liveHeap() - before
		t.Logf("%d kB of lines: %d states kept, %d kB; %d kB besides", st.Size()>>10, kept, (all-rest)>>10, rest>>10)
		return st.Size(), rest
	}
	s1, h1 := held(10 * time.Second)
	s2, h2 := held(40 * time.Second)
	if s2 < 3*s1 {
		t.Fatalf("the recordings are %d and %d bytes: the longer one should be four times as long", s1, s2)
	}
	if h2-h1 > (s2-s1)/20 {
		t.Errorf("a replay of %d kB more of lines held %d kB more besides its states", (s2-s1)>>10, (h2-h1)>>10)
	}
}

// liveHeap is the bytes the heap holds after two collections (the second empties
// the pools the first only moved aside: the re-run world's pages).
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
