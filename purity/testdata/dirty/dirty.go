// Package dirty breaks every rule of the pass, each on a line marked with the
// rule it breaks (want RULE), which the test checks.
package dirty

import (
	crand "crypto/rand"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

var steps int // a counter every process would share

var lock sync.Mutex // want lock

type alg struct {
	seen    map[node.ID]bool
	order   []node.ID
	started time.Time
	inbox   chan node.Message // want chan
}

func (a *alg) Step(env *node.Env, ev node.Event) {
	a.started = time.Now()       // want clock
	time.Sleep(time.Millisecond) // want sleep
	go a.background()            // want go
	a.inbox <- ev.Msg            // want chan
	steps++                      // want global
	if rand.IntN(2) == 0 {       // want rand
		fmt.Println("hello") // want io
	}
	_ = os.Getenv("HOME") // want io
	var b [4]byte
	crand.Read(b[:])         // want rand
	for id := range a.seen { // want mapeffect
		env.Send(id, node.Message{Type: "PING"})
	}
	for id := range a.seen { // want mapeffect
		a.ping(env, id)
	}
	for id := range a.seen { // want mapslice
		a.order = append(a.order, id)
	}
	lock.Lock()
}

func (a *alg) ping(env *node.Env, to node.ID) { a.pong(env, to) }

func (a *alg) pong(env *node.Env, to node.ID) { env.Send(to, node.Message{Type: "PONG"}) }

func (a *alg) background() {
	select {} // want chan
}

func (a *alg) Status() node.Status { return node.Status{} }
