package export

import (
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
)

// TestPerfettoAlertsOnDisk: with every alert record in the temporary file (none
// kept in memory, each written and read back at once), the Perfetto export of
// every preset and scale scenario, whole, windowed and cut at half, is the same
// bytes as with the records in memory; the traces hold alerts cleared in the
// window and alerts that are not.
func TestPerfettoAlertsOnDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("every preset's Perfetto export twice: skipped in -short mode")
	}
	cleared, open := 0, 0
	for _, name := range append(append([]string{faultsFile}, scaleFiles...), presets.Names()...) {
		tr := record(t, name)
		refs := map[uint64]bool{}
		for _, e := range tr.Events {
			if e.Ev == trace.AlertCleared {
				refs[e.Ref] = true
			}
		}
		for _, e := range tr.Events {
			if e.Ev == trace.Alert && refs[e.Seq] {
				cleared++
			} else if e.Ev == trace.Alert {
				open++
			}
		}
		for _, v := range exportVariants(tr) {
			if !strings.HasPrefix(v.name, "perfetto") {
				continue
			}
			inMemory := renderVariant(tr, v.flags, v.l, v.parts)
			onDisk := func() string {
				defer func(m, c int) { alertMemory, alertChunk = m, c }(alertMemory, alertChunk)
				alertMemory, alertChunk = pfAlertSize, pfAlertSize
				return renderVariant(tr, v.flags, v.l, v.parts)
			}()
			if onDisk != inMemory {
				t.Errorf("%s %s: the export with its alerts on disk differs from the one in memory", name, v.name)
			}
		}
	}
	if cleared == 0 || open == 0 {
		t.Fatalf("the traces hold %d cleared alerts and %d never cleared: want both", cleared, open)
	}
	t.Logf("%d alerts cleared, %d never cleared", cleared, open)
}

// TestPerfettoAlertsHeldFlat: the Perfetto export's live heap does not grow with
// the number of alerts: 15,200 and 60,800 alerts (each cleared, among as many
// messages) hold the same, within 512 kB. Before the alerts went to a log that
// moves to a file, its first reading kept some 80 bytes an alert: 3.6 MB more
// for the larger.
func TestPerfettoAlertsHeldFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("60,800 alerts: skipped in -short mode")
	}
	held := func(rounds int) int64 {
		src := newMeshSource(20, rounds) // 380 alerts and 380 messages a round
		src.alerts, src.sample = true, 10_000
		spans := &lineCounter{want: `"cat":"alert","ph":"X"`}
		h := exportHeld(t, src, Flags{Format: "perfetto", Force: true}, spans)
		if spans.n != rounds*380 {
			t.Fatalf("%d alert slices, want %d", spans.n, rounds*380)
		}
		t.Logf("%d alerts: held %d kB", rounds*380, h>>10)
		return h
	}
	held(4) // the first export of the process also makes what later ones share
	small, large := held(40), held(160)
	if large-small > 512<<10 {
		t.Errorf("60,800 alerts held %d kB more than 15,200: the heap grows with the alerts", (large-small)>>10)
	}
}
