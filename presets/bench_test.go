package presets

import (
	"strings"
	"testing"
)

// BenchmarkParseManyEntries parses a file of 4,000 [[script]] entries: the cost of
// placing every value must grow with the file, not with its square (it took 7 s
// when each position was found by scanning from the top; 55 ms since).
func BenchmarkParseManyEntries(b *testing.B) {
	src := []byte("algorithm = \"bully\"\nnodes = 3\n" + strings.Repeat("[[script]]\nat = \"1s\"\ndo = \"crash n1\"\n", 4000))
	for b.Loop() {
		if _, err := Parse("m.toml", src); err != nil {
			b.Fatal(err)
		}
	}
}
