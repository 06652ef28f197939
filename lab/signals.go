package lab

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interrupts turns SIGINT, SIGTERM and SIGHUP (the terminal closed, the SSH
// session dropped) into a cancelled context, so that a command can stop cleanly:
// write the end record of its recording, remove its unfinished output, print one
// line and exit 128+signal (130, 143 or 129).
type interrupts struct {
	ctx    context.Context
	cancel context.CancelFunc
	ch     chan os.Signal
	done   chan struct{}
	exited chan struct{}

	mu      sync.Mutex
	sig     syscall.Signal
	cleanup func() // if set, run on a signal before exiting at once
}

// catchSignals starts catching SIGINT, SIGTERM and SIGHUP until stop.
func catchSignals() *interrupts {
	in := &interrupts{ch: make(chan os.Signal, 1), done: make(chan struct{}), exited: make(chan struct{})}
	in.ctx, in.cancel = context.WithCancel(context.Background())
	signal.Notify(in.ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go in.wait()
	return in
}

func (in *interrupts) wait() {
	defer close(in.exited)
	select {
	case <-in.done:
		return
	case s := <-in.ch:
		in.mu.Lock()
		in.sig, _ = s.(syscall.Signal)
		cleanup := in.cleanup
		in.mu.Unlock()
		in.cancel()
		if cleanup != nil {
			// A command that cannot stop part-way (an export being written) is
			// stopped here: its unfinished output is removed first.
			cleanup()
			fmt.Fprintf(os.Stderr, "clusterlab: %v\n", in.err())
			os.Exit(in.code())
		}
	}
}

// onSignal makes a signal run f and exit at once, instead of cancelling the context
// and letting the command return; nil goes back to cancelling.
func (in *interrupts) onSignal(f func()) {
	in.mu.Lock()
	in.cleanup = f
	in.mu.Unlock()
}

// stop stops catching signals.
func (in *interrupts) stop() {
	signal.Stop(in.ch)
	close(in.done)
	<-in.exited
	in.cancel()
}

func (in *interrupts) code() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return 128 + int(in.sig)
}

// interrupted reports whether a signal arrived.
func (in *interrupts) interrupted() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.sig != 0
}

// err is what a command returns when a signal stopped it.
func (in *interrupts) err() error {
	in.mu.Lock()
	s := in.sig
	in.mu.Unlock()
	name := "SIGINT"
	switch s {
	case syscall.SIGTERM:
		name = "SIGTERM"
	case syscall.SIGHUP:
		name = "SIGHUP"
	}
	return signalled(s, fmt.Errorf("interrupted by %s", name))
}

// interruptedErr is err with what was kept said in the same line.
func (in *interrupts) interruptedErr(kept string) error {
	err := in.err().(*exitError)
	if kept != "" {
		err.err = fmt.Errorf("%v; %s", err.err, kept)
	}
	return err
}
