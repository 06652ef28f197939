package algocheck

import (
	"bytes"
	"encoding/json"

	"github.com/pelletier/go-toml/v2"

	"github.com/clusterlab/clusterlab/presets"
)

// TOML writes a scenario as a scenario file that reads back the same: what a
// student runs again (`run --file`) to see a failing check in the dashboard.
// Empty fields are left out, as a person would write it.
func TOML(s *presets.Scenario) ([]byte, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	prune(m)
	return toml.Marshal(presets.TOMLValue(m))
}

// prune deletes the empty values of m, recursively.
func prune(m map[string]any) {
	for k, v := range m {
		switch x := v.(type) {
		case map[string]any:
			prune(x)
			if len(x) == 0 {
				delete(m, k)
			}
		case []any:
			for _, e := range x {
				if em, ok := e.(map[string]any); ok {
					prune(em)
				}
			}
			if len(x) == 0 {
				delete(m, k)
			}
		case string:
			if x == "" {
				delete(m, k)
			}
		case nil:
			delete(m, k)
		case json.Number:
			if k == "nodes" && x == "0" || k == "degree" && x == "0" {
				delete(m, k)
			}
		}
	}
}
