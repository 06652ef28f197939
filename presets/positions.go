package presets

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// positions maps key paths such as "network.loss", "params.interval" or
// "script[2].do" (0-based array-table index) to where their value starts, so that
// errors found after decoding still point at file:line:col.
type positions map[string]unstable.Position

// source is a scenario file being walked: the parser, and where each line starts,
// so that finding the line and column of an offset costs a binary search, not a
// scan from the top (the parser's own Shape scans, which made a file of thousands
// of entries take seconds).
type source struct {
	p     unstable.Parser
	data  []byte
	lines []int // offset of each line's first byte
}

func newSource(data []byte) *source {
	s := &source{data: data, lines: []int{0}}
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		s.lines = append(s.lines, off)
	}
	s.p.Reset(data)
	return s
}

// at is the position of a byte offset: 1-based line, and column in bytes.
func (s *source) at(off int) unstable.Position {
	line := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off }) // one past off's line
	return unstable.Position{Offset: off, Line: line, Column: off - s.lines[line-1] + 1}
}

func index(data []byte) positions {
	pos := positions{}
	src := newSource(data)
	p := &src.p
	counts := map[string]int{}
	table := ""
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			name := indexed(keyPath(e.Key()), counts)
			if e.Kind == unstable.ArrayTable {
				i := counts[name]
				counts[name] = i + 1
				name = fmt.Sprintf("%s[%d]", name, i)
			}
			table = name
			pos[table] = src.headerStart(e)
		case unstable.KeyValue:
			path := join(table, keyPath(e.Key()))
			if v := e.Value(); v != nil && v.Raw.Length == 0 {
				// Lists have no range of their own: theirs starts after the "=".
				pos[path] = src.at(src.valueStart(e))
			}
			src.record(pos, path, e.Value())
		}
	}
	// A syntax error stops the walk; the decoder reports it with its own position.
	return pos
}

// indexed writes a sub-table's name with the index of the array tables it belongs
// to: [links.latency] after the second [[links]] is "links[1].latency".
func indexed(name string, counts map[string]int) string {
	parts := strings.Split(name, ".")
	for i := len(parts) - 1; i > 0; i-- {
		prefix := strings.Join(parts[:i], ".")
		if n := counts[prefix]; n > 0 {
			return fmt.Sprintf("%s[%d].%s", prefix, n-1, strings.Join(parts[i:], "."))
		}
	}
	return name
}

// headerStart finds the "[" of a table header, which the parser gives no range.
func (s *source) headerStart(e *unstable.Node) unstable.Position {
	it := e.Key()
	if !it.Next() {
		return unstable.Position{Line: 1, Column: 1}
	}
	off := int(it.Node().Raw.Offset)
	for off > 0 && (s.data[off-1] == '[' || s.data[off-1] == ' ' || s.data[off-1] == '\t') {
		off--
	}
	return s.at(off)
}

// valueStart finds where a key = value line's value begins: past the key's last
// part, blanks, "=" and blanks.
func (s *source) valueStart(kv *unstable.Node) int {
	off := int(kv.Raw.Offset)
	for it := kv.Key(); it.Next(); {
		r := it.Node().Raw
		off = int(r.Offset + r.Length)
	}
	for off < len(s.data) && (s.data[off] == ' ' || s.data[off] == '\t' || s.data[off] == '=') {
		off++
	}
	return off
}

func (s *source) record(pos positions, path string, v *unstable.Node) {
	if v == nil {
		return
	}
	if v.Raw.Length > 0 {
		pos[path] = s.at(int(v.Raw.Offset))
	}
	if v.Kind == unstable.Array {
		// An array has no position of its own: its elements have, as path[i], and
		// the array starts at the "[" before its first element.
		it := v.Children()
		for i := 0; it.Next(); i++ {
			el := fmt.Sprintf("%s[%d]", path, i)
			s.record(pos, el, it.Node())
			if _, ok := pos[path]; !ok {
				pos[path] = s.openingBracket(pos[el])
			}
		}
	}
	if v.Kind == unstable.InlineTable {
		it := v.Children()
		for it.Next() {
			kv := it.Node()
			s.record(pos, join(path, keyPath(kv.Key())), kv.Value())
		}
	}
}

// openingBracket steps back from a list's first element to the "[" that opens the
// list, over blanks.
func (s *source) openingBracket(first unstable.Position) unstable.Position {
	for off := first.Offset - 1; off >= 0; off-- {
		switch s.data[off] {
		case ' ', '\t', '\r', '\n':
			continue
		case '[':
			return s.at(off)
		}
		break
	}
	return first
}

func keyPath(it unstable.Iterator) string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, ".")
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// at finds the position of path, or of the nearest enclosing table that has one.
func (ps positions) at(path string) (line, col int) {
	for p := path; p != ""; {
		if x, ok := ps[p]; ok {
			return x.Line, x.Column
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 1, 1
}

// keyPathAt finds the full path of the key written at line:col, through tables and
// inline tables ("network.latency.mn" for an inline latency's key), or nil.
func keyPathAt(data []byte, line, col int) []string {
	src := newSource(data)
	p := &src.p
	var table []string
	var walk func(prefix []string, kv *unstable.Node) []string
	walk = func(prefix []string, kv *unstable.Node) []string {
		path := append([]string(nil), prefix...)
		for it := kv.Key(); it.Next(); {
			k := it.Node()
			path = append(path, string(k.Data))
			if at := src.at(int(k.Raw.Offset)); at.Line == line && at.Column == col {
				return path
			}
		}
		if v := kv.Value(); v != nil && v.Kind == unstable.InlineTable {
			for it := v.Children(); it.Next(); {
				if found := walk(path, it.Node()); found != nil {
					return found
				}
			}
		}
		return nil
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = strings.Split(keyPath(e.Key()), ".")
		case unstable.KeyValue:
			if found := walk(table, e); found != nil {
				return found
			}
		}
	}
	return nil
}
