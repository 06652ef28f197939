package election

import (
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/algos/detector"
	"github.com/clusterlab/clusterlab/node"
)

// Message types of the ring elections. ELECTED is shared by ring, franklin and
// yoyo: it announces the winner.
const (
	msgRingElection = "ELECTION"
	msgElected      = "ELECTED"
)

// keyEpoch is the stable-storage key under which ring, franklin and yoyo keep the
// number of the last election they took part in, so that a recovered process starts
// a newer one.
const keyEpoch = "epoch"

// epochs numbers the elections of ring, franklin and yoyo. The number lives in
// stable storage, so a user request can open a fresh election at any time and a
// recovered process knows which election it was in.
type epochs struct {
	epoch int64 // the current election
	floor int64 // a recovered process ignores the epochs up to this one
}

// recover reloads the epoch after a crash; the election it was in is sat out.
func (e *epochs) recover(env *node.Env) {
	e.epoch, _ = env.Load(keyEpoch)
	e.floor = e.epoch
}

// enter moves to epoch n and stores it.
func (e *epochs) enter(env *node.Env, n int64) {
	e.epoch = n
	env.Store(keyEpoch, n)
}

// stale reports whether a message of epoch n belongs to an older election, or to
// the one this incarnation sits out.
func (e *epochs) stale(n int64) bool { return n < e.epoch || n <= e.floor }

// Ring is the Chang-Roberts election on a unidirectional logical ring (E. Chang,
// R. Roberts, "An improved algorithm for decentralized extrema-finding in circular
// configurations of processes", CACM 22(5), 1979), as the course notes 001 and 004
// give it ("algoritmo de eleição baseado em anel"; "algoritmo de anillo"). The ring
// is env.Peers() in order: the successor of a process is the next one, wrapping. The
// highest id wins.
//
//   - To start an election a process marks itself participant and sends
//     ELECTION(own id) to its successor.
//   - On ELECTION(id): if id > own id, it marks itself participant and forwards the
//     message; if id < own id and it is not yet a participant, it marks itself
//     participant and sends ELECTION(own id) instead; if id < own id and it already
//     is a participant, it swallows the message; if id = own id, it has won: it
//     becomes non-participant, records itself as leader and sends ELECTED(own id).
//   - On ELECTED(id): it records id as leader, becomes non-participant and forwards
//     the message, unless id is its own: then ELECTED has gone round once and stops.
//
// With one initiator, the successor of the highest id, this costs N−1 ELECTION to
// reach the highest id, N more for that id to come round, and N ELECTED: 3N−1. With
// every process starting at once and ids decreasing along the ring, id k travels k
// hops before the highest id (a participant) swallows it and the highest id travels
// N: N(N+1)/2 ELECTION, Θ(N²).
//
// Messages: ELECTION and ELECTED carry the candidate or leader in ID and the epoch in
// Stamp.
//
// Departures from the notes, none of which changes a failure-free run or its
// message counts:
//   - Notes 001 always replace a smaller id; the participant flag that swallows it
//     is the rule of Chang & Roberts and of notes 004 (and of Coulouris et al.).
//   - Every election has an epoch number (kept in stable storage). Starting an
//     election, by being an initiator, by a user request or by recovering, opens
//     the next epoch; a message of a newer epoch makes a process join that epoch as
//     a non-participant, and messages of an older epoch are dropped. This is what
//     lets a user start a fresh election at any time (even while a process is stuck
//     as participant of an election that lost a message to a crash) and a
//     recovered process join again. An ELECTION of an epoch this process has already
//     decided that comes straight from its candidate (a recovered process that
//     missed the elections held while it was down), or an ELECTED of an older
//     epoch straight from its leader, makes this process start a newer one, which
//     the stale process then joins.
//   - A process keeps its last leader until an ELECTED replaces it (the notes reset
//     "eleito" to ⊥ when an election starts).
//   - A user request while participant starts a new epoch (the notes allow one
//     election per process at a time: the old one is abandoned).
//
// Without skip_suspected the algorithm tolerates no crash (notes 001: "não tolera
// falhas"): a message sent to a crashed process is lost and the election stalls
// until someone starts a new one. With skip_suspected = true (the notes' closing
// remark: "com um detector de falhas confiável, é possível reconstruir o anel")
// each process composes a ◊P detector from algos/detector (heartbeat-dp by
// default, or pull-dp; parameters detector, interval, timeout, delta) and:
//
//   - sends to the next successor the detector does not suspect;
//   - holds back an ELECTION whose candidate it suspects (unless the candidate
//     itself sent it: that proves it is up), and passes it on if the candidate is
//     trusted again;
//   - when its believed leader becomes suspected, forgets it and, if not a
//     participant, starts an election;
//   - when the highest candidate it has passed on in the current election becomes
//     suspected, starts a new election;
//   - when its successor changes, because the one it last sent to is now suspected
//     or one in between is trusted again, sends its last message (ELECTION or
//     ELECTED, if it still matters) again to the new successor: the old one may
//     have crashed before passing it on, and the one trusted again (a recovered
//     process, or a false suspicion) may have missed it;
//   - when its own id comes back after it has passed on a larger one (a falsely
//     suspected process was skipped), does not take it as a win; and when two
//     processes that falsely suspected each other both win one epoch, everyone
//     keeps the larger ELECTED;
//   - as a participant, arms a timer (`retry`, doubled for each epoch opened since
//     the last one it saw decided, up to 32×, with a random part drawn from the
//     process's own source): if the epoch is still undecided when it fires, starts
//     a newer one;
//   - as the leader, sends its ELECTED round the ring again every `retry`; every
//     process passes it on (a process that missed it learns the leader, one that
//     believes it leads an older epoch starts a newer election, see above).
//
// The last two make the ring converge whatever message was lost: a crash and
// recovery quicker than the detector's timeout loses a message without anyone
// suspecting anything, and before GST (or with loss set) the network loses some.
//
// The rules on the leader and the candidate act when a suspicion begins, not while
// it lasts: an ELECTION that its suspected candidate sent itself is passed on
// without starting anything. Without skip_suspected none of these rules exists:
// no detector, no timer.
//
// The detector's messages (HEARTBEAT, or TEST_REQ and TEST_REP) go to every
// process, so skip_suspected needs a topology where every process can reach every
// other (a mesh).
type Ring struct {
	self node.ID
	cfg  *ringConfig
	fd   detector.FD // nil unless skip_suspected

	epochs
	participant bool
	leader      node.ID
	best        node.ID // highest candidate this process sent in the current epoch
	lastTo      node.ID // where this process last sent, and what
	last        node.Message
	elections   int64
	retryFor    int64 // skip_suspected: the epoch the retry timer is armed for
	decided     int64 // skip_suspected: the last epoch this process saw decided (won, or its ELECTED accepted)
	refreshFor  int64 // skip_suspected: the epoch the leader's refresh timer is armed for

	counters []node.Counter
}

type ringConfig struct {
	skip      bool
	retry     time.Duration
	fd        detector.FDConfig
	initiator func(node.ID) bool
}

// skip_suspected's timers: a participant's retry, and the leader's refresh.
const (
	timerRetry   = "ring.retry"
	timerRefresh = "ring.refresh"
)

// Step reacts to one event.
func (r *Ring) Step(env *node.Env, ev node.Event) {
	r.step(env, ev)
	if r.fd == nil {
		return
	}
	// skip_suspected: a participant arms the retry timer for its epoch; a decided
	// process disarms it.
	switch {
	case r.participant && r.retryFor != r.epoch:
		r.retryFor = r.epoch
		d := r.cfg.retry<<r.backoff() + time.Duration(env.Rand().Int64N(int64(r.cfg.retry/2)+1))
		env.After(d, timerRetry)
	case !r.participant && r.retryFor != 0:
		r.retryFor = 0
		env.Cancel(timerRetry)
	}
	// The leader sends its ELECTED round again every `retry`.
	switch {
	case r.leader == r.self && !r.participant && r.refreshFor != r.epoch:
		r.refreshFor = r.epoch
		env.After(r.cfg.retry, timerRefresh)
	case (r.leader != r.self || r.participant) && r.refreshFor != 0:
		r.refreshFor = 0
		env.Cancel(timerRefresh)
	}
}

func (r *Ring) step(env *node.Env, ev node.Event) {
	switch ev.Kind {
	case node.Start:
		if r.fd != nil {
			r.fd.Start(env)
		}
		if r.cfg.initiator(r.self) {
			r.start(env)
		}
	case node.Recover:
		r.recover(env)
		if r.fd != nil {
			r.fd.Start(env)
		}
		r.start(env)
	case node.Request:
		if ev.Name == Request {
			r.start(env)
		}
	case node.Timer:
		switch {
		case r.fd == nil:
		case ev.Name == timerRetry:
			if r.participant {
				env.Logf("ring: election %d still undecided: start a newer one", r.epoch)
				r.start(env)
			}
			return
		case ev.Name == timerRefresh:
			if r.leader == r.self && !r.participant {
				r.send(env, node.Message{Type: msgElected, ID: r.self, Stamp: r.epoch})
				env.After(r.cfg.retry, timerRefresh)
			}
			return
		}
		if r.fd != nil {
			was := r.watched()
			if r.fd.Handle(env, ev) {
				r.react(env, was)
			}
		}
	case node.Deliver:
		if r.fd != nil {
			was := r.watched()
			if r.fd.Handle(env, ev) {
				r.react(env, was)
				return
			}
		}
		switch ev.Msg.Type {
		case msgRingElection:
			r.election(env, ev.From, ev.Msg)
		case msgElected:
			r.elected(env, ev.From, ev.Msg)
		}
	}
}

// backoff is the retry's doubling: one per epoch opened since the last one this
// process saw decided (or since its revival), at most 5. It counts epochs, which
// every process shares, not this process's own retries: on a ring whose election
// takes longer than `retry` (about 2N message delays: 6 s at N = 256 with 5–20ms
// links), every participant's timer would otherwise fire after `retry` in every
// epoch, some process would always open a newer one first, and no epoch would
// ever be decided.
func (r *Ring) backoff() int {
	return int(min(max(r.epoch-max(r.decided, r.floor)-1, 0), 5))
}

// start opens a new epoch with this process as participant and candidate.
func (r *Ring) start(env *node.Env) {
	r.enter(env, r.epoch+1)
	r.participant = true
	r.best = r.self
	r.elections++
	env.Logf("ring: start election %d", r.epoch)
	r.send(env, node.Message{Type: msgRingElection, ID: r.self, Stamp: r.epoch})
}

func (r *Ring) election(env *node.Env, from node.ID, m node.Message) {
	id, e := m.ID, m.Stamp
	if r.fd != nil && id != r.self && id != from && r.fd.Suspected(id) {
		env.Logf("ring: hold ELECTION(%v): candidate suspected", id)
		if e > r.epoch {
			r.enter(env, e)
			r.participant = false
			r.best = node.None
		}
		if e == r.epoch && id > r.self {
			// Not passed on (a dead candidate's id would go round for ever), but kept:
			// if the candidate is trusted again, it goes on (see react).
			r.lastTo, r.last = node.None, m
		}
		return
	}
	if e < r.epoch || (e == r.epoch && !r.participant) {
		// Stale: an older epoch, or one this process has already decided.
		if id == from && id != r.self && !r.participant {
			env.Logf("ring: %v missed election %d: start a newer one", from, r.epoch)
			r.start(env)
		}
		return
	}
	if e > r.epoch {
		r.enter(env, e)
		r.participant = false
		r.best = node.None
	}
	switch {
	case id > r.self:
		r.participant = true
		r.best = max(r.best, id)
		r.send(env, node.Message{Type: msgRingElection, ID: id, Stamp: e})
	case id < r.self:
		if r.participant {
			return // swallowed: this process's own, larger id is already on its way
		}
		r.participant = true
		r.best = max(r.best, r.self)
		r.send(env, node.Message{Type: msgRingElection, ID: r.self, Stamp: e})
	case r.participant && r.best == r.self:
		// Its own id came round: no process has a larger one. (With skip_suspected a
		// falsely suspected larger process may have been skipped; one that this
		// process has passed on, best > own id, stops its own id here.)
		r.participant = false
		r.leader, r.decided = r.self, e
		env.Logf("ring: elected in election %d", e)
		r.send(env, node.Message{Type: msgElected, ID: r.self, Stamp: e})
	}
}

func (r *Ring) elected(env *node.Env, from node.ID, m node.Message) {
	id, e := m.ID, m.Stamp
	if e < r.epoch && id == from && id != r.self && !r.participant {
		// Straight from a process that believes it leads an older epoch: it
		// missed the newer ones. Start a newer one, which it will join.
		env.Logf("ring: %v still leads election %d: start a newer one", from, e)
		r.start(env)
		return
	}
	again := e == r.epoch && !r.participant && r.leader == id
	if again && r.fd != nil && id != r.self && !r.fd.Suspected(id) {
		// skip_suspected: the leader's refresh (or a copy sent again) goes round.
		r.send(env, node.Message{Type: msgElected, ID: id, Stamp: e})
		return
	}
	if e < r.epoch || again || (e == r.epoch && !r.participant && r.leader > id) {
		// Stale, a duplicate, or the leader's own ELECTED back home. (With
		// skip_suspected two processes that falsely suspected each other may both
		// win one epoch; the larger is kept.)
		return
	}
	if e > r.epoch {
		r.enter(env, e)
	}
	r.participant = false
	r.leader, r.decided = id, e
	r.best = node.None
	if id != r.self {
		r.send(env, node.Message{Type: msgElected, ID: id, Stamp: e})
	}
}

// watched reports whether the detector suspects the leader and the best candidate,
// so that react sees which of them it newly suspects.
func (r *Ring) watched() [2]bool {
	return [2]bool{r.fd.Suspected(r.leader), r.fd.Suspected(r.best)}
}

// react applies the skip_suspected rules after the detector's view may have changed
// (was: what it suspected before).
func (r *Ring) react(env *node.Env, was [2]bool) {
	if r.leader != node.None && r.leader != r.self && !was[0] && r.fd.Suspected(r.leader) {
		env.Logf("ring: leader %v suspected", r.leader)
		r.leader = node.None
		if !r.participant {
			r.start(env)
			return
		}
	}
	if r.participant && r.best != node.None && r.best != r.self && !was[1] && r.fd.Suspected(r.best) {
		env.Logf("ring: candidate %v suspected", r.best)
		r.start(env)
		return
	}
	// The successor changed (the last one is suspected, or one in between is
	// trusted again): what was last passed on goes to the new one, if it still
	// matters. The old one may have crashed before passing it on, or the one
	// trusted again may have missed it.
	m := r.last
	live := m.Stamp == r.epoch &&
		((m.Type == msgRingElection && r.participant && (m.ID == r.self || !r.fd.Suspected(m.ID))) ||
			(m.Type == msgElected && !r.participant && r.leader == m.ID))
	if !live {
		return
	}
	if to := r.successor(env); to != r.lastTo {
		env.Logf("ring: successor now %v: send %s(%v) again", to, m.Type, m.ID)
		r.send(env, m)
	}
}

// send sends m to the successor: the next process in ring order, or with
// skip_suspected the next one the detector does not suspect (itself if it suspects
// them all).
func (r *Ring) send(env *node.Env, m node.Message) {
	to := r.successor(env)
	r.lastTo, r.last = to, m
	env.Send(to, m)
}

func (r *Ring) successor(env *node.Env) node.ID {
	peers := env.Peers()
	i := env.Index()
	for k := 1; k < len(peers); k++ {
		p := peers[(i+k)%len(peers)]
		if r.fd == nil || !r.fd.Suspected(p) {
			return p
		}
	}
	return r.self
}

// Status reports the role ("leader", "participant", "follower" once a leader is
// known, else "non-participant"), the believed leader, the epoch as Term, the
// detector's suspects with skip_suspected, and the counter elections (plus the
// detector's timeout_ms and mistakes).
func (r *Ring) Status() node.Status {
	role := "non-participant"
	switch {
	case r.participant:
		role = "participant"
	case r.leader != node.None:
		role = "follower"
	}
	r.counters = append(r.counters[:0], node.Counter{Name: "elections", Value: r.elections})
	st := node.Status{Role: roleFor(r.self, r.leader, role), Leader: r.leader, Term: r.epoch}
	if r.fd != nil {
		st.Suspects = r.fd.Suspects()
		if a, ok := r.fd.(detector.Adaptive); ok {
			r.counters = append(r.counters,
				node.Counter{Name: detector.CounterTimeout, Value: a.MaxTimeout().Milliseconds()},
				node.Counter{Name: detector.CounterMistakes, Value: a.Mistakes()})
		}
	}
	st.Counters = r.counters
	return st
}

func init() {
	algos.Register(algos.Spec{
		Name:        "ring",
		Family:      algos.Election,
		Ring:        true,
		Theory:      ringTheory,
		Description: "Chang-Roberts ring: the largest id goes round and wins; a participant flag swallows smaller ids",
		Source:      `Chang & Roberts 1979 (CACM 22(5)); course notes 001, "Algoritmo de eleição baseado em anel"; course notes 004, "Algoritmo de Anillo"`,
		Messages:    []string{msgRingElection, msgElected},
		Params: append([]algos.Param{
			initiatorsParam("all", "by default every process starts one at time 0 (the quadratic case when ids decrease along the ring)"),
			{Name: "skip_suspected", Default: "false", Doc: "send to the next successor a composed ◊P detector does not suspect, and start an election when the leader is suspected, so the ring survives crashes; adds the detector's HEARTBEAT (or TEST_REQ, TEST_REP) messages and needs a mesh"},
			{Name: "retry", Default: "1s", Min: "1µs", Doc: "skip_suspected only: the leader sends ELECTED round again this often, and a participant whose election is still undecided after this long (doubled for each undecided epoch since the last decided one, up to 32×, plus up to half of retry at random) starts a newer one"},
		}, detector.FDParams(detector.KindHeartbeat)...),
		Build: func(c algos.Config) (node.Factory, error) {
			cfg := &ringConfig{}
			var err error
			if cfg.initiator, err = initiatorSet(c); err != nil {
				return nil, err
			}
			if cfg.skip, err = c.Params.Bool("skip_suspected"); err != nil {
				return nil, err
			}
			if cfg.retry, err = c.Params.Duration("retry"); err != nil {
				return nil, err
			}
			if cfg.fd, err = detector.ReadFDConfig(c.Params); err != nil {
				return nil, err
			}
			return func(id node.ID) node.Algorithm {
				r := &Ring{self: id, cfg: cfg}
				if cfg.skip {
					r.fd = cfg.fd.New()
				}
				return r
			}, nil
		},
	})
}
