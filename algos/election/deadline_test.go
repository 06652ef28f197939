package election_test

import (
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/node"
)

// TestBullyDeadline: a follower's main timer is the coordinator's silence, as long
// as the timeout; the coordinator has none; once the coordinator crashes the
// followers' timers are no longer re-armed, so they run down to the same instant.
func TestBullyDeadline(t *testing.T) {
	script := []netsim.Timed{{At: time.Second, Action: netsim.Action{Verb: "crash", Node: 5}}}
	w := world(t, "bully", 5, 1, map[string]any{"timeout": "2s", "heartbeat": "500ms"}, script, nil)
	defer w.Close()
	w.RunUntil(900 * time.Millisecond)
	if d := w.Deadline(5); d.Running() {
		t.Errorf("the coordinator n5 has a timer running: %+v", d)
	}
	d := w.Deadline(1)
	if d.For != "leader" || d.Len != 2*time.Second || d.At <= w.Now() || d.At-w.Now() > d.Len {
		t.Fatalf("n1's deadline at %v is %+v, want the leader's silence of 2s, running", w.Now(), d)
	}
	w.RunUntil(1500 * time.Millisecond)
	a := w.Deadline(1)
	w.RunUntil(2500 * time.Millisecond)
	b := w.Deadline(1)
	if !a.Running() || a != b {
		t.Errorf("after the crash n1's timer moved: %+v then %+v, want one instant running down", a, b)
	}
	if a.At > time.Second+2*time.Second {
		t.Errorf("n1's timer fires at %v, later than the last heartbeat before the crash plus 2s", a.At)
	}
	if d := w.Deadline(5); d.Running() {
		t.Errorf("the crashed n5 has a timer: %+v", d)
	}
}

// TestRaftDeadline: followers show the election timeout they drew, the leader none.
func TestRaftDeadline(t *testing.T) {
	w := world(t, "raft", 5, 3, nil, nil, nil)
	defer w.Close()
	w.RunUntil(3 * time.Second)
	leaders := 0
	for id := node.ID(1); id <= 5; id++ {
		st, _ := w.Status(id)
		d := w.Deadline(id)
		if st.Leader == id {
			leaders++
			if d.Running() {
				t.Errorf("the leader n%d has an election timer: %+v", id, d)
			}
			continue
		}
		if d.For != "election" || d.Len < 150*time.Millisecond || d.At <= w.Now() || d.At-w.Now() > d.Len {
			t.Errorf("follower n%d's deadline at %v is %+v, want a running election timeout", id, w.Now(), d)
		}
	}
	if leaders != 1 {
		t.Fatalf("%d leaders after 3s, want 1", leaders)
	}
}

// TestDetectorDeadline: a heartbeat detector's main timer is its next suspicion.
// Once n5 crashes, n1's timer for n5 is the one that runs down; when it fires n5 is
// suspected and the next suspicion is another peer's, re-armed by its heartbeats.
// Ω on the same detector reports the same timer.
func TestDetectorDeadline(t *testing.T) {
	for _, algo := range []string{"heartbeat-dp", "omega"} {
		t.Run(algo, func(t *testing.T) {
			script := []netsim.Timed{{At: time.Second, Action: netsim.Action{Verb: "crash", Node: 5}}}
			w := world(t, algo, 5, 1, map[string]any{"interval": "100ms", "timeout": "500ms"}, script, nil)
			defer w.Close()
			w.RunUntil(900 * time.Millisecond)
			d := w.Deadline(1)
			if d.For != "suspicion" || d.Len < 500*time.Millisecond || d.At <= w.Now() || d.At-w.Now() > d.Len {
				t.Fatalf("n1's deadline at %v is %+v, want a running suspicion", w.Now(), d)
			}
			w.RunUntil(1100 * time.Millisecond)
			a := w.Deadline(1)
			w.RunUntil(1300 * time.Millisecond)
			b := w.Deadline(1)
			if !a.Running() || a != b || a.At > time.Second+d.Len {
				t.Errorf("after n5's crash n1's next suspicion moved: %+v then %+v, want n5's, running down", a, b)
			}
			w.RunUntil(1600 * time.Millisecond)
			if st, _ := w.Status(1); !st.Suspect(5) {
				t.Fatalf("n1 does not suspect n5 at 1.6s: %+v", st)
			}
			if c := w.Deadline(1); !c.Running() || c.At <= w.Now() {
				t.Errorf("with n5 suspected n1's next suspicion is %+v, want another peer's, ahead of %v", c, w.Now())
			}
		})
	}
}

// TestOmegaCRDeadline: omega-cr's main timer is the heartbeat interval under way,
// whose end suspects the processes not heard from in it. When n5 crashes, n1's
// timer still runs; the first interval that ends with nothing heard from n5
// suspects it, and the next interval's timer is armed at once.
func TestOmegaCRDeadline(t *testing.T) {
	script := []netsim.Timed{{At: time.Second, Action: netsim.Action{Verb: "crash", Node: 5}}}
	w := world(t, "omega-cr", 5, 1, map[string]any{"interval": "100ms", "grow": "10ms"}, script, nil)
	defer w.Close()
	w.RunUntil(950 * time.Millisecond)
	d := w.Deadline(1)
	if d.For != "suspicion" || d.Len < 100*time.Millisecond || d.At <= w.Now() || d.At-w.Now() > d.Len {
		t.Fatalf("n1's deadline at %v is %+v, want a running heartbeat interval", w.Now(), d)
	}
	w.RunUntil(1050 * time.Millisecond)
	if d := w.Deadline(5); d.Running() {
		t.Errorf("the crashed n5 has a timer: %+v", d)
	}
	// n5 is suspected at the end of an interval, the first or second after the
	// crash (the one under way may have heard n5 before it), and a new one runs
	for k := 0; ; k++ {
		d := w.Deadline(1)
		if !d.Running() || k == 3 {
			t.Fatalf("n1's deadline at %v is %+v after %d intervals, want n5 suspected by the end of the second", w.Now(), d, k)
		}
		w.RunUntil(d.At)
		if st, _ := w.Status(1); st.Suspect(5) {
			t.Fatalf("n1 suspects n5 before its interval ends at %v: %+v", d.At, st)
		}
		w.RunUntil(d.At + time.Microsecond)
		next := w.Deadline(1)
		if !next.Running() || next.At <= d.At {
			t.Fatalf("after n1's interval ending at %v the next deadline is %+v, want a new interval running", d.At, next)
		}
		if st, _ := w.Status(1); st.Suspect(5) {
			break
		}
	}
}
