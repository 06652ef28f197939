package session

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkSaveFork measures what saving a long fork costs, the scenario's run
// made again and compared with the fork's recording line by line (save), against
// a floor that rewriting the fork's lines could not beat: copying its file and
// hashing it (copy-hash). The fork is of dp-gst made long (16 processes for 60
// s, a recording of about 30 MB), forked at 3 s with one crash and run to its
// end; each op of save forks and runs it again untimed.
func BenchmarkSaveFork(b *testing.B) {
	s, _, err := Open(Source{Preset: benchPreset})
	if err != nil {
		b.Fatal(err)
	}
	s.Nodes, s.IDs, s.Until = 16, nil, "60s"
	cfg, err := s.Resolve()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.Chdir(dir)
	a := filepath.Join(dir, "a.jsonl")
	f, err := Create(a, false)
	if err != nil {
		b.Fatal(err)
	}
	rec, err := Record(&Output{path: a, f: f}, s, cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Run(cfg, 0, rec); err != nil {
		b.Fatal(err)
	}
	rec.End("until", cfg.Until.Microseconds())
	rec.Close()
	f.Close()
	saved, k := "", 0
	b.Run("save", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			l, err := Fork(a, 3_000_000, LiveOptions{Speed: 0})
			if err != nil {
				b.Fatal(err)
			}
			l.Do("crash n3")
			l.PauseAt(cfg.Until)
			l.SetPaused(false)
			for !l.Paused() || l.Snapshot().T < cfg.Until.Microseconds() {
				time.Sleep(time.Millisecond)
			}
			k++ // b.N grows over calls: a new name each time
			saved = fmt.Sprintf("b%d.jsonl", k)
			b.StartTimer()
			if err := l.SaveFork(saved); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if l.ForkNote() != "" {
				b.Fatal(l.ForkNote())
			}
			l.Close()
			b.StartTimer()
		}
		if st, err := os.Stat(saved); err == nil {
			b.SetBytes(st.Size())
		}
	})
	b.Run("copy-hash", func(b *testing.B) {
		for range b.N {
			in, err := os.Open(saved)
			if err != nil {
				b.Fatal(err)
			}
			out, err := os.Create("copy.jsonl")
			if err != nil {
				b.Fatal(err)
			}
			n, err := io.Copy(io.MultiWriter(out, sha256.New()), in)
			if err != nil {
				b.Fatal(err)
			}
			if err := out.Sync(); err != nil {
				b.Fatal(err)
			}
			out.Close()
			in.Close()
			b.SetBytes(n)
		}
	})
}
