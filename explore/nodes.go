package explore

import (
	"regexp"
	"slices"
	"strconv"

	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
)

// nodeName matches a node's name inside a text: n1, n42.
var nodeName = regexp.MustCompile(`\bn([0-9]+)\b`)

// named lists the nodes the variant's actions and the scenario's settings name:
// those a shrink may not drop.
func named(b *Base, v *Variant) []node.ID {
	var out []node.ID
	add := func(ids ...node.ID) {
		for _, id := range ids {
			if id != node.None && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	for _, t := range v.Actions {
		a := t.Action
		add(a.Node, a.To)
		for _, g := range a.Groups {
			add(g...)
		}
	}
	var texts []string
	for _, e := range b.claims {
		texts = append(texts, e.Text)
	}
	for _, l := range b.Scenario.Links {
		texts = append(texts, l.From, l.To)
	}
	for _, v := range b.Scenario.Params {
		texts = append(texts, paramTexts(v)...)
	}
	for _, t := range texts {
		for _, m := range nodeName.FindAllStringSubmatch(t, -1) {
			if n, err := strconv.Atoi(m[1]); err == nil {
				add(node.ID(n))
			}
		}
	}
	return out
}

// paramTexts are the strings of a parameter's value.
func paramTexts(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, paramTexts(e)...)
		}
		return out
	}
	return nil
}

// renamed is a parameter's value with every node above gone renamed one down.
func renamed(v any, gone node.ID) any {
	switch x := v.(type) {
	case string:
		return renameText(x, gone)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = renamed(e, gone)
		}
		return out
	}
	return v
}

func renameText(s string, gone node.ID) string {
	return nodeName.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(m[1:])
		if node.ID(n) > gone {
			n--
		}
		return "n" + strconv.Itoa(n)
	})
}

func renameID(id, gone node.ID) node.ID {
	if id > gone {
		return id - 1
	}
	return id
}

// dropNodes tries the cluster without each node that nothing names, the last
// first, renumbering the nodes after it. Only clusters given by a node count
// (nodes = N, not ids) on a mesh or a ring shrink so.
func (sh *shrinker) dropNodes() bool {
	b := sh.s.b
	sc := b.Scenario
	if len(sc.IDs) > 0 || len(sc.Edges) > 0 || sc.Topology == "graph" || len(b.IDs) <= 1 || sc.Order == "random" {
		return false
	}
	changed := false
	for k := len(sh.s.b.IDs); k >= 1; k-- {
		gone := node.ID(k)
		if k > len(sh.s.b.IDs) || slices.Contains(named(sh.s.b, sh.v), gone) {
			continue
		}
		nb, ok := sh.s.b.without(gone)
		if !ok {
			continue
		}
		c := sh.v.clone()
		for i := range c.Actions {
			a := &c.Actions[i].Action
			a.Node, a.To = renameID(a.Node, gone), renameID(a.To, gone)
			for gi, g := range a.Groups {
				ng := make([]node.ID, len(g))
				for j, id := range g {
					ng[j] = renameID(id, gone)
				}
				a.Groups[gi] = ng
			}
		}
		old := sh.s
		s2 := *sh.s
		s2.b = nb
		sh.s = &s2
		sh.cache = map[string]*Violation{} // the keys do not name the cluster
		if sh.try(c) {
			changed = true
			continue
		}
		sh.s = old
		if sh.expired() {
			break
		}
	}
	return changed
}

// without is the base scenario without node gone, the nodes after it renamed one
// down, or false when the algorithm refuses the smaller cluster.
func (b *Base) without(gone node.ID) (*Base, bool) {
	s := *b.Scenario
	s.Nodes = len(b.IDs) - 1
	if s.Params != nil {
		s.Params = make(map[string]any, len(b.Scenario.Params))
		for k, v := range b.Scenario.Params {
			s.Params[k] = renamed(v, gone)
		}
	}
	s.Links = slices.Clone(s.Links)
	for i := range s.Links {
		s.Links[i].From, s.Links[i].To = renameText(s.Links[i].From, gone), renameText(s.Links[i].To, gone)
	}
	s.Script, s.Faults = nil, nil
	if end, ok := b.Scenario.FaultsEnd(); ok {
		s.Faults = &presets.Faults{End: end.String()}
	}
	var expect []presets.Expect
	for _, e := range s.Expect {
		expect = append(expect, presets.Expect{At: e.At, That: renameText(e.That, gone)})
	}
	s.Expect = expect
	data, err := marshalScenario(&s, nil, nil, "")
	if err != nil {
		return nil, false
	}
	parsed, err := presets.Parse(s.Name+".toml", data)
	if err != nil {
		return nil, false
	}
	cfg, err := parsed.Resolve()
	if err != nil {
		return nil, false
	}
	nb, err := NewBase(parsed, cfg)
	if err != nil {
		return nil, false
	}
	return nb, true
}
