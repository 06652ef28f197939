package explore

import (
	"github.com/clusterlab/clusterlab/algos"
	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/algos/election"
	"github.com/clusterlab/clusterlab/node"
)

// The planted mutants: real algorithms with one bug each, registered for these
// tests only. A search must find both.
//   - ricart-replies-in-cs: Ricart-Agrawala whose process, inside the critical
//     section, also replies at once to a request instead of only deferring it;
//   - raft-second-vote: Raft whose process grants every candidate of a term its
//     vote, besides the one vote the algorithm casts.
func init() {
	mutant("ricart", "ricart-replies-in-cs", func(inner node.Algorithm) node.Algorithm { return &repliesInCS{inner} })
	mutant("raft", "raft-second-vote", func(inner node.Algorithm) node.Algorithm { return &secondVote{inner} })
}

// mutant registers a copy of algorithm name whose processes are wrapped by patch.
func mutant(name, as string, patch func(node.Algorithm) node.Algorithm) {
	spec, ok := algos.Lookup(name)
	if !ok {
		panic("no algorithm " + name)
	}
	build := spec.Build
	spec.Name, spec.Theory = as, nil
	spec.Description = "a planted mutant of " + name + " (tests only)"
	spec.Build = func(c algos.Config) (node.Factory, error) {
		f, err := build(c)
		if err != nil {
			return nil, err
		}
		return func(id node.ID) node.Algorithm { return patch(f(id)) }, nil
	}
	algos.Register(spec)
}

// repliesInCS replies to a REQUEST while it holds the critical section.
type repliesInCS struct{ inner node.Algorithm }

func (a *repliesInCS) Step(env *node.Env, ev node.Event) {
	if ev.Kind == node.Deliver && ev.Msg.Type == "REQUEST" && a.inner.Status().CS == node.CSHeld {
		env.Send(ev.From, node.Message{Type: "REPLY", Stamp: ev.Msg.Stamp})
	}
	a.inner.Step(env, ev)
}

func (a *repliesInCS) Status() node.Status { return a.inner.Status() }

// secondVote grants every REQUEST_VOTE of its current term, whoever it voted for.
type secondVote struct{ inner node.Algorithm }

func (a *secondVote) Step(env *node.Env, ev node.Event) {
	a.inner.Step(env, ev)
	if ev.Kind == node.Deliver && ev.Msg.Type == election.MsgRequestVote && a.inner.Status().Term == ev.Msg.Term {
		env.Send(ev.From, node.Message{Type: election.MsgVote, Term: ev.Msg.Term, Flag: true})
	}
}

func (a *secondVote) Status() node.Status { return a.inner.Status() }
