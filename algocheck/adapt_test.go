package algocheck

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/presets"
)

func scripts(s *presets.Scenario) []string {
	var out []string
	for _, st := range s.Script {
		out = append(out, st.At+" "+st.Do)
	}
	return out
}

// Adapt keeps a preset's network and script for another algorithm and size:
// actions naming a process beyond the size go, partitions lose those processes,
// markers and expectations go, and parameters the algorithm lacks (or that do
// not fit the size) are left to their defaults.
func TestAdapt(t *testing.T) {
	p, err := presets.Load("bully-split-brain") // partition n1,n2 | n3,n4,n5 at 3s, heal at 8s
	if err != nil {
		t.Fatal(err)
	}
	s, err := Adapt(p, spec(t, "bully"), 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := scripts(s), []string{"3s partition n1,n2 | n3", "8s heal"}; !slices.Equal(got, want) {
		t.Errorf("script %q, want %q", got, want)
	}
	if s.Nodes != 3 || len(s.Expect) != 0 || s.Params["heartbeat"] != "100ms" || s.Network.Latency != p.Network.Latency {
		t.Errorf("adapted: nodes %d, %d expectations, params %v, latency %+v", s.Nodes, len(s.Expect), s.Params, s.Network.Latency)
	}
	s, err = Adapt(p, spec(t, "plant-early"), 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := scripts(s); !slices.Equal(got, []string{"8s heal"}) || len(s.Params) != 0 {
		t.Errorf("2 nodes of another algorithm: script %q, params %v", got, s.Params)
	}
	k, _ := presets.Load("bully-known-crash") // initiators = ["n5"]
	if s, err = Adapt(k, spec(t, "bully"), 3); err != nil {
		t.Fatalf("initiators beyond the size: %v", err)
	}
	if _, set := s.Params["initiators"]; set {
		t.Errorf("initiators kept: %v", s.Params)
	}
}

// The tail heals everything at the preset's end and lets the run settle; a
// detector's last process crashes instead of everyone being revived; mutual
// exclusion loses its crashes and gets a workload.
func TestTail(t *testing.T) {
	p, _ := presets.Load("bully-split-brain")
	s, _ := Adapt(p, spec(t, "bully"), 3)
	e, err := withTail(s, algos.Election, Settle)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(scripts(e), "; ")
	for _, want := range []string{"12s heal", "12s recover n3", "12s gst"} {
		if !strings.Contains(got, want) {
			t.Errorf("election tail %q lacks %q", got, want)
		}
	}
	if e.Until != "22s" {
		t.Errorf("until %s, want 22s", e.Until)
	}
	d, _ := withTail(s, algos.Detector, Settle)
	if got := strings.Join(scripts(d), "; "); !strings.Contains(got, "12s crash n3") || strings.Contains(got, "recover") {
		t.Errorf("detector tail %q", got)
	}
	m, _ := presets.Load("quorum-amnesia") // crashes a coordinator; cs_hold 3s; until 6s
	ms, _ := Adapt(m, spec(t, "quorum"), 4)
	mt, err := withTail(ms, algos.Mutex, Settle)
	if err != nil {
		t.Fatal(err)
	}
	got = strings.Join(scripts(mt), "; ")
	if strings.Contains(got, "crash") || strings.Contains(got, "isolate") || strings.Count(got, "request") != 1 {
		t.Errorf("mutex script %q: want no crash, and no request beyond the preset's (every 6s, twice cs_hold, would be past its end)", got)
	}
	if mt.Monitors.Starvation != "7s" || mt.Until != "20s" {
		t.Errorf("starvation bound %s, until %s: want 2×cs_hold+1s = 7s, and 6s + 14s", mt.Monitors.Starvation, mt.Until)
	}
	c, _ := presets.Load("central") // cs_hold 50ms
	cs, _ := Adapt(c, spec(t, "central"), 3)
	ct, _ := withTail(cs, algos.Mutex, Settle)
	if got := strings.Join(scripts(ct), "; "); !strings.Contains(got, "250ms request n1 cs; 500ms request n2 cs; 750ms request n3 cs; 1s request n1 cs") {
		t.Errorf("central's workload %q: want every process in turn, every 250ms", got)
	}
}

// A run's scenario written as TOML reads back as the same scenario: what
// check --save writes for a student to run again.
func TestTOMLRoundTrip(t *testing.T) {
	for _, name := range []string{"bully-split-brain", "yoyo-bridge", "quorum-amnesia", "dp-gst"} {
		p, _ := presets.Load(name)
		fam := spec(t, p.Algorithm).Family
		s, err := Adapt(p, spec(t, p.Algorithm), 7)
		if err == nil {
			s, err = withTail(s, fam, Settle)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := TOML(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := presets.Parse(name+".toml", data)
		if err != nil {
			t.Fatalf("%s: the TOML does not read back: %v\n%s", name, err, data)
		}
		a, _ := json.Marshal(s)
		b, _ := json.Marshal(back)
		if string(a) != string(b) {
			t.Errorf("%s: read back\n%s\nwant\n%s", name, b, a)
		}
	}
}
