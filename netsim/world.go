package netsim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// proc is one process slot: it outlives incarnations, and holds what survives a crash
// (stable storage, the random source) and what the world knows of it.
type proc struct {
	id     node.ID
	idx    int
	up     bool
	inc    uint32 // runtime incarnation: 1, then +1 per revival
	slow   int
	runner *node.Runner
	env    *node.Env
	store  node.Storage
	status node.Status
	batch  node.Batch
	pos    int     // merge cursor into batch.Out
	item   int32   // merge cursor into batch.Items, when merging in pop order
	timers []int32 // queued timer firing by timer id: its timer-queue slot + 1, or 0
	// With an interrupt set: what the process's last step of a kind made, its
	// outcome and the messages it sent, by kind (see fanOf); 0 not known yet.
	fan []int

	isolated bool
	group    int
}

// World is one simulated cluster. It is not safe for concurrent use: one goroutine
// drives it (the headless runner, or Live).
//
// The run is defined as if events were handled one at a time in (time, sequence)
// order, every new event taking the next sequence number. For speed the world hands
// each process all its events inside a window no message can cross (the lookahead,
// the smallest possible link delay), lets the processes run in parallel, and merges
// their outcomes back in that order; see node.Batch. Config.Sequential turns the
// windows off, and the determinism tests check that the trace is the same.
type World struct {
	cfg   Config
	procs []*proc
	index map[node.ID]int
	dense bool // IDs are 1..N in order, so a process's index is its id - 1
	nbrs  [][]node.ID
	adj   [][]int32 // topology: each process's neighbours' indices, sorted; nil for a full mesh

	now time.Duration
	seq uint64
	// clamped counts the messages drawn slower than Δ after GST and delivered in Δ.
	clamped int
	mid     uint64
	shards  []shard     // the queued events, by process (see shard)
	sched   []scheduled // script actions and expectations, by time
	next    int
	// The generated script actions (Config.Generated): the next one, as a
	// scheduled entry (genNext) while there is one (genOK).
	gen     ActionSource
	genHead Timed
	genNext scheduled
	genOK   bool

	rng *rand.Rand // the network's source

	net       Net
	gstAt     time.Duration // Never until known
	sync      bool
	cuts      map[[2]int]bool
	held      []heldLink // held links, in the order they were held (see message.go)
	heldN     int        // the messages they hold
	swizzles  uint64     // swizzles so far, for their draws
	links     map[[2]int]Link
	lookahead time.Duration

	sink    trace.Sink
	filler  trace.Filler // the sink, when it lends its storage
	tev     trace.Event
	tmsg    node.Message // the message of the event in tev: see fill
	lineSeq uint64

	counts  counts
	alerts  alertLog
	mon     *monitors
	results []Result
	actions []Timed // user actions, for the recording

	limit   int             // the event-storm guard's limit on pending events
	budget  atomic.Int64    // what the current window may still make (node.Batch.Budget)
	err     error           // why the run stopped early (an event storm), or nil
	drops   []qev           // this window's deliveries dropped on arrival, of every shard
	heads   []*proc         // the merge's heap, kept to reuse its memory
	active  []*proc         // the window's processes with work, kept likewise
	here    []*proc         // those whose batches the world runs itself, likewise
	planned []time.Duration // plan's, likewise
	// Windows whose end plan brought forward, and whose shards two goroutines
	// took: for the tests.
	capped, shared int
	wg             sync.WaitGroup
	ins            inserter // see inserter.go
	merging        bool     // a merge is under way…
	pushed         int      // …and has queued this many messages
	closed         bool
	halted         atomic.Bool // see Halt

	// Whether the run has handled something at its instant, now: then whatever of
	// the instant is still queued comes after where it stands (see Position).
	inside bool
	// The live dashboard's (see SetInterrupt).
	interrupt func() bool
	cutWork   int // cutWork, but for tests
}

type scheduled struct {
	at     time.Duration
	before uint64 // a user action's place inside its instant (Timed.Before)
	class  int    // at one place: script actions, then expectations, then user actions
	action *Action
	expect *Expectation
	by     string // who takes a script-class action: "" for the script, bySwizzle
}

// key is where the entry comes among events and checks: before those keyed from
// it on.
func (s *scheduled) key() hkey { return hkey{at: s.at, seq: s.before} }

// userClass is the class of user actions, the last at their instant.
const userClass = 2

// New builds the world and starts every process (their Start events are at time 0).
// Events go to sink (nil for none).
func New(cfg Config, sink trace.Sink) (*World, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := needWorld(cfg); err != nil {
		return nil, err
	}
	w := &World{cfg: cfg, index: map[node.ID]int{}, net: cfg.Net, sink: sink,
		cuts: map[[2]int]bool{}, links: map[[2]int]Link{}, gstAt: Never}
	w.filler, _ = sink.(trace.Filler)
	w.rng = rand.New(rand.NewPCG(cfg.Seed, 0x6e6574776f726b)) // "network"
	w.shards = make([]shard, 1)
	if len(cfg.IDs) >= shardFrom {
		w.shards = make([]shard, 2)
	}
	for i := range w.shards {
		sh := &w.shards[i]
		sh.tq.h.track = true
		sh.q.pooled()
		sh.tq.pool = &tevPages
	}
	w.limit = cfg.maxPending()
	for i, id := range cfg.IDs {
		if _, dup := w.index[id]; dup {
			return nil, fmt.Errorf("node %v appears twice", id)
		}
		w.index[id] = i
	}
	w.dense = true
	for i, id := range cfg.IDs {
		if id != node.ID(i+1) {
			w.dense = false
			break
		}
	}
	if err := w.buildTopology(); err != nil {
		return nil, err
	}
	for _, l := range cfg.Links {
		a, ok1 := w.index[l.From]
		b, ok2 := w.index[l.To]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("link %v->%v names an unknown node", l.From, l.To)
		}
		w.links[[2]int{a, b}] = l
	}
	switch {
	case cfg.Net.GST == 0:
		w.sync, w.gstAt = true, 0
	case cfg.Net.GST > 0:
		w.gstAt = cfg.Net.GST
		gst := Action{Verb: "gst"}
		w.sched = append(w.sched, scheduled{at: cfg.Net.GST, action: &gst})
	}
	for i := range cfg.Script {
		w.sched = append(w.sched, scheduled{at: cfg.Script[i].At, action: &cfg.Script[i].Action})
	}
	if cfg.FaultsEnd != nil {
		// After the script's actions of its instant, as if it were the last of them.
		w.sched = append(w.sched, scheduled{at: *cfg.FaultsEnd, action: &restoreAction, by: byEnd})
	}
	for i := range cfg.Expect {
		if !cfg.Expect[i].atEnd {
			w.sched = append(w.sched, scheduled{at: cfg.Expect[i].At, class: 1, expect: &cfg.Expect[i]})
		}
	}
	for i := range cfg.UserActions {
		u := &cfg.UserActions[i]
		w.sched = append(w.sched, scheduled{at: u.At, before: u.Before, class: userClass, action: &u.Action})
	}
	// Stable: at one place each class keeps its order. A user action applied live
	// at instant T came after everything scheduled up to T, and before any event
	// at T (or, with Before, before the event so numbered); replayed, it must come
	// at the same place.
	sort.SliceStable(w.sched, func(i, j int) bool { return w.sched[i].precedes(&w.sched[j]) })
	if cfg.Generated != nil {
		w.gen = cfg.Generated()
		w.nextGenerated()
	}
	w.mon = newMonitors(w)
	w.updateLookahead()
	for i, id := range cfg.IDs {
		p := &proc{id: id, idx: i, up: true, inc: 1, slow: 1}
		// One source per process, split from the master seed.
		rng := rand.New(rand.NewPCG(cfg.Seed, 0x70726f63<<20|uint64(i)))
		p.env = node.NewEnv(id, cfg.IDs, w.nbrs[i], rng, &p.store)
		p.env.SetIndex(i)
		p.env.SetLookup(w.indexOf)
		p.runner = node.NewRunner(id, cfg.Factory(id), p.env)
		w.procs = append(w.procs, p)
		w.push(qev{kind: qStart, to: int32(i), inc: 1})
	}
	return w, nil
}

func (w *World) buildTopology() error {
	n := len(w.cfg.IDs)
	w.nbrs = make([][]node.ID, n)
	g := edgeSet{}
	switch w.cfg.Topology {
	case "", "mesh":
		for i := range w.nbrs {
			w.nbrs[i] = make([]node.ID, 0, n-1)
			for j, id := range w.cfg.IDs {
				if j != i {
					w.nbrs[i] = append(w.nbrs[i], id)
				}
			}
		}
		return nil
	case "ring":
		for i := 0; i < n && n > 1; i++ {
			g.add(i, (i+1)%n)
		}
	case "graph":
		if len(w.cfg.Edges) > 0 {
			for _, e := range w.cfg.Edges {
				a, ok1 := w.index[e[0]]
				b, ok2 := w.index[e[1]]
				if !ok1 || !ok2 || a == b {
					return fmt.Errorf("edge %v-%v is not between two of the scenario's nodes", e[0], e[1])
				}
				g.add(a, b)
			}
		} else {
			randomGraph(g, n, w.cfg.Degree, rand.New(rand.NewPCG(w.cfg.Seed, 0x746f706f))) // "topo"
		}
	default:
		return fmt.Errorf("unknown topology %q", w.cfg.Topology)
	}
	w.adj = g.lists(n)
	for i, js := range w.adj {
		w.nbrs[i] = make([]node.ID, len(js))
		for k, j := range js {
			w.nbrs[i][k] = w.cfg.IDs[j]
		}
	}
	return nil
}

// edgeSet holds undirected edges between process indices while a topology is built.
type edgeSet map[uint64]struct{}

func edgeKey(a, b int) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(b)
}

// add inserts the edge and reports whether it was new.
func (g edgeSet) add(a, b int) bool {
	k := edgeKey(a, b)
	if _, ok := g[k]; ok {
		return false
	}
	g[k] = struct{}{}
	return true
}

// lists turns the set into sorted adjacency lists; the order never depends on the
// map's, since every list is sorted.
func (g edgeSet) lists(n int) [][]int32 {
	deg := make([]int32, n)
	for k := range g {
		deg[k>>32]++
		deg[k&0xffffffff]++
	}
	adj := make([][]int32, n)
	for i := range adj {
		adj[i] = make([]int32, 0, deg[i])
	}
	for k := range g {
		a, b := int32(k>>32), int32(k&0xffffffff)
		adj[a] = append(adj[a], b)
		adj[b] = append(adj[b], a)
	}
	for _, l := range adj {
		slices.Sort(l)
	}
	return adj
}

// randomGraph makes a connected graph on n processes: a random spanning tree, then
// random extra edges until the mean degree reaches degree.
func randomGraph(g edgeSet, n, degree int, r *rand.Rand) {
	if n < 2 {
		return
	}
	perm := r.Perm(n)
	for k := 1; k < n; k++ {
		g.add(perm[k], perm[r.IntN(k)])
	}
	want := degree * n / 2
	if maxEdges := n * (n - 1) / 2; want > maxEdges {
		want = maxEdges
	}
	edges := n - 1
	for tries := 0; edges < want && tries < 100*n*n; tries++ {
		a, b := r.IntN(n), r.IntN(n)
		if a != b && g.add(a, b) {
			edges++
		}
	}
}

// linked reports whether the topology joins processes a and b.
func (w *World) linked(a, b int) bool {
	if w.adj == nil {
		return true
	}
	l := w.adj[a]
	if len(l) <= 16 {
		for _, j := range l {
			if int(j) == b {
				return true
			}
		}
		return false
	}
	_, ok := slices.BinarySearch(l, int32(b))
	return ok
}

// indexOf is the index of the process with the given id.
func (w *World) indexOf(id node.ID) (int, bool) {
	if w.dense {
		i := int(id) - 1
		return i, i >= 0 && i < len(w.cfg.IDs)
	}
	i, ok := w.index[id]
	return i, ok
}

// Edges lists the topology's edges (each once, lower index first); nil on a mesh.
func (w *World) Edges() [][2]node.ID {
	if w.adj == nil {
		return nil
	}
	var out [][2]node.ID
	for i, js := range w.adj {
		for _, j := range js {
			if int(j) > i {
				out = append(out, [2]node.ID{w.cfg.IDs[i], w.cfg.IDs[j]})
			}
		}
	}
	return out
}

// Close stops every process goroutine. The world cannot run afterwards.
func (w *World) Close() {
	if w.closed {
		return
	}
	w.closed = true
	w.ins.stop()
	for _, p := range w.procs {
		if p.up {
			p.runner.Stop()
			p.up = false
		}
	}
	// Nothing runs after Close: what was queued is gone.
	for i := range w.shards {
		sh := &w.shards[i]
		sh.q.release()
		sh.tq.slots.release()
		sh.tq.h = heap4{track: true}
	}
}

// Now is the virtual time.
func (w *World) Now() time.Duration { return w.now }

// Config is the world's scenario.
func (w *World) Config() *Config { return &w.cfg }

func (w *World) push(e qev) {
	w.seq++
	e.seq = w.seq
	if w.full() {
		return
	}
	sh := w.shardOf(e.to)
	if w.ins.on || w.merging && w.handOver() {
		w.ins.add(sh.q.pack(&e))
		return
	}
	sh.q.push(e)
}

// armTimer queues a timer firing. Re-arming a timer that is still queued moves the
// queued firing instead of leaving a stale one behind: the process would ignore the
// stale firing anyway, and heartbeat detectors re-arm on every message.
func (w *World) armTimer(p *proc, at time.Duration, id int32, gen uint32) {
	w.seq++
	tq := &w.shardOf(int32(p.idx)).tq
	if int(id) < len(p.timers) && p.timers[id] > 0 {
		tq.move(p.timers[id]-1, at, w.seq, gen)
		return
	}
	if w.full() {
		return
	}
	for int(id) >= len(p.timers) {
		p.timers = append(p.timers, 0)
	}
	p.timers[id] = tq.push(at, w.seq, tev{proc: int32(p.idx), id: id, gen: gen, inc: p.inc}) + 1
}

// forgetTimer notes that the firing in slot left the queue.
func (w *World) forgetTimer(t *tev, slot int32) {
	p := w.procs[t.proc]
	if int(t.id) < len(p.timers) && p.timers[t.id] == slot+1 {
		p.timers[t.id] = 0
	}
}

func (w *World) proc(id node.ID) *proc {
	i, ok := w.indexOf(id)
	if !ok {
		i = 0 // actions are checked against the scenario's ids before they get here
	}
	return w.procs[i]
}

// updateLookahead recomputes the smallest delay a message between two processes can
// have under the current settings.
func (w *World) updateLookahead() {
	la := w.net.Delta
	floor := func(l Latency) {
		if f := l.Floor(); f < la {
			la = f
		}
	}
	floor(w.net.Latency)
	if !w.sync {
		floor(w.net.PreLatency)
	}
	for _, l := range w.links {
		if l.Latency != nil {
			floor(*l.Latency)
		}
	}
	if la < 0 {
		la = 0
	}
	w.lookahead = la
}

// headKey is the key of the next queued event or timer firing, or nil.
func (w *World) headKey() *hkey {
	k, _, _ := w.head()
	return k
}

// precedes orders scheduled entries: by place, then by class.
func (s *scheduled) precedes(o *scheduled) bool {
	switch {
	case s.at != o.at:
		return s.at < o.at
	case s.before != o.before:
		return s.before < o.before
	}
	return s.class < o.class
}

// nextKey is the key of the next queued event or monitor check.
func (w *World) nextKey() (hkey, bool) {
	k, ok := hkey{}, false
	if h := w.headKey(); h != nil {
		k, ok = *h, true
	}
	if c, has := w.mon.next(); has && (!ok || c.before(&k)) {
		k, ok = c, true
	}
	return k, ok
}

// nextTime is the time of the next queued event or monitor check.
func (w *World) nextTime() (time.Duration, bool) {
	k, ok := w.nextKey()
	return k.at, ok
}

// schedDue reports whether the next scheduled entry is at or before limit and
// comes before every queued event and check.
func (w *World) schedDue(limit hkey) bool {
	s := w.schedHead()
	if s == nil {
		return false
	}
	k, ok := w.nextKey()
	return w.schedBefore(s, &limit, &k, ok)
}

// schedBefore is schedDue for the scheduled entry s, with the next event or
// check's key k (ok: there is one).
func (w *World) schedBefore(s *scheduled, limit, k *hkey, ok bool) bool {
	return !earlier(limit.at, limit.seq, s.at, s.before) && (!ok || !earlier(k.at, k.seq, s.at, s.before))
}

// schedHead is the next scheduled entry, nil if none is left: the next of sched, or the
// next generated action when it comes first (it comes after sched's at one place
// and class, as if it had been appended to the script).
func (w *World) schedHead() *scheduled {
	var s *scheduled
	if w.next < len(w.sched) {
		s = &w.sched[w.next]
	}
	if w.genOK && (s == nil || w.genNext.precedes(s)) {
		return &w.genNext
	}
	return s
}

// nextGenerated draws the next generated action, if any.
func (w *World) nextGenerated() {
	w.genHead, w.genOK = w.gen.Next()
	w.genNext = scheduled{at: w.genHead.At, action: &w.genHead.Action}
}

// RunUntil runs every scheduled action and expectation up to and including t and
// every event before t, then sets the clock to t.
func (w *World) RunUntil(t time.Duration) { w.RunTo(t, 0) }

// RunTo runs what comes before the place (t, before), then sets the clock to t.
// With before 0 that is RunUntil(t). With before > 0 it also runs the events of
// instant t numbered below before, and stops inside that instant: where a user
// action was taken there (see Position).
//
// With an interrupt set (SetInterrupt), it may return earlier, inside an instant.
func (w *World) RunTo(t time.Duration, before uint64) {
	t = t.Truncate(time.Microsecond)
	stop := hkey{at: t, seq: before}
	for !w.closed && w.err == nil && !w.halted.Load() {
		k, ok := w.nextKey()
		s := w.schedHead()
		if s != nil && w.schedBefore(s, &stop, &k, ok) {
			w.runScheduled()
			continue
		}
		if !ok || !k.before(&stop) {
			break
		}
		te, lim := k.at, stop
		end := te + w.lookahead
		if w.cfg.Sequential {
			end = te
		}
		if s != nil {
			if s.at < end {
				end = s.at
			}
			if sk := s.key(); sk.before(&lim) {
				lim = sk
			}
		}
		if end > t {
			end = t
		}
		until, inside := w.window(te, end, w.cfg.Sequential, lim)
		if w.interrupt != nil && w.interrupt() {
			// Where the run stands, inside an instant, or between instants
			// with everything before until handled: as RunUntil(until) leaves
			// it, what is scheduled at until done.
			if !inside && until > w.now {
				w.now, w.inside = until, false
				for w.schedDue(hkey{at: until}) {
					w.runScheduled()
				}
			}
			return
		}
	}
	if t > w.now && w.err == nil && !w.halted.Load() {
		w.now, w.inside = t, false
	}
}

// SetInterrupt makes RunTo, and RunUntil, return after the window under way when
// interrupt returns true, with windows that stop inside an instant when the
// instant is big (a thousand processes that broadcast at once make a million
// messages): the live dashboard's, so that a key need not wait for the whole
// instant, or for a step of many windows. Where the windows stop never changes the trace; a user action
// taken there is recorded with its place (Position), and replayed at it.
func (w *World) SetInterrupt(interrupt func() bool) {
	w.interrupt, w.cutWork = interrupt, cutWork
}

// FinishInstant runs the rest of the instant the run stopped inside, if it did (see
// Position), whatever the interrupt says, and sets the clock past it: a recording
// ends between instants, where a re-run to its end stops too.
func (w *World) FinishInstant() {
	if _, before := w.Position(); before != 0 {
		w.RunWhole(w.now + time.Microsecond)
	}
}

// RunWhole is RunUntil(t) whatever the interrupt says: for the dashboard's step
// key, which handles the next instant whole.
func (w *World) RunWhole(t time.Duration) {
	in := w.interrupt
	w.interrupt = nil
	w.RunUntil(t)
	w.interrupt = in
}

// Position is where the run stands: at Now and, when it has handled some of that
// instant, before the next event (or monitor check) of it, numbered before, or
// after everything numbered so far when none of it is left; else 0, before
// anything of the instant. RunTo(Position()) brings a re-run
// of the same scenario and user actions to the same place, however its windows
// fall: every event, wherever it is handled, has the number it would have if
// events were handled one at a time.
func (w *World) Position() (at time.Duration, before uint64) {
	if !w.inside {
		return w.now, 0
	}
	if k, ok := w.nextKey(); ok && k.at == w.now {
		return w.now, k.seq
	}
	// Inside an instant with nothing of it left: a message action (hold, drop,
	// delay) took its last events out of the queue. The place is after everything
	// numbered so far, where a re-run has handled the same events of the instant
	// and no others; 0 would put an action taken here before the instant, and so
	// before the message action that emptied it.
	return w.now, w.seq + 1
}

// Halt stops the run at the end of the window under way: RunUntil and Step do
// nothing more. A sink may call it, from any goroutine, once it has seen what it
// needs (verify's comparer at a difference).
func (w *World) Halt() { w.halted.Store(true) }

// NextTime is when the next event, scheduled action or check is due.
func (w *World) NextTime() (time.Duration, bool) {
	t, ok := w.nextTime()
	if s := w.schedHead(); s != nil && (!ok || s.at < t) {
		return s.at, true
	}
	return t, ok
}

// Step handles the next scheduled action or the next event, whichever comes first,
// and reports whether there was one.
func (w *World) Step() bool {
	if w.err != nil || w.halted.Load() {
		return false
	}
	if w.schedDue(endOfTime) {
		w.runScheduled()
		return true
	}
	te, hasEv := w.nextTime()
	if !hasEv {
		return false
	}
	w.window(te, te, true, endOfTime)
	return true
}

func (w *World) runScheduled() {
	s := *w.schedHead()
	if s.action == &w.genHead.Action {
		a := w.genHead.Action // the next draw takes its place
		s.action = &a
		w.nextGenerated()
	} else {
		w.next++
	}
	if s.at > w.now {
		w.now, w.inside = s.at, false
	}
	switch {
	case s.class == userClass:
		w.Do(*s.action)
	case s.action != nil:
		by := s.by
		if by == "" {
			by = "script"
		}
		w.apply(*s.action, by, 0)
	default:
		w.checkExpect(s.expect)
	}
}

func (w *World) checkExpect(e *Expectation) {
	r := e.check(w)
	w.results = append(w.results, r)
	ok := r.OK
	w.emit(trace.Event{Ev: trace.Expect, Text: e.Text, Value: r.Got, OK: &ok})
}

// Finish checks the expectations that have no time, at the current instant, and
// returns every result.
func (w *World) Finish() []Result {
	for i := range w.cfg.Expect {
		if w.cfg.Expect[i].atEnd {
			w.checkExpect(&w.cfg.Expect[i])
		}
	}
	return w.results
}

// Do applies a user action now and records it, with its place (Position).
func (w *World) Do(a Action) {
	at, before := w.Position()
	w.actions = append(w.actions, Timed{At: at, Before: before, Action: a})
	w.apply(a, "user", before)
}

// Replay adds user actions to those of Config.UserActions, to be applied at their
// places exactly as if they had been there from the start, to a world that has
// not yet run through those places: verify hands its re-run the actions of a
// recording as its first reading finds them. An action at or before the instant
// the world has reached (or, inside it, before where it stopped) is refused, with
// none of ts added: the run could no longer be the one the action belongs to.
func (w *World) Replay(ts []Timed) error {
	at, before := w.Position()
	for _, t := range ts {
		if t.At < at || t.At == at && (before == 0 || t.Before < before) {
			return fmt.Errorf("user action %q at %v comes too late: the world is at %v", t.Action, t.At, w.now)
		}
	}
	for _, t := range ts {
		s := scheduled{at: t.At, before: t.Before, class: userClass, action: &t.Action}
		// After everything due before its place, or at its place in an earlier
		// class, and after the user actions already there: as New sorts them.
		rest := w.sched[w.next:]
		i := sort.Search(len(rest), func(k int) bool { return s.precedes(&rest[k]) })
		w.sched = slices.Insert(w.sched, w.next+i, s)
	}
	return nil
}

// UserActions lists the user actions applied so far.
func (w *World) UserActions() []Timed { return w.actions }

// window hands out every event in [t0, end) (only those at t0 when single or when end
// == t0) that comes before lim, runs the processes in parallel and merges their
// outcomes.
//
// A window may stop inside an instant: before lim, the place of a user action
// replayed there, or, with an interrupt set, once the events it took of one
// instant are expected to make cutWork (and it ends between instants at four times
// that in all, which leaves room for the processes to run in parallel: see
// inlineBelow). Its end is then that instant, so that the processes handle nothing
// of it themselves (node.Batch.End), and only the monitor checks before the cut
// run; the events of the instant made in the window come after the cut, as their
// numbers do. So the trace is the same wherever windows stop.
//
// It returns its end, before which everything is handled (if it did not stop
// inside an instant, and end > t0), and whether it stopped inside an instant.
func (w *World) window(t0, end time.Duration, single bool, lim hkey) (until time.Duration, stopped bool) {
	if t0 > w.now {
		w.now = t0
	}
	var cut *hkey
	phase(phaseTake)
	for i := range w.shards {
		sh := &w.shards[i]
		sh.q.advance(t0)
		sh.drops, sh.order, sh.next, sh.active = sh.drops[:0], sh.order[:0], 0, sh.active[:0]
	}
	// Whether the window may stop before its end: else (a headless run, a place
	// of 0) the loop below spends nothing on it. Events before end are before lim.
	bounded := lim.seq > 0 || w.interrupt != nil
	if !bounded && !single {
		// Each shard takes its events before end, the end planned so that the
		// window takes about windowCap of them at most.
		var n int
		end, n = w.plan(t0, end)
		w.takeShards(t0, end, n)
	} else {
		end, cut = w.takeInOrder(t0, end, single, lim)
	}
	if end < t0 || single {
		end = t0
	}
	active := w.active[:0]
	w.drops = w.drops[:0]
	for i := range w.shards {
		active = append(active, w.shards[i].active...)
		w.drops = append(w.drops, w.shards[i].drops...)
	}
	if len(w.shards) > 1 && len(w.shards[0].drops) > 0 && len(w.shards[1].drops) > 0 {
		sortQueued(w.drops)
	}
	phase(phaseDispatch)
	w.dispatch(active, end)
	phase(phaseMerge)
	if w.overflowed(active) {
		clear(active)
		w.active = active[:0]
		for i := range w.shards {
			w.shards[i].delivered = w.shards[i].delivered[:0]
		}
		return end, false
	}
	w.merging, w.pushed = true, 0
	w.merge(active, t0, end, single, cut)
	w.merging = false
	w.finishInserter()
	for i := range w.shards {
		w.shards[i].addDelivered(&w.counts)
	}
	phase(phaseDone)
	if w.interrupt != nil {
		w.learn(active)
	}
	for _, p := range active {
		p.batch.Shrink()
	}
	clear(active)
	w.active = active[:0]
	if cut != nil {
		w.now = max(w.now, cut.at)
	}
	w.inside = true
	return end, cut != nil
}

// takeInOrder takes the window's events one at a time in the world's order, from
// whichever shard holds the next: for a window that may stop before its end
// (inside an instant, at a user action's place, or once the interrupt's share of
// work is taken; see window), or that takes a single event. It returns the
// window's end, and where it stopped inside an instant, if it did.
func (w *World) takeInOrder(t0, end time.Duration, single bool, lim hkey) (time.Duration, *hkey) {
	var cut *hkey
	// work: what the events taken are expected to make; here: of that, what those
	// of the instant last make.
	popped, last, work, here := 0, t0, 0, 0
	bounded := lim.seq > 0 || w.interrupt != nil
	for {
		h, sh, timer := w.head()
		if h == nil || !(h.at < end || h.at == t0) {
			break
		}
		if bounded {
			if h.at > last {
				here = 0
			}
			if !h.before(&lim) || w.interrupt != nil && (here >= w.cutWork && h.at == last || work >= 4*w.cutWork) {
				if popped > 0 && h.at == last {
					k := *h
					cut = &k
				}
				end = h.at
				break
			}
		}
		if popped >= windowCap && h.at > last {
			// A smaller window, as if the lookahead were shorter: everything
			// taken is before its end. It bounds the batches' memory when a
			// thousand processes broadcast at the same instant.
			end = h.at
			break
		}
		popped, last = popped+1, h.at
		p, it := w.take(sh, timer)
		if w.interrupt != nil {
			k := 1
			if p != nil {
				k = w.expected(p, &it)
			}
			work, here = work+k, here+k
		}
		if p != nil {
			w.shardOf(int32(p.idx)).hand(p, it)
		}
		if single {
			break
		}
	}
	return end, cut
}

// endOfTime is a place after every other.
var endOfTime = hkey{at: math.MaxInt64, seq: math.MaxUint64}

// expected is what the process's step of it is expected to make, its outcome and
// the messages it sends: what its last step of that kind made, or, the first time,
// a broadcast's worth, so that a window stops early rather than late. (By kind, and
// by process: a heartbeat detector's heartbeat timer broadcasts, its check timer
// sends nothing.)
func (w *World) expected(p *proc, it *node.Item) int {
	if f := *p.fanOf(it); f > 0 {
		return f
	}
	return 1 + len(w.procs)
}

// learn notes what each step of the window made, for expected: its outcome and
// the messages it sent.
func (w *World) learn(active []*proc) {
	for _, p := range active {
		for i := range p.batch.Out {
			o := &p.batch.Out[i]
			made := 1
			for _, e := range p.batch.Effects[o.EffLo:o.EffHi] {
				switch {
				case e.Kind == node.EffBroadcast:
					made += len(w.procs) - 1
				case e.Kind == node.EffSend && !e.Local && e.To != p.id:
					made++
				}
			}
			*p.fanOf(p.batch.ItemOf(o)) = made
		}
	}
}

// fanOf is where the process keeps what its last step of it made: one place for
// each timer (by id), one for everything else.
func (p *proc) fanOf(it *node.Item) *int {
	k := 0
	if it.Ev.Kind == node.Timer {
		k = 1 + int(it.Timer)
	}
	for k >= len(p.fan) {
		p.fan = append(p.fan, 0)
	}
	return &p.fan[k]
}

// windowCap is how many events a window takes at most (more at one instant). (A
// variable for the tests, which bring it down to small worlds' windows.)
var windowCap = 1 << 16

// cutWork is how much a window of a world with an interrupt is expected to make,
// in outcomes and messages sent, of one instant before it stops inside it: about
// 50 ms of merging on this lab's reference machine, which a key waits at most
// where an instant holds a million messages. Smaller windows cost the world its
// speed: the inserter only takes a merge's messages after handOverAfter of them.
// The 1,000-node mesh as the dashboard runs it (BenchmarkWorldMesh1000/
// P2-dashboard) did 0.78–0.86 of the headless rate with 1 << 15, 0.90–0.92 with
// 1 << 16, and 0.89–1.11 with this; its key to screen (BenchmarkKeyToScreen1000)
// was 4–5 ms with 1 << 15 and 15–35 ms with this.
const cutWork = 1 << 17

// inlineBelow is the window size, in events, under which the world handles a window
// itself. Handing a batch to a process's goroutine wakes it on another core, and
// the batch and its outcome then move between the cores' caches, which the merge
// pays for in the world's goroutine: the steps are about a fifth of a window's
// work, the pops and the merge the rest. Measured on 2 cores, a 64-node mesh's
// windows of about 4,000 events ran 15–20 % faster handled here than handed out
// (BenchmarkWorldAllToAll), a 16-node recording's 25 % (BenchmarkTrace/plain);
// only the windows of meshes of hundreds of nodes, tens of thousands of events,
// are worth handing out.
const inlineBelow = 1 << 15

// dispatch has every active process handle its batch. The processes' goroutines
// run in parallel while the world handles a share of the batches itself instead of
// waiting; a small window, or a run with one processor, it handles alone. Who runs a
// batch never changes its outcome.
func (w *World) dispatch(active []*proc, end time.Duration) {
	total := 0
	for _, p := range active {
		p.batch.End, p.batch.Slow, p.pos, p.item = end, p.slow, 0, 0
		p.batch.Budget = &w.budget
		total += len(p.batch.Items)
	}
	// A window may make as many outcomes and effects as events may be pending:
	// each takes about as much memory as a pending event, and a run that makes
	// that many in one window is a storm whatever the limit.
	w.budget.Store(int64(max(w.limit, budgetFloor)))
	cpus := runtime.GOMAXPROCS(0)
	here := w.here[:0]
	switch {
	case w.cfg.HandOut:
		for _, p := range active {
			w.wg.Add(1)
			p.runner.Submit(&p.batch, &w.wg)
		}
	case cpus == 1 || total < inlineBelow:
		here = append(here, active...)
	default:
		// Batches too small to be worth a handover run here, and so do big
		// ones until the world has its share.
		own, share := 0, total/cpus
		for _, p := range active {
			if n := len(p.batch.Items); n < minHandover {
				own += n
			}
		}
		for _, p := range active {
			n := len(p.batch.Items)
			switch {
			case n < minHandover:
				here = append(here, p)
			case own < share:
				own += n
				here = append(here, p)
			default:
				w.wg.Add(1)
				p.runner.Submit(&p.batch, &w.wg)
			}
		}
	}
	for _, p := range here {
		p.runner.Run(&p.batch)
	}
	w.wg.Wait()
	clear(here)
	w.here = here[:0]
}

// minHandover is the smallest batch, in events, handed to a process's goroutine.
const minHandover = 8

// classify decides what a popped event is: work for a process (returned), a drop on
// arrival (kept for the merge), or a firing for a dead incarnation (forgotten).
func (w *World) classify(sh *shard, e *qev) *proc {
	p := w.procs[e.to]
	alive := p.up && p.inc == e.inc
	switch e.kind {
	case qDeliver:
		if !alive {
			sh.drops = append(sh.drops, *e)
			return nil
		}
		if !e.local {
			if reason := w.blocked(int(e.from), int(e.to)); reason != "" {
				e.name = reason
				sh.drops = append(sh.drops, *e)
				return nil
			}
		}
	default:
		if !alive {
			return nil
		}
	}
	return p
}

func (w *World) item(e *qev) node.Item {
	it := node.Item{At: e.at, Seq: e.seq, Ref: e.mid}
	switch e.kind {
	case qStart:
		it.Ev = node.Event{Kind: node.Start}
	case qRecover:
		it.Ev = node.Event{Kind: node.Recover}
	case qDeliver:
		it.Ev = node.Event{Kind: node.Deliver, From: w.cfg.IDs[e.from], Msg: e.msg}
		if e.dup {
			it.Gen = 1 // marks the copy for the trace; Gen means nothing to deliveries
		}
	case qRequest:
		it.Ev = node.Event{Kind: node.Request, Name: e.name}
	}
	return it
}

// merge walks every process's outcomes, the arrival drops and the monitors' checks
// in (time, sequence) order, applying effects as it goes.
func (w *World) merge(active []*proc, t0, end time.Duration, single bool, cut *hkey) {
	// When no process made events for itself inside the window, every outcome is
	// of an item, and the items were taken in (time, sequence) order: w.order is
	// the order of the outcomes (an item whose timer went stale has none). Else a
	// min-heap of the processes by their next outcome orders them. A process's
	// head only changes when it is taken, and any sequence number it needs was
	// given by an earlier outcome of the same process, so the heap stays valid.
	inOrder := true
	for _, p := range active {
		if len(p.batch.Locals) > 0 {
			inOrder = false
			break
		}
	}
	h := w.heads[:0]
	if !inOrder {
		for _, p := range active {
			if len(p.batch.Out) > 0 {
				h = append(h, p)
			}
		}
		heapify(h)
	}
	d := 0
	for {
		var best *proc
		var from *shard
		var bestAt time.Duration
		var bestSeq uint64
		if inOrder {
			best, from = w.nextInOrder()
		} else if len(h) > 0 {
			best = h[0]
		}
		if best != nil {
			o := &best.batch.Out[best.pos]
			bestAt, bestSeq = o.At, o.Seq
		}
		if d < len(w.drops) && (best == nil || w.drops[d].at < bestAt || (w.drops[d].at == bestAt && w.drops[d].seq < bestSeq)) {
			w.dropOnArrival(&w.drops[d])
			d++
			continue
		}
		if c, ok := w.mon.due(bestAt, bestSeq, best != nil, t0, end, single, cut); ok {
			w.mon.run(c)
			continue
		}
		if best == nil {
			break
		}
		o := &best.batch.Out[best.pos]
		best.pos++
		w.outcome(best, o)
		switch {
		case inOrder:
			best.item++
			from.next++
		case best.pos < len(best.batch.Out):
			siftDown(h, 0)
		default:
			n := len(h) - 1
			h[0] = h[n]
			h = h[:n]
			siftDown(h, 0)
		}
	}
	w.heads = h[:0]
}

// nextInOrder is the process whose outcome comes next when the outcomes follow the
// window's items (each shard's order from its cursor), and its shard; it passes
// over the items that had no outcome.
func (w *World) nextInOrder() (*proc, *shard) {
	var best *proc
	var from *shard
	for i := range w.shards {
		sh := &w.shards[i]
		p := w.nextOf(sh)
		if p != nil && (best == nil || outBefore(&p.batch.Out[p.pos], &best.batch.Out[best.pos])) {
			best, from = p, sh
		}
	}
	return best, from
}

// nextOf is the process whose outcome comes next in the shard's order, from its
// cursor, which it moves past the items that had no outcome; nil at its end.
func (w *World) nextOf(sh *shard) *proc {
	for ; sh.next < len(sh.order); sh.next++ {
		p := w.procs[sh.order[sh.next]]
		if p.pos < len(p.batch.Out) && p.batch.Out[p.pos].Item == p.item {
			return p
		}
		p.item++
	}
	return nil
}

func headBefore(a, b *proc) bool { return outBefore(&a.batch.Out[a.pos], &b.batch.Out[b.pos]) }

func heapify(h []*proc) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
}

func siftDown(h []*proc, i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && headBefore(h[r], h[l]) {
			m = r
		}
		if !headBefore(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func outBefore(a, b *node.Outcome) bool {
	if a.At != b.At {
		return a.At < b.At
	}
	return a.Seq < b.Seq
}

func (w *World) dropOnArrival(e *qev) {
	reason := e.name
	if reason == "" {
		reason = trace.ReasonDown
	}
	w.now = max(w.now, e.at)
	w.counts.drop(e.msg.Type, reason)
	if !w.untraced() {
		ev := w.message(trace.Drop, w.cfg.IDs[e.from], w.cfg.IDs[e.to], e.mid, &e.msg)
		ev.Reason, ev.Dup = reason, e.dup
		w.filled(ev)
	}
}

// outcome applies one step's results.
//
// A delivery was counted when it was taken (see shard.hand). Untraced, a delivery
// or a timer firing reads nothing of its item.
func (w *World) outcome(p *proc, o *node.Outcome) {
	w.now = o.At
	switch o.Kind {
	case node.Deliver:
		if !w.untraced() {
			it := p.batch.ItemOf(o)
			e := w.message(trace.Deliver, it.Ev.From, p.id, it.Ref, &it.Ev.Msg)
			e.Local, e.Dup = it.Ev.From == p.id, it.Gen == 1
			w.filled(e)
		}
	case node.Timer:
		if !w.untraced() {
			e, _ := w.fill(trace.TimerEv)
			e.Node, e.Name = p.id, p.batch.ItemOf(o).Ev.Name
			w.filled(e)
		}
	case node.Request:
		w.emit(trace.Event{Ev: trace.Request, Node: p.id, Name: p.batch.ItemOf(o).Ev.Name})
	}
	effs := p.batch.Effects[o.EffLo:o.EffHi]
	for i := range effs {
		e := &effs[i]
		switch {
		case e.Local:
			// Handled inside the window: the event gets its sequence number now,
			// exactly when one-at-a-time handling would have queued it.
			w.seq++
			if e.Outcome >= 0 {
				p.batch.Out[e.Outcome].Seq = w.seq
			}
		case e.Kind == node.EffTimer:
			w.armTimer(p, o.At+e.Delay, e.Timer, e.Gen)
		case e.Kind == node.EffSend && e.To == p.id:
			w.push(qev{at: o.At, kind: qDeliver, local: true, to: int32(p.idx), from: int32(p.idx), inc: p.inc, msg: e.Msg})
		case e.Kind == node.EffSend:
			w.route(p, e.To, e.Msg)
		case e.Kind == node.EffBroadcast:
			for _, to := range w.cfg.IDs {
				if to != p.id {
					w.route(p, to, e.Msg)
				}
			}
		case e.Kind == node.EffLog:
			w.emit(trace.Event{Ev: trace.Log, Node: p.id, Text: e.Name})
		}
	}
	if ns := p.batch.StatusOf(o); ns != nil {
		old := p.status
		p.status = *ns
		st := *ns
		w.emit(trace.Event{Ev: trace.StatusEv, Node: p.id, Status: &st})
		w.mon.status(p, old)
	}
}

// route puts a message on the network: it is counted and recorded as sent, then
// dropped (with its reason) or scheduled for delivery, perhaps twice.
func (w *World) route(p *proc, to node.ID, msg node.Message) {
	w.counts.send(msg.Type, msg.Size())
	w.mid++
	mid := w.mid
	if !w.untraced() {
		w.filled(w.message(trace.Send, p.id, to, mid, &msg))
	}
	ti, ok := w.indexOf(to)
	if !ok || !w.linked(p.idx, ti) {
		w.dropNow(p.id, to, mid, msg, trace.ReasonTopology)
		return
	}
	if reason := w.blocked(p.idx, ti); reason != "" {
		w.dropNow(p.id, to, mid, msg, reason)
		return
	}
	var link Link
	hasLink := false
	if len(w.links) > 0 {
		link, hasLink = w.links[[2]int{p.idx, ti}]
	}
	loss, dup, lat := w.net.Loss, w.net.Dup, w.net.Latency
	if !w.sync {
		loss, lat = w.net.PreLoss, w.net.PreLatency
	}
	if hasLink {
		if link.Loss != nil {
			loss = *link.Loss
		}
		if link.Dup != nil {
			dup = *link.Dup
		}
		if link.Latency != nil {
			lat = *link.Latency
		}
	}
	if loss > 0 && w.rng.Float64() < loss {
		w.dropNow(p.id, to, mid, msg, trace.ReasonLoss)
		return
	}
	copies := 1
	if dup > 0 && w.rng.Float64() < dup {
		copies = 2
	}
	for c := 0; c < copies; c++ {
		d := lat.Sample(w.rng)
		if w.sync && d > w.net.Delta {
			d = w.net.Delta
			w.clamped++ // the summary says how many (Config.AboveDelta: which latencies)
		}
		d *= time.Duration(p.slow)
		e := qev{at: w.now + d, kind: qDeliver, to: int32(ti), from: int32(p.idx), inc: w.procs[ti].inc, mid: mid, msg: msg, dup: c == 1}
		if len(w.held) > 0 && w.holding(&e) {
			continue
		}
		w.push(e)
	}
}

func (w *World) dropNow(from, to node.ID, mid uint64, msg node.Message, reason string) {
	w.counts.drop(msg.Type, reason)
	if !w.untraced() {
		e := w.message(trace.Drop, from, to, mid, &msg)
		e.Reason = reason
		w.filled(e)
	}
}

// blocked says why the network would not carry a message from a to b now, or "".
func (w *World) blocked(a, b int) string {
	pa, pb := w.procs[a], w.procs[b]
	if pa.isolated || pb.isolated || pa.group != pb.group {
		return trace.ReasonPartition
	}
	if len(w.cuts) > 0 && w.cuts[[2]int{a, b}] {
		return trace.ReasonCut
	}
	return ""
}

// untraced counts an event that no sink will see, and reports whether that is so:
// callers skip building the event (and copying its message to the heap), which is
// most of the cost of a headless run's hot path.
func (w *World) untraced() bool {
	if w.sink != nil {
		return false
	}
	w.lineSeq++
	return true
}

// fill starts the sink's next event, of kind ev, numbered and stamped with the
// current time, for a caller that has checked untraced: in the sink's own storage
// when it lends it (a trace.Filler), which saves copying the event twice, or else
// in the world's. m is the room for the event's message, to be set whole if it has
// one. The caller sets the rest and calls filled, with no other event between.
func (w *World) fill(ev string) (e *trace.Event, m *node.Message) {
	w.lineSeq++
	if w.filler != nil {
		e, m = w.filler.Fill()
	} else {
		w.tev = trace.Event{}
		e, m = &w.tev, &w.tmsg
	}
	e.Ev, e.Seq, e.T = ev, w.lineSeq, node.Micros(w.now)
	return e, m
}

// message fills the fields every event about a message has (see fill).
func (w *World) message(ev string, from, to node.ID, mid uint64, msg *node.Message) *trace.Event {
	e, m := w.fill(ev)
	*m = *msg
	e.From, e.To, e.MID, e.Msg = from, to, mid, m
	return e
}

// filled hands the event from fill to the sink.
func (w *World) filled(e *trace.Event) {
	if w.filler != nil {
		w.filler.Filled()
		return
	}
	w.sink.Record(e)
}

// emit numbers an event, stamps it with the current time and hands it to the sink.
func (w *World) emit(e trace.Event) {
	w.lineSeq++
	if w.sink == nil {
		return
	}
	e.Seq = w.lineSeq
	e.T = node.Micros(w.now)
	w.tev = e
	w.sink.Record(&w.tev)
}

// apply carries out an action now.
func (w *World) apply(a Action, by string, before uint64) {
	w.emit(trace.Event{Ev: trace.Action, Text: a.String(), By: by, Before: before})
	w.effect(a)
}

// effect does what action a does, without recording the action itself (its
// effects record themselves): apply's work, and each step of a restore.
func (w *World) effect(a Action) {
	switch a.Verb {
	case "crash":
		p := w.proc(a.Node)
		if !p.up {
			return
		}
		p.runner.Stop()
		p.up = false
		clear(p.timers) // the queued firings die with the incarnation
		old := p.status
		p.status = node.Status{}
		w.emit(trace.Event{Ev: trace.Crash, Node: p.id, Inc: int64(p.inc)})
		w.mon.crash(p, old)
		w.notice(p, algos.CrashedRequest(p.id))
	case "recover":
		p := w.proc(a.Node)
		if p.up {
			return
		}
		p.inc++
		p.up = true
		p.runner = node.NewRunner(p.id, w.cfg.Factory(p.id), p.env)
		w.emit(trace.Event{Ev: trace.Recover, Node: p.id, Inc: int64(p.inc)})
		w.push(qev{at: w.now, kind: qRecover, to: int32(p.idx), inc: p.inc})
		w.mon.recover(p)
		w.notice(p, algos.RecoveredRequest(p.id))
	case "partition":
		for _, p := range w.procs {
			p.group = 0
		}
		for g, ids := range a.Groups {
			for _, id := range ids {
				w.proc(id).group = g + 1
			}
		}
		w.emit(trace.Event{Ev: trace.Partition, Groups: a.Groups})
	case "cut":
		w.cuts[[2]int{w.index[a.Node], w.index[a.To]}] = true
		w.emit(trace.Event{Ev: trace.Cut, From: a.Node, To: a.To})
	case "isolate":
		w.proc(a.Node).isolated = true
		w.emit(trace.Event{Ev: trace.Isolate, Node: a.Node})
	case "heal":
		for _, p := range w.procs {
			p.group, p.isolated = 0, false
		}
		clear(w.cuts)
		w.emit(trace.Event{Ev: trace.Heal})
		w.releaseAll()
	case "slow":
		w.proc(a.Node).slow = a.Factor
		w.emit(trace.Event{Ev: trace.Knob, Name: "slow", Node: a.Node, Value: fmt.Sprint(a.Factor)})
	case "gst":
		if w.sync {
			return
		}
		w.sync, w.gstAt = true, w.now
		// After GST every message, including those already in flight, arrives
		// within Δ (the partially synchronous model of Dwork, Lynch and Stockmeyer).
		limit := w.now + w.net.Delta
		for i := range w.shards {
			w.shards[i].q.deliverBy(limit)
		}
		w.updateLookahead()
		w.emit(trace.Event{Ev: trace.GST})
		w.mon.gst()
	case "set":
		switch a.Knob {
		case "loss":
			w.net.Loss = a.Value
			if !w.sync {
				w.net.PreLoss = a.Value
			}
		case "dup":
			w.net.Dup = a.Value
		case "latency":
			w.net.Latency = a.Latency
			if !w.sync {
				w.net.PreLatency = a.Latency
			}
			w.updateLookahead()
		}
		val := fmt.Sprint(a.Value)
		if a.Knob == "latency" {
			val = a.Latency.String()
		}
		w.emit(trace.Event{Ev: trace.Knob, Name: a.Knob, Value: val})
	case "request":
		p := w.proc(a.Node)
		if p.up {
			w.push(qev{at: w.now, kind: qRequest, to: int32(p.idx), inc: p.inc, name: a.What})
		}
	case "marker":
		w.emit(trace.Event{Ev: trace.Marker, Text: a.Text})
	case "hold", "release", "drop", "delay", "deliver", "dup", "swizzle":
		w.applyMessage(a)
	case restoreVerb:
		w.restore()
	}
}

// notice plays the perfect failure detector P for the algorithms built on it
// (Config.CrashNotice): CrashNotice after p crashed or came back, every other live
// process is told; a revived p is told which processes are down.
func (w *World) notice(p *proc, what string) {
	d := w.cfg.CrashNotice
	if d <= 0 {
		return
	}
	for _, q := range w.procs {
		switch {
		case q == p && p.up:
			for _, r := range w.procs {
				if !r.up {
					w.push(qev{at: w.now + d, kind: qRequest, to: int32(p.idx), inc: p.inc, name: algos.CrashedRequest(r.id)})
				}
			}
		case q != p && q.up:
			w.push(qev{at: w.now + d, kind: qRequest, to: int32(q.idx), inc: q.inc, name: what})
		}
	}
}

// leaders lists the live processes that believe they lead.
func (w *World) leaders() []node.ID {
	var out []node.ID
	for _, p := range w.procs {
		if p.up && p.status.Leader == p.id {
			out = append(out, p.id)
		}
	}
	return out
}

// Deadline is process id's main timer (node.Deadliner) for a live dashboard's
// timeout bar, read from the timer queue; zero when the process is down or its
// algorithm has none. Call it between runs, as every other accessor.
func (w *World) Deadline(id node.ID) node.Deadline {
	i, ok := w.indexOf(id)
	if !ok || !w.procs[i].up || w.procs[i].runner == nil {
		return node.Deadline{}
	}
	p := w.procs[i]
	return p.runner.Deadline(func(name string) (time.Duration, bool) {
		tid, ok := p.env.LookupTimer(name)
		if !ok || int(tid) >= len(p.timers) || p.timers[tid] == 0 {
			return 0, false
		}
		at, gen := w.shardOf(int32(p.idx)).tq.due(p.timers[tid] - 1)
		return at, p.env.Armed(name, gen) // a cancelled timer leaves a stale firing
	})
}

// Status is a process's last reported status and whether it is up.
func (w *World) Status(id node.ID) (node.Status, bool) {
	p := w.proc(id)
	return p.status, p.up
}

// Synchronous reports whether GST has been reached.
func (w *World) Synchronous() bool { return w.sync }

// Events is the number of events recorded so far.
func (w *World) Events() uint64 { return w.lineSeq }
