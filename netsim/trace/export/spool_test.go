package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"pgregory.net/rapid"
)

// TestCSVFieldLikeEncodingCSV: appendCSVField writes every field as encoding/csv
// does with CRLF line ends (quotes, doubled quotes, line ends, a leading space).
func TestCSVFieldLikeEncodingCSV(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, fields []string) {
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		w.UseCRLF = true
		w.Write(fields)
		w.Flush()
		var got []byte
		for i, f := range fields {
			if i > 0 {
				got = append(got, ',')
			}
			got = appendCSVField(got, f)
		}
		got = append(got, "\r\n"...)
		if string(got) != want.String() {
			t.Fatalf("fields %q: got %q, want %q", fields, got, want.String())
		}
	}
	check(t, []string{"", `\.`, " lead", "\tx", "a,b", `say "hi"`, "two\nlines", "cr\rlf\r\n", "\u00a0nbsp", "plain"})
	rapid.Check(t, func(t *rapid.T) {
		check(t, rapid.SliceOf(rapid.StringOf(rapid.SampledFrom([]rune{'a', ' ', ',', '"', '\r', '\n', '\t', '\\', '.', 'é', '\u2028'}))).Draw(t, "fields"))
	})
}

// TestSpoolOnDisk: rows beyond the spool's memory go to a temporary file, removed
// at once, and come back whole and in order.
func TestSpoolOnDisk(t *testing.T) {
	defer func(n int) { spoolMemory = n }(spoolMemory)
	spoolMemory = 100
	var sp spool
	defer sp.close()
	var want []string
	for i := range 1000 {
		row := [][]byte{[]byte(fmt.Sprint(i)), {}, []byte(strings.Repeat("x", i%7))}
		want = append(want, fmt.Sprintf("%q", row))
		if err := sp.add(row); err != nil {
			t.Fatal(err)
		}
	}
	if sp.f == nil {
		t.Fatal("1000 rows over 100 bytes stayed in memory")
	}
	var got []string
	if err := sp.each(func(cells [][]byte) error {
		got = append(got, fmt.Sprintf("%q", cells))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("read back %d rows, not the %d added", len(got), len(want))
	}
}

// TestJSONLikeEncodingJSON: trace.AppendString and appendJSONFloat write what
// encoding/json writes (the Perfetto export is written by hand).
func TestJSONLikeEncodingJSON(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, s string, f float64) {
		want, _ := json.Marshal(s)
		if got := trace.AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("string %q: got %s, want %s", s, got, want)
		}
		want, _ = json.Marshal(f)
		if got := appendJSONFloat(nil, f); string(got) != string(want) {
			t.Fatalf("float %v: got %s, want %s", f, got, want)
		}
	}
	check(t, "a\"b\\c<d>e&f\u2028\u2029\x00\x1f\b\f\n\r\t\x7f\xff\xfeé", -0.2)
	for _, f := range []float64{0, 1e-7, 1e21, 123456789.7, -1e-9, 3.25} {
		check(t, "", f)
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.String(), rapid.StringOf(rapid.RuneFrom(nil, unicode.Cc, unicode.Zl, unicode.Zp, unicode.Latin))).Draw(t, "s")
		if rapid.Bool().Draw(t, "bytes") {
			s = string(rapid.SliceOf(rapid.Byte()).Draw(t, "raw"))
		}
		check(t, s, rapid.Float64().Draw(t, "f"))
	})
}
