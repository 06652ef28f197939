package election

import (
	"slices"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func build(t *testing.T, name string, ids []node.ID, params map[string]any) node.Factory {
	t.Helper()
	_, f, err := algos.Build(name, ids, params)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func bullyHarness(t *testing.T, self node.ID, initiators string) *nodetest.Harness {
	ids := nodetest.IDs(5)
	f := build(t, "bully", ids, map[string]any{"initiators": initiators, "t_trans": "20ms", "t_proc": "10ms", "timeout": "400ms", "heartbeat": "100ms"})
	return nodetest.New(f, self, ids, 1)
}

func TestBullyStartsElectionToHigherIDs(t *testing.T) {
	h := bullyHarness(t, 3, "all")
	effs := h.Start()
	if got := nodetest.Targets(effs, MsgElection); !slices.Equal(got, []node.ID{4, 5}) {
		t.Fatalf("ELECTION to %v, want [n4 n5]", got)
	}
	if at, ok := h.Armed(timerAnswer); !ok || at != 50*time.Millisecond {
		t.Fatalf("answer timer at %v (%v), want T = 2·20ms + 10ms", at, ok)
	}
	if st := h.Status(); st.Role != "candidate" || st.Leader != node.None {
		t.Fatalf("status %+v", st)
	}
}

func TestBullyNoAnswerMakesCoordinator(t *testing.T) {
	h := bullyHarness(t, 3, "all")
	h.Start()
	effs := h.Fire(timerAnswer)
	if got := nodetest.Targets(effs, MsgCoordinator); !slices.Equal(got, []node.ID{1, 2}) {
		t.Fatalf("COORDINATOR to %v, want the lower ids [n1 n2]", got)
	}
	if st := h.Status(); st.Role != "leader" || st.Leader != 3 {
		t.Fatalf("status %+v", st)
	}
	effs = h.Fire(timerBeat)
	if got := nodetest.Targets(effs, MsgHeartbeat); !slices.Equal(got, []node.ID{1, 2, 4, 5}) {
		t.Fatalf("HEARTBEAT to %v", got)
	}
}

func TestBullyAnswerThenWaitForCoordinator(t *testing.T) {
	h := bullyHarness(t, 3, "all")
	h.Start()
	h.Deliver(5, node.Message{Type: MsgAnswer})
	if _, ok := h.Armed(timerAnswer); ok {
		t.Fatal("answer timer still armed after an ANSWER")
	}
	if _, ok := h.Armed(timerCoord); !ok {
		t.Fatal("no wait for COORDINATOR after an ANSWER")
	}
	// No COORDINATOR within T: start again.
	effs := h.Fire(timerCoord)
	if got := nodetest.Targets(effs, MsgElection); !slices.Equal(got, []node.ID{4, 5}) {
		t.Fatalf("restart sent ELECTION to %v", got)
	}
	// This time the COORDINATOR comes.
	h.Deliver(5, node.Message{Type: MsgAnswer})
	h.Deliver(5, node.Message{Type: MsgCoordinator})
	if st := h.Status(); st.Leader != 5 || st.Role != "follower" {
		t.Fatalf("status %+v", st)
	}
	if _, ok := h.Armed(timerWatch); !ok {
		t.Fatal("not watching the new coordinator")
	}
	if st := h.Status(); st.Counters[0].Value != 2 {
		t.Fatalf("elections counter %v, want 2", st.Counters)
	}
}

func TestBullyAnswersLowerAndStartsOnce(t *testing.T) {
	h := bullyHarness(t, 3, "none")
	h.Start()
	effs := h.Deliver(1, node.Message{Type: MsgElection})
	if got := nodetest.Targets(effs, MsgAnswer); !slices.Equal(got, []node.ID{1}) {
		t.Fatalf("ANSWER to %v, want [n1]", got)
	}
	if got := nodetest.Targets(effs, MsgElection); !slices.Equal(got, []node.ID{4, 5}) {
		t.Fatalf("own election to %v", got)
	}
	effs = h.Deliver(2, node.Message{Type: MsgElection})
	if got := nodetest.Types(effs); !slices.Equal(got, []string{MsgAnswer}) {
		t.Fatalf("second ELECTION gave %v, want only an ANSWER (election already running)", got)
	}
	// From a higher id an ELECTION is not answered.
	if effs := h.Deliver(5, node.Message{Type: MsgElection}); len(nodetest.Sends(effs)) != 0 {
		t.Fatalf("answered a higher id: %v", nodetest.Types(effs))
	}
}

// An ELECTION that crossed a COORDINATOR (it arrives less than T after it) is
// answered without a new election; one that comes later is answered as in the
// notes, with an election of the answering process's own.
func TestBullyCrossingElectionDoesNotRestart(t *testing.T) {
	h := bullyHarness(t, 3, "all") // T = 2·20ms + 10ms = 50ms
	h.Start()
	h.Advance(10 * time.Millisecond)
	h.Deliver(5, node.Message{Type: MsgCoordinator})
	h.Advance(49 * time.Millisecond)
	effs := h.Deliver(1, node.Message{Type: MsgElection})
	if got := nodetest.Types(effs); !slices.Equal(got, []string{MsgAnswer}) {
		t.Fatalf("ELECTION %v after the COORDINATOR gave %v, want only an ANSWER", 49*time.Millisecond, got)
	}
	if st := h.Status(); st.Leader != 5 || st.Role != "follower" {
		t.Fatalf("status %+v, want a follower of n5", st)
	}
	h.Advance(time.Millisecond)
	effs = h.Deliver(2, node.Message{Type: MsgElection})
	if got := nodetest.Targets(effs, MsgElection); !slices.Equal(got, []node.ID{4, 5}) {
		t.Fatalf("ELECTION T after the COORDINATOR: own election to %v, want [n4 n5]", got)
	}
}

// The coordinator answers an ELECTION sent before its COORDINATOR arrived and does
// not announce itself again; to a later one it answers and announces itself again,
// to every lower id.
func TestBullyCoordinatorReannouncesOnlyToLateElection(t *testing.T) {
	h := bullyHarness(t, 5, "all")
	if got := nodetest.Targets(h.Start(), MsgCoordinator); !slices.Equal(got, []node.ID{1, 2, 3, 4}) {
		t.Fatalf("COORDINATOR to %v", got)
	}
	h.Advance(20 * time.Millisecond)
	if got := nodetest.Types(h.Deliver(1, node.Message{Type: MsgElection})); !slices.Equal(got, []string{MsgAnswer}) {
		t.Fatalf("crossing ELECTION gave %v, want only an ANSWER", got)
	}
	h.Advance(time.Second)
	effs := h.Deliver(1, node.Message{Type: MsgElection})
	if got := nodetest.Targets(effs, MsgAnswer); !slices.Equal(got, []node.ID{1}) {
		t.Fatalf("late ELECTION: ANSWER to %v", got)
	}
	if got := nodetest.Targets(effs, MsgCoordinator); !slices.Equal(got, []node.ID{1, 2, 3, 4}) {
		t.Fatalf("late ELECTION: COORDINATOR to %v, want every lower id", got)
	}
}

func TestBullySilenceStartsElection(t *testing.T) {
	h := bullyHarness(t, 2, "none")
	h.Start()
	h.Deliver(5, node.Message{Type: MsgCoordinator})
	h.Advance(300 * time.Millisecond)
	h.Deliver(5, node.Message{Type: MsgHeartbeat}) // re-arms the watch
	if at, _ := h.Armed(timerWatch); at != 700*time.Millisecond {
		t.Fatalf("watch at %v, want 300ms + 400ms", at)
	}
	effs := h.Fire(timerWatch)
	if got := nodetest.Targets(effs, MsgElection); !slices.Equal(got, []node.ID{3, 4, 5}) {
		t.Fatalf("ELECTION to %v", got)
	}
	if st := h.Status(); st.Leader != node.None {
		t.Fatalf("still believes %v leads after its silence", st.Leader)
	}
}

func TestBullyRecoveredHighestBullies(t *testing.T) {
	h := bullyHarness(t, 5, "none")
	h.Start()
	h.Crash()
	effs := h.Recover()
	if got := nodetest.Targets(effs, MsgCoordinator); !slices.Equal(got, []node.ID{1, 2, 3, 4}) {
		t.Fatalf("revived highest sent COORDINATOR to %v", got)
	}
	if h.Status().Leader != 5 {
		t.Fatal("revived highest does not lead")
	}
}

func TestBullyReconcilesTwoCoordinators(t *testing.T) {
	// n2 leads a minority; n5's heartbeat reaches it after a heal.
	h := bullyHarness(t, 2, "none")
	h.Start()
	h.Request(Request)
	h.Fire(timerAnswer)
	if h.Status().Leader != 2 {
		t.Fatal("n2 should lead")
	}
	h.Deliver(5, node.Message{Type: MsgHeartbeat})
	if st := h.Status(); st.Leader != 5 || st.Role != "follower" {
		t.Fatalf("after n5's heartbeat: %+v", st)
	}
	if _, ok := h.Armed(timerBeat); ok {
		t.Fatal("a deposed coordinator keeps its heartbeat timer")
	}
	// And a lower id claiming to lead is bullied.
	effs := h.Deliver(1, node.Message{Type: MsgCoordinator})
	if got := nodetest.Targets(effs, MsgElection); !slices.Equal(got, []node.ID{3, 4, 5}) {
		t.Fatalf("lower coordinator: ELECTION to %v", got)
	}
}

func TestBullyParams(t *testing.T) {
	spec, _ := algos.Lookup("bully")
	for name, v := range map[string]any{"timeout": "0s", "heartbeat": "soon", "initiators": []any{"n9"}} {
		p, err := algos.NewParams(spec, map[string]any{name: v})
		if err == nil {
			_, err = spec.Build(algos.Config{IDs: nodetest.IDs(3), Params: p})
		}
		pe, ok := err.(*algos.ParamError)
		if !ok || pe.Name != name {
			t.Errorf("%s = %v: error %v, want a ParamError naming it", name, v, err)
		}
	}
}
