package node

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// script is an algorithm whose reactions a test sets per event.
type script struct {
	on  func(env *Env, ev Event)
	got []Event
}

func (s *script) Step(env *Env, ev Event) {
	s.got = append(s.got, ev)
	if s.on != nil {
		s.on(env, ev)
	}
}
func (s *script) Status() Status {
	return Status{Counters: []Counter{{Name: "steps", Value: int64(len(s.got))}}}
}

func newEnv() *Env {
	return NewEnv(1, []ID{1, 2, 3}, []ID{2, 3}, rand.New(rand.NewPCG(1, 1)), nil)
}

func TestTimersReplaceAndCancel(t *testing.T) {
	env := newEnv()
	alg := &script{on: func(env *Env, ev Event) {
		if ev.Kind == Start {
			env.After(10*time.Millisecond, "a")
			env.After(20*time.Millisecond, "a") // replaces the first
			env.After(5*time.Millisecond, "b")
			env.Cancel("b")
		}
	}}
	env.Apply(alg, 0, Event{Kind: Start}, 0)
	effs := env.TakeEffects()
	if len(effs) != 3 || effs[0].Gen != 1 || effs[1].Gen != 2 {
		t.Fatalf("effects %+v", effs)
	}
	if env.Apply(alg, 10*time.Millisecond, Event{Kind: Timer, Name: "a"}, 1) {
		t.Fatal("the replaced firing ran")
	}
	if env.Apply(alg, 5*time.Millisecond, Event{Kind: Timer, Name: "b"}, 1) {
		t.Fatal("the cancelled firing ran")
	}
	if !env.Apply(alg, 20*time.Millisecond, Event{Kind: Timer, Name: "a"}, 2) {
		t.Fatal("the armed firing did not run")
	}
	if env.Now() != 20*time.Millisecond {
		t.Fatalf("now %v", env.Now())
	}
}

func TestBroadcastSkipsSelfInOrder(t *testing.T) {
	env := newEnv()
	env.Apply(&script{on: func(env *Env, ev Event) { env.Broadcast(Message{Type: "X"}) }}, 0, Event{Kind: Start}, 0)
	if len(env.effects) != 1 || env.effects[0].Kind != EffBroadcast {
		t.Fatalf("a broadcast is held as %+v, want one EffBroadcast", env.effects)
	}
	if effs := env.Effects(); len(effs) != 2 || effs[0].Kind != EffSend || effs[0].To != 2 || effs[1].To != 3 {
		t.Fatalf("Effects gives the broadcast as %+v", effs)
	}
	effs := env.TakeEffects()
	if len(effs) != 2 || effs[0].To != 2 || effs[1].To != 3 || effs[1].Msg.Type != "X" {
		t.Fatalf("broadcast %+v", effs)
	}
}

// TestBudgetCountsABroadcastsSends: a window's budget counts a broadcast as the
// sends it stands for, as it did when they were effects of their own.
func TestBudgetCountsABroadcastsSends(t *testing.T) {
	peers := make([]ID, 100)
	for i := range peers {
		peers[i] = ID(i + 1)
	}
	r := NewRunner(1, &script{on: func(env *Env, ev Event) { env.Broadcast(Message{Type: "X"}) }},
		NewEnv(1, peers, nil, rand.New(rand.NewPCG(1, 1)), &Storage{}))
	var budget atomic.Int64
	budget.Store(1000)
	b := Batch{Items: []Item{{Ev: Event{Kind: Start}}}, End: time.Millisecond, Budget: &budget}
	r.Run(&b)
	if got := b.Made(); got != 1+99 {
		t.Fatalf("a step that broadcast to 99 made %d, want 100 (its outcome and 99 sends)", got)
	}
	if got := budget.Load(); got != 1000-100 {
		t.Fatalf("budget left %d, want 900", got)
	}
}

func TestStorageSurvivesIncarnations(t *testing.T) {
	store := &Storage{}
	env := NewEnv(1, []ID{1}, nil, rand.New(rand.NewPCG(1, 1)), store)
	env.Store("term", 7)
	env2 := NewEnv(1, []ID{1}, nil, rand.New(rand.NewPCG(1, 1)), store)
	if v, ok := env2.Load("term"); !ok || v != 7 {
		t.Fatalf("load %v %v", v, ok)
	}
	if _, ok := env2.Load("vote"); ok {
		t.Fatal("a key never stored was found")
	}
}

// TestRunnerWindow checks that a Runner handles a process's own short timers and
// self-deliveries inside the window, in time order, and leaves later ones to the world.
func TestRunnerWindow(t *testing.T) {
	alg := &script{on: func(env *Env, ev Event) {
		if ev.Kind == Start {
			env.After(3*time.Millisecond, "short")
			env.After(50*time.Millisecond, "long")
			env.Send(1, Message{Type: "SELF"})
		}
	}}
	env := newEnv()
	r := NewRunner(1, alg, env)
	defer r.Stop()
	b := &Batch{Items: []Item{
		{At: 0, Seq: 1, Ev: Event{Kind: Start}},
		{At: 5 * time.Millisecond, Seq: 2, Ev: Event{Kind: Deliver, From: 2, Msg: Message{Type: "PING"}}},
	}, End: 10 * time.Millisecond, Slow: 1}
	var wg sync.WaitGroup
	wg.Add(1)
	r.Submit(b, &wg)
	wg.Wait()
	var order []string
	for _, ev := range alg.got {
		order = append(order, ev.Kind.String()+":"+ev.Name+ev.Msg.Type)
	}
	want := []string{"start:", "deliver:SELF", "timer:short", "deliver:PING"}
	if len(order) != len(want) {
		t.Fatalf("handled %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("handled %v, want %v", order, want)
		}
	}
	// The long timer is left to the world; the short one and the self-delivery were
	// handled here and point at their outcomes.
	effs := b.Effects[b.Out[0].EffLo:b.Out[0].EffHi]
	if !effs[0].Local || effs[1].Local || !effs[2].Local {
		t.Fatalf("local flags %+v", effs)
	}
	if b.ItemOf(&b.Out[effs[2].Outcome]).Ev.Msg.Type != "SELF" || b.ItemOf(&b.Out[effs[0].Outcome]).Ev.Name != "short" {
		t.Fatal("effects point at the wrong outcomes")
	}
	if !b.Out[effs[2].Outcome].Local() || b.Out[0].Local() {
		t.Fatal("outcomes say wrongly whether they are local")
	}
	if st := b.StatusOf(&b.Out[0]); st == nil || st.Counters[0].Value != 1 {
		t.Fatalf("first outcome's status %+v", st)
	}
}

// TestSlowStretchesTimers checks that a slow process's timers take longer.
func TestSlowStretchesTimers(t *testing.T) {
	env := newEnv()
	env.SetSlow(10)
	env.Apply(&script{on: func(env *Env, ev Event) { env.After(5*time.Millisecond, "t") }}, 0, Event{Kind: Start}, 0)
	if d := env.TakeEffects()[0].Delay; d != 50*time.Millisecond {
		t.Fatalf("delay %v, want 50ms", d)
	}
}

// TestDeadlineIsWhereAfterFires checks that a timer armed At a Deadline fires
// exactly where After would have fired it, rounding and slowness included, and
// that At a past time fires at once.
func TestDeadlineIsWhereAfterFires(t *testing.T) {
	for _, slow := range []int{1, 3} {
		for _, d := range []time.Duration{0, time.Nanosecond, 1500 * time.Nanosecond, 250 * time.Millisecond} {
			env := newEnv()
			env.SetSlow(slow)
			now := 7 * time.Millisecond
			env.Apply(&script{on: func(env *Env, ev Event) {
				env.After(d, "after")
				env.At(env.Deadline(d), "at")
				env.At(now-time.Millisecond, "past")
			}}, now, Event{Kind: Start}, 0)
			effs := env.TakeEffects()
			if effs[0].Delay != effs[1].Delay || now+effs[1].Delay != env.Deadline(d) {
				t.Errorf("slow %d, d %v: After waits %v, At(Deadline) %v, Deadline %v", slow, d, effs[0].Delay, effs[1].Delay, env.Deadline(d))
			}
			if effs[2].Delay != 0 {
				t.Errorf("At a past time waits %v, want 0", effs[2].Delay)
			}
		}
	}
}
