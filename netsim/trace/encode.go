package trace

import (
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/clusterlab/clusterlab/node"
)

// AppendLine appends e's line, exactly as the recorder writes it, newline included.
// It is written by hand because it runs once per event of every recording and verify:
// it gives the very bytes encoding/json gives for an Event (field order, omitted
// zero fields, string escaping), without reflection. TestEncoderMatchesJSON and
// FuzzEncoder hold it to that.
func AppendLine(b []byte, e *Event) []byte {
	b = append(b, `{"seq":`...)
	b = appendUint(b, e.Seq)
	b = append(b, `,"t":`...)
	b = appendInt(b, e.T)
	return appendRest(b, e)
}

// Encoder writes the lines of a stream of events, each exactly as AppendLine does,
// with less work: a line's seq is nearly always the last one's plus one, and its t
// often the last one's, so it keeps both as text and edits or repeats that text
// instead of writing the numbers anew. The zero Encoder is ready.
type Encoder struct {
	seq, t     decimal
	lastSeq    uint64
	lastT      int64
	seqOK, tOK bool // seq and t hold the last line's
}

// decimal is a number's text, right-aligned in a buffer that fits any uint64 or
// int64.
type decimal struct {
	d    [20]byte
	from int
}

func (n *decimal) set(text []byte) { n.from = len(n.d) - copy(n.d[len(n.d)-len(text):], text) }

func (n *decimal) text() []byte { return n.d[n.from:] }

// increment adds one to a number that is not all nines at full width.
func (n *decimal) increment() bool {
	i := len(n.d) - 1
	for i >= n.from && n.d[i] == '9' {
		n.d[i] = '0'
		i--
	}
	switch {
	case i >= n.from:
		n.d[i]++
	case n.from > 0:
		n.from--
		n.d[n.from] = '1'
	default:
		return false
	}
	return true
}

// Append appends e's line, newline included.
func (c *Encoder) Append(b []byte, e *Event) []byte {
	b = append(b, `{"seq":`...)
	if !c.seqOK || e.Seq != c.lastSeq+1 || e.Seq == 0 || !c.seq.increment() {
		var tmp [20]byte
		c.seq.set(appendUint(tmp[:0], e.Seq))
		c.seqOK = true
	}
	c.lastSeq = e.Seq
	b = append(append(b, c.seq.text()...), `,"t":`...)
	if !c.tOK || e.T != c.lastT {
		var tmp [20]byte
		c.t.set(appendInt(tmp[:0], e.T))
		c.lastT, c.tOK = e.T, true
	}
	b = append(b, c.t.text()...)
	return appendRest(b, e)
}

// appendRest appends what follows e's seq and t.
func appendRest(b []byte, e *Event) []byte {
	b = appendKind(b, e.Ev)
	b = appendID(b, `,"node":"n`, e.Node)
	b = appendID(b, `,"from":"n`, e.From)
	b = appendID(b, `,"to":"n`, e.To)
	if e.MID != 0 {
		b = append(b, `,"mid":`...)
		b = appendUint(b, e.MID)
	}
	if e.Msg != nil {
		b = append(b, `,"msg":`...)
		b = appendMessage(b, e.Msg)
	}
	if e.Dup {
		b = append(b, `,"dup":true`...)
	}
	if e.Local {
		b = append(b, `,"local":true`...)
	}
	b = appendField(b, `,"reason":`, e.Reason)
	b = appendField(b, `,"name":`, e.Name)
	b = appendField(b, `,"value":`, e.Value)
	if e.Inc != 0 {
		b = append(b, `,"inc":`...)
		b = appendInt(b, e.Inc)
	}
	if len(e.Groups) > 0 {
		b = append(b, `,"groups":[`...)
		for i, g := range e.Groups {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendIDs(b, g)
		}
		b = append(b, ']')
	}
	if e.Status != nil {
		b = append(b, `,"status":`...)
		b = appendStatus(b, e.Status)
	}
	b = appendField(b, `,"kind":`, e.Kind)
	b = appendField(b, `,"text":`, e.Text)
	b = appendField(b, `,"by":`, e.By)
	if e.Before != 0 {
		b = append(b, `,"before":`...)
		b = appendUint(b, e.Before)
	}
	if e.OK != nil {
		b = append(b, `,"ok":`...)
		b = strconv.AppendBool(b, *e.OK)
	}
	if e.Ref != 0 {
		b = append(b, `,"ref":`...)
		b = appendUint(b, e.Ref)
	}
	return append(b, '}', '\n')
}

func appendMessage(b []byte, m *node.Message) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, m.Type)
	b = appendID(b, `,"id":"n`, m.ID)
	if m.Term != 0 {
		b = append(b, `,"term":`...)
		b = appendInt(b, m.Term)
	}
	if m.Stamp != 0 {
		b = append(b, `,"ts":`...)
		b = appendInt(b, m.Stamp)
	}
	if m.Flag {
		b = append(b, `,"flag":true`...)
	}
	if m.List != "" {
		b = appendIDs(append(b, `,"list":`...), m.List.IDs())
	}
	return append(b, '}')
}

func appendStatus(b []byte, s *node.Status) []byte {
	// Every field of a Status may be left out, so the commas follow the first one.
	b = append(b, '{')
	start := len(b)
	sep := func(b []byte, key string) []byte {
		if len(b) > start {
			b = append(b, ',')
		}
		return append(b, key...)
	}
	if s.Role != "" {
		b = appendString(sep(b, `"role":`), s.Role)
	}
	if s.Leader != node.None {
		b = appendIDString(sep(b, `"leader":`), s.Leader)
	}
	if len(s.Suspects) > 0 {
		b = appendIDs(sep(b, `"suspects":`), s.Suspects)
	}
	if s.Term != 0 {
		b = appendInt(sep(b, `"term":`), s.Term)
	}
	if s.Inc != 0 {
		b = appendInt(sep(b, `"inc":`), s.Inc)
	}
	if s.CS != 0 {
		b = appendString(sep(b, `"cs":`), s.CS.String())
	}
	if len(s.Counters) > 0 {
		b = append(sep(b, `"counters":`), '[')
		for i, c := range s.Counters {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendString(b, c.Name)
			b = append(b, `,"value":`...)
			b = appendInt(b, c.Value)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendKind appends the ev field. The kinds of nearly every line are written as
// they are, without looking for what to escape.
func appendKind(b []byte, ev string) []byte {
	switch ev {
	case Send:
		return append(b, `,"ev":"send"`...)
	case Deliver:
		return append(b, `,"ev":"deliver"`...)
	case TimerEv:
		return append(b, `,"ev":"timer"`...)
	case Drop:
		return append(b, `,"ev":"drop"`...)
	case StatusEv:
		return append(b, `,"ev":"status"`...)
	}
	return appendString(append(b, `,"ev":`...), ev)
}

// appendID appends key, which ends with the id's opening `"n`, and the id ("n3"), or
// nothing for None, as omitempty does.
func appendID(b []byte, key string, id node.ID) []byte {
	if id == node.None {
		return b
	}
	return append(appendInt(append(b, key...), int64(id)), '"')
}

// appendIDString appends id.String() quoted, without building the string.
func appendIDString(b []byte, id node.ID) []byte {
	if id == node.None {
		return append(b, `"-"`...)
	}
	return append(appendInt(append(b, `"n`...), int64(id)), '"')
}

// digitPairs holds "00" to "99", for writing numbers two digits at a time.
const digitPairs = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" +
	"30313233343536373839" + "40414243444546474849" + "50515253545556575859" + "60616263646566676869" +
	"70717273747576777879" + "80818283848586878889" + "90919293949596979899"

// appendUint is strconv.AppendUint(b, v, 10) without its generality: it runs
// several times per event. Most values (ids, stamps, small counters) have one or two
// digits; longer ones are written in place, four digits at a time from the last,
// once their length is known.
func appendUint(b []byte, v uint64) []byte {
	if v < 10 {
		return append(b, byte('0'+v))
	}
	if v < 100 {
		return append(b, digitPairs[2*v], digitPairs[2*v+1])
	}
	n := decimalLen(v)
	l := len(b)
	if cap(b)-l < n {
		b = slices.Grow(b, n)
	}
	b = b[:l+n]
	d := b[l:]
	i := n
	for v >= 10000 {
		q := v / 10000
		r := v - q*10000
		hi, lo := r/100, r%100
		i -= 4
		d[i], d[i+1], d[i+2], d[i+3] = digitPairs[2*hi], digitPairs[2*hi+1], digitPairs[2*lo], digitPairs[2*lo+1]
		v = q
	}
	// 1 to 4 digits are left, at d[:i].
	if v >= 100 {
		q := v / 100
		r := v - q*100
		i -= 2
		d[i], d[i+1] = digitPairs[2*r], digitPairs[2*r+1]
		v = q
	}
	if v >= 10 {
		d[1], d[0] = digitPairs[2*v+1], digitPairs[2*v]
	} else {
		d[0] = byte('0' + v)
	}
	return b
}

// pow10 holds the powers of ten that fit in a uint64.
var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// decimalLen is the number of decimal digits of v > 0: log10 estimated from its
// bit length (1233/4096 is just above log10(2)), then corrected by one comparison.
func decimalLen(v uint64) int {
	t := bits.Len64(v) * 1233 >> 12
	if v >= pow10[t] {
		t++
	}
	return t
}

// appendInt is strconv.AppendInt(b, v, 10).
func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		// -v overflows for the smallest int64; converted, it is still its magnitude.
		return appendUint(append(b, '-'), uint64(-v))
	}
	return appendUint(b, uint64(v))
}

// appendIDs appends a list of ids; a nil list is null, as encoding/json writes it.
func appendIDs(b []byte, ids []node.ID) []byte {
	if ids == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIDString(b, id)
	}
	return append(b, ']')
}

// appendField appends key and s, or nothing for "", as omitempty does.
func appendField(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, key...), s)
}

const hexDigits = "0123456789abcdef"

// plain marks the bytes encoding/json writes unchanged inside a string: printable
// ASCII but for the quote, the backslash and the HTML-sensitive <, > and &.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendString appends s as encoding/json quotes it: HTML-safe, invalid UTF-8 as
// U+FFFD, and U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	i := 0
	for i < len(s) && plain[s[i]] {
		i++
	}
	if i == len(s) {
		// The common case: nothing to escape.
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
