package session

import (
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// TestSlicesGiveTheSameTrace: a run watched for progress goes in slices of virtual
// time; it must record exactly what one uninterrupted run records.
func TestSlicesGiveTheSameTrace(t *testing.T) {
	for _, name := range []string{"bully-split-brain", "ricart", "dp-gst"} {
		_, cfg, err := Open(Source{Preset: name})
		if err != nil {
			t.Fatal(err)
		}
		whole := trace.NewHasher()
		if _, err := Run(cfg, 0, whole); err != nil {
			t.Fatal(err)
		}
		// Odd fixed slices, so that boundaries fall between events and actions.
		sliced := trace.NewHasher()
		w, err := netsim.New(cfg, sliced)
		if err != nil {
			t.Fatal(err)
		}
		for at := 7 * time.Millisecond; ; at += 7*time.Millisecond + 3*time.Microsecond {
			w.RunUntil(min(at, cfg.Until))
			if at >= cfg.Until {
				break
			}
		}
		w.Finish()
		w.Close()
		if sliced.Sum() != whole.Sum() {
			t.Fatalf("%s: sliced run hash %s, whole run %s", name, sliced.Sum(), whole.Sum())
		}
		// And as RunWatched slices it, with every report moving forward.
		watched := trace.NewHasher()
		var last Progress
		sum, err := RunWatched(cfg, 0, watched, func(p Progress) {
			if p.Now < last.Now || p.Events < last.Events || p.Until != cfg.Until {
				t.Errorf("%s: progress went back: %+v after %+v", name, p, last)
			}
			last = p
		})
		if err != nil || !sum.Passed {
			t.Fatalf("%s: watched run: %v, passed %v", name, err, sum != nil && sum.Passed)
		}
		if watched.Sum() != whole.Sum() || last.Now != cfg.Until {
			t.Fatalf("%s: watched run hash %s (last report at %v), whole run %s", name, watched.Sum(), last.Now, whole.Sum())
		}
	}
}

func TestProgressLine(t *testing.T) {
	var b strings.Builder
	l := &ProgressLine{Out: &b}
	p := Progress{Now: 2 * time.Second, Until: 10 * time.Second, Events: 3_000_000, Wall: 300 * time.Millisecond}
	l.Report(p)
	l.Clear()
	if b.Len() != 0 {
		t.Fatalf("a run under half a second printed %q", b.String())
	}
	p.Wall = time.Second
	l.Report(p)
	p.Wall += 100 * time.Millisecond
	l.Report(p) // too soon after the last one
	want := "\r\x1b[Kt=2s of 10s (20%) · 3,000,000 events/s · 4s left"
	if b.String() != want {
		t.Fatalf("progress line\n got %q\nwant %q", b.String(), want)
	}
	l.Clear()
	if !strings.HasSuffix(b.String(), "\r\x1b[K") {
		t.Fatalf("Clear left %q", b.String())
	}
}
