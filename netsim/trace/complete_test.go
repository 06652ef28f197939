package trace

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestCompletion: expectations are evaluated only by a result of the same text at
// their time (the scenario's end for one without a time); a recording that ends
// early says where, and how many were not evaluated.
func TestCompletion(t *testing.T) {
	scn, _ := json.Marshal(map[string]any{"expect": []map[string]string{
		{"at": "3s", "that": "agree n5"}, {"at": "7s", "that": "agree n4"}, {"that": "no alert split-brain"}}})
	h := Header{Scenario: scn, Info: Info{Until: 14_000_000}}
	res := func(t int64, text string) Event { return Event{T: t, Text: text} }
	for _, tc := range []struct {
		name    string
		end     int64
		expects []Event
		missing []string
		say     string
	}{
		{"whole", 14_000_000, []Event{res(3e6, "agree n5"), res(7e6, "agree n4"), res(14e6, "no alert split-brain")}, nil, ""},
		{"quit at 3.4s", 3_400_000, []Event{res(3e6, "agree n5"), res(3_400_000, "no alert split-brain")},
			[]string{"agree n4", "no alert split-brain"}, "ended at 3.4s of 14s; 2 of 3 expectations not evaluated"},
		{"a result at another time", 14_000_000, []Event{res(3e6, "agree n5"), res(6e6, "agree n4"), res(14e6, "no alert split-brain")},
			[]string{"agree n4"}, "ran to 14s; 1 of 3 expectations not evaluated"},
		{"ended early, all evaluated", 10_000_000, []Event{res(3e6, "agree n5"), res(7e6, "agree n4"), res(10e6, "no alert split-brain")},
			[]string{"no alert split-brain"}, "ended at 10s of 14s; 1 of 3 expectations not evaluated"},
	} {
		c := CompletionOf(h, tc.end, tc.expects)
		var missing []string
		for _, x := range c.Missing {
			missing = append(missing, x.That)
		}
		if !slices.Equal(missing, tc.missing) || c.String() != tc.say || c.Complete() != (tc.say == "") || c.Expectations != 3 {
			t.Errorf("%s: missing %v, %q, complete %v; want %v, %q", tc.name, missing, c.String(), c.Complete(), tc.missing, tc.say)
		}
	}
	// A scenario without expectations that ran to its end is complete; one that
	// stopped early is not.
	none := Header{Scenario: []byte(`{"name":"x"}`), Info: Info{Until: 5e6}}
	if c := CompletionOf(none, 5e6, nil); !c.Complete() {
		t.Errorf("no expectations, whole: %q", c)
	}
	if c := CompletionOf(none, 1e6, nil); c.Complete() || c.String() != "ended at 1s of 5s" {
		t.Errorf("no expectations, stopped at 1s: %q", c)
	}
}
