package netsim_test

import (
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// listSource hands out a list of actions, as a generator would draw them.
type listSource struct{ list []netsim.Timed }

func (l *listSource) Next() (netsim.Timed, bool) {
	if len(l.list) == 0 {
		return netsim.Timed{}, false
	}
	a := l.list[0]
	l.list = l.list[1:]
	return a, true
}

// TestGeneratedActionsAsScripted: actions a generator makes as the run reaches
// them (Config.Generated) give the very trace they give appended to the script,
// ties included: at one instant after the script's actions and the GST, before the
// expectations and the user actions.
func TestGeneratedActionsAsScripted(t *testing.T) {
	base := heartbeatConfig(t, 5)
	base.Until = 6 * time.Second
	base.Net.GST = 2 * time.Second
	base.Net.PreLatency = base.Net.Latency
	parse := func(at time.Duration, s string) netsim.Timed {
		a, err := netsim.ParseAction(s, base.IDs)
		if err != nil {
			t.Fatal(err)
		}
		return netsim.Timed{At: at, Action: a}
	}
	script := []netsim.Timed{parse(time.Second, "crash n2"), parse(2*time.Second, `marker "scripted"`), parse(3*time.Second, "partition n1 n2 | n3 n4 n5")}
	generated := []netsim.Timed{
		parse(time.Second, "crash n3"), parse(2*time.Second, "recover n2"), parse(2*time.Second, `marker "generated"`),
		parse(3*time.Second, "heal"), parse(3500*time.Millisecond, "recover n3"), parse(4*time.Second, "crash n1"),
	}
	x, err := netsim.ParseExpect("leaders == 1", base.IDs)
	if err != nil {
		t.Fatal(err)
	}
	x.At = 3 * time.Second
	user := []netsim.Timed{parse(3*time.Second, `marker "user"`)}
	run := func(cfg netsim.Config) string {
		cfg.Expect = []netsim.Expectation{x}
		cfg.UserActions = user
		h := trace.NewHasher()
		w, err := netsim.New(cfg, h)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		w.RunUntil(cfg.Until)
		w.Finish()
		return h.Sum()
	}
	scripted := base
	scripted.Script = append(append([]netsim.Timed(nil), script...), generated...)
	lazy := base
	lazy.Script = script
	lazy.Generated = func() netsim.ActionSource { return &listSource{append([]netsim.Timed(nil), generated...)} }
	if a, b := run(scripted), run(lazy); a != b {
		t.Fatalf("generated actions give trace %s, the same actions scripted %s", b, a)
	}
	// Each world draws from a source of its own: a second run is the same.
	if a, b := run(lazy), run(lazy); a != b {
		t.Fatal("two worlds of one config differ")
	}
}
