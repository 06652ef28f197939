package session

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/internal/rss"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/tui"
)

var _ tui.Controller = (*Replay)(nil)

// foldFresh folds the first n events of the file from scratch.
func foldFresh(t *testing.T, path string, n int) *trace.Snapshot {
	tr, err := ReadTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	st := trace.NewState(tr.Header)
	for i := 0; i < n; i++ {
		st.Apply(&tr.Events[i])
	}
	return st.Snapshot()
}

// openTimed opens a replay of path and waits for its timeout bars, which it must
// find.
func openTimed(t *testing.T, path string) *Replay {
	t.Helper()
	r, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	<-r.TimersRan()
	if r.timers.Load() == nil {
		r.Close()
		t.Fatalf("%s: no timers for the bars: %s", path, r.Note())
	}
	return r
}

// TestReplaySeek seeks back and forth and checks each snapshot against a fold from
// the start.
func TestReplaySeek(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	recordPreset(t, "dp-gst", path)
	r := openTimed(t, path)
	defer r.Close()
	if r.Len() < checkpointEvery+1000 {
		t.Fatalf("only %d events: too few to cross checkpoints", r.Len())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// With states kept every checkpointEvery events, and further apart, as a long
	// recording keeps them (checkpointsFor).
	for _, every := range []int{checkpointEvery, 3 * checkpointEvery / 2, 8} {
		r.mu.Lock()
		r.index(every)
		r.mu.Unlock()
		if every == 8 && (r.every == 8 || len(r.cps) > r.most+1) {
			t.Fatalf("%d events a state every 8 kept %d states, every %d", r.Len(), len(r.cps), r.every)
		}
		for i := 0; i < 12; i++ {
			n := rng.IntN(r.Len() + 1)
			r.StepEvents(n - func() int { p, _ := r.Pos(); return p }())
			if p, _ := r.Pos(); p != n {
				t.Fatalf("states every %d: at %d, want %d", r.every, p, n)
			}
			got, want := r.Snapshot(), foldFresh(t, path, n)
			r.timers.Load().Fill(want)
			got.T, want.T = 0, 0
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("states every %d: snapshot after seeking to event %d differs from a fresh fold", r.every, n)
			}
		}
	}
	marks := r.Marks()
	if len(marks) < 3 {
		t.Fatalf("marks %v: want markers, GST and the crash", marks)
	}
	r.SeekTime(0)
	if !r.NextMark(1) {
		t.Fatal("no next mark")
	}
	if _, clock := r.Pos(); clock != marks[0] {
		t.Fatalf("next mark at %d, want %d", clock, marks[0])
	}
	r.SeekTime(12_500_000)
	if n5, _ := r.Snapshot().Node(5); n5.Up {
		t.Fatal("n5 should be down at 12.5s")
	}
	if r.Do("crash n1") == nil {
		t.Fatal("a replay accepted an action")
	}
	r.SetSpeed(1000)
	r.SeekTime(0)
	r.SetPaused(false)
	deadline := time.Now().Add(5 * time.Second)
	for p, _ := r.Pos(); p < r.Len(); p, _ = r.Pos() {
		if time.Now().After(deadline) {
			t.Fatalf("playback stuck at %d of %d", p, r.Len())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// BenchmarkReplaySeek seeks to random places in a recording of about a million
// events and reports the mean time per seek.
func BenchmarkReplaySeek(b *testing.B) {
	path := bigRecording(b)
	r, err := OpenReplay(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.SeekTime(rng.Int64N(r.End()))
	}
	b.StopTimer()
	b.ReportMetric(float64(r.Len()), "events")
}

// ReplayFileEnv names the recording BenchmarkReplayOpen opens: scripts/bench makes
// the one (a 400-node heartbeat mesh for 2 virtual seconds, 730 MB of lines,
// 6.4 million events) with `clusterlab sim --record`, in a process of its own, so
// that the benchmark's peak memory is the replay's alone.
const ReplayFileEnv = "CLUSTERLAB_REPLAY_FILE"

// BenchmarkReplayOpen opens the recording that ReplayFileEnv names, as `replay`
// does, then seeks to 50 random times, and reports the seconds the opening took
// (open-s, and open-cpu-s of CPU time, every thread's: the reading and folding,
// and the hashing beside it), the seeks' mean and longest time (seek-ms,
// seek-max-ms) and CPU time (seek-cpu-ms, seek-max-cpu-ms: a seek runs in one
// goroutine, and a machine busy with other work stretches its wall time), and the
// process's peak resident memory (peak-MB, the kernel's high-water mark: what
// opening and seeking took, and the test binary's own few megabytes). One
// operation per process: the high-water mark never comes down.
func BenchmarkReplayOpen(b *testing.B) {
	path := os.Getenv(ReplayFileEnv)
	if path == "" {
		b.Skipf("set %s to a recording (scripts/bench makes a 730 MB one)", ReplayFileEnv)
	}
	for range b.N {
		start, cpu := time.Now(), cpuTime()
		r, err := OpenReplay(path)
		if err != nil {
			b.Fatal(err)
		}
		open, openCPU := time.Since(start), cpuTime()-cpu
		rng := rand.New(rand.NewPCG(3, 4))
		var total, longest, totalCPU, longestCPU time.Duration
		const seeks = 50
		for range seeks {
			t0, c0 := time.Now(), cpuTime()
			r.SeekTime(rng.Int64N(r.End() + 1))
			d, c := time.Since(t0), cpuTime()-c0
			total, totalCPU = total+d, totalCPU+c
			longest, longestCPU = max(longest, d), max(longestCPU, c)
		}
		if r.Note() != "" && !strings.Contains(r.Note(), "timeout bars") {
			b.Fatal(r.Note())
		}
		b.ReportMetric(open.Seconds(), "open-s")
		b.ReportMetric(openCPU.Seconds(), "open-cpu-s")
		b.ReportMetric(float64(total.Milliseconds())/seeks, "seek-ms")
		b.ReportMetric(float64(longest.Milliseconds()), "seek-max-ms")
		b.ReportMetric(float64(totalCPU.Microseconds())/1e3/seeks, "seek-cpu-ms")
		b.ReportMetric(float64(longestCPU.Microseconds())/1e3, "seek-max-cpu-ms")
		b.ReportMetric(float64(r.Len()), "events")
		r.mu.Lock()
		b.ReportMetric(float64(len(r.cps)), "states")
		b.ReportMetric(float64(r.every), "events/state")
		r.mu.Unlock()
		r.Close()
	}
	b.ReportMetric(rss.PeakMB(), "peak-MB")
}

// BenchmarkReplayTimers re-runs the recording of BenchmarkReplaySeek to find the
// timeout bars, as a replay does beside its playback when it opens.
func BenchmarkReplayTimers(b *testing.B) {
	path := bigRecording(b)
	tr, err := ReadTrace(path)
	if err != nil {
		b.Fatal(err)
	}
	lines := make([][]byte, len(tr.Events))
	for i := range tr.Events {
		l := trace.AppendLine(nil, &tr.Events[i])
		lines[i] = l[:len(l)-1]
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := RerunTimers(path, tr.Header, len(lines), func(i int) []byte { return lines[i] }, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(lines)), "events")
}

// bigRecording records dp-gst on 48 nodes for 24 s: about a million events.
func bigRecording(b *testing.B) string {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	s, cfg, err := Open(Source{Preset: "dp-gst"})
	if err != nil {
		b.Fatal(err)
	}
	s.Nodes = 48 // 48·47 heartbeats every 100ms, sent and delivered: about a million events
	s.IDs = nil
	s.Until = "24s"
	if cfg, err = s.Resolve(); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	rec, _ := trace.NewRecorder(&buf, Header(s, cfg))
	Run(cfg, 0, rec)
	rec.Close()
	os.WriteFile(path, buf.Bytes(), 0o644)
	return path
}

// index folds a replay's events again, from its file, starting with a state
// every events, as OpenReplay does as it reads.
func (r *Replay) index(every int) {
	x := r.newIndexer(every)
	c := newCursor(r.src)
	defer c.Close()
	if err := r.place(c, 0); err != nil {
		panic(err)
	}
	var d trace.Decoder
	for i := range r.n {
		line, err := c.next()
		if err != nil {
			panic(err)
		}
		e, err := d.Decode(line) // checked when opened
		if err != nil {
			panic(err)
		}
		x.add(i, e)
	}
}
