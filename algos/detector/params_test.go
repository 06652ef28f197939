package detector

import (
	"errors"
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node/nodetest"
)

func TestRegistered(t *testing.T) {
	want := map[string][]string{
		"pull-dp":      {MsgTestReq, MsgTestRep},
		"heartbeat-dp": {MsgHeartbeat},
		"omega":        {MsgHeartbeat, MsgTestReq, MsgTestRep},
		"omega-cr":     {MsgHeartbeat},
	}
	for _, name := range []string{"pull-dp", "heartbeat-dp", "omega", "omega-cr"} {
		s, ok := algos.Lookup(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		if s.Family != algos.Detector {
			t.Errorf("%s: family %q", name, s.Family)
		}
		if !strings.Contains(s.Source, `course notes 000, "Algoritmo 5.`) {
			t.Errorf("%s: source %q does not cite the course notes", name, s.Source)
		}
		if s.Description == "" || strings.Contains(s.Description, "\n") {
			t.Errorf("%s: description must be one line: %q", name, s.Description)
		}
		if strings.Join(s.Messages, ",") != strings.Join(want[name], ",") {
			t.Errorf("%s: messages %v, want %v", name, s.Messages, want[name])
		}
		// The defaults build, and every default is a valid scenario value.
		if _, err := build(name, nodetest.IDs(3), nil); err != nil {
			t.Errorf("%s: defaults do not build: %v", name, err)
		}
	}
}

func TestParamErrors(t *testing.T) {
	cases := []struct {
		algo   string
		params map[string]any
		name   string // the parameter the error must name
	}{
		{"omega", map[string]any{"detector": "bogus"}, "detector"},
		{"omega", map[string]any{"criterion": "middle"}, "criterion"},
		{"omega", map[string]any{"timeout": "soon"}, "timeout"},
		{"omega", map[string]any{"detector": "pull", "timeout": "-1s"}, "timeout"},
		{"pull-dp", map[string]any{"interval": "0s"}, "interval"},
		{"pull-dp", map[string]any{"delta": int64(5)}, "delta"},
		{"heartbeat-dp", map[string]any{"timeout": "0ms"}, "timeout"},
		{"heartbeat-dp", map[string]any{"delta": "-5ms"}, "delta"},
		{"heartbeat-dp", map[string]any{"interval": "fast"}, "interval"},
		{"omega-cr", map[string]any{"grow": "x"}, "grow"},
		{"omega-cr", map[string]any{"interval": "0s"}, "interval"},
		{"omega-cr", map[string]any{"detector": "pull"}, "detector"}, // not a parameter of omega-cr
	}
	for _, c := range cases {
		f, err := build(c.algo, nodetest.IDs(3), c.params)
		var pe *algos.ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%s %v: got factory %v, error %v; want a *algos.ParamError", c.algo, c.params, f != nil, err)
			continue
		}
		if pe.Name != c.name {
			t.Errorf("%s %v: error names %q, want %q (%v)", c.algo, c.params, pe.Name, c.name, err)
		}
	}
}

func TestParamErrorMessageListsChoices(t *testing.T) {
	_, err := build("omega", nodetest.IDs(3), map[string]any{"detector": "bogus"})
	if err == nil || !strings.Contains(err.Error(), `"bogus"`) || !strings.Contains(err.Error(), `"heartbeat", "pull"`) {
		t.Fatalf("error %v should quote the bad value and list the choices", err)
	}
}
