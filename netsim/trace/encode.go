package trace

import (
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
	b = strconv.AppendUint(b, e.Seq, 10)
	b = append(b, `,"t":`...)
	b = strconv.AppendInt(b, e.T, 10)
	b = append(b, `,"ev":`...)
	b = appendString(b, e.Ev)
	b = appendID(b, `,"node":`, e.Node)
	b = appendID(b, `,"from":`, e.From)
	b = appendID(b, `,"to":`, e.To)
	if e.MID != 0 {
		b = append(b, `,"mid":`...)
		b = strconv.AppendUint(b, e.MID, 10)
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
		b = strconv.AppendInt(b, e.Inc, 10)
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
	if e.OK != nil {
		b = append(b, `,"ok":`...)
		b = strconv.AppendBool(b, *e.OK)
	}
	if e.Ref != 0 {
		b = append(b, `,"ref":`...)
		b = strconv.AppendUint(b, e.Ref, 10)
	}
	return append(b, '}', '\n')
}

func appendMessage(b []byte, m *node.Message) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, m.Type)
	b = appendID(b, `,"id":`, m.ID)
	if m.Term != 0 {
		b = append(b, `,"term":`...)
		b = strconv.AppendInt(b, m.Term, 10)
	}
	if m.Stamp != 0 {
		b = append(b, `,"ts":`...)
		b = strconv.AppendInt(b, m.Stamp, 10)
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
		b = appendString(sep(b, `"leader":`), s.Leader.String())
	}
	if len(s.Suspects) > 0 {
		b = appendIDs(sep(b, `"suspects":`), s.Suspects)
	}
	if s.Term != 0 {
		b = strconv.AppendInt(sep(b, `"term":`), s.Term, 10)
	}
	if s.Inc != 0 {
		b = strconv.AppendInt(sep(b, `"inc":`), s.Inc, 10)
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
			b = strconv.AppendInt(b, c.Value, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendID appends key and the id ("n3"), or nothing for None, as omitempty does.
func appendID(b []byte, key string, id node.ID) []byte {
	if id == node.None {
		return b
	}
	b = append(b, key...)
	b = append(b, `"n`...)
	b = strconv.AppendInt(b, int64(id), 10)
	return append(b, '"')
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
		b = appendString(b, id.String())
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

// appendString appends s as encoding/json quotes it: HTML-safe, invalid UTF-8 as
// U+FFFD, and U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
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
