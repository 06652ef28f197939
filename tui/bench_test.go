package tui

import (
	"testing"
)

// benchView measures View() on a 160×48 screen with n nodes and a full history
// (RecentCap events, alerts, a partition, markers).
func benchView(b *testing.B, n int) {
	m := sized(scenario(n, "bully", "election"), 160, 48)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}

func BenchmarkView64(b *testing.B)  { benchView(b, 64) }
func BenchmarkView256(b *testing.B) { benchView(b, 256) }

// BenchmarkView5Detector is the default demo's size with the suspect matrix.
func BenchmarkView5Detector(b *testing.B) {
	m := sized(scenario(5, "omega", "detector"), 160, 48)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}
