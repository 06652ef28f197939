package export

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// MermaidMaxText is Mermaid's default maxTextSize, in characters (UTF-16 code
// units, as JavaScript counts them): a default renderer (GitHub, mermaid.live)
// refuses a larger diagram, so no export writes one.
const MermaidMaxText = 50000

// Mermaid writes a sequenceDiagram of the window (see mermaid). A diagram over
// MermaidMaxText is refused with an error that gives its size and the ways to make
// it smaller.
func Mermaid(out io.Writer, t *trace.Trace, w Window) error {
	var b strings.Builder
	mermaid(&b, t, w, "", 1, nil)
	if n := jsLen(b.String()); n > MermaidMaxText {
		return tooBig(n, w)
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// tooBig is the refusal of a diagram of n characters.
func tooBig(n int, w Window) error {
	what := "the whole trace"
	if !w.Whole() {
		what = "this window (" + w.Describe() + ")"
	}
	return &RefusedError{fmt.Sprintf("the Mermaid diagram of %s is %d characters, over Mermaid's limit of %d: "+
		"narrow it with --from/--to or --nodes, or write numbered diagrams with --split", what, n, MermaidMaxText)}
}

// MermaidParts is the window's diagram cut into consecutive diagrams in time
// order, each at most MermaidMaxText characters. Each part is a whole diagram:
// its participants, a comment naming the events it covers, numbering that goes on
// from the part before (autonumber N), and, when it starts inside a partition, the
// partition shaded from its first line.
func MermaidParts(t *trace.Trace, w Window) ([]string, error) {
	var whole strings.Builder
	var marks []mmMark
	mermaid(&whole, t, w, "", 1, &marks)
	if jsLen(whole.String()) <= MermaidMaxText || len(marks) == 0 {
		if n := jsLen(whole.String()); n > MermaidMaxText {
			return nil, tooBig(n, w)
		}
		return []string{whole.String()}, nil
	}
	// Choose the parts from the whole diagram's line offsets, leaving room for
	// the header and a partition carried over; re-render each and, should one
	// still be too big, choose again with more room.
	header := marks[0].off
	for room := 2000; room < MermaidMaxText/2; room *= 2 {
		parts, ok := splitMermaid(t, w, marks, MermaidMaxText-header-room)
		if ok {
			return parts, nil
		}
	}
	return nil, tooBig(jsLen(whole.String()), w)
}

// splitMermaid renders the parts whose bodies, measured in the whole diagram, are
// at most budget characters each; ok is false if a part came out too big or an
// event alone needs more than the budget.
func splitMermaid(t *trace.Trace, w Window, marks []mmMark, budget int) (parts []string, ok bool) {
	start, arrow := 0, 1
	for start < len(marks) {
		end := start
		base := marks[start].off - marks[start].size
		for end+1 < len(marks) && marks[end+1].off-base <= budget {
			end++
		}
		if marks[end].off-base > budget {
			return nil, false
		}
		pw := w
		pw.FirstSeq, pw.LastSeq = marks[start].seq, marks[end].seq
		var b strings.Builder
		arrow += mermaid(&b, t, pw, "", arrow, nil)
		if jsLen(b.String()) > MermaidMaxText {
			return nil, false
		}
		parts = append(parts, b.String())
		start = end + 1
	}
	return parts, true
}

// mmMark is where the lines of one event end in a diagram: the event's number, the
// length of the diagram after its lines and the length of those lines.
type mmMark struct {
	seq       uint64
	off, size int
}

// jsLen is the length of s as JavaScript counts it (UTF-16 code units), which is
// what Mermaid compares with maxTextSize.
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// mermaid writes the diagram with every line indented by indent, numbering arrows
// from first, and returns the number of arrows drawn. When marks is not nil, it
// gets one mmMark per event that wrote lines (lengths counted as jsLen does).
//
// The diagram has one participant per selected node in id order, autonumbered
// arrows at each message's delivery (->>) or drop (-x) time, notes for crash,
// recover, GST, leader changes, critical sections, cuts, slow nodes, detections,
// markers and alerts, and partitions shaded with rect from partition (or isolate)
// to heal. Sends and timers are not drawn: an arrow is drawn when its fate is
// known.
func mermaid(b *strings.Builder, t *trace.Trace, w Window, indent string, first int, marks *[]mmMark) int {
	info := &t.Header.Info
	ids := w.IDs(info.IDs)
	n := 0 // characters written, as jsLen counts them
	line := func(format string, args ...any) {
		l := indent + fmt.Sprintf(format, args...) + "\n"
		b.WriteString(l)
		n += jsLen(l)
	}
	line("sequenceDiagram")
	line("    %%%% clusterlab: %s (%s, seed %d), %s", oneLine(info.Name), oneLine(info.Algorithm), t.Header.Seed, w.Describe())
	if first > 1 {
		line("    autonumber %d", first)
	} else {
		line("    autonumber")
	}
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
	marked, cur := n, uint64(0) // the length at the last mark, the event being drawn
	mark := func() {
		if marks != nil && n > marked {
			*marks = append(*marks, mmMark{seq: cur, off: n, size: n - marked})
		}
		marked = n
	}
events:
	for i := range t.Events {
		e := &t.Events[i]
		mark()
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
		cur = e.Seq
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
	mark()
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
