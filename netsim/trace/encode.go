package trace

import (
	"encoding/binary"
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
// with less work, since it runs for every event of every recording and verify:
//   - a line's seq is nearly always the last one's plus one, its t often the last
//     one's, and its message id, in a broadcast's sends, the last one's plus one,
//     so it keeps the three as text and edits or repeats that text instead of
//     writing the numbers anew;
//   - it keeps the last message type as quoted text (a run's messages come in long
//     stretches of one type);
//   - it writes a message's line (send, deliver, drop: nearly all of them) into
//     room made once, eight bytes at a time: the keys as words made beforehand,
//     the numbers' texts as words, where appending piece by piece cost a copy
//     call or a bounds check per piece.
//
// The zero Encoder is ready.
type Encoder struct {
	seq, t, mid digits
	lastSeq     uint64
	lastT       int64
	lastID      uint64
	seqOK, tOK  bool // seq and t hold the last line's
	midOK       bool
	typ         string
	typEnc      []byte // typ quoted, with eight bytes of room after it
}

// digits is a number's text, left-aligned in a buffer that fits any uint64 or
// int64 and leaves room to copy it by whole words.
type digits struct {
	d [24]byte
	n int
}

func (n *digits) set(text []byte) { n.n = copy(n.d[:], text) }

func (n *digits) text() []byte { return n.d[:n.n] }

// increment adds one to a positive number, unless it has twenty digits.
func (n *digits) increment() bool {
	i := n.n - 1
	for i >= 0 && n.d[i] == '9' {
		n.d[i] = '0'
		i--
	}
	switch {
	case i >= 0:
		n.d[i]++
	case n.n < 20:
		// All nines: one more digit, a one then zeros.
		n.d[0] = '1'
		n.d[n.n] = '0'
		n.n++
	default:
		return false
	}
	return true
}

// Append appends e's line, newline included.
func (c *Encoder) Append(b []byte, e *Event) []byte {
	if !c.seqOK || e.Seq != c.lastSeq+1 || e.Seq == 0 || !c.seq.increment() {
		var tmp [20]byte
		c.seq.set(appendUint(tmp[:0], e.Seq))
		c.seqOK = true
	}
	c.lastSeq = e.Seq
	if !c.tOK || e.T != c.lastT {
		var tmp [20]byte
		c.t.set(appendInt(tmp[:0], e.T))
		c.lastT, c.tOK = e.T, true
	}
	if b, ok := c.message(b, e); ok {
		return b
	}
	b = append(b, `{"seq":`...)
	b = append(append(b, c.seq.text()...), `,"t":`...)
	b = append(b, c.t.text()...)
	return appendRest(b, e)
}

// message appends the line of a message's event (send, deliver or drop, between
// two processes, with a message id and no field but those such an event has),
// which nearly every line is, and reports whether e is one.
func (c *Encoder) message(b []byte, e *Event) ([]byte, bool) {
	var kind *words
	switch e.Ev {
	case Send:
		kind = &wSend
	case Deliver:
		kind = &wDeliver
	case Drop:
		kind = &wDrop
	default:
		return b, false
	}
	m := e.Msg
	if m == nil || e.MID == 0 || e.From <= 0 || e.To <= 0 || e.Node != node.None || m.List != "" || m.ID < 0 ||
		e.Name != "" || e.Value != "" || e.Inc != 0 || e.Groups != nil || e.Status != nil || e.Kind != "" ||
		e.Text != "" || e.By != "" || e.Before != 0 || e.OK != nil || e.Ref != 0 {
		return b, false
	}
	if e.MID != c.lastID+1 || !c.midOK || !c.mid.increment() {
		var tmp [20]byte
		c.mid.set(appendUint(tmp[:0], e.MID))
		c.midOK = true
	}
	c.lastID = e.MID
	if m.Type != c.typ || c.typEnc == nil {
		c.typ = m.Type
		c.typEnc = appendString(c.typEnc[:0], m.Type)
		c.typEnc = slices.Grow(c.typEnc, 8)
	}
	// The fixed parts take under 150 bytes; the numbers 20 each at most, with
	// eight bytes of room for the last word of each; the reason's escapes 6 a
	// byte.
	need := 320 + len(c.typEnc) + 6*len(e.Reason)
	if cap(b)-len(b) < need {
		b = slices.Grow(b, need)
	}
	w := b[len(b):cap(b)]
	i := wSeq.put(w, 0)
	i = putDigits(w, i, &c.seq)
	i = wT.put(w, i)
	i = putDigits(w, i, &c.t)
	i = kind.put(w, i)
	i = putID(w, i, e.From)
	i = wTo.put(w, i)
	i = putID(w, i, e.To)
	i = wMID.put(w, i)
	i = putDigits(w, i, &c.mid)
	i = wMsg.put(w, i)
	i = putBytes(w, i, c.typEnc)
	if m.ID != node.None {
		i = wMsgID.put(w, i)
		i = putID(w, i, m.ID)
		w[i] = '"'
		i++
	}
	if m.Term != 0 {
		i = wTerm.put(w, i)
		i = len(appendInt(w[:i], m.Term))
	}
	if m.Stamp != 0 {
		i = wStamp.put(w, i)
		i = len(appendInt(w[:i], m.Stamp))
	}
	if m.Flag {
		i = wFlag.put(w, i)
	}
	w[i] = '}'
	i++
	if e.Dup {
		i = wDup.put(w, i)
	}
	if e.Local {
		i = wLocal.put(w, i)
	}
	if e.Reason != "" {
		i = len(appendString(append(w[:i], `,"reason":`...), e.Reason))
	}
	w[i], w[i+1] = '}', '\n'
	return b[:len(b)+i+2], true
}

// words is a fixed piece of a line, at most 32 bytes, as little-endian words,
// written eight bytes at a time: the bytes past its length are written too, and
// then written over.
type words struct {
	w [4]uint64
	n int
}

func wordsOf(s string) words {
	var b [32]byte
	ws := words{n: copy(b[:], s)}
	for k := range ws.w {
		ws.w[k] = binary.LittleEndian.Uint64(b[8*k:])
	}
	return ws
}

// put writes the piece at w[i:], which has room for 32 bytes, and returns where
// it ends. It writes all four words, whatever the piece's length: one check of
// the room and four stores cost less than a loop.
func (ws *words) put(w []byte, i int) int {
	w = w[i : i+32]
	binary.LittleEndian.PutUint64(w[0:], ws.w[0])
	binary.LittleEndian.PutUint64(w[8:], ws.w[1])
	binary.LittleEndian.PutUint64(w[16:], ws.w[2])
	binary.LittleEndian.PutUint64(w[24:], ws.w[3])
	return i + ws.n
}

// The fixed pieces of a message's line. A kind's piece opens the sender's id, and
// each id's closing quote is the next piece's first byte.
var (
	wSeq     = wordsOf(`{"seq":`)
	wT       = wordsOf(`,"t":`)
	wSend    = wordsOf(`,"ev":"send","from":"n`)
	wDeliver = wordsOf(`,"ev":"deliver","from":"n`)
	wDrop    = wordsOf(`,"ev":"drop","from":"n`)
	wTo      = wordsOf(`","to":"n`)
	wMID     = wordsOf(`","mid":`)
	wMsg     = wordsOf(`,"msg":{"type":`)
	wMsgID   = wordsOf(`,"id":"n`)
	wTerm    = wordsOf(`,"term":`)
	wStamp   = wordsOf(`,"ts":`)
	wFlag    = wordsOf(`,"flag":true`)
	wDup     = wordsOf(`,"dup":true`)
	wLocal   = wordsOf(`,"local":true`)
)

// putDigits writes a number's text at w[i:], which has room for 24 bytes.
func putDigits(w []byte, i int, d *digits) int {
	w = w[i : i+24]
	binary.LittleEndian.PutUint64(w[0:], binary.LittleEndian.Uint64(d.d[0:]))
	binary.LittleEndian.PutUint64(w[8:], binary.LittleEndian.Uint64(d.d[8:]))
	binary.LittleEndian.PutUint64(w[16:], binary.LittleEndian.Uint64(d.d[16:]))
	return i + d.n
}

// putID writes a positive id's digits at w[i:].
func putID(w []byte, i int, id node.ID) int {
	v := uint64(id)
	switch {
	case v < 10:
		w[i] = byte('0' + v)
		return i + 1
	case v < 100:
		w[i], w[i+1] = digitPairs[2*v], digitPairs[2*v+1]
		return i + 2
	}
	return len(appendUint(w[:i], v))
}

// putBytes writes p at w[i:], which has room for it and eight bytes more; p has
// eight bytes of room after its length too.
func putBytes(w []byte, i int, p []byte) int {
	r := p[:cap(p)]
	for k := 0; k < len(p); k += 8 {
		binary.LittleEndian.PutUint64(w[i+k:], binary.LittleEndian.Uint64(r[k:]))
	}
	return i + len(p)
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
	return appendTail(b, e)
}

// appendTail appends what follows an event's message.
func appendTail(b []byte, e *Event) []byte {
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
	return appendMessageRest(appendString(b, m.Type), m)
}

// appendMessageRest appends what follows a message's type.
func appendMessageRest(b []byte, m *node.Message) []byte {
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
// digits, message ids five or six; up to eight digits are written as two or four
// pairs, longer ones in place, four digits at a time from the last, once their
// length is known.
func appendUint(b []byte, v uint64) []byte {
	switch {
	case v < 10:
		return append(b, byte('0'+v))
	case v < 100:
		return append(b, digitPairs[2*v], digitPairs[2*v+1])
	case v < 10000:
		return appendFour(b, v)
	case v < 1e8:
		hi, lo := v/10000, v%10000
		b = appendFour(b, hi)
		lp, ll := lo/100, lo%100
		return append(b, digitPairs[2*lp], digitPairs[2*lp+1], digitPairs[2*ll], digitPairs[2*ll+1])
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

// appendFour appends 0 < v < 10,000 without leading zeros.
func appendFour(b []byte, v uint64) []byte {
	hi, lo := v/100, v%100
	switch {
	case hi >= 10:
		return append(b, digitPairs[2*hi], digitPairs[2*hi+1], digitPairs[2*lo], digitPairs[2*lo+1])
	case hi > 0:
		return append(b, byte('0'+hi), digitPairs[2*lo], digitPairs[2*lo+1])
	case lo >= 10:
		return append(b, digitPairs[2*lo], digitPairs[2*lo+1])
	}
	return append(b, byte('0'+lo))
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

// AppendString appends s as encoding/json quotes it (the Perfetto export writes
// its JSON by hand with it too).
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

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
