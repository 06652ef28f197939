package lab

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/clusterlab/clusterlab/presets"
)

// presetsCmd lists the presets, or shows one as a file to start from.
type presetsCmd struct {
	List presetsListCmd `cmd:"" default:"withargs" help:"${help_cmd_presets_list}"`
	Show presetsShowCmd `cmd:"" help:"${help_cmd_presets_show}"`
}

type presetsShowCmd struct {
	Name string `arg:"" help:"${help_presets_name}"`
}

// Run prints the preset's TOML as it is embedded, with comments that say how to
// run a copy and where each part is explained: the printed file, run with sim
// --file, makes the preset's own trace (TestPresetsShowRoundTrips).
func (c presetsShowCmd) Run() error {
	data, err := presets.Raw(c.Name)
	if err != nil {
		return badInput(fmt.Errorf("presets show: found %q, expected one of the presets: %s", c.Name, strings.Join(presets.Names(), ", ")))
	}
	s, err := presets.Load(c.Name)
	if err != nil {
		return err
	}
	// The embedded preset is the binary's own text: printed as it is.
	return showPreset(stdout, c.Name, s.Algorithm, data)
}

// commented are the tables whose first header gets a comment.
var commented = map[string]bool{"network": true, "network.pre_gst": true, "monitors": true,
	"links": true, "script": true, "expect": true, "faults": true}

// tableHeader is a TOML table header line: [params], [[script]].
var tableHeader = regexp.MustCompile(`^\[\[?([a-z_.]+)\]\]?\s*$`)

// showPreset writes the preset's text with a comment above it and one above the
// first header of each table. Lines inside a multi-line string are never touched.
func showPreset(w io.Writer, name, algorithm string, data []byte) error {
	for _, l := range strings.Split(strings.TrimRight(ui.F("presets.show.head", name, algorithm), "\n"), "\n") {
		fmt.Fprintf(w, "# %s\n", l)
	}
	fmt.Fprintln(w)
	inString, seen := false, map[string]bool{}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if m := tableHeader.FindStringSubmatch(line); !inString && m != nil && !seen[m[1]] {
			seen[m[1]] = true
			switch {
			case m[1] == "params":
				fmt.Fprintf(w, "# %s\n", ui.F("presets.show.params", algorithm))
			case commented[m[1]]:
				fmt.Fprintf(w, "# %s\n", ui.T("presets.show."+m[1]))
			}
		}
		if strings.Count(line, `"""`)%2 == 1 || strings.Count(line, "'''")%2 == 1 {
			inString = !inString
		}
		if _, err := io.WriteString(w, line); err != nil {
			return err
		}
	}
	return nil
}
