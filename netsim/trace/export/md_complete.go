package export

import "github.com/clusterlab/clusterlab/netsim/trace"

// A report of a recording stopped before its scenario's end (the dashboard quit at
// 3.4 s of 12 s) says so, and lists the expectations it never evaluated, so that a
// grader does not take the ones shown for all of them.

// completion is how much of its scenario the recording ran; a report of a window
// (--from, --to, --nodes) holds only the window's results, and says nothing of it.
func (r *report) completion() trace.Completion {
	if !r.w.Whole() {
		return trace.Completion{}
	}
	end := r.tail.Last
	if r.tail.End != nil {
		end = r.tail.End.T
	}
	expects := make([]trace.Event, len(r.expects))
	for i, e := range r.expects {
		expects[i] = *e
	}
	return trace.CompletionOf(*r.h, end, expects)
}

// writeIncomplete says where the recording ended and what was not evaluated.
func (r *report) writeIncomplete(p func(string, ...any), c trace.Completion) {
	if c.Complete() {
		return
	}
	if c.EndT < c.Until {
		p("%s ", r.F("md.incomplete.end", fmtT(c.EndT), fmtT(c.Until)))
	}
	if n := len(c.Missing); n > 0 {
		p("%s", r.F("md.incomplete.expect", n, c.Expectations))
	}
	p("\n\n")
}

// writeMissing gives the table a row for each expectation not evaluated.
func (r *report) writeMissing(p func(string, ...any), c trace.Completion) {
	for _, x := range c.Missing {
		at := x.At
		if at == "" {
			at = r.T("md.atend")
		}
		p("| %s | %s | **%s** | |\n", mdText(at), mdText(x.That), r.T("sim.notevaluated"))
	}
}
