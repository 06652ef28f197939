package lab

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/algocheck"
	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/explore"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/purity"
	"github.com/clusterlab/clusterlab/session"
)

// check: test an algorithm the way the lab tests its own, one line per check.

type checkCmd struct {
	Name    string `arg:"" help:"${help_check_name}"`
	Sizes   string `help:"${help_check_sizes}" default:"3-16" placeholder:"A-B"`
	Explore int    `help:"${help_check_explore}" default:"100" placeholder:"N"`
	Jobs    int    `help:"${help_check_jobs}"`
	Save    string `help:"${help_check_save}" placeholder:"DIR"`
}

// maxShown is how many failures of one check are listed below its line.
const maxShown = 5

func (c *checkCmd) Run() error {
	spec, ok := algos.Lookup(c.Name)
	if !ok {
		return badInput(fmt.Errorf("NAME: found %q, expected an algorithm this program registers: %s", c.Name, strings.Join(algos.Names(), ", ")))
	}
	sizes, err := parseSizes(c.Sizes)
	if err != nil {
		return badInput(err)
	}
	if c.Explore < 0 {
		return badInput(fmt.Errorf("--explore: found %d, expected a number of runs per preset (0 to skip the search)", c.Explore))
	}
	if c.Jobs < 0 {
		return badInput(fmt.Errorf("--jobs: found %d, expected a positive number (0 for one per processor)", c.Jobs))
	}
	if c.Save == "" {
		c.Save = "check-" + spec.Name
	}
	if fi, err := os.Stat(c.Save); err == nil && !fi.IsDir() {
		return badInput(fmt.Errorf("--save: found %s, a file, expected a folder for what fails", c.Save))
	}
	sig := catchSignals()
	defer sig.stop()
	start := time.Now()
	outln(ui.F("check.head", spec.Name, ui.Family(string(spec.Family)), describeOrigin(spec)))
	failed := 0
	line := func(ok bool, check, text string, details ...string) {
		status := ui.T("check.ok")
		if !ok {
			status = ui.T("check.fail")
			failed++
		}
		outf("%-5s %-12s %s\n", status, ui.T("check.name."+check), text)
		for i, d := range details {
			if i == maxShown {
				outf("%18s%s\n", "", ui.F("check.more", len(details)-maxShown))
				break
			}
			outf("%18s%s\n", "", d)
		}
	}

	// 1. Determinism, and the runs the counts are taken from.
	det := algocheck.Determinism(spec, ui)
	if len(det.Twins) == 0 {
		line(det.Runs > 0, "determinism", ui.F("check.det.ok", det.Runs), det.Skipped...)
	} else {
		var details []string
		for _, t := range det.Twins {
			if t.Event == 0 {
				details = append(details, ui.F("check.det.late", t.Preset))
				continue
			}
			details = append(details, ui.F("check.det.twin", t.Preset, t.Event), "  1: "+clip(t.One), "  2: "+clip(t.Other))
		}
		line(false, "determinism", ui.F("check.det.fail", len(det.Twins), det.Runs), details...)
	}

	// 2. The rules of a state machine, read in the source.
	if dir := spec.Dir(); dir == "" {
		line(false, "rules", ui.T("check.rules.nosource"))
	} else if findings, err := purity.Check(dir, "."); err != nil {
		line(false, "rules", ui.F("check.rules.err", err))
	} else if len(findings) == 0 {
		line(true, "rules", ui.F("check.rules.ok", relative(dir)))
	} else {
		var details []string
		for _, f := range findings {
			details = append(details, fmt.Sprintf("%s:%d: %s", relative(f.Pos.Filename), f.Pos.Line, f.Text(ui)))
		}
		line(false, "rules", ui.Count("check.rules.fail", len(findings)), details...)
	}

	// 3. The family's properties, on every preset with each size.
	props := algocheck.Properties(spec, sizes, c.Jobs, ui)
	if props.OK() {
		var skipped []string
		for _, s := range props.Skipped {
			skipped = append(skipped, ui.F("check.prop.skipped", s))
		}
		line(props.Runs > 0, "properties", ui.F("check.prop.ok", props.Runs, sizes[0], sizes[len(sizes)-1], ui.T("check.prop.what."+string(spec.Family))), skipped...)
	} else {
		var details []string
		for i, f := range props.Failures {
			d := ui.F("check.prop.run", f.Preset, f.Nodes, f.What)
			if i < maxShown { // the runs shown are saved to be run again
				path, err := saveRun(c.Save, f)
				if err != nil {
					return ioError(c.Save, err)
				}
				d += " (" + ui.F("check.prop.saved", path) + ")"
			}
			details = append(details, d)
		}
		line(false, "properties", ui.F("check.prop.fail", len(props.Failures), props.Runs), details...)
	}

	// 4. A bounded search for runs that break a safety property, shrunk.
	search := algocheck.Search(sig.ctx, spec, c.Explore, c.Jobs)
	if sig.interrupted() {
		return sig.err()
	}
	switch {
	case c.Explore == 0:
		outf("%-5s %-12s %s\n", ui.T("check.skip"), ui.T("check.name.explore"), ui.T("check.explore.off"))
	case spec.Family == algos.Detector:
		outf("%-5s %-12s %s\n", ui.T("check.skip"), ui.T("check.name.explore"), ui.T("check.explore.detector"))
	case search.Found == nil:
		line(search.Runs > 0, "explore", ui.F("check.explore.ok", netsim.Thousands(search.Runs), search.Presets, strings.Join(algocheck.SearchFaults(spec.Family), ", ")), search.Skipped...)
	default:
		rep, err := explore.Write(search.Found, search.Options, explore.WriteOptions{Dir: c.Save, Force: true, Lang: ui,
			Source: "check " + spec.Name, Command: "clusterlab " + strings.Join(args, " ")})
		if err != nil {
			return exploreError(err)
		}
		f := rep.Findings[0]
		scenario, recording, _ := explore.Files(1)
		line(false, "explore", ui.F("check.explore.fail", search.Preset, netsim.Thousands(search.Runs)),
			findingLine(filepath.Join(c.Save, f.File), f), "  "+f.Story,
			ui.F("check.explore.replay", filepath.Join(c.Save, recording), filepath.Join(c.Save, scenario)))
	}

	// 5. The textbook's figures the algorithm declares.
	counts := algocheck.Counts(det.Counts)
	switch {
	case spec.Theory == nil:
		outf("%-5s %-12s %s\n", ui.T("check.skip"), ui.T("check.name.counts"), ui.T("check.counts.none"))
	case len(counts) == 0:
		outf("%-5s %-12s %s\n", ui.T("check.skip"), ui.T("check.name.counts"), ui.T("check.counts.nopreset"))
	default:
		var bad []string
		for _, k := range counts {
			if !k.Holds() {
				bad = append(bad, ui.F("check.counts.bad", k.Preset, k.Metric, fmtFloat(k.Measured), bound(k.Bound), fmtFloat(k.Theory), k.Label))
			}
		}
		if len(bad) == 0 {
			line(true, "counts", ui.F("check.counts.ok", len(counts)))
		} else {
			line(false, "counts", ui.F("check.counts.fail", len(bad), len(counts)), bad...)
		}
	}

	outln(ui.F("check.took", time.Since(start).Round(100*time.Millisecond)))
	if failed > 0 {
		return checkFailed(errors.New(ui.F("check.err.failed", spec.Name, failed)))
	}
	return nil
}

// saveRun writes a failing property run's scenario into dir, check's own
// folder of outputs, as a file the student runs again with run --file or sim
// --file. A file of an earlier check is replaced.
func saveRun(dir string, f algocheck.Failure) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	data, err := algocheck.TOML(f.Scenario)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%d.toml", f.Preset, f.Nodes))
	out, err := session.CreateOutput(path, true)
	if err != nil {
		return "", err
	}
	defer out.Abort()
	if _, err := out.Write(data); err != nil {
		return "", err
	}
	return path, out.Commit()
}

// describeOrigin names where an algorithm's code comes from.
func describeOrigin(spec algos.Spec) string {
	if spec.Builtin() {
		return ui.T("check.builtin")
	}
	c := session.CodeOf(spec)
	src := c.Source
	if len(src) > 12 {
		src = src[:12]
	}
	if src == "" {
		src = "?"
	}
	return ui.F("check.origin", c.Package, c.Version, src)
}

// parseSizes reads "3-16" or "5".
func parseSizes(s string) ([]int, error) {
	lo, hi, found := strings.Cut(s, "-")
	a, err1 := strconv.Atoi(lo)
	b, err2 := a, error(nil)
	if found {
		b, err2 = strconv.Atoi(hi)
	}
	if err1 != nil || err2 != nil || a < 2 || b < a || b > 64 {
		return nil, fmt.Errorf("--sizes: found %q, expected a range of process counts such as 3-16 (2 to 64)", s)
	}
	var out []int
	for n := a; n <= b; n++ {
		out = append(out, n)
	}
	return out, nil
}

// relative shows a path from the working directory when it is below it.
func relative(path string) string {
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
	}
	return path
}

// clip shortens a trace line for a terminal.
func clip(s string) string {
	if r := []rune(s); len(r) > 160 {
		return string(r[:157]) + "..."
	}
	return s
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }

func bound(b string) string {
	if b == "max" {
		return "≤"
	}
	return "="
}
