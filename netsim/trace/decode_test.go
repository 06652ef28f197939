package trace

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/internal/fuzzbound"
	"github.com/clusterlab/clusterlab/node"
)

// sameAsJSON checks what the decoder makes of line against encoding/json: when the
// decoder takes the line (in both its modes), json must take it too and read the
// same event. It reports whether the decoder took it.
func sameAsJSON(t interface{ Fatalf(string, ...any) }, d *decoder, line []byte) bool {
	var got, shared, want Event
	ok := d.decode(line, &got, false)
	if okShared := d.decode(line, &shared, true); okShared != ok {
		t.Fatalf("%s: decoded %v alone and %v shared", line, ok, okShared)
	}
	if !ok {
		return false
	}
	if err := json.Unmarshal(line, &want); err != nil {
		t.Fatalf("%s: the decoder took a line encoding/json refuses (%v)", line, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\ndecoder       %+v\nencoding/json %+v", line, got, want)
	}
	if !reflect.DeepEqual(shared, want) {
		t.Fatalf("%s: shared:\ndecoder       %+v\nencoding/json %+v", line, shared, want)
	}
	return true
}

// TestDecoderMatchesJSON holds the decoder to encoding/json on the lines of random
// events, every field and every escape included.
func TestDecoderMatchesJSON(t *testing.T) {
	var d decoder
	rapid.Check(t, func(t *rapid.T) {
		line := AppendLine(nil, genEvent(t))
		sameAsJSON(t, &d, line[:len(line)-1])
	})
}

// tameEvent is a random event as a run makes it: ids that are processes, strings
// with nothing to escape, no groups or id lists (which the decoder leaves to
// encoding/json by design).
func tameEvent(t *rapid.T) *Event {
	id := func(label string) node.ID {
		return node.ID(rapid.SampledFrom([]int{0, 1, 9, 10, 4096}).Draw(t, label))
	}
	str := func(label string) string {
		return rapid.SampledFrom([]string{"", "send", "HEARTBEAT", "fd.check", "fd: suspect n3", "é 💥", "<&>"}).Draw(t, label)
	}
	e := genEvent(t)
	e.Node, e.From, e.To, e.Groups = id("node"), id("from"), id("to"), nil
	e.Ev, e.Reason, e.Name, e.Value, e.Kind, e.Text, e.By = str("ev"), str("reason"), str("name"), str("value"), str("kind"), str("text"), str("by")
	if e.Msg != nil {
		e.Msg.Type, e.Msg.ID, e.Msg.List = str("type"), id("msg-id"), ""
	}
	if s := e.Status; s != nil {
		s.Role, s.Leader, s.CS = str("role"), id("leader"), node.CSState(rapid.IntRange(0, 3).Draw(t, "cs"))
		for i := range s.Suspects {
			s.Suspects[i] = id("suspect")
		}
		for i := range s.Counters {
			s.Counters[i].Name = str("counter")
		}
	}
	return e
}

// TestDecoderTakesRuns checks that the decoder reads the lines of a run itself,
// as encoding/json does, leaving none to it.
func TestDecoderTakesRuns(t *testing.T) {
	var d decoder
	rapid.Check(t, func(t *rapid.T) {
		line := AppendLine(nil, tameEvent(t))
		line = line[:len(line)-1]
		if bytes.Contains(line, []byte(`\`)) {
			return // "<&>" is escaped: left to encoding/json
		}
		if !sameAsJSON(t, &d, line) {
			t.Fatalf("the decoder left the line %s to encoding/json", line)
		}
	})
}

// TestDecoderEdges checks lines that are JSON but not the encoder's, or that are
// not JSON: the decoder reads each as encoding/json does or leaves it to it.
func TestDecoderEdges(t *testing.T) {
	var d decoder
	for _, s := range []string{
		`{"seq":1,"t":0,"ev":"send","from":"n1","to":"n2","mid":1,"msg":{"type":"PING"}}`,
		`{"seq":1,"t":-9223372036854775808,"ev":"x"}`,
		`{"seq":18446744073709551615,"t":9223372036854775807,"ev":"x"}`,
		`{"seq":18446744073709551616,"t":0,"ev":"x"}`,
		`{"seq":1,"t":9223372036854775808,"ev":"x"}`,
		`{"seq":01,"t":0,"ev":"x"}`,
		`{"seq":1,"t":-0,"ev":"x"}`,
		`{"seq":1,"t":1.5,"ev":"x"}`,
		`{"seq":1,"t":1e3,"ev":"x"}`,
		`{"seq":1,"t":0,"ev":"x"} `,
		`{"seq":1,"t":0,"ev":"x",}`,
		`{"seq":1,"t":0,"ev":"x","to":"n1","from":"n2"}`,
		`{"seq":1,"t":0,"ev":"x","node":"n1","node":"n2"}`,
		`{"seq":1,"t":0,"ev":"x","node":"n01"}`,
		`{"seq":1,"t":0,"ev":"x","node":"n0"}`,
		`{"seq":1,"t":0,"ev":"x","node":"-"}`,
		`{"seq":1,"t":0,"ev":"x","node":"n9223372036854775808"}`,
		`{"seq":1,"t":0,"ev":"x","NODE":"n1"}`,
		`{"seq":1,"t":0,"ev":"x","other":1}`,
		`{"seq":1,"t":0,"ev":"x","dup":false,"local":true}`,
		`{"seq":1,"t":0,"ev":"x","ok":false}`,
		`{"seq":1,"t":0,"ev":"x","msg":null}`,
		`{"seq":1,"t":0,"ev":"x","msg":{"type":"A","id":"n3","term":-1,"ts":2,"flag":true}}`,
		`{"seq":1,"t":0,"ev":"x","msg":{"type":"A","list":["n1"]}}`,
		`{"seq":1,"t":0,"ev":"x","status":{}}`,
		`{"seq":1,"t":0,"ev":"x","status":{"role":"r","leader":"-","suspects":[],"term":1,"inc":2,"cs":"held","counters":[]}}`,
		`{"seq":1,"t":0,"ev":"x","status":{"suspects":null,"counters":null}}`,
		`{"seq":1,"t":0,"ev":"x","status":{"suspects":["n1","-","n3"],"counters":[{"name":"a","value":-3},{"name":"b","value":4}]}}`,
		`{"seq":1,"t":0,"ev":"x","status":{"cs":"nope"}}`,
		`{"seq":1,"t":0,"ev":"x","status":{"cs":""}}`,
		`{"seq":1,"t":0,"ev":"x","status":{,"role":"r"}}`,
		`{"seq":1,"t":0,"ev":"x","status":{"role":"r",}}`,
		`{"seq":1,"t":0,"ev":"x","text":"é ü 💥"}`,
		"{\"seq\":1,\"t\":0,\"ev\":\"x\",\"text\":\"\xff\"}",
		"{\"seq\":1,\"t\":0,\"ev\":\"x\",\"text\":\"a\tb\"}",
		`{"seq":1,"t":0,"ev":"x","text":"a\"b"}`,
		`{"seq":1,"t":0,"ev":"x","text":"<&>"}`,
		`{"seq":1,"t":0,"ev":"x","groups":[["n1"]]}`,
		`{"seq":1,"t":0,"ev":"x"`,
		`{"seq":1,"t":0,"ev":"x"}}`,
		`{"seq":1,"t":0,"ev`,
		``,
	} {
		sameAsJSON(t, &d, []byte(s))
	}
	var e Event
	if !d.decode([]byte(`{"seq":7,"t":5,"ev":"deliver","from":"n1","to":"n2","mid":3,"msg":{"type":"HEARTBEAT","ts":4}}`), &e, false) {
		t.Fatal("the decoder left a plain delivery to encoding/json")
	}
	if e.Seq != 7 || e.T != 5 || e.Ev != Deliver || e.From != 1 || e.To != 2 || e.MID != 3 || e.Msg == nil || *e.Msg != (node.Message{Type: "HEARTBEAT", Stamp: 4}) {
		t.Fatalf("decoded %+v", e)
	}
}

// TestDigits reads numbers of every length, at the end of a line and before more
// of it, against strconv.
func TestDigits(t *testing.T) {
	vals := []uint64{0, 1, 9, 10, 99, 100, math.MaxInt64, math.MaxInt64 + 1, math.MaxUint64 - 1, math.MaxUint64}
	for p := uint64(1); p <= math.MaxUint64/10; p *= 10 {
		vals = append(vals, p-1, p, p+1, p*7+3)
	}
	for _, v := range vals {
		for _, tail := range []string{"", "}", `,"to":"n1"}`} {
			text := strconv.FormatUint(v, 10)
			p := parser{b: []byte(text + tail)}
			if got := p.uint(); p.bad || got != v || p.i != len(text) {
				t.Errorf("uint(%s%s) = %d, bad %v, at %d; want %d", text, tail, got, p.bad, p.i, v)
			}
			p = parser{b: []byte(text + tail)}
			got := p.int()
			if fits := v <= math.MaxInt64; p.bad == fits || fits && uint64(got) != v {
				t.Errorf("int(%s%s) = %d, bad %v", text, tail, got, p.bad)
			}
			p = parser{b: []byte("-" + text + tail)}
			got = p.int()
			if fits := v <= 1<<63; p.bad == fits || fits && got != -int64(v) {
				t.Errorf("int(-%s%s) = %d, bad %v", text, tail, got, p.bad)
			}
		}
	}
	for _, bad := range []string{"", "}", "-", "01", "00", "007}", "18446744073709551616", "99999999999999999999", "184467440737095516150,"} {
		if p := (parser{b: []byte(bad)}); p.uint() >= 0 && !p.bad {
			t.Errorf("uint(%s) was taken", bad)
		}
	}
}

// FuzzDecoder holds the decoder to encoding/json on arbitrary lines.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte(`{"seq":1,"t":0,"ev":"send","from":"n1","to":"n2","mid":1,"msg":{"type":"PING","id":"n3","ts":2}}`))
	f.Add([]byte(`{"seq":1,"t":0,"ev":"status","node":"n1","status":{"role":"r","leader":"n2","suspects":["n1"],"cs":"held","counters":[{"name":"a","value":-3}]}}`))
	f.Add([]byte(`{"seq":1,"t":0,"ev":"expect","text":"a","value":"b","ok":true,"ref":3,"before":2,"by":"user","kind":"k","inc":-1}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		defer fuzzbound.Input()()
		var d decoder
		sameAsJSON(t, &d, line)
	})
}

// BenchmarkDecode reads a recording's usual lines, with the decoder and with
// encoding/json.
func BenchmarkDecode(b *testing.B) {
	lines := [][]byte{
		[]byte(`{"seq":41234,"t":8123456,"ev":"send","from":"n12","to":"n5","mid":20345,"msg":{"type":"HEARTBEAT","ts":812}}`),
		[]byte(`{"seq":41235,"t":8123456,"ev":"deliver","from":"n3","to":"n12","mid":20301,"msg":{"type":"HEARTBEAT","ts":811}}`),
		[]byte(`{"seq":41236,"t":8123456,"ev":"timer","node":"n12","name":"fd.check"}`),
		[]byte(`{"seq":41237,"t":8123456,"ev":"status","node":"n12","status":{"role":"monitor","suspects":["n5"],"counters":[{"name":"mistakes","value":3},{"name":"timeout_ms","value":300}]}}`),
	}
	var d decoder
	var e Event
	for _, k := range []string{"send", "deliver", "timer", "status"} {
		line := lines[0]
		for _, l := range lines {
			if bytes.Contains(l, []byte(`"ev":"`+k+`"`)) {
				line = l
			}
		}
		b.Run(k, func(b *testing.B) {
			for b.Loop() {
				if !d.decode(line, &e, true) {
					b.Fatal("left to encoding/json")
				}
			}
		})
	}
	b.Run("json", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			e = Event{}
			if err := json.Unmarshal(lines[i&3], &e); err != nil {
				b.Fatal(err)
			}
		}
	})
}
