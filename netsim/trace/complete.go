package trace

import (
	"encoding/json"
	"fmt"
	"time"
)

// Completion is how much of its scenario a recording ran: a recording that verifies
// may still have been stopped early (the dashboard quit at 3.4 s of a 12 s
// scenario), its later expectations never evaluated. A grader must see it.
type Completion struct {
	EndT  int64 // where the recording ends, µs
	Until int64 // the scenario's until, µs
	// Expectations is how many the scenario has; Missing are those the recording
	// holds no result of at their time (an expectation without a time is the
	// scenario's end's: one checked at an earlier end does not count).
	Expectations int
	Missing      []ScenarioExpect
}

// ScenarioExpect is one of a scenario's expectations as its header gives it: At
// is "" for the end.
type ScenarioExpect struct {
	At   string `json:"at"`
	That string `json:"that"`
}

// CompletionOf is the completion of a recording whose header is h, that ends at
// endT and holds the expectation results expects (its expect events).
func CompletionOf(h Header, endT int64, expects []Event) Completion {
	var s struct {
		Expect []ScenarioExpect `json:"expect"`
	}
	json.Unmarshal(h.Scenario, &s) // a header that was read has a scenario that decodes
	c := Completion{EndT: endT, Until: h.Info.Until, Expectations: len(s.Expect)}
	used := make([]bool, len(expects))
	for _, x := range s.Expect {
		at := c.Until
		if x.At != "" {
			d, _ := time.ParseDuration(x.At)
			at = d.Microseconds()
		}
		found := false
		for i := range expects {
			if !used[i] && expects[i].T == at && expects[i].Text == x.That {
				used[i], found = true, true
				break
			}
		}
		if !found {
			c.Missing = append(c.Missing, x)
		}
	}
	return c
}

// Complete reports whether the recording reached the scenario's end with every
// expectation evaluated.
func (c Completion) Complete() bool { return c.EndT >= c.Until && len(c.Missing) == 0 }

// String says it as verify does: "ended at 3.4s of 12s; 4 of 5 expectations not
// evaluated", or "" for a complete recording.
func (c Completion) String() string {
	if c.Complete() {
		return ""
	}
	s := fmt.Sprintf("ended at %s of %s", fmtT(c.EndT), fmtT(c.Until))
	if c.EndT >= c.Until {
		s = fmt.Sprintf("ran to %s", fmtT(c.EndT))
	}
	if n := len(c.Missing); n > 0 {
		s += fmt.Sprintf("; %d of %d expectations not evaluated", n, c.Expectations)
	}
	return s
}
