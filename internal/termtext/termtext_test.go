package termtext

import (
	"bytes"
	"strings"
	"testing"
	"testing/quick"
	"unicode/utf8"
)

func TestLineAndText(t *testing.T) {
	for _, tc := range []struct{ in, line, text string }{
		{"bully", "bully", "bully"},
		{"eleição ∀ 選挙", "eleição ∀ 選挙", "eleição ∀ 選挙"},
		{"evil\x1b]0;pwned\a\x1b[2J", `evil\x1b]0;pwned\a\x1b[2J`, `evil\x1b]0;pwned\a\x1b[2J`},
		{"a\nverified: 3 events", `a\nverified: 3 events`, "a\nverified: 3 events"},
		{"row\r\nrow\r", `row\r\nrow\r`, "row\r\nrow\\r"},
		{"fake\rverified:", `fake\rverified:`, `fake\rverified:`},
		{"tab\there", `tab\there`, "tab\there"},
		{"del\x7f c1\u009b2J", `del\x7f c1\u009b2J`, `del\x7f c1\u009b2J`},
		{"bidi \u202egnp.exe", `bidi \u202egnp.exe`, `bidi \u202egnp.exe`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`, `bad \xff\xfe utf8`},
		{"nul\x00", `nul\x00`, `nul\x00`},
	} {
		if got := Line(tc.in); got != tc.line {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
}

// TestNothingEscapesRaw: whatever goes in, what comes out holds no control
// character but a newline, a tab or a CRLF (Text), none at all (Line), and is UTF-8.
func TestNothingEscapesRaw(t *testing.T) {
	check := func(s string) bool {
		line, text := Line(s), Text(s)
		if !utf8.ValidString(line) || !utf8.ValidString(text) {
			return false
		}
		for _, r := range line {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e {
				return false
			}
		}
		text = strings.ReplaceAll(text, "\r\n", "\n")
		for _, r := range text {
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e {
				return false
			}
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 5000}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"\x1b", "\xe2\x80\xae", "\r", "\r\r\n", "\xc2\x9b"} {
		if !check(s) {
			t.Errorf("%q comes out raw", s)
		}
	}
}

// TestWriterCutsAnywhere: a stream written in pieces cut anywhere, inside a rune or
// between \r and \n, comes out as Text of the whole.
func TestWriterCutsAnywhere(t *testing.T) {
	in := "# report: evil\x1b[2J\r\nné \u202e\xff ok\r\nend\r"
	want := Text(in)
	for cut := 0; cut <= len(in); cut++ {
		for cut2 := cut; cut2 <= len(in); cut2++ {
			var out bytes.Buffer
			w := NewWriter(&out)
			for _, part := range []string{in[:cut], in[cut:cut2], in[cut2:]} {
				if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
					t.Fatalf("Write: %d, %v", n, err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != want {
				t.Fatalf("cut at %d and %d: %q, want %q", cut, cut2, out.String(), want)
			}
		}
	}
}

func BenchmarkTextClean(b *testing.B) {
	s := strings.Repeat("| 1.234s | marker: leader n5 elected, eleição |\n", 100)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Text(s)
	}
}
