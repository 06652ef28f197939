package session

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// TestVerifyMessageActions records a run whose user actions act on messages (hold,
// release, drop, delay, deliver, dup) and swizzle links: the recording verifies,
// and an edited message id is found.
func TestVerifyMessageActions(t *testing.T) {
	dir := t.TempDir()
	ids := []node.ID{1, 2, 3, 4, 5}
	// At 1s n2 and n4 send REQUESTs: mids 9 to 12 from n2 (11 to n4), 13 to 16 from n4.
	acts := []string{"1s hold n2->n4", "1001ms delay #10 30ms", "1002ms deliver #12", "1003ms dup #15", "1004ms drop #16", "1050ms release n2->n4", "2s swizzle 500ms"}
	lines := recordAdjusted(t, Source{Preset: "ricart"}, 4*time.Second, filepath.Join(dir, "msgs.jsonl"), func(cfg *netsim.Config) {
		for _, s := range acts {
			at, do, _ := strings.Cut(s, " ")
			d, _ := time.ParseDuration(at)
			a, err := netsim.ParseAction(do, ids)
			if err != nil {
				t.Fatal(err)
			}
			cfg.UserActions = append(cfg.UserActions, netsim.Timed{At: d, Action: a})
		}
	})
	if v := verify(t, write(t, dir, "msgs.jsonl", lines, 0), false); !v.OK {
		t.Fatalf("the recording with message actions: %+v", v)
	}
	for _, want := range []string{`"by":"swizzle"`, `"t":1004000,"ev":"drop","from":"n4","to":"n5","mid":16`, `"reason":"action"`,
		`"t":1002000,"ev":"deliver","from":"n2","to":"n5","mid":12`, `"t":1050000,"ev":"deliver","from":"n2","to":"n4","mid":11`, `"mid":15,"msg":{"type":"REQUEST","ts":2},"dup":true`} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, want) }) {
			t.Errorf("the recording has no line with %s", want)
		}
	}
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"text":"drop #16","by":"user"`) })
	if at < 0 {
		t.Fatal("no drop action in the recording")
	}
	edited := slices.Clone(lines)
	edited[at] = strings.Replace(edited[at], "drop #16", "drop #15", 1)
	if v := verify(t, write(t, dir, "edited.jsonl", rehash(edited), 0), false); v.OK {
		t.Fatal("a recording whose drop names another message verifies")
	}
}

// TestLiveMessageActions: the dashboard's : line takes the message-level actions
// and swizzle; the live recording holds them as user actions and verifies.
func TestLiveMessageActions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.jsonl")
	l := recordingLive(t, path)
	defer l.Close()
	for _, cmd := range []string{"hold n1->n2", "swizzle 200ms", "dup #40", "delay #41 30ms", "deliver #42", "drop #43", "release n1->n2"} {
		if err := l.Do(cmd); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	if err := l.Do("drop 43"); err == nil || !strings.Contains(err.Error(), "expected a message's id") {
		t.Errorf("a bad message id gave %v", err)
	}
	at := l.Snapshot().T
	waitFor(t, l, "the swizzle's end", func() bool { return l.Snapshot().T > at+3e5 })
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if v := verify(t, path, false); !v.OK {
		t.Fatalf("the live recording with message actions: %+v", v)
	}
	data, _ := os.ReadFile(path)
	// The encoder writes > as \u003e, as encoding/json does.
	for _, want := range []string{`"text":"hold n1-\u003en2","by":"user"`, `"text":"swizzle 200ms","by":"user"`, `"by":"swizzle"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the recording has no %s", want)
		}
	}
}
