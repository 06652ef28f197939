package export

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
)

// spoolMemory is how many bytes a spool keeps in memory before it moves them to a
// temporary file.
var spoolMemory = 8 << 20

// spool keeps rows of cells (each already written as its table writes it) for a
// table whose header depends on every row (the CSV's columns that some row
// uses): in memory while they are few, in a temporary file beyond, so that the
// table costs its own size on disk, not in memory.
type spool struct {
	mem  []byte
	f    *os.File
	w    *bufio.Writer
	rows int
	row  []byte // the row being added
}

// add adds a row of cells.
func (s *spool) add(cells [][]byte) error {
	s.row = binary.AppendUvarint(s.row[:0], uint64(len(cells)))
	for _, c := range cells {
		s.row = binary.AppendUvarint(s.row, uint64(len(c)))
		s.row = append(s.row, c...)
	}
	s.rows++
	if s.f == nil && len(s.mem)+len(s.row) <= spoolMemory {
		s.mem = append(s.mem, s.row...)
		return nil
	}
	if s.f == nil {
		f, err := tempFile("clusterlab-export-*")
		if err != nil {
			return err
		}
		s.f = f
		s.w = bufio.NewWriterSize(s.f, 256<<10)
		if _, err := s.w.Write(s.mem); err != nil {
			return err
		}
		s.mem = nil
	}
	_, err := s.w.Write(s.row)
	return err
}

// each hands every row to f, in the order added; cells are valid during f.
func (s *spool) each(f func(cells [][]byte) error) error {
	var r *bufio.Reader
	if s.f != nil {
		if err := s.w.Flush(); err != nil {
			return err
		}
		if _, err := s.f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		r = bufio.NewReaderSize(s.f, 256<<10)
	}
	mem := s.mem
	var cells [][]byte
	var buf []byte
	var ends []int
	for range s.rows {
		var row []byte
		if r == nil {
			n, k := binary.Uvarint(mem)
			mem = mem[k:]
			cells = cells[:0]
			for range n {
				l, k := binary.Uvarint(mem)
				cells = append(cells, mem[k:k+int(l)])
				mem = mem[k+int(l):]
			}
		} else {
			n, err := binary.ReadUvarint(r)
			if err != nil {
				return errSpool(err)
			}
			buf, cells, ends = buf[:0], cells[:0], ends[:0]
			for range n {
				l, err := binary.ReadUvarint(r)
				if err != nil {
					return errSpool(err)
				}
				start := len(buf)
				buf = append(buf, make([]byte, l)...)
				if _, err := io.ReadFull(r, buf[start:]); err != nil {
					return errSpool(err)
				}
				ends = append(ends, len(buf))
			}
			row = buf
			start := 0
			for _, e := range ends {
				cells = append(cells, row[start:e])
				start = e
			}
		}
		if err := f(cells); err != nil {
			return err
		}
	}
	return nil
}

func errSpool(err error) error { return errors.New("reading back the table's rows: " + err.Error()) }

// close removes the spool's file.
func (s *spool) close() { closeTemp(s.f) }

// tempFile makes a temporary file, gone from its directory at once where the
// system allows it: it lives as long as it is open, and an export that is stopped
// leaves nothing behind.
func tempFile(pattern string) (*os.File, error) {
	f, err := os.CreateTemp("", pattern)
	if err == nil {
		os.Remove(f.Name())
	}
	return f, err
}

// closeTemp closes a tempFile (nil for none), and removes it where it could not
// be removed at once.
func closeTemp(f *os.File) {
	if f != nil {
		name := f.Name()
		f.Close()
		os.Remove(name)
	}
}
