package export

import (
	"encoding/binary"
	"errors"
	"os"
)

// alertMemory is how many bytes of alert records a Perfetto export keeps in
// memory before it moves them to a temporary file (a variable for the tests).
var alertMemory = 256 << 10

// alertChunk is how many bytes of records, once the file is in use, wait in
// memory before they are written to it (a variable for the tests).
var alertChunk = 64 << 10

// pfAlertSize is the size of an alert's record in an alertLog.
const pfAlertSize = 48

// alertLog keeps the window's alerts for Perfetto's layout of the alert tracks:
// fixed-size records numbered in line order, which the first reading adds and
// marks cleared, the layout rewrites in place, and the writing reads in order.
// They stay in memory while they fill less than alertMemory, and go to a
// temporary file beyond (the last ones added wait in a chunk), so that a storm of
// alerts (tens of thousands in a ◊P run before GST) costs disk, not heap.
type alertLog struct {
	f       *os.File
	flushed int    // records in f
	tail    []byte // the records after them
	n       int    // records in all
}

func (a *pfAlert) encode(b []byte) {
	le := binary.LittleEndian
	le.PutUint64(b[0:], a.seq)
	le.PutUint64(b[8:], uint64(a.t))
	le.PutUint64(b[16:], uint64(a.end))
	le.PutUint32(b[24:], uint32(a.kind))
	le.PutUint32(b[28:], uint32(a.tid))
	le.PutUint32(b[32:], uint32(a.lane))
	le.PutUint32(b[36:], uint32(a.atEnd))
	var flags byte
	if a.cleared {
		flags |= 1
	}
	if a.meta {
		flags |= 2
	}
	b[40] = flags
}

func (a *pfAlert) decode(b []byte) {
	le := binary.LittleEndian
	*a = pfAlert{seq: le.Uint64(b[0:]), t: int64(le.Uint64(b[8:])), end: int64(le.Uint64(b[16:])),
		kind: int(le.Uint32(b[24:])), tid: int(int32(le.Uint32(b[28:]))), lane: int(le.Uint32(b[32:])), atEnd: int(le.Uint32(b[36:])),
		cleared: b[40]&1 != 0, meta: b[40]&2 != 0}
}

// add appends a record; it is record l.n-1.
func (l *alertLog) add(a *pfAlert) error {
	l.tail = append(l.tail, make([]byte, pfAlertSize)...)
	a.encode(l.tail[len(l.tail)-pfAlertSize:])
	l.n++
	limit := alertChunk
	if l.f == nil {
		limit = alertMemory
	}
	if len(l.tail) < limit {
		return nil
	}
	if l.f == nil {
		f, err := tempFile("clusterlab-alerts-*")
		if err != nil {
			return err
		}
		l.f = f
	}
	if _, err := l.f.WriteAt(l.tail, int64(l.flushed)*pfAlertSize); err != nil {
		return err
	}
	l.flushed += len(l.tail) / pfAlertSize
	l.tail = l.tail[:0]
	return nil
}

// get reads record k into a.
func (l *alertLog) get(k int, a *pfAlert) error {
	if k >= l.flushed {
		a.decode(l.tail[(k-l.flushed)*pfAlertSize:])
		return nil
	}
	var b [pfAlertSize]byte
	if _, err := l.f.ReadAt(b[:], int64(k)*pfAlertSize); err != nil {
		return errAlertLog(err)
	}
	a.decode(b[:])
	return nil
}

// put writes a over record k.
func (l *alertLog) put(k int, a *pfAlert) error {
	if k >= l.flushed {
		a.encode(l.tail[(k-l.flushed)*pfAlertSize:])
		return nil
	}
	var b [pfAlertSize]byte
	a.encode(b[:])
	_, err := l.f.WriteAt(b[:], int64(k)*pfAlertSize)
	return err
}

func errAlertLog(err error) error {
	return errors.New("reading back the alerts' layout: " + err.Error())
}

// close removes the log's file.
func (l *alertLog) close() { closeTemp(l.f) }
