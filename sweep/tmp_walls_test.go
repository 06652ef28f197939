package sweep

import (
	"os"
	"testing"
)

func BenchmarkTmpWrite(b *testing.B) {
	s, _ := Load("ring-complexity")
	p, _ := NewPlan(s, Shard{})
	r1 := p.Execute(1, nil)
	for b.Loop() {
		dir := b.TempDir()
		os.RemoveAll(dir)
		if err := p.Write(dir, r1, "x"); err != nil {
			b.Fatal(err)
		}
	}
}
