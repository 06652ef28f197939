package session

// lineStore keeps a recording's event lines for replay, packed in big chunks: a
// line of its own would cost a slice header and an allocation's rounding on top of
// its hundred-odd bytes, a third more for a big recording.
type lineStore struct {
	chunks [][]byte
	at     []uint64 // each line's chunk (high 32 bits) and start in it
	size   []uint32 // each line's length
}

// lineChunk is the size of a chunk: a line (at most trace.MaxLine) always fits.
const lineChunk = 4 << 20

// add keeps a copy of line.
func (s *lineStore) add(line []byte) {
	last := len(s.chunks) - 1
	if last < 0 || len(s.chunks[last])+len(line) > cap(s.chunks[last]) {
		s.chunks = append(s.chunks, make([]byte, 0, max(lineChunk, len(line))))
		last++
	}
	c := s.chunks[last]
	s.at = append(s.at, uint64(last)<<32|uint64(len(c)))
	s.size = append(s.size, uint32(len(line)))
	s.chunks[last] = append(c, line...)
}

// len is the number of lines.
func (s *lineStore) len() int { return len(s.at) }

// line is line i, to be read only.
func (s *lineStore) line(i int) []byte {
	c, from := s.at[i]>>32, s.at[i]&(1<<32-1)
	return s.chunks[c][from : from+uint64(s.size[i])]
}
