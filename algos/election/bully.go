package election

import (
	"slices"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Bully message types.
const (
	MsgElection    = "ELECTION"
	MsgAnswer      = "ANSWER"
	MsgCoordinator = "COORDINATOR"
	MsgHeartbeat   = "HEARTBEAT"
)

// Bully timers.
const (
	timerAnswer = "answer" // waiting for an ANSWER to our ELECTION
	timerCoord  = "coord"  // got an ANSWER, waiting for the COORDINATOR
	timerWatch  = "watch"  // the coordinator's silence that means it failed
	timerBeat   = "beat"   // the coordinator's heartbeat period
)

// Bully is Garcia-Molina's bully election (1982), as in the course notes
// ("algoritmo valentão"): the highest live id becomes coordinator.
//
//   - A process that suspects the coordinator, because it heard nothing from it for
//     `timeout`, sends ELECTION to every higher id.
//   - If no ANSWER comes within T = 2·t_trans + t_proc, it becomes coordinator and
//     sends COORDINATOR to every lower id.
//   - If an ANSWER comes, it waits for a COORDINATOR and starts again if none comes.
//   - A process that gets ELECTION from a lower id answers and starts its own
//     election, unless it already runs one ("um determinado processo só pode
//     convocar uma única eleição por vez").
//   - A revived process starts an election: with the highest id it takes over from a
//     working coordinator (the bullying).
//
// Messages carry nothing beyond their type and sender. Departures from the notes,
// each to make failures visible in a running lab rather than in a proof, or to keep
// the message count within the notes' O(N²):
//   - A process that heard or sent a COORDINATOR less than T ago answers an ELECTION
//     from a lower id without starting an election of its own. Such an ELECTION
//     crossed that COORDINATOR on the wire (it left before its sender could have
//     heard it, and arrives within 2·t_trans of it), so its sender is told already.
//     Restarting would re-run the whole election once per crossing ELECTION, and
//     the coordinator would announce itself once per lower id: with every process
//     starting at once and delays of 5–20ms that was 33,683 messages at N = 16
//     instead of N²−1 = 255 (N(N−1)/2 ELECTION, as many ANSWER, N−1 COORDINATOR),
//     and 64 processes never finished. An ELECTION that comes later is
//     answered as in the notes, so a coordinator still re-announces itself to a
//     process that missed it.
//   - After an ANSWER it waits 2T, not T, for the COORDINATOR. The process that
//     answered first runs its own election, which takes up to T, and its
//     COORDINATOR then needs one more transmission: with exactly T the deadline ties
//     with the COORDINATOR's arrival whenever delays are equal, and the election
//     restarts for nothing (the worst-case count test shows it).
//   - The coordinator sends HEARTBEAT to every other process every `heartbeat`, so
//     that the others notice its failure (the notes leave detection to "timeouts").
//   - A process that hears a COORDINATOR or HEARTBEAT from a lower id than its own
//     starts an election, and one that hears it from a higher id accepts that
//     coordinator, stepping down if it led. This is how two coordinators left by a
//     partition reconcile when it heals.
//   - A process that knows no coordinator after `timeout` starts an election, so a
//     cluster with no initiator still elects one.
//
// Option known_crash = true takes the notes' best case literally ("o processo com o
// segundo maior identificador percebe a falha do coordenador e elege-se
// imediatamente, e envia N − 2 mensagens coordinator"): a process whose timeout
// has declared the coordinator failed trusts that detection, as the synchronous
// model of the notes allows, and sends no ELECTION to it. If no other process is
// higher, it is the highest alive and elects itself at once: N−2 COORDINATOR and
// nothing else, where the default first sends an ELECTION to the dead coordinator
// and waits T (N−1 messages). A message from that process clears the belief.
//
// StableBully (registered as stable-bully) is the stable variant the notes 003 sketch
// ("Estabilidade": "associar ao peso do processo o tempo de execução ininterrupta
// do mesmo"): precedence is a process's uninterrupted uptime, then its id. Every
// message carries the sender's incarnation start time in Stamp (earlier = longer
// uptime = higher precedence), and each process keeps the latest start it heard
// from each other one (0, the start of the run, until it hears otherwise). A
// process that comes back has the shortest uptime of all, so it loses the election
// it calls instead of bullying its way back: a flapping process no longer takes the
// lead each time. At the start of a run everyone started at 0 and it is Bully.
type Bully struct {
	self        node.ID
	cfg         *bullyConfig
	leader      node.ID
	electing    bool
	answered    bool // an ANSWER came during the current election
	announced   bool // a COORDINATOR was heard or sent, at announcedAt
	announcedAt time.Duration
	elections   int64
	down        node.ID         // known_crash: the coordinator this process's timeout declared failed
	since       time.Duration   // stable: this incarnation's start
	starts      []time.Duration // stable: the latest start heard from each process, env.Peers() order
	counters    [1]node.Counter
}

type bullyConfig struct {
	heartbeat, timeout, t time.Duration
	initiator             func(node.ID) bool
	knownCrash            bool
	stable                bool
}

// above reports whether q takes precedence over this process: a higher id, or for
// stable-bully a longer uninterrupted uptime (an earlier start), then a higher id.
func (b *Bully) above(env *node.Env, q node.ID) bool {
	if b.cfg.stable {
		sq := b.starts[slices.Index(env.Peers(), q)]
		if sq != b.since {
			return sq < b.since
		}
	}
	return q > b.self
}

// send sends a message of type typ, stamped with this incarnation's start for
// stable-bully.
func (b *Bully) send(env *node.Env, to node.ID, typ string) {
	m := node.Message{Type: typ}
	if b.cfg.stable {
		m.Stamp = node.Micros(b.since)
	}
	env.Send(to, m)
}

// Step reacts to one event.
func (b *Bully) Step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start:
		b.starts = make([]time.Duration, len(env.Peers()))
		env.After(b.cfg.timeout, timerWatch)
		if b.cfg.initiator(b.self) {
			b.startElection(env)
		}
	case node.Recover:
		b.since = env.Now()
		b.starts = make([]time.Duration, len(env.Peers()))
		b.starts[slices.Index(env.Peers(), b.self)] = b.since
		b.startElection(env)
	case node.Request:
		if ev.Name == Request {
			b.startElection(env)
		}
	case node.Timer:
		b.timer(env, ev.Name)
	case node.Deliver:
		b.deliver(env, ev.From, ev.Msg)
	}
}

func (b *Bully) timer(env *node.Env, name string) {
	switch name {
	case timerAnswer:
		b.becomeCoordinator(env)
	case timerCoord:
		b.electing = false
		b.startElection(env)
	case timerWatch:
		// The coordinator has been silent for `timeout`: it is taken for failed.
		if b.cfg.knownCrash {
			b.down = b.leader
		}
		b.leader = node.None
		b.startElection(env)
	case timerBeat:
		if b.leader == b.self {
			for _, p := range env.Peers() {
				if p != b.self {
					b.send(env, p, MsgHeartbeat)
				}
			}
			env.After(b.cfg.heartbeat, timerBeat)
		}
	}
}

func (b *Bully) deliver(env *node.Env, from node.ID, m node.Message) {
	if from == b.down {
		b.down = node.None // it is alive after all
	}
	if b.cfg.stable {
		b.starts[slices.Index(env.Peers(), from)] = time.Duration(m.Stamp) * time.Microsecond
	}
	switch m.Type {
	case MsgElection:
		if !b.above(env, from) {
			b.send(env, from, MsgAnswer)
			if !b.justAnnounced(env) {
				b.startElection(env)
			}
		}
	case MsgAnswer:
		if b.electing && !b.answered {
			b.answered = true
			env.Cancel(timerAnswer)
			env.After(2*b.cfg.t, timerCoord)
		}
	case MsgCoordinator, MsgHeartbeat:
		if !b.above(env, from) {
			// A lower process claims to lead while this one lives: bully it.
			b.startElection(env)
			return
		}
		if m.Type == MsgCoordinator {
			b.announce(env)
		}
		b.follow(env, from)
	}
}

// announce notes that a COORDINATOR was heard or sent now.
func (b *Bully) announce(env *node.Env) {
	b.announced, b.announcedAt = true, env.Now()
}

// justAnnounced reports whether a COORDINATOR was heard or sent less than T ago.
func (b *Bully) justAnnounced(env *node.Env) bool {
	return b.announced && env.Now()-b.announcedAt < b.cfg.t
}

// follow accepts q as coordinator.
func (b *Bully) follow(env *node.Env, q node.ID) {
	b.leader = q
	b.electing, b.answered = false, false
	env.Cancel(timerAnswer)
	env.Cancel(timerCoord)
	env.Cancel(timerBeat)
	env.After(b.cfg.timeout, timerWatch)
}

func (b *Bully) startElection(env *node.Env) {
	if b.electing {
		return
	}
	b.electing, b.answered = true, false
	b.elections++
	env.Cancel(timerWatch)
	higher := 0
	for _, p := range env.Peers() {
		if p != b.self && p != b.down && b.above(env, p) {
			b.send(env, p, MsgElection)
			higher++
		}
	}
	if higher == 0 {
		b.becomeCoordinator(env)
		return
	}
	env.After(b.cfg.t, timerAnswer)
}

func (b *Bully) becomeCoordinator(env *node.Env) {
	b.leader = b.self
	b.electing, b.answered = false, false
	env.Cancel(timerCoord)
	env.Cancel(timerWatch)
	b.announce(env)
	for _, p := range env.Peers() {
		if p != b.self && !b.above(env, p) {
			b.send(env, p, MsgCoordinator)
		}
	}
	env.After(b.cfg.heartbeat, timerBeat)
}

// Status reports the role ("leader", "candidate" while an election runs, else
// "follower"), the believed coordinator and the elections this process started.
func (b *Bully) Status() node.Status {
	role := "follower"
	if b.electing {
		role = "candidate"
	}
	b.counters[0] = node.Counter{Name: "elections", Value: b.elections}
	return node.Status{Role: roleFor(b.self, b.leader, role), Leader: b.leader, Counters: b.counters[:]}
}

// Deadline is the timer running: the coordinator's silence that means it failed
// (a follower's), or during an election the wait for an ANSWER, then for the
// COORDINATOR. A coordinator has none.
func (b *Bully) Deadline(due func(string) (time.Duration, bool)) node.Deadline {
	for _, t := range [...]struct {
		name, what string
		len        time.Duration
	}{{timerWatch, "leader", b.cfg.timeout}, {timerAnswer, "election", b.cfg.t}, {timerCoord, "election", 2 * b.cfg.t}} {
		if at, ok := due(t.name); ok {
			return node.Deadline{For: t.what, At: at, Len: t.len}
		}
	}
	return node.Deadline{}
}

func init() {
	algos.Register(algos.Spec{
		Name:        "bully",
		Family:      algos.Election,
		Theory:      bullyTheory,
		Description: "Bully election: the highest live id becomes coordinator and bullies its way back after a crash",
		Source:      srcGarciaMolina,
		Messages:    []string{MsgElection, MsgAnswer, MsgCoordinator, MsgHeartbeat},
		Params:      bullyParams,
		Build:       bullyBuild(false),
	})
	algos.Register(algos.Spec{
		Name:        "stable-bully",
		Family:      algos.Election,
		Description: "Bully by uninterrupted uptime, then id: a process that comes back loses instead of bullying its way back",
		Source:      `course notes 003, "Estabilidade"; Garcia-Molina 1982`,
		Messages:    []string{MsgElection, MsgAnswer, MsgCoordinator, MsgHeartbeat},
		Params:      bullyParams,
		Build:       bullyBuild(true),
	})
}

var bullyParams = []algos.Param{
	{Name: "heartbeat", Default: "100ms", Doc: "how often the coordinator sends HEARTBEAT", Min: "1µs"},
	{Name: "timeout", Default: "400ms", Doc: "silence from the coordinator after which it is taken for failed", Min: "1µs"},
	{Name: "t_trans", Default: "25ms", Doc: "T_trans, the longest transmission time; T = 2·T_trans + T_proc"},
	{Name: "t_proc", Default: "5ms", Doc: "T_proc, the longest time to handle a message"},
	initiatorsParam("all", "by default every process starts one, and the highest id wins at once"),
	{Name: "known_crash", Default: "false", Doc: "true: a process whose timeout declared the coordinator failed sends it no ELECTION; the highest one alive elects itself at once (the notes' best case, N−2 COORDINATOR)"},
}

// bullyBuild builds bully (stable = false) or stable-bully.
func bullyBuild(stable bool) func(c algos.Config) (node.Factory, error) {
	return func(c algos.Config) (node.Factory, error) {
		cfg := &bullyConfig{stable: stable}
		var err error
		for _, f := range []struct {
			name string
			d    *time.Duration
		}{{"heartbeat", &cfg.heartbeat}, {"timeout", &cfg.timeout}} {
			if *f.d, err = c.Params.Duration(f.name); err != nil {
				return nil, err
			}
		}
		trans, err := c.Params.Duration("t_trans")
		if err != nil {
			return nil, err
		}
		proc, err := c.Params.Duration("t_proc")
		if err != nil {
			return nil, err
		}
		if cfg.t = 2*trans + proc; cfg.t <= 0 {
			return nil, &algos.ParamError{Name: "t_trans", Msg: "T = 2·t_trans + t_proc must be > 0"}
		}
		if cfg.initiator, err = initiatorSet(c); err != nil {
			return nil, err
		}
		if cfg.knownCrash, err = c.Params.Bool("known_crash"); err != nil {
			return nil, err
		}
		return func(id node.ID) node.Algorithm { return &Bully{self: id, cfg: cfg} }, nil
	}
}
