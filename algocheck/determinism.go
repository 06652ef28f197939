package algocheck

import (
	"runtime"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/sweep"
)

// maxKept bounds the trace lines a determinism run keeps to find the first
// difference: beyond it only the hash of the rest is compared.
const maxKept = 64 << 20

// lines is a sink that keeps a run's trace lines, up to maxKept bytes, and
// hashes them all.
type lines struct {
	enc  trace.Encoder
	buf  []byte
	ends []int // the end of each kept line in buf
	hash *trace.Hasher
	next trace.Sink // another sink that sees every event, or nil
}

func newLines(next trace.Sink) *lines {
	h := trace.NewHasher()
	h.Inline()
	return &lines{hash: h, next: next}
}

func (l *lines) Record(e *trace.Event) {
	l.hash.Record(e)
	if len(l.buf) < maxKept {
		l.buf = l.enc.Append(l.buf, e)
		l.ends = append(l.ends, len(l.buf))
	}
	if l.next != nil {
		l.next.Record(e)
	}
}

func (l *lines) line(i int) string {
	start := 0
	if i > 0 {
		start = l.ends[i-1]
	}
	return string(l.buf[start : l.ends[i]-1]) // without its newline
}

// Twin is a preset whose two runs differ: the first differing event (its number
// from 1) and both versions of it; Event is 0 when the difference lies beyond
// what was kept.
type Twin struct {
	Preset     string
	Event      int
	One, Other string
}

// DetReport is the determinism check's result, and the runs' metrics for the
// counts check.
type DetReport struct {
	Runs    int
	Skipped []string
	Twins   []Twin
	Counts  []Measured
}

// Measured is one preset's run without faults, with its metrics and the
// textbook's figures.
type Measured struct {
	Preset string
	Values map[string]float64
	Theory []algos.Theory
}

// Determinism runs every preset of spec's family, adapted to it at the
// preset's own size, twice: at GOMAXPROCS 1, then at 2, with the world's
// parallel windows. The two traces must be the same bytes.
func Determinism(spec algos.Spec, l lang.Lang) *DetReport {
	rep := &DetReport{}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range FamilyPresets(spec.Family) {
		s, err := Adapt(p, spec, 0)
		if err != nil {
			rep.Skipped = append(rep.Skipped, p.Name+": "+err.Error())
			continue
		}
		cfg, err := s.Resolve()
		if err != nil {
			rep.Skipped = append(rep.Skipped, p.Name+": "+err.Error())
			continue
		}
		meter := sweep.NewMeter(cfg)
		var runs [2]*lines
		var sum *netsim.Summary
		for i, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			var next trace.Sink
			if i == 0 {
				next = meter
			}
			runs[i] = newLines(next)
			w, err := netsim.New(cfg, runs[i])
			if err == nil {
				w.RunUntil(cfg.Until)
				err = w.Err()
				w.Finish()
				if i == 0 {
					sum = w.Summary()
				}
				w.Close()
			}
			if err != nil {
				rep.Skipped = append(rep.Skipped, p.Name+": "+l.F("check.run.err", err))
				runs[0] = nil
				break
			}
		}
		if runs[0] == nil {
			continue
		}
		rep.Runs++
		if t, ok := compare(runs[0], runs[1]); !ok {
			t.Preset = p.Name
			rep.Twins = append(rep.Twins, t)
		}
		if th, err := s.Theory(cfg); err == nil && len(th) > 0 && faultFree(cfg) {
			rep.Counts = append(rep.Counts, Measured{Preset: p.Name, Values: meter.Values(sum), Theory: th})
		}
	}
	return rep
}

// faultFree reports whether a run has no fault in its script: the textbook's
// figures are for runs without faults (requests and markers are no faults).
func faultFree(cfg netsim.Config) bool {
	for _, a := range cfg.Script {
		if a.Action.Verb != "request" && a.Action.Verb != "marker" {
			return false
		}
	}
	return true
}

// compare finds the first event where two runs differ.
func compare(a, b *lines) (Twin, bool) {
	if a.hash.Count() == b.hash.Count() && a.hash.Sum() == b.hash.Sum() {
		return Twin{}, true
	}
	n := min(len(a.ends), len(b.ends))
	for i := range n {
		if x, y := a.line(i), b.line(i); x != y {
			return Twin{Event: i + 1, One: x, Other: y}, false
		}
	}
	switch {
	case len(a.ends) > n && len(a.buf) < maxKept:
		return Twin{Event: n + 1, One: a.line(n), Other: "(end)"}, false
	case len(b.ends) > n && len(b.buf) < maxKept:
		return Twin{Event: n + 1, One: "(end)", Other: b.line(n)}, false
	}
	return Twin{}, false
}
