package sweep

import (
	"strings"
	"testing"

	"github.com/clusterlab/clusterlab/internal/fuzzbound"
)

// FuzzParse checks that no sweep file makes the parser panic, hang or answer in
// more than one line, starting from the embedded sweeps (scripts/fuzz).
func FuzzParse(f *testing.F) {
	for _, name := range Names() {
		data, _ := embedded.ReadFile("presets/" + name + ".toml")
		f.Add(data)
	}
	f.Add([]byte("base = \"ring\"\nseeds = 2\nseeds = 3\n"))
	f.Add([]byte("\ufeffbase = \"ring\"\n"))
	f.Add([]byte("base = \"ring\"\nname = \"../../x\"\n[axes]\nnodes = [3, 5]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzbound.Input()()
		if _, err := Parse("f.toml", data, ""); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("a message over several lines: %q", err)
		}
	})
}
