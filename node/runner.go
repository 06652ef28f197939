package node

import (
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

// Outcome is what one step did: which item it handled, the effects it had (a range
// of Batch.Effects) and the new status if it changed. It refers to the item and the
// status instead of holding copies: a window of a thousand-node mesh has a thousand
// outcomes per process, and most steps change no status.
type Outcome struct {
	At time.Duration
	// Seq is the item's sequence number. Events the process made for itself inside
	// the window (short timers, self-deliveries) have 0 until the world numbers
	// them, when it merges the effect that made them.
	Seq    uint64
	Item   int32 // the item handled: Batch.Items[Item], or Batch.Locals[-1-Item]
	Status int32 // the new status, Batch.Statuses[Status], or -1 if unchanged
	EffLo  int32
	EffHi  int32
	// Kind is the item's kind, so that a world that records nothing need not
	// read the item at all: the items of a window of a thousand processes' are
	// megabytes, out of every cache by the time their outcomes are merged.
	Kind Kind
}

// Local reports whether the outcome is of an event the process made inside the
// window.
func (o *Outcome) Local() bool { return o.Item < 0 }

// ItemOf is the item an outcome handled.
func (b *Batch) ItemOf(o *Outcome) *Item {
	if o.Item < 0 {
		return &b.Locals[-1-o.Item]
	}
	return &b.Items[o.Item]
}

// StatusOf is the status an outcome changed to, or nil.
func (b *Batch) StatusOf(o *Outcome) *Status {
	if o.Status < 0 {
		return nil
	}
	return &b.Statuses[o.Status]
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
	Locals   []Item   // the events the process made for itself inside the window
	Statuses []Status // the statuses outcomes changed to
	Overflow bool
	// Fanned counts the sends the batch's broadcasts stand for beyond their one
	// effect each: they become as many pending events, and the budget counts them.
	Fanned int
}

// Made is how much the batch made: its outcomes, and its effects with each
// broadcast counted as the sends it stands for.
func (b *Batch) Made() int { return len(b.Out) + len(b.Effects) + b.Fanned }

// Shrink lets go of buffers far bigger than the batch just handled needed: a
// process that broadcast to a thousand peers once (at Start) must not keep room for
// two thousand effects for the rest of the run. Call it between batches.
func (b *Batch) Shrink() {
	b.Items = shrunk(b.Items)
	b.Out = shrunk(b.Out)
	b.Effects = shrunk(b.Effects)
	b.Locals = shrunk(b.Locals)
	clear(b.Statuses) // they hold slices
	b.Statuses = shrunk(b.Statuses)
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

	local    []int32 // a min-heap of indices into the batch's Locals
	localSeq uint64
}

type job struct {
	b  *Batch
	wg *sync.WaitGroup
}

// NewRunner makes the host of a new incarnation. env is reset of timers.
func NewRunner(id ID, alg Algorithm, env *Env) *Runner {
	env.ResetTimers()
	env.effects = env.effects[:0]
	return &Runner{id: id, alg: alg, env: env}
}

// Submit hands b to the goroutine; wg.Done is called when it is handled. The
// goroutine starts with the first batch handed to it: a process that only ever gets
// tiny batches, which the world runs itself (Run), costs no goroutine, and a
// million-node ring does not start a million of them.
func (r *Runner) Submit(b *Batch, wg *sync.WaitGroup) {
	if r.in == nil {
		r.in, r.exited = make(chan job, 1), make(chan struct{})
		go r.loop()
	}
	r.in <- job{b, wg}
}

// Run handles b in the caller's goroutine instead of the Runner's. The world does
// so for tiny windows, where handing the batch over would cost more than the work,
// and for its own share of a window while the goroutines handle the rest. Call it
// only between batches, as Submit; the result is the same as Submit's.
func (r *Runner) Run(b *Batch) { r.run(b) }

// Stop ends the goroutine and waits for it to exit.
func (r *Runner) Stop() {
	if r.in == nil {
		return
	}
	close(r.in)
	<-r.exited
}

// Status is the last status the incarnation reported. Call it only between batches.
func (r *Runner) Status() Status { return r.last }

// Deadline is the incarnation's main timer if its algorithm is a Deadliner, with
// due answering when a timer fires. Call it only between batches.
func (r *Runner) Deadline(due func(timer string) (time.Duration, bool)) Deadline {
	if d, ok := r.alg.(Deadliner); ok {
		return d.Deadline(due)
	}
	return Deadline{}
}

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
	b.Locals = b.Locals[:0]
	clear(b.Statuses)
	b.Statuses = b.Statuses[:0]
	b.Overflow = false
	b.Fanned = 0
	r.env.SetSlow(b.Slow)
	r.local = r.local[:0]
	r.localSeq = localBase
	if b.Budget != nil && b.Budget.Load() < 0 {
		// Other batches of the window have spent it all already.
		b.Overflow = true
		return
	}
	i, taken := 0, 0
	for {
		var ref int32
		switch {
		case len(r.local) > 0 && (i >= len(b.Items) || before(&b.Locals[r.local[0]], &b.Items[i])):
			ref = -1 - r.popLocal(b)
		case i < len(b.Items):
			ref = int32(i)
			i++
		default:
			// What is left to pay: a thousand processes that each make a
			// thousand effects in one step must add up too.
			r.spend(b, &taken, 1)
			return
		}
		// Take from the shared budget a stretch at a time, not at every step.
		if r.spend(b, &taken, budgetStretch) {
			return
		}
		r.step(b, ref)
	}
}

// spend takes from the window's budget what the batch made since the last time, if
// that is at least least, and reports whether the budget ran out (b.Overflow).
func (r *Runner) spend(b *Batch, taken *int, least int) bool {
	if b.Budget == nil {
		return false
	}
	used := b.Made() - *taken
	if used < least {
		return false
	}
	*taken += used
	if b.Budget.Add(-int64(used)) < 0 {
		b.Overflow = true
	}
	return b.Overflow
}

func before(a, b *Item) bool {
	if a.At != b.At {
		return a.At < b.At
	}
	return a.Seq < b.Seq
}

func (r *Runner) step(b *Batch, ref int32) {
	local := ref < 0
	it := *b.ItemOf(&Outcome{Item: ref})
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
		b.Effects[origin].Outcome = int32(len(b.Out))
	}
	for k := base; k < len(b.Effects); k++ {
		e := &b.Effects[k]
		var li Item
		switch {
		case e.Kind == EffBroadcast:
			b.Fanned += r.env.Fanout() - 1
			continue
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
		r.pushLocal(b, li)
	}
	o := Outcome{At: it.At, Seq: it.Seq, Item: ref, Status: -1, EffLo: int32(base), EffHi: int32(len(b.Effects)), Kind: it.Ev.Kind}
	if local {
		o.Seq = 0
	}
	if st := r.alg.Status(); !st.Equal(r.last) {
		r.last = st.Clone()
		o.Status = int32(len(b.Statuses))
		b.Statuses = append(b.Statuses, r.last)
	}
	b.Out = append(b.Out, o)
}

// pushLocal adds an event the process made for itself to the batch's Locals and to
// the heap of those still to handle.
func (r *Runner) pushLocal(b *Batch, it Item) {
	b.Locals = append(b.Locals, it)
	h := append(r.local, int32(len(b.Locals)-1))
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !before(&b.Locals[h[i]], &b.Locals[h[p]]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	r.local = h
}

// popLocal takes the earliest local event still to handle: its index in Locals.
func (r *Runner) popLocal(b *Batch) int32 {
	h := r.local
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if c := l + 1; c < n && before(&b.Locals[h[c]], &b.Locals[h[l]]) {
			m = c
		}
		if !before(&b.Locals[h[m]], &b.Locals[h[i]]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	r.local = h
	return top
}
