package netsim

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// Action is one step of a scenario script or one user command. Scripts, the
// dashboard's keys and its command line all use the same grammar (see ParseAction).
type Action struct {
	// crash recover partition cut isolate heal slow gst set request marker swizzle,
	// and the message-level verbs hold release drop delay deliver dup
	Verb    string
	Node    node.ID
	To      node.ID       // cut, hold, release: the far end
	Groups  [][]node.ID   // partition
	Factor  int           // slow
	Knob    string        // set: loss, dup or latency
	Value   float64       // set loss / dup
	Latency Latency       // set latency
	What    string        // request: election or cs
	Text    string        // marker
	MID     uint64        // drop, delay, deliver, dup: the message's id (mid) in the trace
	For     time.Duration // delay: by how long; swizzle: how long the clogging lasts
}

// Timed is an action at a virtual instant. Before places a user action inside its
// instant: it came after the instant's events numbered below Before and before the
// rest (see World.Position). Zero, as for every script action, puts it before all
// of them.
type Timed struct {
	At     time.Duration
	Before uint64
	Action Action
}

// SyntaxError is a bad action or expectation: Col is the 1-based column in the text
// where the problem starts.
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("col %d: %s", e.Col, e.Msg) }

// Grammar is the one-line summary of the action grammar, for errors and help.
const Grammar = `crash nX | recover nX | partition n1,n2 | n3,n4 | cut n1->n2 | isolate nX | heal | slow nX 10 | gst | set loss 0.1 | set dup 0.01 | set latency uniform 5ms 20ms | request nX election | request nX cs | marker "text" | swizzle 1s | hold n1->n2 | release n1->n2 | drop #SEQ | delay #SEQ 30ms | deliver #SEQ | dup #SEQ`

// MaxActionDelay bounds the durations of delay and swizzle.
const MaxActionDelay = time.Hour

// DefaultSwizzle is how long a swizzle written without a duration lasts.
const DefaultSwizzle = time.Second

// token is a word of the input with its column.
type token struct {
	s   string
	col int
}

func tokenize(s string) []token {
	var out []token
	i := 0
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		out = append(out, token{s[i:j], i + 1})
		i = j
	}
	return out
}

// parser checks words against the scenario's nodes.
type parser struct {
	src  string
	toks []token
	ids  []node.ID
}

func (p *parser) errAt(col int, format string, args ...any) error {
	return &SyntaxError{Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) end() int { return len(p.src) + 1 }

func (p *parser) node(t token) (node.ID, error) {
	if len(p.ids) == 0 {
		return node.None, p.errAt(t.col, "found %q, but the scenario has no nodes", t.s)
	}
	id, ok := node.ParseID(t.s)
	if !ok || !strings.HasPrefix(t.s, "n") {
		return node.None, p.errAt(t.col, "found %q, expected a node such as %v", t.s, p.ids[0])
	}
	for _, x := range p.ids {
		if x == id {
			return id, nil
		}
	}
	return node.None, p.errAt(t.col, "found %q, expected one of the scenario's nodes (%v … %v)", t.s, p.ids[0], p.ids[len(p.ids)-1])
}

// arity checks that there are exactly n words after the verb.
func (p *parser) arity(n int, usage string) error {
	if len(p.toks)-1 < n {
		return p.errAt(p.end(), "found the end, expected %q", usage)
	}
	if len(p.toks)-1 > n {
		t := p.toks[n+1]
		return p.errAt(t.col, "found %q, expected the end after %q", t.s, usage)
	}
	return nil
}

// ParseAction reads one action. ids are the scenario's nodes.
func ParseAction(s string, ids []node.ID) (Action, error) {
	p := &parser{src: s, toks: tokenize(s), ids: ids}
	if len(p.toks) == 0 {
		return Action{}, p.errAt(1, "found nothing, expected an action: %s", Grammar)
	}
	verb := p.toks[0]
	a := Action{Verb: verb.s}
	var err error
	switch verb.s {
	case "crash", "recover", "isolate":
		if err = p.arity(1, verb.s+" nX"); err == nil {
			a.Node, err = p.node(p.toks[1])
		}
	case "heal", "gst":
		err = p.arity(0, verb.s)
	case "slow":
		if err = p.arity(2, "slow nX 10"); err == nil {
			if a.Node, err = p.node(p.toks[1]); err == nil {
				t := p.toks[2]
				a.Factor, err = strconv.Atoi(t.s)
				if err != nil || a.Factor < 1 || a.Factor > 1000 {
					err = p.errAt(t.col, "found %q, expected a whole factor from 1 to 1000", t.s)
				}
			}
		}
	case "cut", "hold", "release":
		err = p.link(&a)
	case "drop", "deliver", "dup":
		if err = p.arity(1, verb.s+" #SEQ"); err == nil {
			a.MID, err = p.mid(p.toks[1])
		}
	case "delay":
		if err = p.arity(2, "delay #SEQ 30ms"); err == nil {
			if a.MID, err = p.mid(p.toks[1]); err == nil {
				a.For, err = p.duration(p.toks[2], time.Microsecond)
			}
		}
	case "swizzle":
		a.For = DefaultSwizzle
		if len(p.toks) > 1 {
			if err = p.arity(1, "swizzle 1s"); err == nil {
				a.For, err = p.duration(p.toks[1], time.Millisecond)
			}
		}
	case "partition":
		err = p.partition(&a)
	case "set":
		err = p.set(&a)
	case "request":
		if err = p.arity(2, "request nX election|cs"); err == nil {
			if a.Node, err = p.node(p.toks[1]); err == nil {
				a.What = p.toks[2].s
				if a.What != "election" && a.What != "cs" {
					err = p.errAt(p.toks[2].col, "found %q, expected \"election\" or \"cs\"", a.What)
				}
			}
		}
	case "marker":
		err = p.marker(&a)
	default:
		err = p.errAt(verb.col, "found %q, expected an action: %s", verb.s, Grammar)
	}
	if err != nil {
		return Action{}, err
	}
	return a, nil
}

// mid reads a message's id as the trace numbers it: #SEQ.
func (p *parser) mid(t token) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimPrefix(t.s, "#"), 10, 64)
	if !strings.HasPrefix(t.s, "#") || err != nil || n == 0 {
		return 0, p.errAt(t.col, "found %q, expected a message's id as the trace gives it (its mid), such as #12", t.s)
	}
	return n, nil
}

// duration reads a duration from least to MaxActionDelay.
func (p *parser) duration(t token, least time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(t.s)
	if err != nil || d < least || d > MaxActionDelay {
		return 0, p.errAt(t.col, "found %q, expected a duration from %v to %v such as 30ms", t.s, least, MaxActionDelay)
	}
	return d, nil
}

// link reads the one-way link of cut, hold and release.
func (p *parser) link(a *Action) error {
	if err := p.arity(1, a.Verb+" n1->n2"); err != nil {
		return err
	}
	t := p.toks[1]
	from, to, ok := strings.Cut(t.s, "->")
	if !ok {
		return p.errAt(t.col, "found %q, expected a link such as n1->n2", t.s)
	}
	var err error
	if a.Node, err = p.node(token{from, t.col}); err != nil {
		return err
	}
	if a.To, err = p.node(token{to, t.col + len(from) + 2}); err != nil {
		return err
	}
	if a.Node == a.To {
		return p.errAt(t.col, "found %q, expected a link between two different nodes", t.s)
	}
	return nil
}

func (p *parser) partition(a *Action) error {
	if len(p.toks) < 2 {
		return p.errAt(p.end(), "found the end, expected groups such as \"n1,n2 | n3,n4\"")
	}
	seen := map[node.ID]bool{}
	var group []node.ID
	flush := func(col int) error {
		if len(group) == 0 {
			return p.errAt(col, "found an empty group, expected nodes such as n1,n2")
		}
		a.Groups = append(a.Groups, group)
		group = nil
		return nil
	}
	for _, t := range p.toks[1:] {
		// Words may glue bars and commas: "n1,n2|n3" is as good as "n1,n2 | n3".
		col := t.col
		for _, part := range splitKeep(t.s, "|") {
			if part == "|" {
				if err := flush(col); err != nil {
					return err
				}
				col++
				continue
			}
			for _, name := range strings.Split(part, ",") {
				if name != "" {
					id, err := p.node(token{name, col})
					if err != nil {
						return err
					}
					if seen[id] {
						return p.errAt(col, "found %v twice, expected each node in one group", id)
					}
					seen[id] = true
					group = append(group, id)
				}
				col += len(name) + 1
			}
			col--
		}
	}
	if err := flush(p.end()); err != nil {
		return err
	}
	// Nodes left out form one more group: "partition n1,n2" is "n1,n2 | the rest".
	var rest []node.ID
	for _, id := range p.ids {
		if !seen[id] {
			rest = append(rest, id)
		}
	}
	if len(rest) > 0 {
		a.Groups = append(a.Groups, rest)
	}
	if len(a.Groups) < 2 {
		return p.errAt(p.toks[1].col, "found one group with every node, expected at least two groups")
	}
	return nil
}

func splitKeep(s, sep string) []string {
	var out []string
	for {
		i := strings.Index(s, sep)
		if i < 0 {
			if s != "" {
				out = append(out, s)
			}
			return out
		}
		if i > 0 {
			out = append(out, s[:i])
		}
		out = append(out, sep)
		s = s[i+len(sep):]
	}
}

func (p *parser) set(a *Action) error {
	if len(p.toks) < 2 {
		return p.errAt(p.end(), "found the end, expected \"set loss 0.1\", \"set dup 0.01\" or \"set latency uniform 5ms 20ms\"")
	}
	k := p.toks[1]
	a.Knob = k.s
	switch k.s {
	case "loss", "dup":
		if err := p.arity(2, "set "+k.s+" 0.1"); err != nil {
			return err
		}
		t := p.toks[2]
		v, err := strconv.ParseFloat(t.s, 64)
		if err != nil || !(v >= 0 && v <= 1) { // NaN is not a probability
			return p.errAt(t.col, "found %q, expected a probability from 0 to 1", t.s)
		}
		a.Value = v
	case "latency":
		var words []string
		for _, t := range p.toks[2:] {
			words = append(words, t.s)
		}
		l, err := ParseLatency(words)
		if err != nil {
			col := p.end()
			if len(p.toks) > 2 {
				col = p.toks[2].col
			}
			return p.errAt(col, "%v", err)
		}
		a.Latency = l
	default:
		return p.errAt(k.col, "found %q, expected a knob: loss, dup or latency", k.s)
	}
	return nil
}

func (p *parser) marker(a *Action) error {
	rest := strings.TrimSpace(p.src[len("marker"):])
	col := strings.Index(p.src, rest) + 1
	if rest == "" {
		return p.errAt(p.end(), "found the end, expected marker \"text\"")
	}
	text, err := strconv.Unquote(rest)
	if err != nil || !strings.HasPrefix(rest, `"`) {
		return p.errAt(col, "found %s, expected a quoted text such as marker \"watch n5\"", rest)
	}
	a.Text = text
	return nil
}

// String renders the action in the grammar; ParseAction reads it back.
func (a Action) String() string {
	switch a.Verb {
	case "crash", "recover", "isolate":
		return a.Verb + " " + a.Node.String()
	case "slow":
		return fmt.Sprintf("slow %v %d", a.Node, a.Factor)
	case "cut", "hold", "release":
		return fmt.Sprintf("%s %v->%v", a.Verb, a.Node, a.To)
	case "drop", "deliver", "dup":
		return fmt.Sprintf("%s #%d", a.Verb, a.MID)
	case "delay":
		return fmt.Sprintf("delay #%d %v", a.MID, a.For)
	case "swizzle":
		return fmt.Sprintf("swizzle %v", a.For)
	case "partition":
		var gs []string
		for _, g := range a.Groups {
			var ns []string
			for _, id := range g {
				ns = append(ns, id.String())
			}
			gs = append(gs, strings.Join(ns, ","))
		}
		return "partition " + strings.Join(gs, " | ")
	case "set":
		if a.Knob == "latency" {
			return "set latency " + a.Latency.String()
		}
		return "set " + a.Knob + " " + strconv.FormatFloat(a.Value, 'g', -1, 64)
	case "request":
		return fmt.Sprintf("request %v %s", a.Node, a.What)
	case "marker":
		return "marker " + strconv.Quote(a.Text)
	}
	return a.Verb
}

// TwoSides draws a partition of ids into two non-empty sides from r (each id on
// either side with probability ½, drawn again until neither is empty): the
// generated faults' partitions and explore's. ids must hold two ids at least.
func TwoSides(ids []node.ID, r *rand.Rand) [][]node.ID {
	var a, b []node.ID
	for len(a) == 0 || len(b) == 0 {
		a, b = a[:0], b[:0]
		for _, id := range ids {
			if r.IntN(2) == 0 {
				a = append(a, id)
			} else {
				b = append(b, id)
			}
		}
	}
	return [][]node.ID{a, b}
}
