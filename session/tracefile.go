package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// HeaderError is a header whose scenario is not what a re-run of it would write: a
// field was edited, added or removed.
type HeaderError struct {
	File            string
	Field           string // a path such as scenario.network.loss
	Found, Expected string
}

func (e *HeaderError) Error() string {
	return fmt.Sprintf("%s:1: header field %s: found %s, expected %s", e.File, e.Field, e.Found, e.Expected)
}

// ResolveHeader is the one way clusterlab reads a trace header: it reads the
// scenario back and checks it, resolves it, checks that the header holds it exactly
// as resolved (so no field can be edited unnoticed), and derives the header's Seed
// and Info from it. name is used in error messages.
func ResolveHeader(name string) trace.Resolver {
	return func(h *trace.Header) error {
		if _, _, err := resolveHeader(name, h); err != nil {
			return &headerProblem{err}
		}
		return nil
	}
}

// headerProblem marks an error found in a trace header's scenario, after the first
// line was found to be a clusterlab trace: for verify, a recording that does not
// verify rather than a file that is not a trace.
type headerProblem struct{ error }

func (h *headerProblem) Unwrap() error { return h.error }

func resolveHeader(name string, h *trace.Header) (*presets.Scenario, netsim.Config, error) {
	if err := missingCode(name, h); err != nil {
		return nil, netsim.Config{}, err
	}
	s, err := presets.FromJSON(name, h.Scenario)
	if err != nil {
		return nil, netsim.Config{}, err
	}
	cfg, err := s.Resolve()
	if err != nil {
		return nil, netsim.Config{}, fmt.Errorf("%s:1: the header's scenario does not resolve: %v", name, err)
	}
	if err := sameJSON(name, h.Scenario, cfg.Scenario); err != nil {
		return nil, netsim.Config{}, err
	}
	h.Seed, h.Info = cfg.Seed, s.Info(cfg)
	return s, cfg, nil
}

// sameJSON compares the recorded scenario with the re-resolved one as JSON values
// (key order and spacing aside) and names the first field that differs.
func sameJSON(name string, recorded, resolved []byte) error {
	var a, b any
	if err := decodeNumbers(recorded, &a); err != nil {
		return fmt.Errorf("%s:1: bad scenario in the header, expected a JSON object", name)
	}
	if err := decodeNumbers(resolved, &b); err != nil {
		return err
	}
	if path, found, expected, ok := firstDiff("scenario", a, b); !ok {
		return &HeaderError{File: name, Field: path, Found: found, Expected: expected}
	}
	return nil
}

func decodeNumbers(data []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// eventOrder ranks an event line's fields as they are written, so that the first
// difference named is the first in the line; other keys come after, by name.
var eventOrder = map[string]int{"seq": -20, "t": -19, "ev": -18, "node": -17, "from": -16, "to": -15, "mid": -14, "msg": -13}

// firstDiff walks two decoded JSON values and returns the path of the first
// difference, with both sides rendered, or ok when they are equal.
func firstDiff(path string, a, b any) (string, string, string, bool) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Slice(sorted, func(i, j int) bool {
			ri, rj := eventOrder[sorted[i]], eventOrder[sorted[j]]
			if ri != rj {
				return ri < rj
			}
			return sorted[i] < sorted[j]
		})
		for _, k := range sorted {
			if p, f, e, ok := firstDiff(path+"."+k, am[k], bm[k]); !ok {
				return p, f, e, false
			}
		}
		return "", "", "", true
	}
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok && len(as) == len(bs) {
		for i := range as {
			if p, f, e, ok := firstDiff(fmt.Sprintf("%s[%d]", path, i), as[i], bs[i]); !ok {
				return p, f, e, false
			}
		}
		return "", "", "", true
	}
	if reflect.DeepEqual(a, b) {
		return "", "", "", true
	}
	return path, render(a), render(b), false
}

func render(v any) string {
	if v == nil {
		return "nothing"
	}
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		b = append(b[:77], "..."...)
	}
	return string(b)
}

// Compressed-file magic numbers: a reader opens either, whatever the name.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// zstdMaxWindow bounds what a zstd stream may ask the decoder to keep in memory; the
// recorder writes with a far smaller window.
const zstdMaxWindow = 8 << 20

// traceFile is an open trace: its checking reader and what it must close.
type traceFile struct {
	*trace.Reader
	closers []io.Closer
	kept    *keeper // what was read of a compressed file, when asked for
}

// keeper keeps the bytes read through it, up to max of them, after which it keeps
// none: verify reads a compressed recording twice, and the second reading takes
// the first's bytes instead of decompressing the file again. It keeps them in
// blocks of keepBlock bytes, not one slice grown by appending, which would copy
// them again and again.
type keeper struct {
	r      io.Reader
	blocks [][]byte
	n, max int
	over   bool
}

const keepBlock = 1 << 20

func (k *keeper) Read(p []byte) (int, error) {
	n, err := k.r.Read(p)
	if k.over {
		return n, err
	}
	if k.n += n; k.n > k.max {
		k.over, k.blocks = true, nil
		return n, err
	}
	for rest := p[:n]; len(rest) > 0; {
		if len(k.blocks) == 0 || len(k.blocks[len(k.blocks)-1]) == keepBlock {
			k.blocks = append(k.blocks, make([]byte, 0, keepBlock))
		}
		b := &k.blocks[len(k.blocks)-1]
		m := min(len(rest), keepBlock-len(*b))
		*b = append(*b, rest[:m]...)
		rest = rest[m:]
	}
	return n, err
}

// Kept is a reader of a compressed file's whole content, decompressed, once its
// reader has read to the end; nil if the file is not compressed, was not opened to
// keep it, is bigger than asked for, or was not read to its end.
func (t *traceFile) Kept(readToEnd bool) io.Reader {
	if t.kept == nil || t.kept.over || !readToEnd {
		return nil
	}
	rs := make([]io.Reader, len(t.kept.blocks))
	for i, b := range t.kept.blocks {
		rs[i] = bytes.NewReader(b)
	}
	return io.MultiReader(rs...)
}

// drain reads the lines left, to the end of the file, and returns the end record's
// problem, if any, and the hash of every line read.
func (t *traceFile) drain() (*trace.EndError, string) {
	for {
		_, err := t.NextLine()
		var endErr *trace.EndError
		switch {
		case errors.As(err, &endErr):
			return endErr, t.Hash()
		case err != nil:
			return nil, t.Hash()
		}
	}
}

func (t *traceFile) Close() error {
	var err error
	for i := len(t.closers) - 1; i >= 0; i-- {
		if cerr := t.closers[i].Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// openTrace opens a trace file for reading: plain, gzip or zstd (told apart by their
// first bytes). It reads and checks the header, and nothing more, before it returns;
// every reader of clusterlab goes through it. A path that is not a regular file (a
// device, a FIFO, a directory) is refused without reading from it.
func openTrace(path string) (*traceFile, error) { return openTraceWith(path, ResolveHeader(path), 0) }

// openTraceWith is openTrace with another resolver: verify's second reading of a file
// takes the header it has checked already. A compressed file's content is kept, up
// to keep bytes of it, for a second reading (see Kept and openKept).
func openTraceWith(path string, resolve trace.Resolver, keep int) (*traceFile, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	tf := &traceFile{closers: []io.Closer{f}}
	br := bufio.NewReaderSize(f, 64<<10)
	var r io.Reader = br
	magic, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(magic, gzipMagic):
		z, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: bad gzip data, expected a gzip-compressed trace", path)
		}
		tf.closers, r = append(tf.closers, z), z
	case bytes.HasPrefix(magic, zstdMagic):
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdMaxWindow), zstd.WithDecoderLowmem(true))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: bad zstd data, expected a zstd-compressed trace", path)
		}
		tf.closers, r = append(tf.closers, z.IOReadCloser()), z
	}
	compressed := len(tf.closers) > 1
	r = &readErrors{r: r, name: path}
	if keep > 0 && compressed {
		// A plain file's second reading costs only the page cache's copy.
		tf.kept = &keeper{r: r, max: keep}
		r = tf.kept
	}
	rd, err := trace.NewReader(r, path, resolve)
	if err != nil {
		tf.Close()
		return nil, err
	}
	tf.Reader = rd
	return tf, nil
}

// openKept is a second reading of a trace from the content a first reading kept
// (see traceFile.Kept), named name in messages.
func openKept(name string, kept io.Reader, resolve trace.Resolver) (*traceFile, error) {
	rd, err := trace.NewReader(kept, name, resolve)
	if err != nil {
		return nil, err
	}
	return &traceFile{Reader: rd}, nil
}

// readErrors words a decompressor's errors for people.
type readErrors struct {
	r    io.Reader
	name string
}

func (e *readErrors) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			// A compressed recording cut short: what came before it is read, the
			// rest is a cut tail.
			return n, io.EOF
		}
		err = fmt.Errorf("corrupt compressed data (%v)", strings.TrimPrefix(err.Error(), "zstd: "))
	}
	return n, err
}

// OpenTrace opens a trace file to read it as a stream (see openTrace): its reader,
// past the header, and what closes the file.
func OpenTrace(path string) (*trace.Reader, io.Closer, error) {
	tf, err := openTrace(path)
	if err != nil {
		return nil, nil, err
	}
	return tf.Reader, tf, nil
}

// ReadTrace reads and checks a whole trace file (see openTrace).
func ReadTrace(path string) (*trace.Trace, error) {
	tf, err := openTrace(path)
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	// The state an export folds, and the snapshot it takes.
	if err := needFold(path, tf.Header, 2); err != nil {
		return nil, err
	}
	return tf.ReadAll()
}

// compressor is a compressing writer over an output; Close ends the compressed
// stream, and leaves the output under it to its owner.
type compressor interface {
	io.WriteCloser
	Flush() error
}

// compressByName wraps w in a compressor when path ends in .gz or .zst, which
// compresses in a goroutine of its own (see background).
func compressByName(path string, w io.Writer) io.Writer {
	var z compressor
	switch strings.ToLower(filepath.Ext(path)) {
	case ".gz":
		g, _ := gzip.NewWriterLevel(w, gzip.DefaultCompression)
		z = &framed{z: g, w: w}
	case ".zst":
		e, _ := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<20))
		z = &framed{z: e, w: w}
	default:
		return w
	}
	return newBackground(z)
}

// Record starts a recording of a run of s into out, compressed by the extension of
// its name (.gz or .zst). Closing the recorder ends the compressed stream; out is
// then the caller's to commit.
func Record(out *Output, s *presets.Scenario, cfg netsim.Config) (*trace.Recorder, error) {
	return RecordUntil(out, s, cfg, 0)
}

// RecordUntil is Record for a run to until rather than the scenario's end (0: the
// scenario's): the header says so (trace.Header.Until), so that the recording cut
// short without its end record is still read up to there.
func RecordUntil(out *Output, s *presets.Scenario, cfg netsim.Config, until time.Duration) (*trace.Recorder, error) {
	h := Header(s, cfg)
	if until > 0 && until != cfg.Until {
		h.Until = node.Micros(until)
	}
	return trace.NewRecorder(compressByName(out.Path(), out), h)
}

// compressed reports whether the file is gzip or zstd.
func (t *traceFile) compressed() bool { return len(t.closers) > 1 }
