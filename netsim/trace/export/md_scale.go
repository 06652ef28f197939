package export

import (
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
