// Package rectest makes recordings for tests, the way `sim --record` and a
// dashboard that is quit make them. Only tests import it.
package rectest

import (
	"context"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/session"
)

// Record runs preset with seed and the user's actions into path and returns
// path. It stops at stop (0: the scenario's until); a recording that stops
// before the until ends as a quit dashboard's does.
func Record(t testing.TB, path, preset string, seed uint64, actions []netsim.Timed, stop time.Duration) string {
	t.Helper()
	s, cfg, err := session.Open(session.Source{Preset: preset, Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	cfg.UserActions = actions
	out, err := session.CreateOutput(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Abort()
	rec, err := session.Record(out, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, now, err := session.RunContext(context.Background(), cfg, stop, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	reason := trace.EndUntil
	if stop > 0 && stop < cfg.Until {
		reason = trace.EndQuit
	}
	if err := rec.End(reason, node.Micros(now)); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	return path
}
