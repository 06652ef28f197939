package session

import (
	"encoding/binary"
	"fmt"
	"sort"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// A replay keeps every timer change of its recording (see Timers), and a raft
// recording changes a timer every other line (each heartbeat re-arms the
// follower's election timeout): kept whole, 40 bytes each and the slices' room,
// the changes of a 34 MB recording of 64 raft nodes took 7.7 MB, a fifth of the
// file. Packed, a change is the differences from the one before it (its line
// number, its deadline and length, as varints, and the timer's name by number),
// 6 to 9 bytes; every timerSample-th change of a process is kept whole, so that
// the timer at any line is found by a binary search and at most timerSample - 1
// changes unpacked. And a replay keeps at most timerBytes of them: past that, a
// recording (of a gigabyte or more) is replayed without its timeout bars, and its
// note says why, instead of holding memory in proportion to its length.
const timerSample = 32

// timerBytes is how much memory the packed changes may take. (A variable for the
// tests.)
var timerBytes = 32 << 20

// sampleBytes is what a whole change takes, and where the next packed one starts.
const sampleBytes = 44

// timerLog is one process's timer changes, in Seq order.
type timerLog struct {
	samples []timerAt // every timerSample-th change, whole
	offs    []int32   // where in data the changes after each sample start
	data    []byte    // the others, packed (see packTimer)
	n       int       // changes packed
	prev    timerAt   // the last change packed: what the next one's differences are from
	last    timerAt   // the latest change, not packed yet (a later one at its Seq replaces it)
	has     bool      // whether last holds one
}

// timerAt is a timer that holds from the line numbered seq on.
type timerAt struct {
	seq uint64
	d   node.Deadline
}

// note records that the process's timer is d from line seq on: a change that
// shows nothing new is left out, and a second change at the same line replaces
// the first. It fails once the packed changes of every process take more than
// timerBytes.
func (t *Timers) note(k int, seq uint64, d node.Deadline) error {
	l := &t.runs[k]
	switch {
	case !l.has && l.n == 0 && !d.Running(), l.has && l.last.d == d:
		return nil
	case l.has && l.last.seq == seq:
		l.last.d = d
		return nil
	}
	if err := t.pack(l); err != nil {
		return err
	}
	l.last, l.has = timerAt{seq, d}, true
	return nil
}

// pack packs the log's latest change, if it holds one.
func (t *Timers) pack(l *timerLog) error {
	if !l.has {
		return nil
	}
	before := len(l.data) + sampleBytes*len(l.samples)
	if l.n%timerSample == 0 {
		l.samples = append(l.samples, l.last)
		l.offs = append(l.offs, int32(len(l.data)))
	} else {
		l.data = t.packTimer(l.data, &l.prev, &l.last)
	}
	l.prev, l.n, l.has = l.last, l.n+1, false
	t.bytes += len(l.data) + sampleBytes*len(l.samples) - before
	if t.bytes > timerBytes {
		return fmt.Errorf("more than %d MB of timer changes", timerBytes>>20)
	}
	return nil
}

// seal packs every process's latest change: the log is then read only.
func (t *Timers) seal() error {
	for k := range t.runs {
		if err := t.pack(&t.runs[k]); err != nil {
			return err
		}
	}
	t.names = nil
	return nil
}

// packTimer appends change c as its differences from p: the line numbers', the
// deadlines' and the lengths' (varints), and the timer's name by number.
func (t *Timers) packTimer(out []byte, p, c *timerAt) []byte {
	out = binary.AppendUvarint(out, c.seq-p.seq)
	out = binary.AppendVarint(out, int64(c.d.At-p.d.At))
	out = binary.AppendVarint(out, int64(c.d.Len-p.d.Len))
	k, ok := t.names[c.d.For]
	if !ok {
		k = len(t.forNames)
		t.forNames = append(t.forNames, c.d.For)
		if t.names == nil {
			t.names = map[string]int{}
		}
		t.names[c.d.For] = k
	}
	return binary.AppendUvarint(out, uint64(k))
}

// at is the process's timer after line seq: its last change at or before it.
func (t *Timers) at(l *timerLog, seq uint64) node.Deadline {
	j := sort.Search(len(l.samples), func(j int) bool { return l.samples[j].seq > seq })
	if j == 0 {
		return node.Deadline{}
	}
	cur := l.samples[j-1]
	p, end := int(l.offs[j-1]), len(l.data)
	if j < len(l.offs) {
		end = int(l.offs[j])
	}
	for p < end {
		dseq, a := binary.Uvarint(l.data[p:])
		if cur.seq+dseq > seq {
			break
		}
		dat, b := binary.Varint(l.data[p+a:])
		dlen, c := binary.Varint(l.data[p+a+b:])
		name, d := binary.Uvarint(l.data[p+a+b+c:])
		p += a + b + c + d
		cur.seq += dseq
		cur.d = node.Deadline{For: t.forNames[name], At: cur.d.At + time.Duration(dat), Len: cur.d.Len + time.Duration(dlen)}
	}
	return cur.d
}
