package session

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// benchPreset is the fixed workload of the recording benchmarks.
const benchPreset = "dp-gst"

// BenchmarkTrace compares a plain headless run of one preset, made bigger, with the same run
// recorded (plain and compressed) and with verify of that recording. The issue's
// targets: record ≤ 1.5× plain, verify ≤ 2× plain (divide the ns/op).
func BenchmarkTrace(b *testing.B) {
	s, _, err := Open(Source{Preset: benchPreset})
	if err != nil {
		b.Fatal(err)
	}
	// 16 processes heartbeating each other: about 200,000 events, so that
	// what a recording costs per event shows, not what opening a file costs.
	s.Nodes, s.IDs = 16, nil
	cfg, err := s.Resolve()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	var events uint64
	record := func(b *testing.B, path string) {
		out, err := CreateOutput(path, true)
		if err != nil {
			b.Fatal(err)
		}
		rec, err := Record(out, s, cfg)
		if err != nil {
			b.Fatal(err)
		}
		_, now, err := RunContext(context.Background(), cfg, 0, rec, nil)
		if err != nil {
			b.Fatal(err)
		}
		rec.End(trace.EndUntil, node.Micros(now))
		if err := rec.Close(); err != nil {
			b.Fatal(err)
		}
		if err := out.Commit(); err != nil {
			b.Fatal(err)
		}
		events = rec.Count()
	}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if _, err := Run(cfg, 0, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hash", func(b *testing.B) {
		for b.Loop() {
			if _, err := Run(cfg, 0, trace.NewHasher()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode-discard", func(b *testing.B) {
		for b.Loop() {
			rec, _ := trace.NewRecorder(io.Discard, Header(s, cfg))
			if _, err := Run(cfg, 0, rec); err != nil {
				b.Fatal(err)
			}
			rec.Close()
		}
	})
	for _, ext := range []string{".jsonl", ".jsonl.gz", ".jsonl.zst"} {
		path := filepath.Join(dir, "bench"+ext)
		b.Run("record"+ext, func(b *testing.B) {
			for b.Loop() {
				record(b, path)
			}
			b.ReportMetric(float64(events), "events")
		})
		b.Run("verify"+ext, func(b *testing.B) {
			for b.Loop() {
				v, err := Verify(context.Background(), path, VerifyOptions{})
				if err != nil || !v.OK {
					b.Fatalf("%v %+v", err, v)
				}
			}
		})
	}
}
