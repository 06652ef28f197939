package sshtest

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// term is just enough of a terminal to read what a dashboard draws: printable
// text at the cursor, the cursor moves (CUP, CHA, VPA, CUF, CUB, CUU, CUD, CR,
// LF), erasing (ED, EL, ECH); every other sequence (colours, modes, titles) is
// skipped.
type term struct {
	w, h   int
	cells  [][]rune
	row    int
	col    int
	buf    []byte // an incomplete sequence or rune, kept for the next write
	inited bool
}

func newTerm(h, w int) term {
	t := term{w: w, h: h, inited: true}
	t.clear()
	return t
}

func (t *term) clear() {
	t.cells = make([][]rune, t.h)
	for i := range t.cells {
		t.cells[i] = []rune(strings.Repeat(" ", t.w))
	}
}

func (t *term) String() string {
	if !t.inited {
		return ""
	}
	rows := make([]string, t.h)
	for i, r := range t.cells {
		rows[i] = strings.TrimRight(string(r), " ")
	}
	return strings.Join(rows, "\n")
}

func (t *term) put(r rune) {
	if t.row < 0 || t.row >= t.h {
		return
	}
	wd := width(r)
	if t.col >= 0 && t.col < t.w {
		t.cells[t.row][t.col] = r
		for k := 1; k < wd && t.col+k < t.w; k++ {
			t.cells[t.row][t.col+k] = 0
		}
	}
	t.col += wd
}

// feed reads p, with what an earlier write left unfinished.
func (t *term) feed(p []byte) {
	if !t.inited {
		return
	}
	b := append(t.buf, p...)
	t.buf = nil
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b:
			n, ok := t.escape(b[i:])
			if !ok {
				t.buf = append([]byte(nil), b[i:]...)
				return
			}
			i += n
		case c == '\r':
			t.col = 0
			i++
		case c == '\n':
			t.row = min(t.row+1, t.h-1)
			i++
		case c == '\b':
			t.col = max(t.col-1, 0)
			i++
		case c < 0x20:
			i++
		default:
			if !utf8.FullRune(b[i:]) {
				t.buf = append([]byte(nil), b[i:]...)
				return
			}
			r, n := utf8.DecodeRune(b[i:])
			t.put(r)
			i += n
		}
	}
}

// escape reads the sequence at the start of b: its length, or false when b ends
// before it does.
func (t *term) escape(b []byte) (int, bool) {
	if len(b) < 2 {
		return 0, false
	}
	switch b[1] {
	case '[':
		j := 2
		for j < len(b) && b[j] >= 0x20 && b[j] <= 0x3f {
			j++
		}
		if j >= len(b) {
			return 0, false
		}
		t.csi(string(b[2:j]), b[j])
		return j + 1, true
	case ']', 'P', '_', '^': // a string, ended by BEL or ST
		for j := 2; j < len(b); j++ {
			if b[j] == 0x07 {
				return j + 1, true
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 2, true
			}
		}
		return 0, false
	}
	return 2, true
}

// csi acts on a control sequence with parameters params and final byte f.
func (t *term) csi(params string, f byte) {
	if strings.ContainsAny(params, "?>=<$ ") {
		return // modes and queries
	}
	ps := strings.Split(params, ";")
	arg := func(k, def int) int {
		if k < len(ps) {
			if v, err := strconv.Atoi(ps[k]); err == nil && v > 0 {
				return v
			}
		}
		return def
	}
	switch f {
	case 'H', 'f':
		t.row, t.col = min(arg(0, 1), t.h)-1, min(arg(1, 1), t.w)-1
	case 'G':
		t.col = min(arg(0, 1), t.w) - 1
	case 'd':
		t.row = min(arg(0, 1), t.h) - 1
	case 'C':
		t.col = min(t.col+arg(0, 1), t.w-1)
	case 'D':
		t.col = max(t.col-arg(0, 1), 0)
	case 'A':
		t.row = max(t.row-arg(0, 1), 0)
	case 'B':
		t.row = min(t.row+arg(0, 1), t.h-1)
	case 'J':
		if arg(0, 0) == 2 || arg(0, 0) == 3 {
			t.clear()
		} else {
			t.eraseLine(t.col, t.w)
			for r := t.row + 1; r < t.h; r++ {
				t.cells[r] = []rune(strings.Repeat(" ", t.w))
			}
		}
	case 'K':
		switch arg(0, 0) {
		case 1:
			t.eraseLine(0, t.col+1)
		case 2:
			t.eraseLine(0, t.w)
		default:
			t.eraseLine(t.col, t.w)
		}
	case 'X':
		t.eraseLine(t.col, t.col+arg(0, 1))
	}
}

func (t *term) eraseLine(from, to int) {
	if t.row < 0 || t.row >= t.h {
		return
	}
	for c := max(from, 0); c < min(to, t.w); c++ {
		t.cells[t.row][c] = ' '
	}
}

// width is the cells a rune takes: 2 for the wide ranges of East Asian scripts
// and pictographs, else 1 (box drawing, blocks and the dashboard's marks are
// narrow). Cheap, as a terminal's table lookup is.
func width(r rune) int {
	for _, w := range [][2]rune{{0x1100, 0x115f}, {0x2e80, 0xa4cf}, {0xac00, 0xd7a3}, {0xf900, 0xfaff}, {0xfe30, 0xfe4f},
		{0xff00, 0xff60}, {0xffe0, 0xffe6}, {0x1f300, 0x1f64f}, {0x1f900, 0x1f9ff}, {0x20000, 0x3fffd}} {
		if r >= w[0] && r <= w[1] {
			return 2
		}
	}
	return 1
}
