package explore

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/presets"
)

// The scenario files a search writes: the keys of the scenario format, only those
// that say something, and the script with a comment per action.

type outLatency struct {
	Dist string `toml:"dist"`
	Min  string `toml:"min,omitempty"`
	Mean string `toml:"mean,omitempty"`
	Max  string `toml:"max,omitempty"`
}

type outPreGST struct {
	Latency outLatency `toml:"latency,inline"`
	Loss    *float64   `toml:"loss,omitempty"`
}

type outNetwork struct {
	Latency outLatency `toml:"latency,inline"`
	Loss    float64    `toml:"loss"`
	Dup     float64    `toml:"dup"`
	GST     string     `toml:"gst"`
	Delta   string     `toml:"delta"`
	PreGST  outPreGST  `toml:"pre_gst"`
}

type outMonitors struct {
	Settle     string `toml:"settle"`
	Starvation string `toml:"starvation"`
	SplitGrace string `toml:"split_grace"`
}

type outLink struct {
	From    string      `toml:"from"`
	To      string      `toml:"to"`
	Loss    *float64    `toml:"loss,omitempty"`
	Dup     *float64    `toml:"dup,omitempty"`
	Latency *outLatency `toml:"latency,inline,omitempty"`
}

type outScenario struct {
	Name        string         `toml:"name"`
	Description string         `toml:"description,multiline"`
	Algorithm   string         `toml:"algorithm"`
	Nodes       int            `toml:"nodes,omitempty"`
	IDs         []int          `toml:"ids,omitempty"`
	Seed        uint64         `toml:"seed"`
	Until       string         `toml:"until"`
	Topology    string         `toml:"topology"`
	Edges       [][]string     `toml:"edges,omitempty"`
	Degree      int            `toml:"degree,omitempty"`
	Order       string         `toml:"order,omitempty"`
	Params      map[string]any `toml:"params,omitempty"`
	Network     outNetwork     `toml:"network"`
	Monitors    outMonitors    `toml:"monitors"`
	Links       []outLink      `toml:"links,omitempty"`
}

func writtenLatency(l presets.Latency) outLatency {
	return outLatency{Dist: l.Dist, Min: l.Min, Mean: l.Mean, Max: l.Max}
}

// latencyOut writes a resolved latency as a scenario does.
func latencyOut(l netsim.Latency) outLatency {
	if l.Dist == "constant" {
		return outLatency{Dist: l.Dist, Mean: l.Mean.String()}
	}
	return outLatency{Dist: l.Dist, Min: l.Min.String(), Mean: l.Mean.String(), Max: l.Max.String()}
}

// step is a script action with its story line.
type step struct {
	At    time.Duration
	Do    string
	Story string
}

// expectation is an [[expect]] entry with a comment.
type expectation struct {
	At      string // "" for the end
	That    string
	Comment string
}

// marshalScenario writes s (its script and expectations replaced by steps and
// expects) as a scenario file. Of its [faults] table only end is written, with
// the comment endNote above it: a search's script holds every action explicitly.
func marshalScenario(s *presets.Scenario, steps []step, expects []expectation, endNote string) ([]byte, error) {
	o := outScenario{Name: s.Name, Description: s.Description, Algorithm: s.Algorithm, Nodes: s.Nodes, IDs: s.IDs, Seed: s.Seed,
		Until: s.Until, Topology: s.Topology, Edges: s.Edges, Degree: s.Degree, Order: s.Order, Params: s.Params,
		Network: outNetwork{Latency: writtenLatency(s.Network.Latency), Loss: s.Network.Loss, Dup: s.Network.Dup, GST: s.Network.GST,
			Delta: s.Network.Delta, PreGST: outPreGST{Latency: writtenLatency(s.Network.PreGST.Latency), Loss: s.Network.PreGST.Loss}},
		Monitors: outMonitors{Settle: s.Monitors.Settle, Starvation: s.Monitors.Starvation, SplitGrace: s.Monitors.SplitGrace}}
	if len(s.IDs) > 0 {
		o.Nodes = 0
	}
	for _, l := range s.Links {
		ol := outLink{From: l.From, To: l.To, Loss: l.Loss, Dup: l.Dup}
		if l.Latency != nil {
			x := writtenLatency(*l.Latency)
			ol.Latency = &x
		}
		o.Links = append(o.Links, ol)
	}
	var b bytes.Buffer
	enc := toml.NewEncoder(&b)
	enc.SetIndentTables(false)
	if err := enc.Encode(o); err != nil {
		return nil, err
	}
	if s.Faults != nil && s.Faults.End != "" {
		b.WriteString("\n[faults]\n")
		for _, line := range wrap(endNote, 86) {
			fmt.Fprintf(&b, "# %s\n", line)
		}
		fmt.Fprintf(&b, "end = %q\n", s.Faults.End)
	}
	for _, st := range steps {
		b.WriteString("\n")
		for _, line := range strings.Split(st.Story, "\n") {
			if line != "" {
				fmt.Fprintf(&b, "# %s\n", line)
			}
		}
		fmt.Fprintf(&b, "[[script]]\nat = %q\ndo = %s\n", st.At.String(), quoteTOML(st.Do))
	}
	for _, e := range expects {
		b.WriteString("\n")
		if e.Comment != "" {
			fmt.Fprintf(&b, "# %s\n", e.Comment)
		}
		b.WriteString("[[expect]]\n")
		if e.At != "" {
			fmt.Fprintf(&b, "at = %q\n", e.At)
		}
		fmt.Fprintf(&b, "that = %s\n", quoteTOML(e.That))
	}
	return b.Bytes(), nil
}

// quoteTOML writes s as a TOML string: a literal string when it holds a double
// quote (a marker's text), else a basic one.
func quoteTOML(s string) string {
	if strings.Contains(s, `"`) && !strings.ContainsAny(s, "'\n") {
		return "'" + s + "'"
	}
	return fmt.Sprintf("%q", s)
}

// sortedActions are v's actions in time order, as its scenario's script holds them.
func sortedActions(v *Variant) []netsim.Timed {
	acts := slices.Clone(v.Actions)
	sortTimed(acts)
	return acts
}
