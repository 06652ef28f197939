package export

import (
	"slices"
	"strconv"
	"strings"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/node"
)

// FoldAbove is the node count beyond which a report folds what it says of every
// node: lists of ids, rows that are the same for many nodes, the participants of
// its diagram.
const FoldAbove = 12

// FoldNamed is how many runs of ids a folded list names before it gives a count.
const FoldNamed = 8

// idList renders ids for people, joined by sep: each as it is, or, folded, runs of
// three ids or more that follow each other as "n5…n300 (296 nodes)", and after
// FoldNamed runs the count of the ids left ("… 140 more").
type idList func(ids []node.ID, sep string) string

// plainIDs is the idList that folds nothing.
func plainIDs(ids []node.ID, sep string) string { return joinIDs(ids, sep) }

// foldedIDs is the idList that folds, in l.
func foldedIDs(l lang.Lang) idList {
	return func(ids []node.ID, sep string) string {
		type item struct {
			text string
			n    int
		}
		var items []item
		for i := 0; i < len(ids); {
			j := i + 1
			for j < len(ids) && ids[j] == ids[j-1]+1 {
				j++
			}
			if n := j - i; n >= 3 {
				items = append(items, item{ids[i].String() + "…" + ids[j-1].String() + " " + l.F("sim.nodes", thousands(n)), n})
			} else {
				for _, id := range ids[i:j] {
					items = append(items, item{id.String(), 1})
				}
			}
			i = j
		}
		var parts []string
		for i, it := range items {
			if i == FoldNamed {
				left := 0
				for _, x := range items[i:] {
					left += x.n
				}
				parts = append(parts, l.F("sim.more", left))
				break
			}
			parts = append(parts, it.text)
		}
		return strings.Join(parts, sep)
	}
}

// thousands writes n with a comma between groups of three digits: 3,996.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// rowRun is a run of nodes whose rows in a table are the same.
type rowRun struct {
	first, last node.ID
	n           int
	cells       string
}

// foldRows folds a table's rows, one per node in order, into runs of nodes whose
// cells are the same, when fold is set; label names a run.
func foldRows(ids []node.ID, cells []string, fold bool) []rowRun {
	var runs []rowRun
	for i, id := range ids {
		if k := len(runs) - 1; fold && k >= 0 && runs[k].cells == cells[i] {
			runs[k].last, runs[k].n = id, runs[k].n+1
			continue
		}
		runs = append(runs, rowRun{first: id, last: id, n: 1, cells: cells[i]})
	}
	return runs
}

// label names a run of rows: "n4", or "n5…n300 (296 nodes)".
func (r rowRun) label(l lang.Lang) string {
	if r.n == 1 {
		return r.first.String()
	}
	return r.first.String() + "…" + r.last.String() + " " + l.F("sim.nodes", thousands(r.n))
}

// FlurryAfter is how many leader changes in a row (no fault, marker or alert
// between them) a report at scale lists one by one: more are one row.
const FlurryAfter = 3

// leaderFlurry is leader changes in a row folded into one row of a report at
// scale: after a recovery, hundreds of nodes may name the old and the new leader
// in turn for a few milliseconds, a change each, and the table would be a wall.
// It holds the nodes and leaders it has seen (at most the cluster) and its last
// change, not every change.
type leaderFlurry struct {
	changes int
	last    *leaderChange
	nodes   map[node.ID]bool
	leaders map[node.ID]bool
}

func (f *leaderFlurry) add(c *leaderChange) {
	f.changes++
	f.last = c
	for _, id := range c.Nodes {
		f.nodes[id] = true
	}
	f.leaders[c.Leader] = true
}

// addLeaderChange puts a leader change in the report's table: its own row, or,
// at scale, in the flurry that the changes before it in a row make.
func (r *report) addLeaderChange(c *leaderChange) {
	tl := r.timeline
	if !r.fold {
		r.timeline = append(tl, timelineRow{t: c.T, kind: "leader", leader: c})
		return
	}
	if n := len(tl); n > 0 && tl[n-1].flurry != nil {
		tl[n-1].flurry.add(c)
		return
	}
	k := 0 // leader changes in a row at the table's end
	for k < len(tl) && tl[len(tl)-1-k].leader != nil {
		k++
	}
	if k < FlurryAfter {
		r.timeline = append(tl, timelineRow{t: c.T, kind: "leader", leader: c})
		return
	}
	f := &leaderFlurry{nodes: map[node.ID]bool{}, leaders: map[node.ID]bool{}}
	for _, row := range tl[len(tl)-k:] {
		f.add(row.leader)
	}
	f.add(c)
	first := tl[len(tl)-k].t
	r.timeline = append(tl[:len(tl)-k], timelineRow{t: first, kind: "leader", flurry: f})
}

// changeText is a leader change for the report's table: "n2 n3 → leader n3 (was
// n5), until 1.2s".
func (r *report) changeText(c *leaderChange) string {
	text := c.textIn(r.l, r.list)
	if c.Last > c.T {
		text += r.F("md.until", fmtT(c.Last))
	}
	return text
}

// textIn is the flurry's row: how many changes until when, by which nodes, to
// which leaders, and the last change, where the nodes settled.
func (f *leaderFlurry) textIn(r *report) string {
	sortedIDs := func(set map[node.ID]bool) []node.ID {
		ids := make([]node.ID, 0, len(set))
		for id := range set {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids
	}
	return r.F("md.lc.flurry", thousands(f.changes), fmtT(max(f.last.Last, f.last.T)), r.list(sortedIDs(f.nodes), " "),
		r.list(sortedIDs(f.leaders), ", "), r.changeText(f.last))
}
