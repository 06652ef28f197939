package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// mermaidMaxText is Mermaid's default maxTextSize: a larger diagram is refused by a
// default renderer, so the export warns in a comment.
const mermaidMaxText = 50000

// Mermaid writes a sequenceDiagram of the window: one participant per selected node
// in id order, autonumbered arrows at each message's delivery (->>) or drop (-x)
// time, notes for crash, recover, GST, leader changes, critical sections, cuts,
// slow nodes, detections, markers and alerts, and partitions shaded with rect from
// partition (or isolate) to heal. Sends and timers are not drawn: an arrow is drawn
// when its fate is known.
func Mermaid(out io.Writer, t *trace.Trace, w Window) error {
	var b strings.Builder
	mermaid(&b, t, w, "")
	bw := bufio.NewWriter(out)
	if b.Len() > mermaidMaxText {
		fmt.Fprintf(bw, "%%%% %d characters, over Mermaid's default maxTextSize (%d): narrow it with --from, --to or --nodes, or raise maxTextSize\n",
			b.Len(), mermaidMaxText)
	}
	bw.WriteString(b.String())
	return bw.Flush()
}

// mermaid writes the diagram with every line indented by indent and returns the
// number of arrows drawn.
func mermaid(b *strings.Builder, t *trace.Trace, w Window, indent string) int {
	info := &t.Header.Info
	ids := w.IDs(info.IDs)
	line := func(format string, args ...any) {
		b.WriteString(indent)
		fmt.Fprintf(b, format, args...)
		b.WriteByte('\n')
	}
	line("sequenceDiagram")
	line("    %%%% clusterlab: %s (%s, seed %d), %s", oneLine(info.Name), oneLine(info.Algorithm), t.Header.Seed, w.Describe())
	line("    autonumber")
	for _, id := range ids {
		line("    participant %v", id)
	}
	if len(ids) == 0 {
		return 0
	}
	all := ids[0].String()
	if len(ids) > 1 {
		all += "," + ids[len(ids)-1].String()
	}
	over := func(id node.ID) string { return id.String() }
	ind := "    "
	note := func(who, text string) { line("%sNote over %s: %s", ind, who, mmText(text)) }

	lead := newLeaders()
	cs := map[node.ID]node.CSState{}
	rect := false // a partition is shaded
	parted := ""  // the partition in force, described, or ""
	var partedAt int64
	open := func() {
		line("    rect rgba(255, 99, 71, 0.15)")
		rect, ind = true, "        "
	}
	closeRect := func() {
		if rect {
			line("    end")
			rect, ind = false, "    "
		}
	}
	started := false
	arrows := 0
events:
	for i := range t.Events {
		e := &t.Events[i]
		if malformed(e) {
			continue
		}
		oldLeader, changed := lead.see(e)
		oldCS := cs[e.Node]
		if e.Ev == trace.StatusEv {
			cs[e.Node] = e.Status.CS
		}
		keep := w.Keep(e)
		if !keep {
			if e.T > w.To || (w.LastSeq != 0 && e.Seq > w.LastSeq) {
				break events
			}
			switch e.Ev {
			case trace.Partition, trace.Isolate:
				parted, partedAt = faultText(e), e.T
			case trace.Heal:
				parted = ""
			}
			continue
		}
		if !started {
			started = true
			if parted != "" {
				open()
				note(all, parted+" (since "+fmtT(partedAt)+")")
			}
		}
		switch e.Ev {
		case trace.Deliver:
			if e.Local {
				continue
			}
			arrows++
			dup := ""
			if e.Dup {
				dup = " (duplicate)"
			}
			line("%s%v->>%v: %s%s", ind, e.From, e.To, mmText(msgLabel(e.Msg)), dup)
		case trace.Drop:
			arrows++
			line("%s%v-x%v: %s", ind, e.From, e.To, mmText(msgLabel(e.Msg)+" (lost: "+e.Reason+")"))
		case trace.Crash:
			note(over(e.Node), "crash")
		case trace.Recover:
			note(over(e.Node), fmt.Sprintf("recover, incarnation %d", e.Inc))
		case trace.GST:
			note(all, "GST: the network is synchronous from here")
		case trace.StatusEv:
			if changed {
				text := "leader " + e.Status.Leader.String()
				if e.Status.Leader == e.Node {
					text = "leads"
				}
				if oldLeader != node.None {
					text += " (was " + oldLeader.String() + ")"
				}
				note(over(e.Node), text)
			}
			if e.Status.CS == node.CSHeld && oldCS != node.CSHeld {
				note(over(e.Node), "enters the critical section")
			} else if oldCS == node.CSHeld && e.Status.CS != node.CSHeld {
				note(over(e.Node), "leaves the critical section")
			}
		case trace.Partition:
			closeRect()
			open()
			parted = faultText(e)
			note(all, parted)
		case trace.Isolate:
			if !rect {
				open()
			}
			parted = faultText(e)
			note(all, parted)
		case trace.Heal:
			closeRect()
			parted = ""
			note(all, "heal")
		case trace.Cut:
			who := ""
			for _, id := range []node.ID{min(e.From, e.To), max(e.From, e.To)} {
				if w.Has(id) {
					if who != "" {
						who += ","
					}
					who += id.String()
				}
			}
			note(who, faultText(e))
		case trace.Knob:
			if e.Name == "slow" && e.Node != node.None {
				note(over(e.Node), faultText(e))
			}
		case trace.Detect:
			note(all, fmt.Sprintf("every live node suspects %v, %s after its crash", e.Node, e.Value))
		case trace.Alert:
			note(all, "alert "+e.Kind+": "+e.Text)
		case trace.Marker:
			note(all, "marker: "+e.Text)
		}
	}
	closeRect()
	return arrows
}

// mmText escapes text for a Mermaid message or note: the characters that end a
// statement or start a comment (";", "#"), "%" (comments), "<", ">" and "&" (HTML)
// become entity codes such as #59;, and the first letter of the word "end" (and of
// "style" and "classDef", which Mermaid's entity pre-pass treats specially) is
// written as an entity code, so that "end" shows as end but cannot close a block;
// so is the first letter of a leading "wrap:" or "nowrap:" (a text directive).
func mmText(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '#' || r == ';' || r == '%' || r == '<' || r == '>' || r == '&':
			fmt.Fprintf(&b, "#%d;", r)
		case (r == 'e' || r == 'E') && wordAt(s, i, "end"),
			(r == 's' || r == 'S') && prefixFold(s[i:], "style"),
			(r == 'c' || r == 'C') && prefixFold(s[i:], "classdef"),
			i == 0 && (prefixFold(s, "wrap:") || prefixFold(s, "nowrap:")):
			fmt.Fprintf(&b, "#%d;", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func prefixFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

// wordAt reports whether s holds the word w (any case) at byte i, not inside a
// longer word.
func wordAt(s string, i int, w string) bool {
	if !prefixFold(s[i:], w) {
		return false
	}
	if i > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:i])
		if isWordRune(r) {
			return false
		}
	}
	if j := i + len(w); j < len(s) {
		r, _ := utf8.DecodeRuneInString(s[j:])
		if isWordRune(r) {
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
