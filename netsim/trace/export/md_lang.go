package export

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// The md report speaks its reader's language; the other exports keep English (they
// are data for other tools). The texts both need are written once, here, in l: the
// English ones are these with lang.En.

// describeIn says what the window selects, in l, its nodes listed by list.
func (w Window) describeIn(l lang.Lang, list idList) string {
	if w.Whole() {
		return l.T("md.window.whole")
	}
	var parts []string
	if w.From > 0 || w.To != math.MaxInt64 {
		to := l.T("md.window.end")
		if w.To != math.MaxInt64 {
			to = fmtT(w.To)
		}
		parts = append(parts, l.F("md.window.span", fmtT(max(w.From, 0)), to))
	}
	if w.FirstSeq != 0 || w.LastSeq != 0 {
		parts = append(parts, l.F("md.window.events", w.FirstSeq, w.LastSeq))
	}
	if w.Nodes != nil {
		parts = append(parts, l.F("md.window.nodes", list(w.Nodes, ", ")))
	}
	return strings.Join(parts, ", ")
}

// faultTextIn describes a fault for people, without its time, in l, its nodes
// listed by list.
func faultTextIn(l lang.Lang, e *trace.Event, list idList) string {
	switch e.Ev {
	case trace.Crash:
		return l.F("fault.crash", e.Node)
	case trace.Recover:
		return l.F("fault.recover", e.Node, e.Inc)
	case trace.Partition:
		return l.F("fault.partition", groupsText(e.Groups, list))
	case trace.Heal:
		return l.T("fault.heal")
	case trace.Cut:
		return l.F("fault.cut", e.From, e.To)
	case trace.Isolate:
		return l.F("fault.isolate", e.Node)
	case trace.GST:
		return "GST"
	case trace.Knob:
		if e.Node != node.None {
			return fmt.Sprintf("%s %v ×%s", l.Or("fault.knob."+e.Name, e.Name), e.Node, e.Value)
		}
		return l.F("fault.set", e.Name, e.Value)
	}
	return e.Ev
}

// textIn is the leader change for people, in l: "n2 n3 → leader n3 (was n5)".
func (c *leaderChange) textIn(l lang.Lang, list idList) string {
	c = c.sorted()
	var who string
	if len(c.Nodes) == 1 && c.Nodes[0] == c.Leader {
		who = l.F("md.lc.leads", c.Leader)
	} else {
		who = l.F("md.lc.to", list(c.Nodes, " "), c.Leader)
	}
	var from []string
	for i, f := range c.From {
		if f != node.None && (i == 0 || f != c.From[i-1]) {
			from = append(from, f.String())
		}
	}
	if len(from) > 0 {
		who += l.F("md.lc.was", strings.Join(from, ", "))
	}
	return who
}

// linkText is a [[links]] override for people, in l: "n4 → n3: latency constant
// 30ms, loss 0.1".
func linkText(l lang.Lang, k presets.Link) string {
	var parts []string
	if k.Latency != nil {
		lat := k.Latency
		text := lat.Dist + " " + cmp.Or(lat.Mean, lat.Min)
		switch lat.Dist {
		case "constant":
		case "uniform":
			text = lat.Dist + " " + lat.Min + " " + lat.Max
		default:
			text = strings.Join([]string{lat.Dist, lat.Min, lat.Mean, lat.Max}, " ")
		}
		parts = append(parts, l.F("md.link.latency", l.Latency(text)))
	}
	if k.Loss != nil {
		parts = append(parts, l.F("md.link.loss", *k.Loss))
	}
	if k.Dup != nil {
		parts = append(parts, l.F("md.link.dup", *k.Dup))
	}
	return l.F("md.link.row", k.From, k.To, strings.Join(parts, ", "))
}

// networkText is the network of the run in one line, in l.
func networkText(l lang.Lang, info *trace.Info) string {
	s := l.F("md.net", l.Latency(info.Latency), info.Loss, info.Dup, fmtT(info.Delta))
	switch {
	case info.GST == 0:
		s += l.T("md.net.sync")
	case info.GST < 0:
		s += l.T("md.net.never")
	default:
		s += l.F("md.net.gst", fmtT(info.GST))
		if info.PreLatency != "" {
			s += l.F("md.net.before", l.Latency(info.PreLatency), info.PreLoss)
		}
	}
	return s
}
