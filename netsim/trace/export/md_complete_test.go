package export

import (
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/session"
)

// TestReportSaysIncomplete: the report of a recording stopped at 3.4 s of the bully
// preset's 14 s says where it ended and lists the expectations it never evaluated
// (the grading hazard: it listed one of five and said nothing of the
// rest); a whole recording's report says nothing of the kind.
func TestReportSaysIncomplete(t *testing.T) {
	s, cfg, err := session.Open(session.Source{Preset: "bully"})
	if err != nil {
		t.Fatal(err)
	}
	short := export(t, run(t, "bully-short", s, cfg, 3400*time.Millisecond), Flags{Format: "md"})
	for _, want := range []string{
		"The recording ends at 3.4s of the scenario's 14s. 3 of its 4 expectations were not evaluated",
		"| 7s | agree n4 | **NOT EVALUATED** | |",
		"| 12s | agree n5 | **NOT EVALUATED** | |",
		"| end | no alert split-brain | **NOT EVALUATED** | |",
	} {
		if !strings.Contains(short, want) {
			t.Errorf("the report of a recording stopped at 3.4s has no %q", want)
		}
	}
	if whole := export(t, record(t, "bully"), Flags{Format: "md"}); strings.Contains(whole, "NOT EVALUATED") || strings.Contains(whole, "The recording ends at") {
		t.Error("the report of a whole recording says it is incomplete")
	}
}
