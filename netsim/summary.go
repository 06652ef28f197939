package netsim

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// NodeSummary is one process at the end of a run.
type NodeSummary struct {
	ID     node.ID     `json:"id"`
	Up     bool        `json:"up"`
	Inc    uint32      `json:"incarnation"`
	Status node.Status `json:"status"`
}

// Summary is what `sim` prints: final statuses, message counts, alerts, monitor
// figures and expectation results.
type Summary struct {
	Scenario  string                 `json:"scenario"`
	Algorithm string                 `json:"algorithm"`
	Family    string                 `json:"family"`
	Seed      uint64                 `json:"seed"`
	EndUS     int64                  `json:"end_us"`
	Events    uint64                 `json:"events"`
	Nodes     []NodeSummary          `json:"nodes"`
	Messages  map[string]*typeCounts `json:"messages"`
	Drops     map[string]int         `json:"drops"`
	Alerts    []AlertRecord          `json:"alerts"`

	Detections           []Detection `json:"detections,omitempty"`
	FalseSuspicionsPre   int         `json:"false_suspicions_before_gst"`
	FalseSuspicionsAfter int         `json:"false_suspicions_after_gst"`

	Election *ElectionFigures `json:"election,omitempty"`
	Mutex    *MutexFigures    `json:"mutex,omitempty"`

	Expectations []Result `json:"expectations"`
	Passed       bool     `json:"passed"`
}

// ElectionFigures are the election monitors' figures.
type ElectionFigures struct {
	Elections int `json:"elections"`
	// PerElection is messages of each type sent per election.
	PerElection map[string]float64 `json:"messages_per_election"`
	// RecoveryMS is, for each crash of an agreed leader, the time until all live
	// processes agreed on a live leader again.
	RecoveryMS []float64 `json:"recovery_ms"`
}

// MutexFigures are the mutual-exclusion monitors' figures.
type MutexFigures struct {
	Entries     int                `json:"entries"`
	PerEntry    map[string]float64 `json:"messages_per_entry"`
	MeanWaitMS  float64            `json:"mean_wait_ms"`
	MaxWaitMS   float64            `json:"max_wait_ms"`
	MeanSyncMS  float64            `json:"mean_sync_delay_ms"`
	SyncSamples int                `json:"sync_delay_samples"`
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Summary gathers the run's figures. Call Finish first to check end expectations.
func (w *World) Summary() *Summary {
	m := w.mon
	s := &Summary{Scenario: w.cfg.Name, Algorithm: w.cfg.Spec.Name, Family: string(w.cfg.Spec.Family), Seed: w.cfg.Seed,
		EndUS: node.Micros(w.now), Events: w.lineSeq, Messages: map[string]*typeCounts{}, Drops: map[string]int{},
		Alerts: append([]AlertRecord{}, w.alerts.list...), FalseSuspicionsPre: m.falseBefore, FalseSuspicionsAfter: m.falseAfter,
		Expectations: append([]Result{}, w.results...), Passed: true}
	for _, p := range w.procs {
		s.Nodes = append(s.Nodes, NodeSummary{ID: p.id, Up: p.up, Inc: p.inc, Status: p.status.Clone()})
	}
	for _, t := range w.counts.types() {
		c := *w.counts.byType[t]
		s.Messages[t] = &c
	}
	for k, v := range w.counts.reasons {
		s.Drops[k] = v
	}
	if m.suspectsSeen {
		for _, d := range m.detections {
			if d.CrashedUS >= 0 {
				s.Detections = append(s.Detections, d)
			}
		}
	}
	perType := func(n int) map[string]float64 {
		out := map[string]float64{}
		if n == 0 {
			return out
		}
		for _, t := range w.counts.types() {
			out[t] = float64(w.counts.byType[t].Sent) / float64(n)
		}
		return out
	}
	if w.cfg.Spec.Family == algos.Election || m.leaderSeen {
		e := &ElectionFigures{Elections: m.elections, PerElection: perType(m.elections)}
		for _, r := range m.recoveries {
			e.RecoveryMS = append(e.RecoveryMS, ms(r))
		}
		s.Election = e
	}
	if w.cfg.Spec.Family == algos.Mutex {
		mf := &MutexFigures{Entries: m.entries, PerEntry: perType(m.entries), SyncSamples: len(m.syncDelays)}
		var sum, mx time.Duration
		for _, d := range m.waits {
			sum += d
			mx = max(mx, d)
		}
		if len(m.waits) > 0 {
			mf.MeanWaitMS, mf.MaxWaitMS = ms(sum/time.Duration(len(m.waits))), ms(mx)
		}
		var ss time.Duration
		for _, d := range m.syncDelays {
			ss += d
		}
		if len(m.syncDelays) > 0 {
			mf.MeanSyncMS = ms(ss / time.Duration(len(m.syncDelays)))
		}
		s.Mutex = mf
	}
	for _, r := range s.Expectations {
		s.Passed = s.Passed && r.OK
	}
	return s
}

// Print writes the summary for people.
func (s *Summary) Print(out io.Writer) {
	fmt.Fprintf(out, "scenario %s · algorithm %s · seed %d · ran to %v · %d events\n\n", s.Scenario, s.Algorithm, s.Seed,
		time.Duration(s.EndUS)*time.Microsecond, s.Events)
	fmt.Fprintf(out, "%-6s %-5s %-4s %-12s %-7s %-6s %-9s %s\n", "node", "state", "inc", "role", "leader", "term", "cs", "suspects")
	for _, n := range s.Nodes {
		state := "up"
		if !n.Up {
			state = "down"
		}
		term := ""
		if n.Status.Term != 0 {
			term = fmt.Sprint(n.Status.Term)
		}
		fmt.Fprintf(out, "%-6v %-5s %-4d %-12s %-7v %-6s %-9s %v\n", n.ID, state, n.Inc, n.Status.Role, n.Status.Leader, term, n.Status.CS, n.Status.Suspects)
	}
	fmt.Fprintf(out, "\nmessages      sent  delivered  dropped\n")
	var types []string
	for t := range s.Messages {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		c := s.Messages[t]
		dropped := 0
		var why []string
		var reasons []string
		for r := range c.Dropped {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		for _, r := range reasons {
			dropped += c.Dropped[r]
			why = append(why, fmt.Sprintf("%s %d", r, c.Dropped[r]))
		}
		fmt.Fprintf(out, "%-12s %5d  %9d  %7d  %s\n", t, c.Sent, c.Delivered, dropped, strings.Join(why, ", "))
	}
	if len(s.Detections) > 0 || s.Family == string(algos.Detector) {
		fmt.Fprintf(out, "\nfalse suspicions: %d before GST, %d after GST\n", s.FalseSuspicionsPre, s.FalseSuspicionsAfter)
		for _, d := range s.Detections {
			if d.Detected {
				fmt.Fprintf(out, "crash of %v at %v detected by every live node after %.1fms\n", d.Node, time.Duration(d.CrashedUS)*time.Microsecond, d.LatencyMS)
			} else {
				fmt.Fprintf(out, "crash of %v at %v not detected by every live node\n", d.Node, time.Duration(d.CrashedUS)*time.Microsecond)
			}
		}
	}
	if e := s.Election; e != nil {
		fmt.Fprintf(out, "\nelections: %d", e.Elections)
		if len(e.RecoveryMS) > 0 {
			fmt.Fprintf(out, " · leader crash → agreement: %v ms", fmtFloats(e.RecoveryMS))
		}
		fmt.Fprintln(out)
		fmt.Fprintf(out, "messages per election: %s\n", fmtPer(e.PerElection))
	}
	if m := s.Mutex; m != nil {
		fmt.Fprintf(out, "\ncritical-section entries: %d · wait mean %.1fms max %.1fms · synchronisation delay %.1fms (%d samples)\n",
			m.Entries, m.MeanWaitMS, m.MaxWaitMS, m.MeanSyncMS, m.SyncSamples)
		fmt.Fprintf(out, "messages per entry: %s\n", fmtPer(m.PerEntry))
	}
	fmt.Fprintf(out, "\nalerts: %d\n", len(s.Alerts))
	shown := 0
	for _, a := range s.Alerts {
		if shown == 20 {
			fmt.Fprintf(out, "  … %d more\n", len(s.Alerts)-shown)
			break
		}
		fmt.Fprintf(out, "  %10v  %-15s %s\n", time.Duration(a.AtUS)*time.Microsecond, a.Kind, a.Text)
		shown++
	}
	if len(s.Expectations) > 0 {
		fmt.Fprintf(out, "\nexpectations:\n")
		for _, r := range s.Expectations {
			mark := "pass"
			if !r.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(out, "  %s  at %-8v %-28s (%s)\n", mark, time.Duration(r.AtUS)*time.Microsecond, r.Text, r.Got)
		}
	}
}

func fmtFloats(xs []float64) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, fmt.Sprintf("%.1f", x))
	}
	return strings.Join(parts, ", ")
}

func fmtPer(m map[string]float64) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %.2f", k, m[k]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
