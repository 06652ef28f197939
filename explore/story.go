package explore

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// A finding tells its story in the manner of Elle's anomaly reports: one clause
// per action, in time order, and the breach at the end. "n1 asks for the critical
// section at 1.000s; messages n2→n1 are held at 1.001s; …; 2 nodes hold the
// critical section at once: n1, n3 at 1.042s: mutual exclusion violated."

// sent is what the story says of a message: its type and link.
type sent struct {
	typ      string
	from, to node.ID
}

// messagesOf reads the messages of a recording by id.
func messagesOf(evs []trace.Event) map[uint64]sent {
	out := map[uint64]sent{}
	for _, e := range evs {
		if e.Ev == trace.Send && e.Msg != nil {
			out[e.MID] = sent{e.Msg.Type, e.From, e.To}
		}
	}
	return out
}

// clock writes a virtual time as the stories do: seconds with three decimals, or
// microseconds when they matter.
func clock(t time.Duration) string {
	if t%time.Millisecond != 0 {
		return strconv.FormatFloat(t.Seconds(), 'f', 6, 64) + "s"
	}
	return strconv.FormatFloat(t.Seconds(), 'f', 3, 64) + "s"
}

func link(a, b node.ID) string { return fmt.Sprintf("%v→%v", a, b) }

// clause is the story's clause for one action, "" for one it leaves out (markers).
func clause(l lang.Lang, t netsim.Timed, msgs map[uint64]sent) string {
	a, at := t.Action, clock(t.At)
	msg := func(key string, args ...any) string {
		m, ok := msgs[a.MID]
		if !ok {
			return l.F("explore.story.gone", a.Verb, a.MID, at)
		}
		return l.F(key, append([]any{m.typ, link(m.from, m.to)}, args...)...)
	}
	switch a.Verb {
	case "request":
		if a.What == "election" {
			return l.F("explore.story.elect", a.Node, at)
		}
		return l.F("explore.story.ask", a.Node, at)
	case "crash", "recover", "isolate":
		return l.F("explore.story."+a.Verb, a.Node, at)
	case "heal", "gst", netsim.Restore(0).Action.Verb:
		return l.F("explore.story."+a.Verb, at)
	case "partition":
		var gs []string
		for _, g := range a.Groups {
			var ns []string
			for _, id := range g {
				ns = append(ns, id.String())
			}
			gs = append(gs, "{"+strings.Join(ns, ", ")+"}")
		}
		return l.F("explore.story.partition", strings.Join(gs, " | "), at)
	case "cut", "hold", "release":
		return l.F("explore.story."+a.Verb, link(a.Node, a.To), at)
	case "slow":
		if a.Factor == 1 {
			return l.F("explore.story.fast", a.Node, at)
		}
		return l.F("explore.story.slow", a.Node, a.Factor, at)
	case "set":
		switch a.Knob {
		case "latency":
			return l.F("explore.story.latency", a.Latency, at)
		case "dup":
			return l.F("explore.story.dupset", strconv.FormatFloat(a.Value, 'g', -1, 64), at)
		}
		return l.F("explore.story.loss", strconv.FormatFloat(a.Value, 'g', -1, 64), at)
	case "drop", "deliver", "dup":
		return msg("explore.story.msg"+a.Verb, at)
	case "delay":
		return msg("explore.story.msgdelay", a.For, at)
	case "swizzle":
		return l.F("explore.story.swizzle", a.For, at)
	}
	return ""
}

// breach is the story's last clause: the alert, when, and what it means.
func breach(l lang.Lang, x Violation) string {
	return l.F("explore.story.breach", l.Text(x.Text), clock(x.At), l.T("explore.meaning."+x.Kind))
}

// scriptOf is the script of v's run as its story tells it: the actions in time
// order and, in a liveness run whose faults leave something broken, the end of
// every fault (faults.end) where the world takes it.
func scriptOf(b *Base, v *Variant) []netsim.Timed {
	acts := sortedActions(v)
	if end, ok := b.endOf(v); !ok || !b.brokenAt(v, acts, end) {
		return acts
	}
	return b.withEnd(v, acts)
}

// story is the whole story, one sentence. A safety breach ends it. A liveness
// finding's alert is raised while faults may still last, and what makes it a
// finding is that it is still open at the end of the run: its clause stands in
// time order among the actions, and the story ends with the alert still open at
// end.
func story(l lang.Lang, script []netsim.Timed, msgs map[uint64]sent, x Violation, end time.Duration) string {
	live := x.Kind == KindStarvation || x.Kind == KindNoLeader
	var parts []string
	raised := false
	for _, t := range script {
		if live && !raised && t.At > x.At {
			parts = append(parts, l.F("explore.story.alert", l.Text(x.Text), clock(x.At)))
			raised = true
		}
		c := clause(l, t, msgs)
		if c == "" {
			continue
		}
		parts = append(parts, c)
	}
	if raised {
		parts = append(parts, l.F("explore.story.open", clock(end), l.T("explore.meaning."+x.Kind)))
	} else {
		parts = append(parts, breach(l, x))
	}
	return strings.Join(parts, "; ") + "."
}
