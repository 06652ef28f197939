package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// scanned is what scanTrace found besides the events.
type scanned struct {
	header trace.Header
	// cut is the last line when it was cut short (a killed recorder), else nil.
	cut []byte
}

// scanTrace reads a trace file and hands each event line, raw and parsed, to f in
// order. A last line that does not parse is a cut tail and is reported in cut; a bad
// line before the end is an error naming it. The line is only valid during f.
// header, if not nil, sees the header before the first event.
func scanTrace(path string, f func(line []byte, e *trace.Event) error, header func(trace.Header)) (*scanned, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rd, err := trace.NewReader(bytes.NewReader(data), path)
	if err != nil {
		return nil, err
	}
	out := &scanned{header: rd.Header}
	if header != nil {
		header(rd.Header)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	sc.Scan() // the header, read above
	for n := 2; sc.Scan(); n++ {
		var e trace.Event
		bad := json.Unmarshal(sc.Bytes(), &e) != nil || e.Ev == "" || (e.IsMessage() && e.Msg == nil)
		if bad {
			line := append([]byte(nil), sc.Bytes()...)
			if !sc.Scan() {
				out.cut = line
				return out, nil
			}
			return nil, fmt.Errorf("%s:%d: bad event line, expected one JSON event", path, n)
		}
		if err := f(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
	}
	return out, sc.Err()
}
