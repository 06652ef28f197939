package netsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// Expectation is a check a scenario makes at an instant, so that `sim` can grade a
// run headless. See ParseExpect for the grammar.
type Expectation struct {
	At   time.Duration
	Text string // as written

	kind  string // leaders agree suspects up down alert sent
	not   bool
	op    string
	k     int
	a, b  node.ID
	word  string // alert kind or message type
	open  bool   // open alert KIND: only the alerts still open count
	atEnd bool
}

// ExpectGrammar summarises the expectation grammar.
const ExpectGrammar = `leaders == K (or <=, >=) | agree nX | suspects nA nB | not suspects nA nB | up nX | down nX | alert KIND | no alert KIND | open alert KIND | no open alert KIND | sent TYPE <= K (or ==, >=) | false-suspicions before|after gst == K (or <=, >=) | leader nA == nB | leader nA == none | leaders in current term == K (or <=, >=) | cs nX == held|wanted|released`

// AlertKinds lists the alerts monitors raise.
var AlertKinds = []string{"split-brain", "no-leader", "mutex", "starvation", "order", alertFalseSuspicion}

// ParseExpect reads one expectation.
func ParseExpect(s string, ids []node.ID) (Expectation, error) {
	p := &parser{src: s, toks: tokenize(s), ids: ids}
	e := Expectation{Text: s}
	if len(p.toks) == 0 {
		return e, p.errAt(1, "found nothing, expected an expectation: %s", ExpectGrammar)
	}
	toks := p.toks
	if toks[0].s == "not" || toks[0].s == "no" {
		e.not = true
		toks = toks[1:]
		p.toks = toks
		if len(toks) == 0 {
			return e, p.errAt(p.end(), "found the end, expected \"suspects nA nB\" or \"alert KIND\" after %q", s)
		}
	}
	head := toks[0]
	e.kind = head.s
	var err error
	switch head.s {
	case "leaders":
		if len(toks) > 3 && toks[1].s == "in" {
			// leaders in current term == K: the live leaders of the newest term any
			// live leader holds; a deposed leader of an older term that still
			// believes it leads (cut off, it has not heard of the newer term) does
			// not count, where "leaders" counts it
			if len(toks) < 4 || toks[2].s != "current" || toks[3].s != "term" {
				return e, p.errAt(toks[1].col, "found %q, expected \"leaders in current term == K\"", s)
			}
			e.word = "current"
			p.toks = toks[3:]
		}
		err = p.compare(&e, "leaders == 1")
	case "cs":
		if err = p.arity(3, "cs nX == held"); err == nil {
			if e.a, err = p.node(toks[1]); err == nil {
				e.word = toks[3].s
				switch {
				case toks[2].s != "==":
					err = p.errAt(toks[2].col, "found %q, expected ==", toks[2].s)
				case e.word != "held" && e.word != "wanted" && e.word != "released":
					err = p.errAt(toks[3].col, "found %q, expected held, wanted or released", e.word)
				}
			}
		}
	case "sent":
		if len(toks) < 2 {
			return e, p.errAt(p.end(), "found the end, expected \"sent TYPE <= K\"")
		}
		e.word = toks[1].s
		p.toks = toks[1:]
		err = p.compare(&e, "sent TYPE <= K")
	case "false-suspicions":
		if len(toks) < 3 || (toks[1].s != "before" && toks[1].s != "after") || toks[2].s != "gst" {
			return e, p.errAt(head.col, "found %q, expected \"false-suspicions before gst == K\" or \"false-suspicions after gst == K\"", s)
		}
		e.word = toks[1].s
		p.toks = toks[2:]
		err = p.compare(&e, "false-suspicions after gst == 0")
	case "leader":
		if err = p.arity(3, "leader nA == nB"); err == nil {
			if e.a, err = p.node(toks[1]); err == nil {
				if toks[2].s != "==" {
					err = p.errAt(toks[2].col, "found %q, expected ==", toks[2].s)
				} else if toks[3].s != "none" {
					e.b, err = p.node(toks[3])
				}
			}
		}
	case "agree", "up", "down":
		if err = p.arity(1, head.s+" nX"); err == nil {
			e.a, err = p.node(toks[1])
		}
	case "suspects":
		if err = p.arity(2, "suspects nA nB"); err == nil {
			if e.a, err = p.node(toks[1]); err == nil {
				e.b, err = p.node(toks[2])
			}
		}
	case "alert", "open":
		// alert KIND counts every alert of KIND raised; open alert KIND only those
		// still open when it is checked (raised, and their condition still holds):
		// a liveness claim, such as explore's findings make.
		usage := "alert KIND"
		if head.s == "open" {
			e.kind, e.open, usage = "alert", true, "open alert KIND"
			if len(toks) > 1 && toks[1].s != "alert" {
				err = p.errAt(toks[1].col, "found %q, expected %q", toks[1].s, usage)
				break
			}
			toks = toks[1:]
			p.toks = toks
		}
		if err = p.arity(1, usage); err == nil {
			e.word = toks[1].s
			if !containsStr(AlertKinds, e.word) {
				err = p.errAt(toks[1].col, "found %q, expected an alert kind: %s", e.word, strings.Join(AlertKinds, ", "))
			}
		}
	default:
		err = p.errAt(head.col, "found %q, expected an expectation: %s", head.s, ExpectGrammar)
	}
	if err == nil && e.not && e.kind != "suspects" && e.kind != "alert" {
		err = p.errAt(1, "found %q, expected \"not suspects nA nB\" or \"no alert KIND\"", s)
	}
	return e, err
}

// compare reads "OP K" after the first word of p.toks.
func (p *parser) compare(e *Expectation, usage string) error {
	if err := p.arity(2, usage); err != nil {
		return err
	}
	op, k := p.toks[1], p.toks[2]
	switch op.s {
	case "==", "<=", ">=":
		e.op = op.s
	default:
		return p.errAt(op.col, "found %q, expected ==, <= or >=", op.s)
	}
	n, err := strconv.Atoi(k.s)
	if err != nil || n < 0 {
		return p.errAt(k.col, "found %q, expected a whole number", k.s)
	}
	e.k = n
	return nil
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// The statuses of an expectation in a Result.
const (
	StatusPass         = "pass"
	StatusFail         = "fail"
	StatusNotEvaluated = "not-evaluated" // its time lies after the run's end
)

// Result is an expectation's outcome.
type Result struct {
	At     time.Duration `json:"-"`
	AtUS   int64         `json:"at_us"`
	AtEnd  bool          `json:"at_end"`
	Text   string        `json:"that"`
	Status string        `json:"status"`
	OK     bool          `json:"-"`
	Got    string        `json:"got"`
}

// check evaluates the expectation against the world now.
func (e *Expectation) check(w *World) Result {
	r := e.evaluate(w)
	r.AtEnd, r.Status = e.atEnd, StatusFail
	if r.OK {
		r.Status = StatusPass
	}
	return r
}

func (e *Expectation) evaluate(w *World) Result {
	r := Result{At: w.now, AtUS: node.Micros(w.now), Text: e.Text}
	switch e.kind {
	case "leaders":
		ls := w.leaders()
		if e.word == "current" {
			var term int64
			for _, id := range ls {
				term = max(term, w.proc(id).status.Term)
			}
			var cur []node.ID
			for _, id := range ls {
				if w.proc(id).status.Term == term {
					cur = append(cur, id)
				}
			}
			r.OK = cmp(len(cur), e.op, e.k)
			r.Got = fmt.Sprintf("%d leaders in term %d %s (all leaders %s)", len(cur), term, w.observed(cur, node.None), w.observed(ls, node.None))
			break
		}
		r.OK = cmp(len(ls), e.op, e.k)
		r.Got = fmt.Sprintf("%d leaders %s", len(ls), w.observed(ls, node.None))
	case "cs":
		st := w.proc(e.a).status
		r.OK = w.proc(e.a).up && st.CS.String() == e.word
		r.Got = fmt.Sprintf("%v is %v", e.a, st.CS)
	case "sent":
		n := w.counts.sent(e.word)
		r.OK = cmp(n, e.op, e.k)
		r.Got = fmt.Sprintf("%d %s sent", n, e.word)
	case "false-suspicions":
		n := w.mon.falseBefore
		if e.word == "after" {
			n = w.mon.falseAfter
		}
		r.OK = cmp(n, e.op, e.k)
		r.Got = fmt.Sprintf("%d false suspicions %s GST", n, e.word)
	case "agree":
		r.OK = true
		var views, others []string // those that agree, those that do not
		for _, p := range w.procs {
			if p.up {
				v := fmt.Sprintf("%v→%v", p.id, p.status.Leader)
				if p.status.Leader != e.a {
					r.OK = false
					others = append(others, v)
				}
				views = append(views, v)
			}
		}
		r.OK = r.OK && w.proc(e.a).up
		r.Got = strings.Join(views, " ")
		if len(w.procs) > foldAbove {
			// Those that do not agree first, then the others, up to maxNamed.
			for _, v := range views {
				if !slices.Contains(others, v) {
					others = append(others, v)
				}
			}
			r.Got = namedList(others, false)
		}
	case "leader":
		st := w.proc(e.a).status
		r.OK = st.Leader == e.b
		r.Got = fmt.Sprintf("%v believes %v leads", e.a, st.Leader)
	case "up", "down":
		up := w.proc(e.a).up
		r.OK = up == (e.kind == "up")
		r.Got = fmt.Sprintf("%v is %s", e.a, map[bool]string{true: "up", false: "down"}[up])
	case "suspects":
		s := w.proc(e.a).status.Suspect(e.b)
		r.OK = s != e.not
		r.Got = fmt.Sprintf("%v suspects %s", e.a, w.observed(w.proc(e.a).status.Suspects, e.b))
	case "alert":
		if e.open {
			n := w.alerts.open(e.word)
			r.OK = (n > 0) != e.not
			r.Got = fmt.Sprintf("%d open %s alerts", n, e.word)
			break
		}
		n := w.alerts.count(e.word)
		r.OK = (n > 0) != e.not
		r.Got = fmt.Sprintf("%d %s alerts", n, e.word)
	}
	return r
}

// foldAbove is the node count beyond which what an expectation observed names at
// most maxNamed nodes, those that decide it first, and counts the others: the
// text goes into the trace, and `agree n100000` listed every node.
const foldAbove = 12

// observed renders ids as an expectation's observed text shows them, "[n1 n2]",
// folded beyond foldAbove nodes with first (when set and among them) at the head:
// "[n7 n1 n2 n3 n4 n5 n6 n8] and 142 more".
func (w *World) observed(ids []node.ID, first node.ID) string {
	if len(w.procs) <= foldAbove {
		return fmt.Sprint(ids)
	}
	names := make([]string, 0, len(ids))
	if slices.Contains(ids, first) {
		names = append(names, first.String())
	}
	for _, id := range ids {
		if id != first {
			names = append(names, id.String())
		}
	}
	return namedList(names, true)
}

// namedList joins the first maxNamed of names with spaces, in brackets for a list
// of ids, and counts the others: "n1→n5 n2→n5 … and 292 more", "[n1 n2 n3] and 4
// more".
func namedList(names []string, brackets bool) string {
	s := strings.Join(names[:min(len(names), maxNamed)], " ")
	if brackets {
		s = "[" + s + "]"
	}
	if more := len(names) - maxNamed; more > 0 {
		s += " and " + count(more) + " more"
	}
	return s
}

func cmp(n int, op string, k int) bool {
	switch op {
	case "==":
		return n == k
	case "<=":
		return n <= k
	default:
		return n >= k
	}
}

// AtEnd marks the expectation to be checked when the run ends.
func (e *Expectation) AtEnd() { e.atEnd = true }
