package presets

import (
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// positions maps key paths such as "network.loss", "params.interval" or
// "script[2].do" (0-based array-table index) to where their value starts, so that
// errors found after decoding still point at file:line:col.
type positions map[string]unstable.Position

func index(data []byte) positions {
	pos := positions{}
	p := unstable.Parser{}
	p.Reset(data)
	counts := map[string]int{}
	table := ""
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			name := keyPath(e.Key())
			if e.Kind == unstable.ArrayTable {
				i := counts[name]
				counts[name] = i + 1
				name = fmt.Sprintf("%s[%d]", name, i)
			}
			table = name
			pos[table] = p.Shape(e.Raw).Start
		case unstable.KeyValue:
			record(&p, pos, join(table, keyPath(e.Key())), e.Value())
		}
	}
	// A syntax error stops the walk; the decoder reports it with its own position.
	return pos
}

func record(p *unstable.Parser, pos positions, path string, v *unstable.Node) {
	if v == nil {
		return
	}
	if v.Raw.Length > 0 {
		pos[path] = p.Shape(v.Raw).Start
	}
	if v.Kind == unstable.Array {
		// An array has no position of its own: its elements have, as path[i], and
		// the array takes its first element's.
		it := v.Children()
		for i := 0; it.Next(); i++ {
			el := fmt.Sprintf("%s[%d]", path, i)
			record(p, pos, el, it.Node())
			if _, ok := pos[path]; !ok {
				pos[path] = pos[el]
			}
		}
	}
	if v.Kind == unstable.InlineTable {
		it := v.Children()
		for it.Next() {
			kv := it.Node()
			record(p, pos, join(path, keyPath(kv.Key())), kv.Value())
		}
	}
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
