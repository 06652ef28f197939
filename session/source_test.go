package session

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// recordNodes records dp-gst on n nodes up to until into path, compressed by its
// name, as `sim --record` does.
func recordNodes(t testing.TB, path string, n int, until time.Duration) {
	t.Helper()
	s, _, err := Open(Source{Preset: "dp-gst"})
	if err != nil {
		t.Fatal(err)
	}
	s.Nodes, s.IDs = n, nil
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	out, err := CreateOutput(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Abort()
	rec, err := Record(out, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, now, err := RunContext(context.Background(), cfg, until, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.End(trace.EndUntil, int64(now/time.Microsecond)); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
}

// compressWhole writes data to path as one gzip stream or one zstd frame, as
// recordings were written before they came in pieces.
func compressWhole(t *testing.T, path string, data []byte) {
	t.Helper()
	var buf bytes.Buffer
	var z io.WriteCloser
	if strings.HasSuffix(path, ".gz") {
		z = gzip.NewWriter(&buf)
	} else {
		z, _ = zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1))
	}
	z.Write(data)
	z.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReplayPieces records one run plain, gzip and zstd (each compressed file in
// pieces, of 64 kB here), and writes the plain file again as one gzip stream and as
// one zstd frame, as older versions did. A replay of each finds the pieces, reads
// from places its index keeps the line the plain file has there, and shows at
// random places the snapshot the plain file's replay shows.
func TestReplayPieces(t *testing.T) {
	defer func(b int) { frameBytes = b }(frameBytes)
	frameBytes = 64 << 10
	dir := t.TempDir()
	plain := filepath.Join(dir, "r.jsonl")
	recordNodes(t, plain, 6, 12*time.Second)
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 3*frameBytes {
		t.Fatalf("the recording is %d bytes: too small for pieces of %d", len(data), frameBytes)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")[1:] // the events and the end record
	ref, err := OpenReplay(plain)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	<-ref.TimersRan()                 // the snapshots then carry the timeout bars
	files := map[string]int{plain: 1} // the pieces each should have, 0 for several
	for _, ext := range []string{".gz", ".zst"} {
		p := filepath.Join(dir, "r.jsonl"+ext)
		recordNodes(t, p, 6, 12*time.Second)
		files[p] = 0
		old := filepath.Join(dir, "old.jsonl"+ext)
		compressWhole(t, old, data)
		files[old] = 1
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for path, pieces := range files {
		r, err := OpenReplay(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		// A piece ends at the first write (a batch of lines) past frameBytes.
		if got := len(r.src.pieces); pieces == 0 && (got < 3 || got < len(data)/(2*frameBytes)) || pieces > 0 && got != pieces {
			t.Errorf("%s: %d pieces found, want %d (0: about one per %d bytes)", name, got, pieces, frameBytes)
		}
		if r.Len() != ref.Len() || !r.Complete {
			t.Fatalf("%s: %d events, complete %v; want %d, complete", name, r.Len(), r.Complete, ref.Len())
		}
		c := newCursor(r.src)
		step := 1
		if pieces == 1 {
			step = len(r.blocks)/4 + 1 // each place decompresses from the start
		}
		for b := len(r.blocks) - 1; b >= 0; b -= step {
			if err := r.place(c, b*blockEvents); err != nil {
				t.Fatalf("%s: block %d: %v", name, b, err)
			}
			if l, err := c.next(); err != nil || string(l) != lines[b*blockEvents] {
				t.Fatalf("%s: block %d starts with %.80q (%v), want %.80q", name, b, l, err, lines[b*blockEvents])
			}
		}
		c.Close()
		<-r.TimersRan()
		for range 6 {
			at := rng.Int64N(r.End() + 1)
			r.SeekTime(at)
			ref.SeekTime(at)
			got, want := r.Snapshot(), ref.Snapshot()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: the snapshot at %d differs from the plain file's", name, at)
			}
		}
		if r.Note() != "" || r.timers.Load() == nil {
			t.Errorf("%s: no timeout bars from the re-run read through the index: %s", name, r.Note())
		}
		r.Close()
	}
}

// TestReplayCutPieces cuts a compressed recording inside a piece, as a killed
// recorder leaves it, and corrupts one in its middle: the first replays what it
// holds, the second is refused in one line.
func TestReplayCutPieces(t *testing.T) {
	defer func(b int) { frameBytes = b }(frameBytes)
	frameBytes = 64 << 10
	dir := t.TempDir()
	for _, ext := range []string{".gz", ".zst"} {
		p := filepath.Join(dir, "r.jsonl"+ext)
		recordNodes(t, p, 6, 12*time.Second)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cut := filepath.Join(dir, "cut.jsonl"+ext)
		os.WriteFile(cut, data[:len(data)*2/3], 0o644)
		r, err := OpenReplay(cut)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if r.Complete || r.Len() == 0 {
			t.Errorf("%s cut: complete %v, %d events", ext, r.Complete, r.Len())
		}
		r.SeekTime(r.End())
		if p, _ := r.Pos(); p != r.Len() || r.Note() != "" && !strings.Contains(r.Note(), "timeout bars") {
			t.Errorf("%s cut: at %d of %d after seeking to the end (%s)", ext, p, r.Len(), r.Note())
		}
		r.Close()
		bad := append([]byte(nil), data...)
		for i := len(bad) / 2; i < len(bad)/2+64; i++ {
			bad[i] ^= 0x5a
		}
		corrupt := filepath.Join(dir, "bad.jsonl"+ext)
		os.WriteFile(corrupt, bad, 0o644)
		if r, err := OpenReplay(corrupt); err == nil {
			r.Close()
			t.Errorf("%s corrupt: opened", ext)
		} else if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "bad.jsonl"+ext) {
			t.Errorf("%s corrupt: %q, want one line naming the file", ext, err)
		}
	}
}
