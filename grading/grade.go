package grading

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/session"
)

// Verdict is a file's grade, as grades.csv writes it.
type Verdict string

// The verdicts. Pass is the only good one.
const (
	Pass       Verdict = "pass"       // verified, and every requirement met
	Fail       Verdict = "fail"       // verified, but a requirement is not met
	Edited     Verdict = "edited"     // not what its re-run gives: forged or changed after recording
	Cut        Verdict = "cut"        // no end record: cut short, or the recording was killed
	Foreign    Verdict = "foreign"    // made by other code than this program's algorithm
	Unreadable Verdict = "unreadable" // not a clusterlab recording at all
)

// Row is one file's grade.
type Row struct {
	File      string // as found in the folder
	Verdict   Verdict
	Reason    string // in words
	Scenario  string
	Algorithm string
	Nodes     int
	Events    int
	Hash      string
}

// Files lists the recordings in dir: *.jsonl, *.jsonl.gz and *.jsonl.zst, in name
// order.
func Files(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && (strings.HasSuffix(n, ".jsonl") || strings.HasSuffix(n, ".jsonl.gz") || strings.HasSuffix(n, ".jsonl.zst")) {
			out = append(out, filepath.Join(dir, n))
		}
	}
	slices.Sort(out)
	return out, nil
}

// Grade grades every file, jobs at once (every core for jobs < 1), and returns
// the rows in the files' order. A nil rubric only verifies. Reasons are in l.
func Grade(ctx context.Context, files []string, r *Rubric, jobs int, l lang.Lang) ([]Row, error) {
	rows := make([]Row, len(files))
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(jobs, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rows[i] = gradeOne(ctx, files[i], r, l)
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return rows, ctx.Err()
}

// gradeOne verifies one file, then checks the rubric on it.
func gradeOne(ctx context.Context, path string, r *Rubric, l lang.Lang) Row {
	row := Row{File: path}
	if h, err := session.ReadHeader(path); err == nil {
		var sc struct {
			Name      string `json:"name"`
			Algorithm string `json:"algorithm"`
			Nodes     int    `json:"nodes"`
			IDs       []int  `json:"ids"`
		}
		if json.Unmarshal(h.Scenario, &sc) == nil {
			row.Scenario, row.Algorithm, row.Nodes = sc.Name, sc.Algorithm, max(sc.Nodes, len(sc.IDs))
		}
	}
	v, err := session.Verify(ctx, path, session.VerifyOptions{})
	if err != nil {
		row.Verdict, row.Reason = Unreadable, l.F("grade.unreadable", err)
		return row
	}
	row.Events = v.Events
	switch {
	case v.OK:
		row.Hash = v.Hash
	case v.Field == "code":
		row.Verdict, row.Reason = Foreign, l.F("grade.foreign", v.Reason)
		return row
	case v.Incomplete:
		row.Verdict, row.Reason = Cut, l.F("grade.cut", v.Reason)
		return row
	default:
		row.Verdict, row.Reason = Edited, l.F("grade.edited", v.Reason)
		return row
	}
	t, err := session.ReadTrace(path)
	if err != nil { // it verified a moment ago: the file changed meanwhile
		row.Verdict, row.Reason = Edited, l.F("grade.edited", err)
		return row
	}
	row.Scenario, row.Algorithm, row.Nodes = t.Header.Info.Name, t.Header.Info.Algorithm, len(t.Header.Info.IDs)
	if r == nil {
		row.Verdict, row.Reason = Pass, l.F("grade.verified", v.Events)
		return row
	}
	met := 0
	for _, q := range r.Require {
		if why := unmet(q, t, l); why != "" {
			key := "grade.unmet"
			if q.What != "" { // the teacher's own words, quoted
				key = "grade.unmet.what"
			}
			row.Verdict, row.Reason = Fail, l.F(key, Describe(q, l), why)
			return row
		}
		met++
	}
	row.Verdict, row.Reason = Pass, l.F("grade.pass", v.Events, met)
	return row
}

// Describe says requirement q in words: its own what, or one made from it.
func Describe(q Requirement, l lang.Lang) string {
	if q.What != "" {
		return q.What
	}
	switch q.Kind() {
	case KindScenario:
		switch {
		case len(q.Preset) > 0 && q.MinNodes > 0:
			return l.F("grade.req.presetornodes", strings.Join(q.Preset, ", "), q.MinNodes)
		case len(q.Preset) > 0:
			return l.F("grade.req.preset", strings.Join(q.Preset, ", "))
		}
		return l.F("grade.req.nodes", q.MinNodes)
	case KindAlert:
		if q.Ended {
			return l.F("grade.req.alertended", q.Alert)
		}
		return l.F("grade.req.alert", q.Alert)
	case KindCrash:
		if q.Crash == "leader" {
			return l.T("grade.req.crashleader")
		}
		return l.T("grade.req.crash")
	case KindExpectations:
		return l.T("grade.req.expectations")
	case KindAlgorithm:
		return l.F("grade.req.algorithm", q.Algorithm)
	}
	return ""
}

// unmet says why t does not meet q, or "".
func unmet(q Requirement, t *trace.Trace, l lang.Lang) string {
	info := t.Header.Info
	switch q.Kind() {
	case KindScenario:
		if slices.Contains(q.Preset, info.Name) || (q.MinNodes > 0 && len(info.IDs) >= q.MinNodes) {
			return ""
		}
		return l.F("grade.why.scenario", info.Name, len(info.IDs))
	case KindAlgorithm:
		if info.Algorithm == q.Algorithm {
			return ""
		}
		return l.F("grade.why.algorithm", info.Algorithm)
	case KindAlert:
		raised := false
		for _, e := range t.Events {
			if e.Ev == trace.Alert && e.Kind == q.Alert {
				raised = true
				if !q.Ended {
					return ""
				}
				for _, c := range t.Events {
					if c.Ev == trace.AlertCleared && c.Ref == e.Seq {
						return ""
					}
				}
			}
		}
		if raised {
			return l.F("grade.why.notended", q.Alert)
		}
		return l.F("grade.why.noalert", q.Alert)
	case KindCrash:
		leads := map[node.ID]bool{}
		crashes := 0
		for _, e := range t.Events {
			switch e.Ev {
			case trace.StatusEv:
				if e.Status != nil {
					leads[e.Node] = e.Status.Leader == e.Node
				}
			case trace.Crash:
				crashes++
				if q.Crash == "any" || leads[e.Node] {
					return ""
				}
				leads[e.Node] = false
			}
		}
		if crashes == 0 {
			return l.T("grade.why.nocrash")
		}
		return l.F("grade.why.noleadercrash", crashes)
	case KindExpectations:
		n, failed := 0, []string{}
		for _, e := range t.Events {
			if e.Ev == trace.Expect {
				n++
				if e.OK == nil || !*e.OK {
					failed = append(failed, e.Text)
				}
			}
		}
		switch {
		case n == 0:
			return l.T("grade.why.noexpect")
		case len(failed) > 0:
			return l.F("grade.why.expectfailed", len(failed), n, failed[0])
		}
	}
	return ""
}

// Failed counts the rows that are not a pass.
func Failed(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.Verdict != Pass {
			n++
		}
	}
	return n
}

// ErrNoFiles is a folder with no recording in it.
var ErrNoFiles = errors.New("no recordings")
