package mutex

import (
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// tokenRing is the ring-based algorithm of the course notes (002, "algoritmo baseado
// em anel"; 003, "Anel"): one TOKEN circulates along the logical ring, which is the
// order of env.Peers(), starting at its first process. A process that receives the
// token and does not want the critical section passes it on at once; one that wants
// it keeps the token while it holds the critical section and passes it on when it
// leaves.
//
// Message:
//   - TOKEN  to the next process of the ring. Term: the token's generation (1 for
//     the original token, one more for each regeneration); ID: the process that
//     created this generation; Stamp: hops since it was created.
//
// Faults, as notes 003 ("Lidando com Falhas") describe them: the token lives in
// volatile memory only, so a crash of its holder loses it (and a TOKEN sent to a
// crashed process is dropped); nobody enters any more. The ring does not skip
// crashed processes. Option regenerate (off by default) is the naive fix the notes
// warn about: a process that has not seen the token for that long makes a new one.
// If the token was only slow, or several processes time out together, the ring now
// carries two tokens and two processes can hold the critical section at once.
// A process that already holds the token and receives another keeps only one: two
// tokens merge when one catches up with the other, never before.
//
// With one process there is no ring: it keeps the token and sends nothing.
type tokenRing struct {
	w     workload
	regen time.Duration

	next    node.ID
	has     bool
	gen     int64   // generation of the token held or last seen
	creator node.ID // creator of that generation
	hops    int64
}

const timerRegenerate = "token.regen"

func (a *tokenRing) Step(env *node.Env, ev node.Event) {
	if a.w.handle(env, ev, a) {
		return
	}
	switch ev.Kind {
	case node.Start, node.Recover:
		peers := env.Peers()
		for i, p := range peers {
			if p == env.Self() {
				a.next = peers[(i+1)%len(peers)]
			}
		}
		if ev.Kind == node.Start && peers[0] == env.Self() {
			a.take(env, 1, env.Self(), 0)
		}
		a.armRegen(env)
	case node.Deliver:
		if ev.Msg.Type == "TOKEN" {
			if a.has {
				return // a second token merges with the one held
			}
			a.take(env, ev.Msg.Term, ev.Msg.ID, ev.Msg.Stamp)
			a.armRegen(env)
		}
	case node.Timer:
		if ev.Name == timerRegenerate {
			if !a.has {
				// Silence for regenerate: assume the token is lost and make one.
				a.take(env, a.gen+1, env.Self(), 0)
			}
			a.armRegen(env)
		}
	}
}

func (a *tokenRing) armRegen(env *node.Env) {
	if a.regen > 0 {
		env.After(a.regen, timerRegenerate)
	}
}

// take makes this process the token's holder: it enters if it wants to, and passes
// the token on otherwise.
func (a *tokenRing) take(env *node.Env, gen int64, creator node.ID, hops int64) {
	a.has, a.gen, a.creator, a.hops = true, gen, creator, hops
	switch {
	case a.w.wanted():
		a.w.enter(env)
	case !a.w.held():
		a.pass(env)
	}
}

func (a *tokenRing) pass(env *node.Env) {
	if a.next == env.Self() {
		return // alone on the ring: keep it
	}
	a.has = false
	env.Send(a.next, node.Message{Type: "TOKEN", Term: a.gen, ID: a.creator, Stamp: a.hops + 1})
}

func (a *tokenRing) acquire(env *node.Env) {
	if a.has {
		a.w.enter(env)
	}
}

func (a *tokenRing) exit(env *node.Env) {
	if a.has {
		a.pass(env)
	}
}

func (a *tokenRing) Status() node.Status {
	s := node.Status{CS: a.w.cs, Term: a.gen}
	if a.has {
		s.Role = "holder"
	}
	s.Counters = a.w.counters(node.Counter{Name: "token_gen", Value: a.gen})
	return s
}

func init() {
	algos.Register(algos.Spec{
		Name:   "tokenring",
		Family: algos.Mutex,
		Theory: tokenringTheory,
		Description: "token ring: one TOKEN circulates along the ring and its holder may enter; " +
			"a crashed holder loses it, optional regeneration can make two",
		Source:   `course notes 002, "Algoritmo baseado em anel"; course notes 003, "Anel", "Lidando com Falhas"`,
		Messages: []string{"TOKEN"},
		Params: withWorkload(
			algos.Param{Name: "regenerate", Default: "0s", Doc: "a process that has not seen the token for this long makes a new one (0s = never); can make two tokens"},
		),
		Build: func(c algos.Config) (node.Factory, error) {
			wl, err := readWorkload(c.Params)
			if err != nil {
				return nil, err
			}
			regen, err := c.Params.Duration("regenerate")
			if err != nil {
				return nil, err
			}
			return func(node.ID) node.Algorithm {
				return &tokenRing{w: newWorkload(wl), regen: regen}
			}, nil
		},
	})
}
