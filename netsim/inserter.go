package netsim

import "runtime"

// inserter puts a merge's messages on the queue's wheel from a goroutine of its
// own, while the merge goes on routing the next ones: the second processor's share
// of the serial part of a window.
//
// A 1,000-node mesh's heartbeat wave routes a million messages in one merge, and
// writing each into the queue's slab, memory no cache holds, took a third of the
// world's goroutine's time (BenchmarkWorldMesh1000 at GOMAXPROCS=1). The world still
// packs each event (its body interned, 48 bytes) and hands the packed events over in
// small blocks, which stay in the caches between the two cores. Measured on 2 cores
// (scripts/bench): GOMAXPROCS 2 went from 1.11× GOMAXPROCS 1 to 1.40× (median of 5);
// blocks of 512 events gave 1.25×, of 2,048 1.2×, and handing over the 120-byte
// unpacked events, nothing.
//
// What the queue holds never depends on the goroutine. The inserter inserts the
// events in the order the merge made them, the only order insert sees otherwise,
// and the world touches none of what insert does (the wheel, the slabs, the head)
// until finishInserter has waited for the last one: it packs bodies and names,
// which insert never reads. Only the storm guard needs the queue's length meanwhile,
// and the world counts it itself (Pending).
type inserter struct {
	work  chan []pev  // blocks to insert; nil asks for a reply on done
	spare chan []pev  // empty blocks, inserterBlocks of them in all
	jobs  chan func() // other work between merges (a shard's share of a window); replies on done
	done  chan struct{}
	buf   []pev
	on    bool // the merge under way hands its messages over
	n     int  // while on: the queue's length, what was handed over counted in

}

const (
	// inserterBlock is how many events go over at a time.
	inserterBlock = 128
	// inserterBlocks is how many blocks there are: those waiting for the inserter,
	// the one it inserts and the one the world fills. When the world runs ahead it
	// waits for a block to come back: allocating a new block instead, whenever
	// none was spare, made 800 MB of garbage per heartbeat wave of a 4,096-node
	// mesh.
	inserterBlocks = 10
	// handOverAfter is how many messages a merge queues itself before it hands
	// the rest over. While the queue's events fit in the caches, inserting them
	// from the other core costs more than it saves: switched on after 2,048, the
	// inserter cost a 128-node mesh's waves (16,000 messages) 10 % and a 256-node
	// mesh's 5 %, and gained a 512-node mesh's (262,000) 10–25 %.
	handOverAfter = 32768
)

// handOver counts a message the merge queues, and reports whether it goes to the
// inserter: from the handOverAfter-th of a merge on, if there is a second
// processor, and from the first under Config.HandOut.
func (w *World) handOver() bool {
	if w.pushed++; w.cfg.HandOut || (w.pushed == handOverAfter && runtime.GOMAXPROCS(0) > 1) {
		w.startInserter()
	}
	return w.ins.on
}

// startInserter makes the rest of the merge hand its messages over, starting the
// goroutine the first time.
func (w *World) startInserter() {
	in := &w.ins
	w.startHelper()
	in.on, in.n = true, 0
	for i := range w.shards {
		in.n += w.shards[i].q.len()
	}
}

// startHelper starts the inserter's goroutine and makes its blocks, the first
// time.
func (w *World) startHelper() {
	in := &w.ins
	if in.work != nil {
		return
	}
	in.work = make(chan []pev, inserterBlocks)
	in.spare = make(chan []pev, inserterBlocks)
	for range inserterBlocks {
		in.spare <- make([]pev, 0, inserterBlock)
	}
	in.jobs = make(chan func())
	in.done = make(chan struct{})
	qs := make([]*queue, len(w.shards))
	for i := range w.shards {
		qs[i] = &w.shards[i].q
	}
	go in.run(qs)
}

// twoProcs reports whether a second goroutine can run beside the world's.
func (w *World) twoProcs() bool { return runtime.GOMAXPROCS(0) > 1 }

// run inserts the blocks into the queues of their events' shards (the shard of
// event e is qs[e.to mod len(qs)], as World.shardOf), and runs the jobs.
func (in *inserter) run(qs []*queue) {
	mask := int32(len(qs) - 1)
	for {
		select {
		case b, ok := <-in.work:
			if !ok {
				close(in.done)
				return
			}
			if b == nil {
				in.done <- struct{}{}
				continue
			}
			helping(true)
			for i := range b {
				qs[b[i].to&mask].insert(b[i])
			}
			helping(false)
			in.spare <- b[:0] // never blocks: it has room for every block
		case job := <-in.jobs:
			helping(true)
			job()
			helping(false)
			in.done <- struct{}{}
		}
	}
}

// take has the goroutine run job, outside merges; wait waits until it is done.
func (in *inserter) take(job func()) { in.jobs <- job }
func (in *inserter) wait()           { <-in.done }

func (in *inserter) add(e pev) {
	if in.buf == nil {
		in.buf = <-in.spare
	}
	in.buf = append(in.buf, e)
	in.n++
	if len(in.buf) == inserterBlock {
		in.work <- in.buf
		in.buf = nil
	}
}

// finishInserter hands over what is left and waits until the queue holds it all;
// the queue is the world's alone again.
func (w *World) finishInserter() {
	in := &w.ins
	if !in.on {
		return
	}
	if len(in.buf) > 0 {
		in.work <- in.buf
		in.buf = nil
	}
	in.work <- nil
	<-in.done
	in.on = false
}

// stop ends the goroutine, if it was started.
func (in *inserter) stop() {
	if in.work != nil {
		close(in.work)
		<-in.done
		in.work = nil
	}
}
