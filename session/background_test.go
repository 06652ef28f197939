package session

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// TestBackgroundCompresses writes lines through a compressor in its goroutine,
// reusing the caller's buffer as the recorder does, and checks that the stream
// decompresses to exactly what was written, that Flush pushes everything out
// before it returns, and that Close leaves no goroutine behind.
func TestBackgroundCompresses(t *testing.T) {
	before := runtime.NumGoroutine()
	var out bytes.Buffer
	z, _ := gzip.NewWriterLevel(&out, gzip.DefaultCompression)
	b := newBackground(z)
	var want bytes.Buffer
	buf := make([]byte, 0, 4096)
	for i := 0; i < 2000; i++ {
		buf = append(buf[:0], strings.Repeat("x", i%300)...)
		buf = append(buf, '\n')
		want.Write(buf)
		if n, err := b.Write(buf); n != len(buf) || err != nil {
			t.Fatalf("write %d: %d, %v", i, n, err)
		}
		buf[0] = '!' // the caller's buffer is its own again at once
		if i == 1000 {
			if err := b.Flush(); err != nil {
				t.Fatal(err)
			}
			// What is flushed is out: decompressing it gives every line so far.
			got, _ := io.ReadAll(readGzip(t, out.Bytes()))
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("after Flush: %d bytes out, %d written", len(got), want.Len())
			}
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(readGzip(t, out.Bytes()))
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("after Close: %d bytes, %v; %d written", len(got), err, want.Len())
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after Close, %d before", n, before)
	}
}

// readGzip reads a gzip stream that may not be closed yet: what is flushed.
func readGzip(t *testing.T, data []byte) io.Reader {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return readerIgnoringEOF{r}
}

// readerIgnoringEOF takes a stream cut short (not closed yet) for one that ends.
type readerIgnoringEOF struct{ r io.Reader }

func (r readerIgnoringEOF) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	return n, err
}

// failing is a file that takes a few bytes and then fails, as a full disk does.
type failing struct{ left int }

var errFull = errors.New("no space left on device")

func (f *failing) Write(p []byte) (int, error) {
	if len(p) > f.left {
		n := f.left
		f.left = 0
		return n, errFull
	}
	f.left -= len(p)
	return len(p), nil
}

// TestBackgroundReportsAWriteError: the file fails under the compressor, and the
// next Flush, and Close, report it.
func TestBackgroundReportsAWriteError(t *testing.T) {
	z, _ := gzip.NewWriterLevel(&failing{left: 100}, gzip.DefaultCompression)
	b := newBackground(z)
	line := []byte(strings.Repeat("0123456789", 10000) + "\n")
	for i := 0; i < 20; i++ {
		b.Write(line)
	}
	if err := b.Flush(); !errors.Is(err, errFull) {
		t.Fatalf("Flush after the file failed: %v", err)
	}
	if err := b.Close(); !errors.Is(err, errFull) {
		t.Fatalf("Close after the file failed: %v", err)
	}
}
