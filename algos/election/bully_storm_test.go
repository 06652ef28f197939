package election_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/internal/race"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// bullyAllStart runs bully with every process starting an election at time 0 on a
// lossless network with latency lat (T = 2·25ms + 5ms is longer than any
// transmission, as the notes assume), and returns the counts after `until`.
func bullyAllStart(t *testing.T, n int, lat netsim.Latency, until time.Duration) (election, answer, coord int, leaders []node.ID, agree bool) {
	t.Helper()
	w := worldOn(t, netsim.Net{Latency: lat, Delta: 50 * time.Millisecond}, "bully", n, 1, map[string]any{"initiators": "all"}, nil, nil)
	defer w.Close()
	w.RunUntil(until)
	agree = true
	for i := 1; i <= n; i++ {
		st, up := w.Status(node.ID(i))
		if !up {
			continue
		}
		if st.Leader == node.ID(i) {
			leaders = append(leaders, node.ID(i))
		}
		if st.Leader != node.ID(n) {
			agree = false
		}
	}
	return w.Sent("ELECTION"), w.Sent("ANSWER"), w.Sent("COORDINATOR"), leaders, agree
}

// TestBullyAllStartExact: with every process up and starting at once, each sends
// ELECTION once to each higher id (N(N−1)/2), each of those is answered once
// (N(N−1)/2 ANSWER), and n_N, which has no higher id, announces itself once to the
// N−1 lower ids: N² − 1 messages in all. The ELECTIONs reach the others after n_N's
// COORDINATOR has left, and a process that is running an election, or has just
// heard or sent a COORDINATOR, answers without starting another.
func TestBullyAllStartExact(t *testing.T) {
	for _, n := range []int{5, 8, 16} {
		t.Run(fmt.Sprint("N=", n), func(t *testing.T) {
			e, a, c, leaders, agree := bullyAllStart(t, n, constant10ms, 2*time.Second)
			half := n * (n - 1) / 2
			if e != half || a != half || c != n-1 {
				t.Errorf("ELECTION %d, ANSWER %d, COORDINATOR %d; want %d, %d, %d", e, a, c, half, half, n-1)
			}
			if e+a+c != n*n-1 {
				t.Errorf("%d messages, want N²−1 = %d", e+a+c, n*n-1)
			}
			if len(leaders) != 1 || leaders[0] != node.ID(n) || !agree {
				t.Errorf("leaders %v (all agree on n%d: %v), want exactly n%d", leaders, n, agree, n)
			}
		})
	}
}

var (
	constant10ms = netsim.Latency{Dist: "constant", Mean: 10 * time.Millisecond}
	uniform5to20 = netsim.Latency{Dist: "uniform", Min: 5 * time.Millisecond, Mean: 12500 * time.Microsecond, Max: 20 * time.Millisecond}
)

// TestBullyAllStartBounded: at sizes where a restart storm would grow as N³ (and
// run out of memory), the election stays within N² messages and ends with n_N the
// one leader everyone follows, with equal delays and with the presets' uniform
// 5–20ms, where ELECTIONs and the COORDINATOR arrive in every order.
func TestBullyAllStartBounded(t *testing.T) {
	type run struct {
		n   int
		lat netsim.Latency
	}
	runs := []run{{8, uniform5to20}, {16, uniform5to20}, {64, constant10ms}, {64, uniform5to20}, {256, constant10ms}, {256, uniform5to20}}
	// A million messages under the race detector take about 3 GB; .ci/run runs the
	// 1,000-node cases in a plain pass.
	if !testing.Short() && !race.Enabled {
		runs = append(runs, run{1000, constant10ms}, run{1000, uniform5to20})
	}
	for _, r := range runs {
		n := r.n
		t.Run(fmt.Sprintf("N=%d/%s", n, r.lat.Dist), func(t *testing.T) {
			e, a, c, leaders, agree := bullyAllStart(t, n, r.lat, time.Second)
			t.Logf("ELECTION %d, ANSWER %d, COORDINATOR %d: %d (N² = %d)", e, a, c, e+a+c, n*n)
			if total := e + a + c; total > n*n {
				t.Errorf("ELECTION %d + ANSWER %d + COORDINATOR %d = %d, more than N² = %d", e, a, c, total, n*n)
			}
			if len(leaders) != 1 || leaders[0] != node.ID(n) || !agree {
				t.Errorf("leaders %v (all agree on n%d: %v), want exactly n%d", leaders, n, agree, n)
			}
		})
	}
}

// BenchmarkBully1000AllStart: issue 11's headless target, 1,000 bully processes all
// starting at once on 5–20ms links, 2 virtual seconds (N²−1 election messages,
// then the coordinator's heartbeats). Reports the wall seconds per run.
func BenchmarkBully1000AllStart(b *testing.B) {
	for b.Loop() {
		start := time.Now()
		w := worldOn(b, netsim.Net{Latency: uniform5to20, Delta: 50 * time.Millisecond}, "bully", 1000, 1, map[string]any{"initiators": "all"}, nil, nil)
		w.RunUntil(2 * time.Second)
		w.Close()
		b.ReportMetric(time.Since(start).Seconds(), "wall-s")
	}
}
