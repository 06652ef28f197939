package export

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/session"
)

// benchMesh is a heartbeat mesh of 60 nodes for a virtual second: about 70,000
// events.
const benchMesh = `name = "mesh60"
algorithm = "heartbeat-dp"
nodes = 60
seed = 42
until = "1s"

[params]
interval = "100ms"
timeout = "150ms"
delta = "50ms"

[network]
latency = { dist = "uniform", min = "5ms", max = "20ms" }
gst = "0s"
delta = "30ms"
`

// recordFile records the scenario text into a trace file in dir, as sim
// --record does, and returns its path and how many events it has.
func recordFile(tb testing.TB, dir, scenario string) (string, int) {
	tb.Helper()
	file := filepath.Join(dir, "scenario.toml")
	if err := os.WriteFile(file, []byte(scenario), 0o644); err != nil {
		tb.Fatal(err)
	}
	s, cfg, err := session.Open(session.Source{File: file})
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	rec, err := trace.NewRecorder(&buf, session.Header(s, cfg))
	if err != nil {
		tb.Fatal(err)
	}
	_, now, err := session.RunContext(context.Background(), cfg, 0, rec, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if err := rec.End(trace.EndUntil, node.Micros(now)); err != nil {
		tb.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, "mesh.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path, bytes.Count(buf.Bytes(), []byte("\n")) - 2
}

// fileSource is the Source of a trace file, as the export command opens it.
func fileSource(tb testing.TB, path string) Source {
	r, c, err := session.OpenTrace(path)
	if err != nil {
		tb.Fatal(err)
	}
	c.Close()
	h := r.Header
	return ReaderSource(&h, func() (*trace.Reader, io.Closer, error) { return session.OpenTrace(path) })
}

// BenchmarkExport exports a 60-node heartbeat mesh's recording (benchMesh) in
// every format, reading it from its file as the export command does: ns/event is
// the figure to compare. scripts/bench-export runs a million-event recording, a
// process per format, for time and peak memory.
func BenchmarkExport(b *testing.B) {
	path, events := recordFile(b, b.TempDir(), benchMesh)
	src := fileSource(b, path)
	for _, f := range []Flags{{Format: "md"}, {Format: "mermaid", Split: true}, {Format: "shiviz"}, {Format: "csv"},
		{Format: "csv", Table: "events"}, {Format: "perfetto"}, {Format: "cast"}} {
		name := f.Format
		if f.Table != "" {
			name += "-" + f.Table
		}
		if f.Split {
			name += "-split"
		}
		b.Run(name, func(b *testing.B) {
			o, err := ParseOptions(src.Header(), f)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if f.Split {
					err = mermaidSplitDiscard(src, o.Window)
				} else {
					err = Write(io.Discard, src, o)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(events), "ns/event")
		})
	}
}

// mermaidSplitDiscard cuts the window's diagram into parts and drops them.
func mermaidSplitDiscard(src Source, w Window) error {
	var p discardParts
	_, err := MermaidSplit(src, w, &p)
	return err
}

type discardParts struct{}

func (discardParts) Part(int, string) error { return nil }
func (discardParts) Restart() error         { return nil }
