package session

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// A built-in's recording names no code, so its header keeps its bytes; one that
// names code, its hash made again to match, is refused as made by other code,
// and verify names both: the code the header names and this program's.
func TestVerifyRefusesOtherCode(t *testing.T) {
	dir := t.TempDir()
	lines := recordPreset(t, "omega-crash", filepath.Join(dir, "hw.jsonl"))
	if strings.Contains(lines[0], `"code"`) {
		t.Fatalf("a built-in's header names code: %s", lines[0])
	}
	forged := rehash(edit(t, lines, 0, `"scenario":`, `"code":{"package":"example.com/hw/omega","module":"example.com/hw","version":"(devel)","source":"0123456789abcdef0123"},"scenario":`))
	v := verify(t, write(t, dir, "forged.jsonl", forged, 0), false)
	if v.OK || v.Line != 1 || v.Field != "code" {
		t.Fatalf("verdict %+v, want line 1, field code", v)
	}
	for _, want := range []string{"recorded by other code", "example.com/hw/omega", "source 0123456789ab", "the lab's built-in code"} {
		if !strings.Contains(v.Reason, want) {
			t.Errorf("reason %q does not say %q", v.Reason, want)
		}
	}
}

// A recording of an algorithm this program does not have, whose header names
// its code, says which module to verify it with.
func TestVerifyNamesMissingCode(t *testing.T) {
	dir := t.TempDir()
	lines := recordPreset(t, "omega-crash", filepath.Join(dir, "hw.jsonl"))
	forged := edit(t, lines, 0, `"scenario":`, `"code":{"package":"example.com/hw/myomega","module":"example.com/hw","version":"v1.2.0","source":""},"scenario":`)
	forged = rehash(edit(t, forged, 0, `"algorithm":"omega"`, `"algorithm":"myomega"`))
	v := verify(t, write(t, dir, "mine.jsonl", forged, 0), false)
	if v.OK || v.Line != 1 {
		t.Fatalf("verdict %+v, want refused at line 1", v)
	}
	for _, want := range []string{"recorded with myomega of example.com/hw/myomega (module example.com/hw) v1.2.0", "this program has no algorithm myomega", "go run . verify"} {
		if !strings.Contains(v.Reason, want) {
			t.Errorf("reason %q does not say %q", v.Reason, want)
		}
	}
}

// Two codes are the same when their package and source are; a source that was
// not read falls back on the module and its version.
func TestSameCode(t *testing.T) {
	c := func(pkg, mod, ver, src string) *trace.Code {
		return &trace.Code{Package: pkg, Module: mod, Version: ver, Source: src}
	}
	for _, tc := range []struct {
		a, b *trace.Code
		same bool
	}{
		{nil, nil, true},
		{nil, c("p", "m", "v", "s"), false},
		{c("p", "m", "v", "s"), c("p", "m", "(devel)", "s"), true}, // the same files built elsewhere
		{c("p", "m", "v", "s"), c("p", "m", "v", "t"), false},
		{c("p", "m", "v", "s"), c("q", "m", "v", "s"), false},
		{c("p", "m", "v", ""), c("p", "m", "v", ""), true},
		{c("p", "m", "v1", ""), c("p", "m", "v2", ""), false},
		{c("p", "m", "v", ""), c("p", "m", "v", "s"), false},
	} {
		if got := sameCode(tc.a, tc.b); got != tc.same {
			t.Errorf("sameCode(%+v, %+v) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
