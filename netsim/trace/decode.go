package trace

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"unicode/utf8"

	"github.com/clusterlab/clusterlab/node"
)

// decoder reads event lines written the way the encoder writes them (see
// AppendLine: its field order, no spaces, no escapes in strings) without
// encoding/json, which took nine tenths of a reader's time: a replay reads millions
// of lines when it opens. A line in any other form, which is still JSON, is left to
// encoding/json (decode reports false), so that what a line means never depends on
// which of the two read it: TestDecoderMatchesJSON and FuzzDecoder hold the decoder
// to encoding/json on every line it accepts.
//
// The strings that repeat (kinds, message types, timer names, reasons, roles,
// counter names) are interned: each is allocated once per reader.
type decoder struct {
	strs   map[string]string // looked up with the line's bytes, never iterated
	recent [64]string        // the strings interned last (see intern)

	// What a shared event points to (see decode).
	msg    node.Message
	status node.Status
	ok     bool
	ids    []node.ID
	ctrs   []node.Counter
}

// internCap bounds how many strings a decoder interns: a file whose strings never
// repeat must not grow it without end.
const internCap = 4096

// eventKeys are an event's optional fields in the order the encoder writes them.
var eventKeys = keysOf("node", "from", "to", "mid", "msg", "dup", "local", "reason", "name", "value",
	"inc", "groups", "status", "kind", "text", "by", "before", "ok", "ref")

// decode sets *e from line, which has no newline, if the line is in the encoder's
// form, and reports whether it was; else *e is left in no particular state. With
// shared set, the message, status and ok that e points to are the decoder's own,
// valid until the next call; else they are new, as encoding/json makes them.
func (d *decoder) decode(line []byte, e *Event, shared bool) bool {
	*e = Event{}
	p := parser{b: line}
	if !p.lit(`{"seq":`) {
		return false
	}
	e.Seq = p.uint()
	if !p.lit(`,"t":`) {
		return false
	}
	e.T = p.int()
	if !p.lit(`,"ev":`) {
		return false
	}
	e.Ev = d.intern(p.str())
	next := 0 // the first of eventKeys that may come
	for !p.bad && p.peek(',') {
		p.i++
		k := p.key(eventKeys[next:])
		if k < 0 {
			return false
		}
		next += k + 1
		switch eventKeys[next-1].s {
		case `"node":`:
			e.Node = p.id()
		case `"from":`:
			e.From = p.id()
		case `"to":`:
			e.To = p.id()
		case `"mid":`:
			e.MID = p.uint()
		case `"msg":`:
			m := &d.msg
			if !shared {
				m = new(node.Message)
			}
			if !d.message(&p, m) {
				return false
			}
			e.Msg = m
		case `"dup":`:
			e.Dup = p.bool()
		case `"local":`:
			e.Local = p.bool()
		case `"reason":`:
			e.Reason = d.intern(p.str())
		case `"name":`:
			e.Name = d.intern(p.str())
		case `"value":`:
			e.Value = string(p.str())
		case `"inc":`:
			e.Inc = p.int()
		case `"status":`:
			s := &d.status
			if !shared {
				s = new(node.Status)
			}
			if !d.statusOf(&p, s, shared) {
				return false
			}
			e.Status = s
		case `"kind":`:
			e.Kind = d.intern(p.str())
		case `"text":`:
			e.Text = string(p.str())
		case `"by":`:
			e.By = d.intern(p.str())
		case `"before":`:
			e.Before = p.uint()
		case `"ok":`:
			ok := &d.ok
			if !shared {
				ok = new(bool)
			}
			*ok = p.bool()
			e.OK = ok
		case `"ref":`:
			e.Ref = p.uint()
		default: // groups, rare, left to encoding/json
			return false
		}
	}
	return p.lit("}") && !p.bad && p.i == len(p.b)
}

// messageKeys are a message's fields but its type, in the encoder's order.
var messageKeys = keysOf("id", "term", "ts", "flag", "list")

func (d *decoder) message(p *parser, m *node.Message) bool {
	*m = node.Message{}
	if !p.lit(`{"type":`) {
		return false
	}
	m.Type = d.intern(p.str())
	next := 0
	for !p.bad && p.peek(',') {
		p.i++
		k := p.key(messageKeys[next:])
		if k < 0 {
			return false
		}
		next += k + 1
		switch messageKeys[next-1].s {
		case `"id":`:
			m.ID = p.id()
		case `"term":`:
			m.Term = p.int()
		case `"ts":`:
			m.Stamp = p.int()
		case `"flag":`:
			m.Flag = p.bool()
		default: // a list, rare, left to encoding/json
			return false
		}
	}
	return p.lit("}")
}

// statusKeys are a status's fields in the encoder's order.
var statusKeys = keysOf("role", "leader", "suspects", "term", "inc", "cs", "counters")

func (d *decoder) statusOf(p *parser, s *node.Status, shared bool) bool {
	*s = node.Status{}
	if !p.lit("{") {
		return false
	}
	next := 0
	for first := true; !p.bad && !p.peek('}'); first = false {
		if !first && !p.lit(",") {
			return false
		}
		k := p.key(statusKeys[next:])
		if k < 0 {
			return false
		}
		next += k + 1
		switch statusKeys[next-1].s {
		case `"role":`:
			s.Role = d.intern(p.str())
		case `"leader":`:
			s.Leader = p.idOrNone()
		case `"suspects":`:
			if p.try("null") {
				break
			}
			ids := d.ids[:0]
			if !shared {
				ids = nil
			}
			if !p.lit("[") {
				return false
			}
			for !p.bad && !p.peek(']') {
				if len(ids) > 0 && !p.lit(",") {
					return false
				}
				ids = append(ids, p.idOrNone())
			}
			p.i++
			if ids == nil {
				ids = []node.ID{}
			}
			s.Suspects = ids
			if shared {
				d.ids = ids
			}
		case `"term":`:
			s.Term = p.int()
		case `"inc":`:
			s.Inc = p.int()
		case `"cs":`:
			cs := p.str()
			if s.CS.UnmarshalText(cs) != nil {
				return false
			}
		case `"counters":`:
			if p.try("null") {
				break
			}
			cs := d.ctrs[:0]
			if !shared {
				cs = nil
			}
			if !p.lit("[") {
				return false
			}
			for !p.bad && !p.peek(']') {
				if len(cs) > 0 && !p.lit(",") {
					return false
				}
				if !p.lit(`{"name":`) {
					return false
				}
				name := d.intern(p.str())
				if !p.lit(`,"value":`) {
					return false
				}
				cs = append(cs, node.Counter{Name: name, Value: p.int()})
				if !p.lit("}") {
					return false
				}
			}
			p.i++
			if cs == nil {
				cs = []node.Counter{}
			}
			s.Counters = cs
			if shared {
				d.ctrs = cs
			}
		}
	}
	return p.lit("}")
}

// intern is the string b holds, allocated once for every time it is seen (up to
// internCap strings). A small table by length and first and last byte answers most
// lookups before the map.
func (d *decoder) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	slot := &d.recent[(len(b)*7+int(b[0])*3+int(b[len(b)-1]))&(len(d.recent)-1)]
	if *slot == string(b) {
		return *slot
	}
	s, ok := d.strs[string(b)]
	if !ok {
		s = string(b)
		if d.strs == nil {
			d.strs = make(map[string]string, 64)
		}
		if len(d.strs) < internCap {
			d.strs[s] = s
		}
	}
	*slot = s
	return s
}

// parser walks a line. Once a piece is not what it expects it sets bad, and what it
// returns from then on means nothing: the caller checks bad before it trusts the
// event.
type parser struct {
	b   []byte
	i   int
	bad bool
}

func (p *parser) peek(c byte) bool { return p.i < len(p.b) && p.b[p.i] == c }

// lit reads s, exactly.
func (p *parser) lit(s string) bool {
	if p.bad || len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		p.bad = true
		return false
	}
	p.i += len(s)
	return true
}

// try reads s if it comes next, and reports whether it did.
func (p *parser) try(s string) bool {
	if p.bad || len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// fieldKey is a field's key as the encoder writes it, `"name":`, with its first
// eight bytes as a word (and the mask of those it has), which a line's next eight
// bytes are compared with at once.
type fieldKey struct {
	s       string
	w, mask uint64
}

func keysOf(names ...string) []fieldKey {
	out := make([]fieldKey, len(names))
	for i, n := range names {
		s := `"` + n + `":`
		var b [8]byte
		k := copy(b[:], s)
		out[i] = fieldKey{s: s, w: binary.LittleEndian.Uint64(b[:]), mask: ^uint64(0) >> (64 - 8*k)}
	}
	return out
}

// key reads one of keys and returns its index, or -1 (and sets bad) when none of
// them comes next.
func (p *parser) key(keys []fieldKey) int {
	rest := p.b[p.i:]
	if !p.bad && len(rest) >= 8 {
		x := binary.LittleEndian.Uint64(rest)
		for k := range keys {
			f := &keys[k]
			if x&f.mask == f.w && (len(f.s) <= 8 || len(rest) >= len(f.s) && string(rest[8:len(f.s)]) == f.s[8:]) {
				p.i += len(f.s)
				return k
			}
		}
	}
	p.bad = true
	return -1
}

// digits reads an unsigned decimal number as JSON writes it (no leading zero, no
// fraction or exponent, since the caller then expects a comma or a brace), and
// fails on one above max. It reads eight digits at a time where the line has
// eight bytes left (see digitRun and eightDigits).
func (p *parser) digits(max uint64) uint64 {
	b, i := p.b, p.i
	if i >= len(b) || b[i] < '0' || b[i] > '9' || b[i] == '0' && i+1 < len(b) && b[i+1] >= '0' && b[i+1] <= '9' {
		p.bad = true
		return 0
	}
	var v uint64
	start := i
	if len(b)-i >= 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		n := digitRun(x)
		v = eightDigits((x - 0x3030303030303030) << (64 - 8*n))
		i += n
		if n < 8 {
			if v > max {
				p.bad = true
				return 0
			}
			p.i = i
			return v
		}
	}
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		c := uint64(b[i] - '0')
		// Nineteen digits never overflow a uint64; only some twenty-digit
		// numbers fit, and no longer one.
		if i-start >= 19 && (i-start > 19 || v > (math.MaxUint64-c)/10) {
			p.bad = true
			return 0
		}
		v = v*10 + c
	}
	if v > max {
		p.bad = true
		return 0
	}
	p.i = i
	return v
}

// digitRun is how many of the eight bytes of x (the first in its lowest byte) are
// decimal digits before the first that is not. A byte is a digit when its high
// half is 3 and adding 6 leaves it 3.
func digitRun(x uint64) int {
	const hi, six = 0xf0f0f0f0f0f0f0f0, 0x0606060606060606
	t := x&hi | (x+six)&hi>>4 // a digit's byte is 0x33; a carry only reaches bytes after a non-digit
	return bits.TrailingZeros64(t^0x3333333333333333) >> 3
}

// eightDigits is the number whose decimal digits are the eight bytes of x, the
// first in its lowest byte, each 0 to 9: pairs, then fours, then eight, each by
// one multiplication.
func eightDigits(x uint64) uint64 {
	x = x*10 + x>>8 // each even byte: its pair of digits
	x = (x&0x000000ff000000ff)*(100+1000000<<32) + (x>>16&0x000000ff000000ff)*(1+10000<<32)
	return x >> 32
}

func (p *parser) uint() uint64 { return p.digits(math.MaxUint64) }

func (p *parser) int() int64 {
	if p.peek('-') {
		p.i++
		return -int64(p.digits(1 << 63)) // -(2^63) wraps to itself, the smallest int64
	}
	return int64(p.digits(math.MaxInt64))
}

func (p *parser) bool() bool {
	switch {
	case p.try("true"):
		return true
	case !p.try("false"):
		p.bad = true
	}
	return false
}

// strPlain marks the bytes a string may hold as they are: not a quote, a backslash,
// a control character or the start of a multi-byte character.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads a string that needs no unescaping and is valid UTF-8, which is then
// exactly what encoding/json reads it as, and returns its bytes (the line's).
func (p *parser) str() []byte {
	b, i := p.b, p.i
	if i >= len(b) || b[i] != '"' {
		p.bad = true
		return nil
	}
	i++
	start := i
	for i < len(b) && strPlain[b[i]] {
		i++
	}
	if i < len(b) && b[i] >= utf8.RuneSelf {
		// Not ASCII: valid UTF-8 up to the closing quote is read as it is.
		for i < len(b) && (strPlain[b[i]] || b[i] >= utf8.RuneSelf) {
			i++
		}
		if !utf8.Valid(b[start:i]) {
			p.bad = true
			return nil
		}
	}
	if i >= len(b) || b[i] != '"' {
		p.bad = true
		return nil
	}
	p.i = i + 1
	return b[start:i]
}

// id reads a process id as the encoder writes it, "n3".
func (p *parser) id() node.ID {
	if !p.lit(`"n`) {
		return 0
	}
	v := p.digits(math.MaxInt64)
	if v == 0 || !p.lit(`"`) {
		p.bad = true
	}
	return node.ID(v)
}

// idOrNone reads an id, or "-" for None.
func (p *parser) idOrNone() node.ID {
	if p.try(`"-"`) {
		return node.None
	}
	return p.id()
}

// Decoder reads event lines one at a time, as a Reader reads them but without the
// checks that need the lines before: for lines a Reader has checked already (a
// replay reads a recording's lines again from any place in it when it seeks).
type Decoder struct {
	d decoder
	e Event
}

// Decode reads line, which has no newline, into an event of the decoder's own,
// valid with what it points to until the next call.
func (d *Decoder) Decode(line []byte) (*Event, error) {
	if !d.d.decode(line, &d.e, true) {
		d.e = Event{}
		if err := json.Unmarshal(line, &d.e); err != nil {
			return nil, fmt.Errorf("bad event line (%s), expected one JSON event", jsonProblem(err))
		}
	}
	return &d.e, nil
}
