package netsim

import (
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// TestReplayEqualsUserActions checks that user actions handed to a world as it runs
// (Replay, each before the world reaches its instant) give the trace they give
// from the start (Config.UserActions), over random actions, some at the instant of
// a script action or of one another, and random points where the run pauses.
func TestReplayEqualsUserActions(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(2, 6).Draw(rt, "nodes")
		cfg := pingConfig(n, rapid.Uint64().Draw(rt, "seed"))
		cfg.Net = genNet(rt)
		cfg.Until = time.Second
		instant := func(label string) time.Duration {
			// Whole 50 ms, so that actions share instants with each other and the script.
			return time.Duration(rapid.IntRange(0, 20).Draw(rt, label)) * 50 * time.Millisecond
		}
		verbs := []string{"crash", "recover", "isolate", "heal", "gst"}
		for i := rapid.IntRange(0, 3).Draw(rt, "script"); i > 0; i-- {
			cfg.Script = append(cfg.Script, Timed{At: instant("at"), Action: Action{Verb: rapid.SampledFrom(verbs).Draw(rt, "verb"), Node: cfg.IDs[rapid.IntRange(0, n-1).Draw(rt, "node")]}})
		}
		sortTimed(cfg.Script)
		var users []Timed
		for i := rapid.IntRange(1, 6).Draw(rt, "users"); i > 0; i-- {
			users = append(users, Timed{At: instant("user at"), Action: Action{Verb: rapid.SampledFrom(verbs).Draw(rt, "user verb"), Node: cfg.IDs[rapid.IntRange(0, n-1).Draw(rt, "user node")]}})
		}
		sortTimed(users)
		all := cfg
		all.UserActions = users
		want, wantN := hashRun(rt, all)

		// The same actions handed over in order, each just before the world could
		// reach it: the run pauses before every action's instant, and at random
		// points between. Those at 0 can only be given at the start.
		i := 0
		for i < len(users) && users[i].At == 0 {
			i++
		}
		cfg.UserActions = users[:i]
		h := trace.NewHasher()
		w, err := New(cfg, h)
		if err != nil {
			rt.Fatal(err)
		}
		defer w.Close()
		for i < len(users) {
			if stop := users[i].At - time.Microsecond; stop > w.Now() {
				w.RunUntil(w.Now() + time.Duration(rapid.Int64Range(1, int64(stop-w.Now())).Draw(rt, "pause")))
				continue
			}
			j := i + 1
			for j < len(users) && users[j].At == users[i].At {
				j++
			}
			if err := w.Replay(users[i:j]); err != nil {
				rt.Fatal(err)
			}
			i = j
		}
		w.RunUntil(cfg.Until)
		w.Finish()
		if got, gotN := h.Sum(), h.Count(); got != want || gotN != wantN {
			rt.Fatalf("user actions handed over as the world runs gave %d events (%s); from the start %d (%s)", gotN, got, wantN, want)
		}
	})
}

// TestReplayRefusesLateAction checks that an action the world has already run
// past is refused, and that none of the actions given with it is added.
func TestReplayRefusesLateAction(t *testing.T) {
	cfg := pingConfig(3, 1)
	cfg.Until = time.Second
	w, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.RunUntil(300 * time.Millisecond)
	pending := len(w.sched) - w.next
	err = w.Replay([]Timed{
		{At: 500 * time.Millisecond, Action: Action{Verb: "crash", Node: 2}},
		{At: 300 * time.Millisecond, Action: Action{Verb: "crash", Node: 3}},
	})
	if err == nil || !strings.Contains(err.Error(), `"crash n3" at 300ms comes too late: the world is at 300ms`) {
		t.Fatalf("got %v, expected the action at 300ms refused", err)
	}
	if got := len(w.sched) - w.next; got != pending {
		t.Fatalf("%d scheduled entries after a refused Replay, expected %d as before", got, pending)
	}
}
