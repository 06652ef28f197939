package session

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// A compressed recording is written in independent pieces (zstd frames, gzip
// members) of frameBytes of lines each, so that a replay can start reading at any
// piece, where a single stream would have to be decompressed from its start to
// reach its end: a zstd reader decompresses a few hundred megabytes a second, and
// a replay seeks at every key. Each piece starts with a line. Any zstd or gzip
// reader reads the pieces one after the other as one stream. A recording in one
// piece (written before, or by another program) still replays, each seek reading
// from its start.
//
// With pieces of a megabyte a seek decompresses half a megabyte on average before
// the first line it needs, and the pieces make a recording of a 400-node mesh (730
// MB of lines) smaller in zstd than one stream (65.6 MB against 67.2: each piece's
// blocks start their statistics anew). (A variable for the tests, which make
// pieces of small recordings.)
var frameBytes = 1 << 20

// framed is a compressor that ends its piece and starts another once a piece holds
// frameBytes; the writes it is given are whole lines.
type framed struct {
	z interface {
		compressor
		Reset(io.Writer)
	}
	w io.Writer
	n int // bytes in the piece under way
}

func (f *framed) Write(p []byte) (int, error) {
	if f.n >= frameBytes {
		if err := f.z.Close(); err != nil {
			return 0, err
		}
		f.z.Reset(f.w)
		f.n = 0
	}
	f.n += len(p)
	return f.z.Write(p)
}

func (f *framed) Flush() error { return f.z.Flush() }
func (f *framed) Close() error { return f.z.Close() }

// sourceKind is how a recording is stored.
type sourceKind uint8

const (
	plainFile sourceKind = iota
	zstdFile
	gzipFile
)

// source reads a recording's content (its lines, decompressed) from any place in
// it: what a replay keeps instead of the lines.
type source struct {
	name string
	f    *os.File // kept open: a file recorded again under the same name is another file
	size int64
	kind sourceKind
	// The pieces of a compressed file, in order: where each starts in the file
	// and in the content. The first starts at 0 in both.
	pieces []piece
}

type piece struct{ file, content int64 }

// openSource opens path for reading by a replay and returns it with a reader of
// its content from the start, which learns where the pieces start as it reads
// them: read it to its end before placing a cursor.
func openSource(path string) (*source, io.Reader, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	s := &source{name: path, f: f, size: fi.Size(), pieces: []piece{{}}}
	var magic [4]byte
	n, _ := f.ReadAt(magic[:], 0)
	var r io.Reader
	switch {
	case bytes.HasPrefix(magic[:n], gzipMagic):
		s.kind = gzipFile
		g := &gzipPieces{s: s, br: &countingReader{r: bufio.NewReaderSize(io.NewSectionReader(f, 0, s.size), 64<<10)}}
		if err := g.start(); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: bad gzip data, expected a gzip-compressed trace", path)
		}
		r = g
	case bytes.HasPrefix(magic[:n], zstdMagic):
		s.kind = zstdFile
		z := &zstdPieces{s: s, starts: zstdFrames(f, s.size)}
		if z.dec, err = newZstdReader(nil); err != nil {
			f.Close()
			return nil, nil, err
		}
		r = z
	default:
		r = io.NewSectionReader(f, 0, s.size)
	}
	return s, &readErrors{r: r, name: path}, nil
}

// openRegular opens path, refusing without reading from it what is not a regular
// file (a device, a FIFO, a directory).
func openRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file, expected a trace file", path)
	}
	return os.Open(path)
}

func newZstdReader(r io.Reader) (*zstd.Decoder, error) {
	return zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdMaxWindow), zstd.WithDecoderLowmem(true))
}

func (s *source) Close() error { return s.f.Close() }

// zstdPieces reads a zstd file's frames one after the other, each from its own
// start, noting where each begins in the content.
type zstdPieces struct {
	s      *source
	starts []int64 // the frames' offsets in the file (zstdFrames)
	i      int     // the frame being read, once started
	on     bool
	dec    *zstd.Decoder
	n      int64 // content read so far
}

func (z *zstdPieces) Read(p []byte) (int, error) {
	for {
		if !z.on {
			if z.i >= len(z.starts) {
				z.dec.Close()
				return 0, io.EOF
			}
			from, to := z.starts[z.i], z.s.size
			if z.i+1 < len(z.starts) {
				to = z.starts[z.i+1]
			}
			if z.i > 0 {
				z.s.pieces = append(z.s.pieces, piece{file: from, content: z.n})
			}
			if err := z.dec.Reset(io.NewSectionReader(z.s.f, from, to-from)); err != nil {
				return 0, err
			}
			z.on = true
		}
		n, err := z.dec.Read(p)
		z.n += int64(n)
		if err == io.EOF {
			z.on = false
			z.i++
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// zstdFrames finds where the frames of a zstd file start, from their headers and
// their blocks' headers, without decompressing anything. It stops at what is not a
// frame (a cut or corrupt tail), which the decompressor then reads, and reports as
// it does; the first frame starts at 0 whatever comes first.
func zstdFrames(f io.ReaderAt, size int64) []int64 {
	starts := []int64{0}
	var hdr [18]byte
	for off := int64(0); off < size; {
		n, _ := f.ReadAt(hdr[:], off)
		if n < 8 {
			break
		}
		magic := binary.LittleEndian.Uint32(hdr[:4])
		if magic&^0xf == 0x184d2a50 { // a skippable frame
			off += 8 + int64(binary.LittleEndian.Uint32(hdr[4:8]))
			continue
		}
		if magic != 0xfd2fb528 {
			break
		}
		fhd := hdr[4]
		single := int64(fhd >> 5 & 1)
		fcs := [4]int64{single, 2, 4, 8}[fhd>>6]
		if off > 0 {
			starts = append(starts, off)
		}
		p := off + 5 + (1 - single) + [4]int64{0, 1, 2, 4}[fhd&3] + fcs
		for {
			var bh [3]byte
			if n, _ := f.ReadAt(bh[:], p); n < 3 {
				return starts // cut inside the frame
			}
			v := int64(bh[0]) | int64(bh[1])<<8 | int64(bh[2])<<16
			switch v >> 1 & 3 {
			case 1: // RLE: one byte, repeated
				p += 4
			case 3:
				return starts
			default:
				p += 3 + v>>3
			}
			if v&1 == 1 {
				break
			}
		}
		if fhd>>2&1 == 1 {
			p += 4 // the content checksum
		}
		off = p
	}
	return starts
}

// gzipPieces reads a gzip file's members one after the other, noting where each
// begins in the file and in the content.
type gzipPieces struct {
	s  *source
	br *countingReader
	z  *gzip.Reader
	n  int64 // content read so far
}

func (g *gzipPieces) start() error {
	z, err := gzip.NewReader(g.br)
	if err != nil {
		return err
	}
	z.Multistream(false)
	g.z = z
	return nil
}

func (g *gzipPieces) Read(p []byte) (int, error) {
	for {
		n, err := g.z.Read(p)
		g.n += int64(n)
		if err != io.EOF {
			return n, err
		}
		// The end of a member: another may follow.
		at := g.br.n
		if _, perr := g.br.r.Peek(1); perr != nil {
			return n, io.EOF
		}
		if err := g.z.Reset(g.br); err != nil {
			return n, err
		}
		g.z.Multistream(false)
		g.s.pieces = append(g.s.pieces, piece{file: at, content: g.n})
		if n > 0 {
			return n, nil
		}
	}
}

// countingReader counts the bytes read through it. A gzip reader given an
// io.ByteReader reads exactly the bytes of each member, so the count is where the
// next member starts.
type countingReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// cursor reads a source's lines from a place its index knows on. Each has its own
// decompressor: a replay's playback and its re-run for the timeout bars read the
// same file at once.
type cursor struct {
	s    *source
	zr   *zstd.Decoder
	gz   *gzip.Reader
	br   *bufio.Reader
	buf  []byte
	line int // the number of the line it reads next (0 is the first event); -1 before place
}

func newCursor(s *source) *cursor { return &cursor{s: s, line: -1} }

// place makes the cursor read on from content offset off, where line starts.
func (c *cursor) place(off int64, line int) error {
	s := c.s
	k := sort.Search(len(s.pieces), func(i int) bool { return s.pieces[i].content > off }) - 1
	pc := s.pieces[k]
	var r io.Reader = io.NewSectionReader(s.f, pc.file, s.size-pc.file)
	switch s.kind {
	case plainFile:
		r = io.NewSectionReader(s.f, off, s.size-off)
		pc.content = off
	case zstdFile:
		var err error
		if c.zr == nil {
			c.zr, err = newZstdReader(r)
		} else {
			err = c.zr.Reset(r)
		}
		if err != nil {
			return err
		}
		r = c.zr
	case gzipFile:
		br := bufio.NewReaderSize(r, 64<<10)
		var err error
		if c.gz == nil {
			c.gz, err = gzip.NewReader(br)
		} else {
			err = c.gz.Reset(br)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", s.name, err)
		}
		r = c.gz
	}
	r = &readErrors{r: r, name: s.name}
	if c.br == nil {
		c.br = bufio.NewReaderSize(r, 64<<10)
	} else {
		c.br.Reset(r)
	}
	if _, err := c.br.Discard(int(off - pc.content)); err != nil {
		return fmt.Errorf("%s: the file changed since it was opened (%v)", s.name, err)
	}
	c.line = line
	return nil
}

// next is the next line, without its newline, valid until the next call.
func (c *cursor) next() ([]byte, error) {
	c.buf = c.buf[:0]
	for {
		chunk, err := c.br.ReadSlice('\n')
		if err == nil && len(c.buf) == 0 {
			c.line++
			return chunk[:len(chunk)-1], nil
		}
		c.buf = append(c.buf, chunk...)
		switch {
		case err == nil:
			c.line++
			return c.buf[:len(c.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull) && len(c.buf) <= trace.MaxLine:
			continue
		case err == io.EOF:
			return nil, fmt.Errorf("%s: the file changed since it was opened (it is shorter)", c.s.name)
		default:
			return nil, err
		}
	}
}

func (c *cursor) Close() {
	if c.zr != nil {
		c.zr.Close()
		c.zr = nil
	}
}
