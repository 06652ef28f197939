// Package tui is clusterlab's dashboard: a Bubble Tea program that renders the latest
// snapshot of a running (or replayed) cluster and turns keys into actions.
package tui

import "github.com/clusterlab/clusterlab/netsim/trace"

// Controller is what the dashboard drives. A live simulation (netsim.Live) implements
// it; the dashboard never touches the world directly, and rendering reads only the
// latest immutable snapshot.
type Controller interface {
	// Snapshot is the latest picture of the cluster. It never blocks on the
	// simulation.
	Snapshot() *trace.Snapshot
	// Do applies one action in the scenario grammar ("crash n3",
	// "partition n1,n2 | n3,n4,n5", `marker "text"`…) at the current virtual instant
	// and records it as a user action. A parse error is returned as one line.
	Do(cmd string) error
	SetPaused(p bool)
	Paused() bool
	// Step handles one event while paused.
	Step()
	// SetSpeed sets virtual seconds per wall second; 0 means as fast as possible.
	SetSpeed(x float64)
	Speed() float64
	// Recording is the file being recorded to, or "".
	Recording() string
	// ToggleRecording starts recording to a new file (returning its name) or stops.
	ToggleRecording() (string, error)
}

// Writer is a Controller that writes a recording's past in the background after R:
// Writing names the file and how much is done (0 to 1) while it is being written.
type Writer interface {
	Writing() (name string, done float64, writing bool)
}

// Stopper is a Controller whose run can stop before its end: a live world stopped
// by its storm guard. Err is why (the line `sim` prints), or nil while it runs.
type Stopper interface {
	Err() error
}

// FlightLister is a Controller that lists every message in flight, from its world
// (session.Live): [ ] and # then reach a message however long ago it was sent,
// where the picture's recent events show only the latest RecentCap events.
type FlightLister interface {
	Flights() []trace.Flight
}

// Noter is a Controller with something to say once, in one line, that is not the
// answer to a key: a replay whose re-run is not the recording, and so shows no
// timeout bars, says so (session.Replay.Note). "" is nothing to say.
type Noter interface {
	Note() string
}

// Pacer is a Controller that measures how fast its virtual time really passes: Rate
// is virtual seconds per wall second over the last second of running (0 before
// one has run), and behind says that it falls short of the speed asked for. The
// header then says so ("×0.13 of ×1, behind") instead of claiming the speed.
type Pacer interface {
	Rate() (rate float64, behind bool)
}

// StoryStopper is a Controller that can stop its run itself just after each
// story line (P): exactly at the line's instant, where a dashboard that pauses
// when it sees the line comes a frame late, or more on a busy machine.
type StoryStopper interface {
	SetStoryStops(on bool)
}

// Forker is a replay that can go on live from the instant it shows (f, issue
// 30): Fork returns the live session, paused just after virtual time at (µs),
// which the dashboard drives from then on.
type Forker interface {
	Fork(at int64) (Controller, error)
}

// ForkSaver is a live session forked from a recording. It records from the
// start into a file of its own (ForkFile) that SaveFork renames and DiscardFork
// removes; ForkedFrom names the recording and the time it went on from.
type ForkSaver interface {
	ForkedFrom() (file string, at int64, ok bool)
	ForkFile() string
	SaveFork(name string) error
	DiscardFork()
}

// Queuer is a Controller that can take an action without waiting for the
// simulation to apply it: the dashboard then never waits on a busy world, and the
// effect shows when the world gets to it.
type Queuer interface {
	Queue(cmd string) error
}

// Watcher is a Controller whose viewer only watches a world that others act on: a
// spectator of a class served over SSH. Watching says so in one line (""
// when the viewer may act after all); the keys that would act on the world
// (faults, requests, markers, pause, step, speed, recording) show it instead.
type Watcher interface {
	Watching() string
}

// act applies an action through c, queued if c can queue it.
func act(c Controller, cmd string) error {
	if q, ok := c.(Queuer); ok {
		return q.Queue(cmd)
	}
	return c.Do(cmd)
}
