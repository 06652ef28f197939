// Package termtext makes text read from files safe to print on a terminal. A
// scenario's name, a marker, a description, an alert, an error message that quotes
// a file: any of them may hold control characters (ESC starts the sequences that
// set a terminal's title, clear its screen or move its cursor; a carriage return
// overwrites the line before it). Every printer of such text goes through this
// package, which shows those characters escaped, the way Go writes them in a
// string literal: ESC as \x1b, BEL as \a, U+202E as \u202e.
//
// Escaped are: the C0 controls and DEL, the C1 controls (U+0080–U+009F, which some
// terminals read as ESC sequences), the bidirectional overrides and isolates (which
// reorder what is shown), and bytes that are not UTF-8. Everything else, any
// script's letters included, passes unchanged.
package termtext

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Line is s for one line of output: every control character escaped, newlines,
// carriage returns and tabs included, so that s cannot start a line of its own.
func Line(s string) string { return clean(s, false) }

// Text is s for output that may span lines (a description, a report): newlines and
// tabs are kept, and a carriage return only before a newline (CRLF line ends);
// every other control character is escaped.
func Text(s string) string { return clean(s, true) }

// clean escapes what needs it, and returns s itself when nothing does (the
// common case, without allocating).
func clean(s string, multiline bool) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafe(s, i, r, n, multiline) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafe(s, i, r, n, multiline) {
			escape(&b, s[i:i+n], r)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafe reports whether the rune r, n bytes at s[i:], must be escaped.
func unsafe(s string, i int, r rune, n int, multiline bool) bool {
	switch {
	case r == utf8.RuneError && n <= 1:
		return true // not UTF-8
	case r == '\n' || r == '\t':
		return !multiline
	case r == '\r':
		return !multiline || i+1 >= len(s) || s[i+1] != '\n'
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidirectional embeddings, overrides and isolates
	}
	return false
}

// escape writes the rune r (its bytes raw) as a Go string literal would.
func escape(b *strings.Builder, raw string, r rune) {
	if r == utf8.RuneError && len(raw) <= 1 {
		for j := 0; j < len(raw); j++ {
			b.WriteString(`\x`)
			b.WriteString(hex2(raw[j]))
		}
		return
	}
	q := strconv.QuoteRune(r) // '\x1b', '\a', '\u202e'
	b.WriteString(q[1 : len(q)-1])
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// Writer passes what is written to it on as Text would: for a stream from a file
// (an export written to stdout). A rune or a CRLF cut between two writes is judged
// whole; Flush judges what is left at the end.
type Writer struct {
	w    io.Writer
	held []byte // the end of the last write, not judged yet
	buf  []byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p, escaped, and reports len(p) written unless w failed.
func (tw *Writer) Write(p []byte) (int, error) {
	data := p
	if len(tw.held) > 0 {
		tw.buf = append(append(tw.buf[:0], tw.held...), p...)
		data = tw.buf
		tw.held = tw.held[:0]
	}
	// What a later write may complete: a rune's first bytes, a final \r.
	keep := len(data)
	for k := len(data) - 1; k >= 0 && k >= len(data)-utf8.UTFMax; k-- {
		if utf8.RuneStart(data[k]) {
			if !utf8.FullRune(data[k:]) {
				keep = k
			}
			break
		}
	}
	if keep > 0 && keep == len(data) && data[keep-1] == '\r' {
		keep--
	}
	tw.held = append(tw.held, data[keep:]...)
	if _, err := io.WriteString(tw.w, Text(string(data[:keep]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what the last write left to judge.
func (tw *Writer) Flush() error {
	if len(tw.held) == 0 {
		return nil
	}
	s := Text(string(tw.held))
	tw.held = tw.held[:0]
	_, err := io.WriteString(tw.w, s)
	return err
}
