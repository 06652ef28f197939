package presets

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/clusterlab/clusterlab/netsim"
)

// The scenario format's schema is the Scenario type itself: its toml tags name the
// keys. The decoder's errors speak of Go types; these helpers turn them into the
// keys valid at a place and the kind of value a key expects.

// fieldAt follows a key path (no array indexes) through the Scenario type and
// returns the type of the value there, or nil when there is no such key.
func fieldAt(path []string) reflect.Type {
	t := reflect.TypeOf(Scenario{})
	for _, k := range path {
		t = tableType(t)
		if t == nil {
			return nil
		}
		if t.Kind() == reflect.Map {
			t = t.Elem()
			continue
		}
		f, ok := fieldByKey(t, k)
		if !ok {
			return nil
		}
		t = f.Type
	}
	return t
}

// tableType is the struct (or map) a TOML table of type t decodes into: pointers
// and arrays of tables lead to it.
func tableType(t reflect.Type) reflect.Type {
	if t == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct || t.Kind() == reflect.Map {
		return t
	}
	return nil
}

func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); tomlKey(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func tomlKey(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return name
}

// keysAt lists the keys valid in the table at path, in the order of the format.
func keysAt(path []string) []string {
	t := reflect.TypeOf(Scenario{})
	if len(path) > 0 {
		t = fieldAt(path)
	}
	if t = tableType(t); t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if k := tomlKey(t.Field(i)); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// unknownKey describes an unknown key: the keys valid at its place, and the nearest
// one when the key looks like a typo of it.
func unknownKey(path []string) string {
	if len(path) == 0 {
		return "found an unknown key, expected a key of the scenario format"
	}
	// The first part that is not a key of its table is the unknown one.
	for i := range path[:len(path)-1] {
		if !slices.Contains(keysAt(path[:i]), path[i]) {
			path = path[:i+1]
			break
		}
	}
	key, parent := path[len(path)-1], path[:len(path)-1]
	valid := keysAt(parent)
	where := "the top-level keys"
	if len(parent) > 0 {
		where = "the keys of [" + strings.Join(parent, ".") + "]"
	}
	msg := fmt.Sprintf("found unknown key %q", key)
	if near := nearest(key, valid); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return msg + fmt.Sprintf(", expected one of %s: %s", where, strings.Join(valid, ", "))
}

// nearest is the word of words closest to w, if it is close enough to be a typo.
func nearest(w string, words []string) string {
	best, bestD := "", 0
	for _, x := range words {
		d := editDistance(w, x)
		if best == "" || d < bestD {
			best, bestD = x, d
		}
	}
	if best == "" || bestD > max(1, len(w)/3) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// examples give, by key name, a value as a scenario file would write it.
var examples = map[string]string{
	"name": `"my-scenario"`, "description": `"…"`, "algorithm": `"bully"`, "until": `"20s"`,
	"topology": `"mesh"`, "order": `"increasing"`, "at": `"3s"`, "do": `"crash n1"`, "that": `"agree n5"`,
	"from": `"n1"`, "to": `"n2"`, "dist": `"uniform"`, "min": `"5ms"`, "mean": `"10ms"`, "max": `"20ms"`,
	"gst": `"0s"`, "delta": `"50ms"`, "settle": `"3s"`, "starvation": `"5s"`, "split_grace": `"200ms"`,
	"crash_rate": `"0.2/s"`, "partition_rate": `"0.1/s"`, "end": `"6s"`,
	"ids": `[1, 2, 3]`, "edges": `[["n1", "n2"], ["n2", "n3"]]`, "nodes": `5`, "degree": `3`, "seed": `42`,
	"loss": `0.1`, "dup": `0.01`,
	"latency": `{ dist = "uniform", min = "5ms", max = "20ms" }`, "down_for": `{ dist = "uniform", min = "100ms", max = "1s" }`,
}

// describe says, in the format's words, what a value of type t at key is.
func describe(t reflect.Type, key string) string {
	ex := examples[key]
	such := func(s string) string {
		if ex == "" {
			return s
		}
		return s + " such as " + ex
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int:
		return such("a whole number")
	case reflect.Uint64:
		return "a whole number from 0 to 18446744073709551615"
	case reflect.Float64:
		return such("a number from 0 to 1")
	case reflect.String:
		return such("a quoted string")
	case reflect.Slice:
		if tableType(t) != nil && t.Elem().Kind() == reflect.Struct {
			return fmt.Sprintf("[[%s]] tables", key)
		}
		if key == "nodes" {
			return `a list of nodes such as ["n1", "n2"]`
		}
		return such("a list")
	case reflect.Struct, reflect.Map:
		if ex != "" {
			return "a table such as " + ex
		}
		return "a table"
	}
	return "another value"
}

// decodeError turns the decoder's complaint about a value into the format's words:
// what was found at the position, and what the key expects.
func decodeError(file string, data []byte, de *toml.DecodeError) error {
	if err := syntaxError(file, de); err != nil {
		return err
	}
	row, col := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	key := de.Key()
	if len(key) == 0 {
		return &fileError{file, row, col, fmt.Sprintf("found %s, expected valid TOML (key = value lines and [tables])", msg)}
	}
	name := key[len(key)-1]
	t := fieldAt(key)
	found := tokenAt(data, row, col)
	if t == nil {
		return &fileError{file, row, col, fmt.Sprintf("found %s for %s, expected another value", found, strings.Join(key, "."))}
	}
	// The decoder names the Go type it failed to fill: the key's own, or, inside
	// a list, its elements'.
	whole := strings.HasSuffix(msg, "of type "+t.String())
	if t.Kind() == reflect.Slice && !whole && found != "a list" {
		want := describe(t.Elem(), name+"[]")
		if name == "ids" {
			want = "an id from 1 to " + netsim.Thousands(MaxID)
		}
		return &fileError{file, row, col, fmt.Sprintf("found %s in %s, expected %s", found, name, want)}
	}
	return &fileError{file, row, col, fmt.Sprintf("found %s = %s, expected %s", name, found, describe(t, name))}
}

// tokenAt is the value written at line:col, cut short if long.
func tokenAt(data []byte, line, col int) string {
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		return "a value"
	}
	s := lines[line-1]
	if col-1 > len(s) || col < 1 {
		return "a value"
	}
	s = strings.TrimRight(s[col-1:], " \t\r")
	end := len(s)
	switch {
	case strings.HasPrefix(s, `"`) || strings.HasPrefix(s, `'`):
		if i := strings.IndexByte(s[1:], s[0]); i >= 0 {
			end = i + 2
		}
	case strings.HasPrefix(s, "["):
		return "a list"
	case strings.HasPrefix(s, "{"):
		return "a table"
	default:
		if i := strings.IndexAny(s, " \t,]}#"); i >= 0 {
			end = i
		}
	}
	s = s[:end]
	if r := []rune(s); len(r) > 40 {
		s = string(r[:37]) + "…"
	}
	return s
}

// syntaxError says in the format's words the decoder's complaints that are not
// about a value (scenarios and sweeps share it), or returns nil:
//   - a key given twice in a table ("found nodes = nodes" before);
//   - a UTF-8 byte-order mark, which some Windows editors write first, and which
//     the decoder reads as an invalid character U+00EF.
func syntaxError(file string, de *toml.DecodeError) error {
	row, col := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	switch {
	case strings.HasSuffix(msg, " is already defined") && len(de.Key()) > 0:
		return &fileError{file, row, col, fmt.Sprintf("found %s a second time, expected each key once in its table", strings.Join(de.Key(), "."))}
	case row == 1 && col == 1 && strings.Contains(msg, "U+00EF"):
		return &fileError{file, row, col, "found a byte-order mark (U+FEFF) at the start of the file, expected plain UTF-8: remove the byte-order mark (save the file as UTF-8 without BOM)"}
	}
	return nil
}
