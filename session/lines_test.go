package session

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// TestLineStoreKeepsLines: lines of any length, up to a chunk, read back as added,
// across chunk boundaries, and a line too long for a chunk gets one of its own.
func TestLineStoreKeepsLines(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var s lineStore
		var want [][]byte
		for i := rapid.IntRange(0, 60).Draw(rt, "lines"); i > 0; i-- {
			n := rapid.SampledFrom([]int{0, 1, 100, lineChunk / 3, lineChunk - 1, lineChunk, lineChunk + 5}).Draw(rt, "length")
			line := bytes.Repeat([]byte{byte('a' + i%26)}, n)
			s.add(line)
			want = append(want, line)
		}
		if s.len() != len(want) {
			rt.Fatalf("%d lines, want %d", s.len(), len(want))
		}
		for i, w := range want {
			if !bytes.Equal(s.line(i), w) {
				rt.Fatalf("line %d (%d bytes) reads back as %d bytes", i, len(w), len(s.line(i)))
			}
		}
	})
}
