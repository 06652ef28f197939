package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/internal/fuzzbound"
	"github.com/clusterlab/clusterlab/internal/membudget"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// TestHostileTraces gives every reader (verify, replay, export's ReadTrace) each
// hostile input of the issues, and checks the answer: one line naming the file (and
// the line when there is one), at once, in bounded memory, never a verified or an
// opened trace.
func TestHostileTraces(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	lines := recordRun(t, Source{Preset: "omega-crash"}, 3*time.Second, good)
	file := func(name string, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	join := func(ls []string) string { return strings.Join(ls, "\n") + "\n" }
	far := append([]string(nil), lines...)
	far[100] = strings.Replace(far[100], `"t":`, `"t":100000000000000000,"x":`, 1)
	farEnd := append([]string(nil), lines[:len(lines)-1]...)
	farEnd[len(farEnd)-1] = strings.Replace(farEnd[len(farEnd)-1], `"t":`, `"t":100000000000000000,"x":`, 1)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, 3<<20)
	for i := range junk {
		junk[i] = byte(i*7919 + i>>8)
	}
	// A whole recording of the previous format version (its header says so).
	prev := append([]string(nil), lines...)
	prev[0] = strings.Replace(prev[0], fmt.Sprintf(`"version":%d`, trace.Version), fmt.Sprintf(`"version":%d`, trace.OldestVersion-1), 1)
	back := append([]string(nil), lines...)
	back[60] = strings.Replace(back[60], `"t":`, `"t":0,"x":`, 1)
	// want is every reader's answer, verify's included: it compares with the re-run
	// first, and a line that differs is read again as every reader reads it.
	cases := []struct{ name, path, want string }{
		{"/dev/zero", "/dev/zero", "/dev/zero: not a regular file"},
		{"/dev/urandom", "/dev/urandom", "/dev/urandom: not a regular file"},
		{"a FIFO", fifo, "fifo: not a regular file"},
		{"a directory", dir, "not a regular file"},
		{"binary junk", file("junk.bin", string(junk)), "junk.bin:1: "},
		{"zeros in a file", file("zeros.bin", strings.Repeat("\x00", 3<<20)), "zeros.bin:1: found a first line longer than 1048576 bytes"},
		{"empty", file("empty.jsonl", ""), "empty.jsonl:1: empty file"},
		{"not JSON", file("text.jsonl", "hello\n"), "text.jsonl:1: not a clusterlab trace"},
		{"an old version", file("v1.jsonl", `{"format":"clusterlab-trace","version":1,"seed":7,"scenario":{}}`+"\n"), "v1.jsonl:1: found trace version 1"},
		{"a version too old", file("prev.jsonl", join(prev)), fmt.Sprintf("prev.jsonl:1: found trace version %d, expected %d to %d", trace.OldestVersion-1, trace.OldestVersion, trace.Version)},
		{"a time of 1e17", file("far.jsonl", join(far)), "far.jsonl:101: found t=100000000000000000, expected at most 86400000000 (24h, the longest run)"},
		{"a last time of 1e17, no end", file("farend.jsonl", join(farEnd)), "farend.jsonl:"},
		{"a long line", file("long.jsonl", join(append(append([]string(nil), lines[:5]...), `{"seq":5,"t":1,"ev":"log","node":"n1","text":"`+strings.Repeat("a", 2<<20)+`"}`))), "long.jsonl:6: found a line longer than 1048576 bytes"},
		{"an unknown node", file("node.jsonl", join(append(append([]string(nil), lines[:3]...), strings.Replace(lines[3], `"n1"`, `"n77"`, 1)))), "node.jsonl:4: found node n77"},
		{"an unknown kind", file("kind.jsonl", join(append(append([]string(nil), lines[:3]...), strings.Replace(lines[3], `"ev":"`, `"ev":"x`, 1)))), `kind.jsonl:4: found event kind "x`},
		{"lines out of order", file("order.jsonl", join(append(append([]string(nil), lines[:50]...), lines[52], lines[51]))), "order.jsonl:51: found seq 52, expected 50"},
		{"time going back", file("back.jsonl", join(back)), "back.jsonl:61: found t=0, expected at least"},
	}
	type reader struct {
		name string
		read func(path string) (string, error)
	}
	readers := []reader{
		{"verify", func(p string) (string, error) {
			v, err := Verify(context.Background(), p, VerifyOptions{})
			if err != nil {
				return "", err
			}
			if v.OK {
				return "verified", nil
			}
			if v.Problem != Malformed {
				return "not verified, but not as a malformed file: " + v.Reason, nil
			}
			return "", errorString(v.Reason)
		}},
		{"replay", func(p string) (string, error) {
			r, err := OpenReplay(p)
			if err == nil {
				r.Close()
				return "opened", nil
			}
			return "", err
		}},
		{"export", func(p string) (string, error) {
			_, err := ReadTrace(p)
			return "read", err
		}},
	}
	for _, tc := range cases {
		for _, rd := range readers {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			ok, err := rd.read(tc.path)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			switch {
			case err == nil:
				t.Errorf("%s, %s: %s", tc.name, rd.name, ok)
			case strings.Contains(err.Error(), "\n"):
				t.Errorf("%s, %s: %q, want one line", tc.name, rd.name, err)
			case !strings.Contains(err.Error(), tc.want):
				t.Errorf("%s, %s: %q, want %q", tc.name, rd.name, err, tc.want)
			}
			// Generous bounds for a loaded machine: the point is no runaway.
			if took > 10*time.Second {
				t.Errorf("%s, %s: took %v", tc.name, rd.name, took)
			}
			if grew := int64(after.TotalAlloc - before.TotalAlloc); grew > 50<<20 {
				t.Errorf("%s, %s: allocated %d MB", tc.name, rd.name, grew>>20)
			}
		}
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

// FuzzVerify checks that no file makes verify panic, hang or say "verified" about
// something other than a recording, starting from a real one.
func FuzzVerify(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	recordRun(f, Source{Preset: "ricart"}, 300*time.Millisecond, good)
	data, _ := os.ReadFile(good)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte(strings.SplitAfter(string(data), "\n")[0]))
	f.Fuzz(func(t *testing.T, in []byte) {
		defer fuzzbound.Input()()
		p := filepath.Join(t.TempDir(), "f.jsonl")
		os.WriteFile(p, in, 0o644)
		v, err := Verify(context.Background(), p, VerifyOptions{Partial: true})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a message over several lines: %q", err)
			}
			return
		}
		if v.OK && !v.Prefix && string(in) != string(data) && string(in) != string(data[:len(data)-1]) {
			if got, ok := parsed(p); !ok || got.End == nil {
				t.Fatalf("verified a file that does not read as a whole recording: %+v", v)
			}
		}
	})
}

// FuzzEditedHeader edits the scenario in a real recording's header as a forger
// would, the end record's hash made again to match, and gives the file to every
// reader (verify, replay, export's ReadTrace) under a memory budget of 128 MiB:
// none may panic, hang or answer in more than one line, and a header that says a
// million nodes is refused by the budget, not built (scripts/fuzz bounds the
// process at 256 MB).
func FuzzEditedHeader(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	lines := recordRun(f, Source{Preset: "bully"}, 2*time.Second, good)
	var hdr struct {
		Scenario json.RawMessage `json:"scenario"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &hdr); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(hdr.Scenario))
	for _, edit := range [][2]string{{`"nodes":5`, `"nodes":1000000,"topology":"ring"`}, {`"nodes":5`, `"nodes":4096`},
		{`"until":"14s"`, `"until":"24h"`}, {`"seed":42`, `"seed":18446744073709551615`}, {`"nodes":5`, `"nodes":-1`},
		{`"algorithm":"bully"`, `"algorithm":"raft"`}, {`"until":"14s"`, `"until":"9999999h"`}} {
		f.Add([]byte(strings.Replace(string(hdr.Scenario), edit[0], edit[1], 1)))
	}
	f.Fuzz(func(t *testing.T, scenario []byte) {
		defer fuzzbound.Input()()
		membudget.Set(128 << 20)
		defer membudget.Set(0)
		var h map[string]json.RawMessage
		if json.Unmarshal([]byte(lines[0]), &h) != nil {
			t.Fatal("the header does not decode")
		}
		h["scenario"] = scenario
		head, err := json.Marshal(h)
		if err != nil {
			return // not JSON: the readers' own fuzz targets cover lines that are not
		}
		edited := append([]string{string(head)}, lines[1:len(lines)-1]...)
		sum := sha256.New()
		for _, l := range edited {
			sum.Write([]byte(l + "\n"))
		}
		end := regexp.MustCompile(`"hash":"[0-9a-f]*"`).ReplaceAllString(lines[len(lines)-1], `"hash":"`+hex.EncodeToString(sum.Sum(nil))+`"`)
		p := filepath.Join(t.TempDir(), "edited.jsonl")
		os.WriteFile(p, []byte(strings.Join(append(edited, end), "\n")+"\n"), 0o644)
		oneLine := func(who string, err error) {
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: a message over several lines: %q", who, err)
			}
		}
		if v, err := Verify(context.Background(), p, VerifyOptions{}); err != nil {
			oneLine("verify", err)
		} else if !v.OK {
			oneLine("verify", errorString(v.Reason))
		}
		if r, err := OpenReplay(p); err == nil {
			r.Close()
		} else {
			oneLine("replay", err)
		}
		_, err = ReadTrace(p)
		oneLine("export", err)
	})
}
