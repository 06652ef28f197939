package lab

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestInternalsPage holds docs/internals.md to the benchmarks and tests it
// describes: every benchmark, test and fuzz target it names exists, and every benchmark scripts/bench runs is described
// there, so that the page says how each figure of the table is measured. (Running
// them is scripts/bench's job: minutes each.)
func TestInternalsPage(t *testing.T) {
	page, err := os.ReadFile("../docs/internals.md")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../scripts/bench")
	if err != nil {
		t.Fatal(err)
	}
	defined := testFuncs(t, "(?:Benchmark|Test|Fuzz)")
	named := regexp.MustCompile(`(?:Benchmark|Test|Fuzz)[A-Z]\w*`)
	for _, name := range named.FindAllString(string(page), -1) {
		if !defined[name] {
			t.Errorf("docs/internals.md names %s, which no test file defines", name)
		}
	}
	run := regexp.MustCompile(`bench '\^(Benchmark\w+)\$`)
	found := run.FindAllStringSubmatch(string(script), -1)
	if len(found) < 10 {
		t.Fatalf("found %d benchmarks in scripts/bench: its bench lines changed form", len(found))
	}
	for _, m := range found {
		if !strings.Contains(string(page), m[1]) {
			t.Errorf("scripts/bench runs %s, which docs/internals.md does not describe", m[1])
		}
	}
}
