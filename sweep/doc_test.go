package sweep

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestMetricsDocumented: docs/sweeps.md's table of metrics names every metric a
// sweep measures, with the unit its plots label it with, and no other.
func TestMetricsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/sweeps.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "\n## Metrics\n")
	if !ok {
		t.Fatal("docs/sweeps.md has no Metrics section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	row := regexp.MustCompile("(?m)^\\| (`[^|]+) \\| ([^|]+) \\| ")
	name := regexp.MustCompile("`([^`]+)`")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		for _, n := range name.FindAllStringSubmatch(m[1], -1) {
			documented[n[1]] = strings.TrimSpace(m[2])
		}
	}
	for _, d := range metricDefs {
		if u, ok := documented[d.name]; !ok || u != d.unit {
			t.Errorf("docs/sweeps.md: %s has unit %q (documented: %v), want %q", d.name, u, ok, d.unit)
		}
		delete(documented, d.name)
	}
	for n := range documented {
		t.Errorf("docs/sweeps.md documents %s, which no sweep measures", n)
	}
}
