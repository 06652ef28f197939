package node

import (
	"container/heap"
	"sync"
	"sync/atomic"
	"time"
)

// Item is one event the world hands to a process, with its place in the world's
// order: virtual time, then sequence number.
type Item struct {
	At  time.Duration
	Seq uint64
	Ev  Event
	Gen uint32 // Timer: the firing's generation
	// Timer is the timer's id in the process's Env (Env.TimerID); Ev.Name is its name.
	Timer int32
	Ref   uint64 // Deliver: the world's message id

	effect int // a local item: the index in Batch.Effects of the effect that made it
}

// Outcome is what one step did: the item handled, the effects it had (a range of
// Batch.Effects) and the new status if it changed.
type Outcome struct {
	Item
	// Local is set for events the process made for itself inside the window
	// (short timers, self-deliveries): their Seq is given by the world when it
	// merges the effect that made them.
	Local   bool
	EffLo   int
	EffHi   int
	Changed bool
	Status  Status
}

// Batch is a window of work for one process. The world fills Items (in order), End
// and Slow; the Runner fills Out and Effects.
//
// Why windows: no message from another process can arrive sooner than the minimum link
// delay, so every event a process has before End can be handled without waiting for
// the others. The only new events that can land inside the window are the process's
// own short timers and self-deliveries, and the Runner handles those itself, in
// (time, sequence) order. The world then merges every process's outcomes in the same
// order, which gives exactly the run that handling one event at a time would give.
type Batch struct {
	Items []Item
	End   time.Duration
	Slow  int
	// Budget, if set, bounds what a window may make, shared by all its batches:
	// every outcome and every effect takes one from it. A process that keeps making
	// its own events inside the window (a zero-delay timer that re-arms itself), or
	// a flood of broadcasts, would otherwise fill memory before the world sees a
	// single one. When it runs out the Runner stops and sets Overflow; the outcomes
	// so far are kept, the rest of the batch is not run.
	Budget *atomic.Int64

	Out      []Outcome
	Effects  []Effect
	Overflow bool
}

// Shrink lets go of buffers far bigger than the batch just handled needed: a
// process that broadcast to a thousand peers once (at Start) must not keep room for
// two thousand effects for the rest of the run. Call it between batches.
func (b *Batch) Shrink() {
	b.Items = shrunk(b.Items)
	b.Out = shrunk(b.Out)
	b.Effects = shrunk(b.Effects)
}

// shrunk is s emptied, or nil if it holds room for four times what it held.
func shrunk[T any](s []T) []T {
	if cap(s) > 256 && len(s) < cap(s)/4 {
		return nil
	}
	return s[:0]
}

// budgetStretch is how many outcomes and effects a Runner makes between two looks at
// the window's shared Budget.
const budgetStretch = 256

// localBase is above every sequence number the world hands out, so a process's own
// in-window events sort after anything that already existed when the window opened.
const localBase = uint64(1) << 62

// Runner is the goroutine that hosts one incarnation of a process. It owns the
// algorithm instance; when the incarnation crashes the goroutine ends, and with it
// every bit of volatile state.
type Runner struct {
	id     ID
	alg    Algorithm
	env    *Env
	last   Status
	in     chan job
	exited chan struct{}

	local    localQueue
	localSeq uint64
}

type job struct {
	b  *Batch
	wg *sync.WaitGroup
}

// NewRunner starts the goroutine of a new incarnation. env is reset of timers.
func NewRunner(id ID, alg Algorithm, env *Env) *Runner {
	env.ResetTimers()
	env.effects = env.effects[:0]
	r := &Runner{id: id, alg: alg, env: env, in: make(chan job, 1), exited: make(chan struct{})}
	go r.loop()
	return r
}

// Submit hands b to the goroutine; wg.Done is called when it is handled.
func (r *Runner) Submit(b *Batch, wg *sync.WaitGroup) { r.in <- job{b, wg} }

// Run handles b in the caller's goroutine instead of the Runner's. The world does
// so for tiny windows, where handing the batch over would cost more than the work,
// and for its own share of a window while the goroutines handle the rest. Call it
// only between batches, as Submit; the result is the same as Submit's.
func (r *Runner) Run(b *Batch) { r.run(b) }

// Stop ends the goroutine and waits for it to exit.
func (r *Runner) Stop() {
	close(r.in)
	<-r.exited
}

// Status is the last status the incarnation reported. Call it only between batches.
func (r *Runner) Status() Status { return r.last }

func (r *Runner) loop() {
	defer close(r.exited)
	for j := range r.in {
		r.run(j.b)
		j.wg.Done()
	}
}

func (r *Runner) run(b *Batch) {
	b.Out = b.Out[:0]
	b.Effects = b.Effects[:0]
	b.Overflow = false
	r.env.SetSlow(b.Slow)
	r.local = r.local[:0]
	r.localSeq = localBase
	i, taken := 0, 0
	for {
		var it Item
		local := false
		switch {
		case len(r.local) > 0 && (i >= len(b.Items) || before(r.local[0].Item, b.Items[i])):
			it = heap.Pop(&r.local).(localItem).Item
			local = true
		case i < len(b.Items):
			it = b.Items[i]
			i++
		default:
			return
		}
		if b.Budget != nil {
			// Take from the shared budget a stretch at a time, not at every step.
			if used := len(b.Out) + len(b.Effects) - taken; used >= budgetStretch {
				taken += used
				if b.Budget.Add(-int64(used)) < 0 {
					b.Overflow = true
					return
				}
			}
		}
		r.step(b, it, local)
	}
}

func before(a, b Item) bool {
	if a.At != b.At {
		return a.At < b.At
	}
	return a.Seq < b.Seq
}

func (r *Runner) step(b *Batch, it Item, local bool) {
	origin := -1
	if local {
		origin = it.effect
		b.Effects[origin].Outcome = -1
	}
	// The step appends its effects straight to the batch's.
	base := len(b.Effects)
	r.env.effects = b.Effects
	ran := r.env.apply(r.alg, it.At, it.Ev, it.Timer, it.Gen)
	b.Effects, r.env.effects = r.env.effects, nil
	if !ran {
		return
	}
	if local {
		b.Effects[origin].Outcome = len(b.Out)
	}
	for k := base; k < len(b.Effects); k++ {
		e := &b.Effects[k]
		var li Item
		switch {
		case e.Kind == EffTimer && it.At+e.Delay < b.End:
			li = Item{At: it.At + e.Delay, Ev: Event{Kind: Timer, Name: e.Name}, Gen: e.Gen, Timer: e.Timer}
		case e.Kind == EffSend && e.To == r.id && it.At < b.End:
			li = Item{At: it.At, Ev: Event{Kind: Deliver, From: r.id, Msg: e.Msg}}
		default:
			continue
		}
		e.Local = true
		r.localSeq++
		li.Seq = r.localSeq
		li.effect = k
		heap.Push(&r.local, localItem{li})
	}
	o := Outcome{Item: it, Local: local, EffLo: base, EffHi: len(b.Effects)}
	if local {
		o.Seq = 0
	}
	if st := r.alg.Status(); !st.Equal(r.last) {
		r.last = st.Clone()
		o.Changed = true
		o.Status = r.last
	}
	b.Out = append(b.Out, o)
}

type localItem struct{ Item }

type localQueue []localItem

func (q localQueue) Len() int           { return len(q) }
func (q localQueue) Less(i, j int) bool { return before(q[i].Item, q[j].Item) }
func (q localQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *localQueue) Push(x any)        { *q = append(*q, x.(localItem)) }
func (q *localQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
