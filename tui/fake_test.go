package tui

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// fake is a Controller that serves synthetic snapshots: a bully-like cluster where
// the highest live id in each partition group leads. It records Do calls and folds
// their effects through trace.State, as the real world does.
type fake struct {
	mu     sync.Mutex
	hdr    trace.Header
	log    []trace.Event // every event emitted, for fakeReplay
	st     *trace.State
	snap   *trace.Snapshot
	ids    []node.ID
	family string
	t      int64
	seq    uint64
	mid    uint64
	term   int64
	split  uint64 // the Seq of the open split-brain alert, or 0

	up     map[node.ID]bool
	group  map[node.ID]int
	iso    map[node.ID]bool
	leader map[node.ID]node.ID

	paused bool
	speed  float64
	rec    string
	calls  []string
	steps  int
}

func newFake(n int, algo, family string) *fake {
	ids := make([]node.ID, n)
	for i := range ids {
		ids[i] = node.ID(i + 1)
	}
	info := trace.Info{
		Name: algo + "-demo", Algorithm: algo, Family: family, IDs: ids, Topology: "mesh",
		Latency: "uniform 5ms 20ms", Loss: 0.01, Dup: 0, Delta: 50_000, GST: 10_000_000, Until: 60_000_000,
		Description: "A synthetic " + algo + " cluster for the dashboard's tests. The highest live id in each group leads; crash it and watch the next one take over.",
	}
	hdr := trace.Header{Info: info}
	f := &fake{hdr: hdr, st: trace.NewState(hdr), ids: ids, family: family, speed: 1,
		up: map[node.ID]bool{}, group: map[node.ID]int{}, iso: map[node.ID]bool{}, leader: map[node.ID]node.ID{}}
	for _, id := range ids {
		f.up[id] = true
	}
	f.elect()
	f.publish()
	return f
}

// logNodes bounds the fakes that keep every event for a fakeReplay: replays are
// tested on small clusters, and a log of a thousand nodes' traffic takes gigabytes.
const logNodes = 64

func (f *fake) emit(e trace.Event) {
	f.seq++
	e.Seq, e.T = f.seq, f.t
	f.st.Apply(&e)
	if len(f.ids) <= logNodes {
		f.log = append(f.log, e)
	}
}

func (f *fake) publish() { f.snap = f.st.Snapshot() }

// reach reports whether a message from a can reach b.
func (f *fake) reach(a, b node.ID) bool {
	return f.up[b] && !f.iso[a] && !f.iso[b] && f.group[a] == f.group[b]
}

// elect makes the highest live reachable id every live node's leader, emitting
// status events, and raises split-brain when two lead.
func (f *fake) elect() {
	changed := false
	for _, id := range f.ids {
		if !f.up[id] {
			continue
		}
		best := id
		for _, o := range f.ids {
			if o > best && f.up[o] && f.reach(id, o) {
				best = o
			}
		}
		if f.leader[id] != best {
			changed = true
		}
		f.leader[id] = best
	}
	if changed {
		f.term++
	}
	for _, id := range f.ids {
		if !f.up[id] {
			continue
		}
		st := node.Status{Role: "follower", Leader: f.leader[id], Term: f.term}
		if f.leader[id] == id {
			st.Role = "leader"
		} else {
			// a follower's timer on its leader, as bully reports it, 2s long
			now := time.Duration(f.t) * time.Microsecond
			st.Deadline = node.Deadline{For: "leader", At: now + 2*time.Second, Len: 2 * time.Second}
		}
		switch f.family {
		case "detector":
			for _, o := range f.ids {
				if o != id && !f.up[o] {
					st.Suspects = append(st.Suspects, o)
				}
			}
			st.Counters = []node.Counter{{Name: "timeout_ms", Value: 100 + int64(id)*10}, {Name: "mistakes", Value: int64(id % 2)}}
			now := time.Duration(f.t) * time.Microsecond
			st.Deadline = node.Deadline{For: "suspicion", At: now + time.Duration(1000+200*int(id))*time.Millisecond, Len: 2 * time.Second}
		case "mutex":
			st.Role, st.Leader, st.Term, st.Deadline = "", node.None, 0, node.Deadline{}
			st.CS = node.CSReleased
			if id == 2 {
				st.CS = node.CSHeld
			}
			if id == 3 {
				st.CS = node.CSWanted
			}
			st.Counters = f.mutexCounters(id)
			if f.hdr.Info.Algorithm == "tokenring" && id == 2 {
				st.Role = "holder"
			}
		}
		f.emit(trace.Event{Ev: trace.StatusEv, Node: id, Status: &st})
	}
	var leaders []node.ID
	for _, id := range f.ids {
		if f.up[id] && f.leader[id] == id {
			leaders = append(leaders, id)
		}
	}
	if changed && len(leaders) > 1 && f.split == 0 {
		f.emit(trace.Event{Ev: trace.Alert, Kind: "split-brain", Text: fmt.Sprintf("%d live nodes lead at once: %v", len(leaders), leaders)})
		f.split = f.seq
	}
	if len(leaders) <= 1 && f.split != 0 {
		how := "no leader"
		if len(leaders) == 1 {
			how = "one leader " + leaders[0].String()
		}
		f.emit(trace.Event{Ev: trace.AlertCleared, Kind: "split-brain", Ref: f.split, Text: how})
		f.split = 0
	}
}

// mutexCounters are what the fake's mutual-exclusion algorithm reports, shaped as
// the real ones do: a token and its generation (tokenring), votes out of a voting
// set and the vote given (maekawa), a queue and a request stamp (lamport), the
// requests deferred and the replies got of those needed (ricart).
func (f *fake) mutexCounters(id node.ID) []node.Counter {
	cs := []node.Counter{{Name: "entries", Value: int64(id) % 3}}
	switch f.hdr.Info.Algorithm {
	case "tokenring":
		cs = append(cs, node.Counter{Name: "token_gen", Value: 1})
	case "maekawa":
		votes := int64(0)
		if id == 2 {
			votes = 3
		}
		if id == 3 {
			votes = 1
		}
		cs = append(cs, node.Counter{Name: "votes", Value: votes}, node.Counter{Name: "voted_for", Value: 2}, node.Counter{Name: "set_size", Value: 3})
	case "ricart":
		// n2 holds and defers n3's request; n3 waits with 3 of its 4 replies.
		ts, queue := int64(0), int64(0)
		if id == 2 || id == 3 {
			ts = int64(id) + 4
		}
		if id == 2 {
			queue = 1
		}
		cs = append(cs, node.Counter{Name: "req_ts", Value: ts}, node.Counter{Name: "queue", Value: queue})
		if id == 3 {
			cs = append(cs, node.Counter{Name: "replies", Value: 3}, node.Counter{Name: "needed", Value: 4})
		}
	case "lamport":
		ts := int64(0)
		if id == 2 || id == 3 {
			ts = int64(id) + 4
		}
		cs = append(cs, node.Counter{Name: "req_ts", Value: ts}, node.Counter{Name: "queue", Value: 2})
	}
	return cs
}

// traffic advances time by 100ms: each live node heartbeats every other one.
func (f *fake) traffic(rounds int) {
	for r := 0; r < rounds; r++ {
		for _, a := range f.ids {
			if !f.up[a] {
				continue
			}
			for _, b := range f.peers(a) {
				if int(a+b)%3 != int(f.t/100_000)%3 {
					continue
				}
				f.t += 1000
				f.mid++
				typ := "HEARTBEAT"
				if f.leader[a] == a && b%2 == 0 {
					typ = "COORDINATOR"
				}
				msg := node.Message{Type: typ, ID: a, Term: f.term}
				f.emit(trace.Event{Ev: trace.Send, From: a, To: b, MID: f.mid, Msg: &msg})
				switch {
				case !f.up[b]:
					f.emit(trace.Event{Ev: trace.Drop, From: a, To: b, MID: f.mid, Msg: &msg, Reason: trace.ReasonDown})
				case !f.reach(a, b):
					f.emit(trace.Event{Ev: trace.Drop, From: a, To: b, MID: f.mid, Msg: &msg, Reason: trace.ReasonPartition})
				case f.mid%17 == 0:
					f.emit(trace.Event{Ev: trace.Drop, From: a, To: b, MID: f.mid, Msg: &msg, Reason: trace.ReasonLoss})
				default:
					f.emit(trace.Event{Ev: trace.Deliver, From: a, To: b, MID: f.mid, Msg: &msg})
				}
			}
		}
		f.t = (f.t/100_000 + 1) * 100_000
	}
}

// fanout bounds the peers a node heartbeats, so that a fake of hundreds of nodes
// makes thousands of events per round, not hundreds of thousands.
const fanout = 16

// peers is every other node in a small cluster, and the next fanout ids in ring
// order in a large one.
func (f *fake) peers(a node.ID) []node.ID {
	n := len(f.ids)
	i := slices.Index(f.ids, a)
	k := min(n-1, fanout)
	out := make([]node.ID, 0, k)
	for j := 1; j <= k; j++ {
		out = append(out, f.ids[(i+j)%n])
	}
	if n-1 <= fanout {
		slices.Sort(out)
	}
	return out
}

func (f *fake) Snapshot() *trace.Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snap
}

func (f *fake) Do(cmd string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, err := netsim.ParseAction(cmd, f.ids)
	if err != nil {
		return err
	}
	f.calls = append(f.calls, cmd)
	f.t += 1000
	switch a.Verb {
	case "crash":
		if f.up[a.Node] {
			f.up[a.Node] = false
			f.emit(trace.Event{Ev: trace.Crash, Node: a.Node})
			f.elect()
		}
	case "recover":
		if !f.up[a.Node] {
			f.up[a.Node] = true
			f.leader[a.Node] = node.None
			f.emit(trace.Event{Ev: trace.Recover, Node: a.Node, Inc: 2})
			f.elect()
		}
	case "partition":
		clear(f.group)
		for g, ids := range a.Groups {
			for _, id := range ids {
				f.group[id] = g + 1
			}
		}
		f.emit(trace.Event{Ev: trace.Partition, Groups: a.Groups})
		f.elect()
	case "isolate":
		f.iso[a.Node] = true
		f.emit(trace.Event{Ev: trace.Isolate, Node: a.Node})
		f.elect()
	case "heal":
		clear(f.group)
		clear(f.iso)
		f.emit(trace.Event{Ev: trace.Heal})
		f.elect()
	case "slow":
		f.emit(trace.Event{Ev: trace.Knob, Name: "slow", Node: a.Node, Value: strconv.Itoa(a.Factor)})
	case "gst":
		f.emit(trace.Event{Ev: trace.GST})
	case "marker":
		f.emit(trace.Event{Ev: trace.Marker, Text: a.Text})
	case "request":
		f.emit(trace.Event{Ev: trace.Request, Node: a.Node, Name: a.What})
	case "set":
		f.emit(trace.Event{Ev: trace.Knob, Name: a.Knob, Value: strconv.FormatFloat(a.Value, 'g', -1, 64)})
	}
	f.traffic(1)
	f.publish()
	return nil
}

func (f *fake) SetPaused(p bool) { f.mu.Lock(); f.paused = p; f.mu.Unlock() }
func (f *fake) Paused() bool     { f.mu.Lock(); defer f.mu.Unlock(); return f.paused }
func (f *fake) Step() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.steps++
	f.traffic(1)
	f.publish()
}
func (f *fake) SetSpeed(x float64) { f.mu.Lock(); f.speed = x; f.mu.Unlock() }
func (f *fake) Speed() float64     { f.mu.Lock(); defer f.mu.Unlock(); return f.speed }
func (f *fake) Recording() string  { f.mu.Lock(); defer f.mu.Unlock(); return f.rec }
func (f *fake) ToggleRecording() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.rec != "" {
		name := f.rec
		f.rec = ""
		return name, nil
	}
	f.rec = "clusterlab-fake-1.jsonl"
	return f.rec, nil
}

func (f *fake) Steps() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.steps
}

func (f *fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// scenario builds a deterministic synthetic history: traffic, a marker, a crash of
// the leader, a partition with a split brain, and more traffic.
func scenario(n int, algo, family string) *fake {
	f := newFake(n, algo, family)
	f.traffic(12)
	must(f.Do(`marker "n` + strconv.Itoa(n) + ` is about to crash: watch who notices first"`))
	f.traffic(5)
	must(f.Do("crash n" + strconv.Itoa(n)))
	f.traffic(8)
	var a, b []string
	for i := 1; i < n; i++ {
		if i <= (n-1)/2 {
			a = append(a, "n"+strconv.Itoa(i))
		} else {
			b = append(b, "n"+strconv.Itoa(i))
		}
	}
	if len(a) > 0 && len(b) > 0 {
		must(f.Do("partition " + join(a) + " | " + join(b)))
	}
	must(f.Do("slow n1 10"))
	f.traffic(10)
	f.publish()
	return f
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// inFlight emits the send of a message from a to b that is not delivered yet.
func (f *fake) inFlight(a, b int, typ string) {
	f.mid++
	msg := node.Message{Type: typ, ID: node.ID(a), Term: f.term}
	f.emit(trace.Event{Ev: trace.Send, From: node.ID(a), To: node.ID(b), MID: f.mid, Msg: &msg})
}
