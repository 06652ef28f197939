package session

import "errors"

// background runs a compressor in a goroutine of its own. A recorder's writer
// encodes, hashes and writes the lines on the run's second core, and compressing
// them there too made it the slower of the two (a .gz recording took 40 ms where
// its run took 14): the compressor is a third stage, which takes a copy of each
// write. A write's error is reported by the next Flush or Close, which the recorder
// calls at least every 100 ms and at the end; the writes after it are dropped.
type background struct {
	z    compressor
	ops  chan bgOp
	free chan []byte
	done chan struct{}
	err  error // the goroutine's own until done, or until it answers a Flush
}

// bgOp is a write (data), or a Flush (reply), in order.
type bgOp struct {
	data  []byte
	reply chan error
}

func newBackground(z compressor) *background {
	b := &background{z: z, ops: make(chan bgOp, 4), free: make(chan []byte, 4), done: make(chan struct{})}
	go b.run()
	return b
}

func (b *background) run() {
	defer close(b.done)
	for op := range b.ops {
		if op.data != nil {
			if b.err == nil {
				_, b.err = b.z.Write(op.data)
			}
			select {
			case b.free <- op.data[:0]:
			default:
			}
		}
		if op.reply != nil {
			if b.err == nil {
				b.err = b.z.Flush()
			}
			op.reply <- b.err
		}
	}
}

// Write hands a copy of p to the compressor.
func (b *background) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var buf []byte
	select {
	case buf = <-b.free:
	default:
	}
	b.ops <- bgOp{data: append(buf, p...)}
	return len(p), nil
}

// Flush waits until every write so far is compressed and flushed, and reports the
// first error.
func (b *background) Flush() error {
	reply := make(chan error, 1)
	b.ops <- bgOp{reply: reply}
	return <-reply
}

// Close compresses what is left, ends the compressed stream and stops the goroutine.
func (b *background) Close() error {
	close(b.ops)
	<-b.done
	return errors.Join(b.err, b.z.Close())
}
