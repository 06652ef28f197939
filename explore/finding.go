package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
)

// FoundBy starts the description of every scenario a search or a shrink writes:
// replay opens such a recording at its first alert.
const FoundBy = "Found by clusterlab "

// Files are the names of a finding's files, without the directory: n counts from 1.
func Files(n int) (toml, tr, md string) {
	stem := fmt.Sprintf("finding-%d", n)
	return stem + ".toml", stem + ".trace", stem + ".md"
}

// scenarioOf is the finding's scenario: the base scenario with v's seed, network,
// end and script, and the property as its one expectation, which the run fails.
// The steps carry no story yet.
func scenarioOf(b *Base, v *Variant, x Violation, name, desc string) (*presets.Scenario, []step, []expectation) {
	s := *b.Scenario
	s.Name, s.Description, s.Seed, s.Faults = name, desc, v.Seed, nil
	if v.Until > 0 {
		s.Until = v.Until.String()
	}
	n := v.Net
	if n.Latency != nil {
		l := latencyOut(*n.Latency)
		s.Network.Latency = presets.Latency{Dist: l.Dist, Min: l.Min, Mean: l.Mean, Max: l.Max}
	}
	if n.Loss != nil {
		s.Network.Loss = *n.Loss
		loss := *n.Loss
		s.Network.PreGST.Loss = &loss
	}
	if n.Dup != nil {
		s.Network.Dup = *n.Dup
	}
	if n.GST != nil {
		s.Network.GST = "never"
		if *n.GST != netsim.Never {
			s.Network.GST = n.GST.String()
		}
	}
	if end, ok := b.endOf(v); ok {
		s.Faults = &presets.Faults{End: end.String()}
	}
	var steps []step
	for _, t := range sortedActions(v) {
		steps = append(steps, step{At: t.At, Do: t.Action.String()})
	}
	e := expectation{That: x.expectation()}
	if x.Kind == KindExpect {
		for _, c := range b.Scenario.Expect {
			if c.That == x.Text {
				e.At = c.At
				break
			}
		}
	}
	return &s, steps, []expectation{e}
}

// writer writes a search's outputs.
type writer struct {
	dir   string
	force bool
	l     lang.Lang
	res   *Result
}

// create opens an output file in the directory, refusing to overwrite unless force.
func (w *writer) create(name string) (*session.Output, error) {
	return session.CreateOutput(filepath.Join(w.dir, name), w.force)
}

// writeFile writes data to the directory's file name.
func (w *writer) writeFile(name string, data []byte) error {
	out, err := w.create(name)
	if err != nil {
		return err
	}
	defer out.Abort()
	if _, err := out.Write(data); err != nil {
		return err
	}
	return out.Commit()
}

// finding writes finding n (from 1): the scenario, its recording (checked to break
// the property where the search found it broken) and its story.
func (w *writer) finding(n int, f *Finding) (FindingJSON, error) {
	b, v, x := f.Base, f.Variant, f.Violation
	tomlName, traceName, mdName := Files(n)
	name := fmt.Sprintf("%s-%s%d", b.Scenario.Name, w.res.unit(), f.Run)
	desc := fmt.Sprintf("%s%s (%s mode, master seed %d, %s %d): %s. Shrunk from %s to %d.",
		FoundBy, "explore", w.res.Mode, w.res.Seed, w.res.unit(), f.Run, meaningEn(x.Kind), actionsEn(f.Shrink.Before), f.Shrink.After)
	s, steps, expects := scenarioOf(b, v, x, name, desc)
	data, err := marshalScenario(s, steps, expects, "")
	if err != nil {
		return FindingJSON{}, err
	}
	parsed, cfg, err := reread(tomlName, data)
	if err != nil {
		return FindingJSON{}, fmt.Errorf("%s: the finding's scenario does not read back: %v", tomlName, err)
	}
	got, evs, err := w.record(traceName, parsed, cfg, b, v, x)
	if err != nil {
		return FindingJSON{}, err
	}
	if got == nil || got.Kind != x.Kind || got.At != x.At {
		return FindingJSON{}, fmt.Errorf("%s: its recording breaks %s at %v, expected it where the search found it (%s at %v): the scenario file does not make the run the search made", tomlName, kindAt(got), atOf(got), x.Kind, x.At)
	}
	msgs := messagesOf(evs)
	for i, t := range sortedActions(v) {
		steps[i].Story = clause(w.l, t, msgs)
	}
	script := scriptOf(b, v)
	expects[0].Comment = w.l.F("explore.toml.expect", w.l.T("explore.meaning."+x.Kind))
	tale := story(w.l, script, msgs, x, cfg.Until)
	var out bytes.Buffer
	for _, line := range wrap(w.l.F("explore.toml.head", tale), 88) {
		fmt.Fprintf(&out, "# %s\n", line)
	}
	for _, line := range wrap(w.l.T("explore.toml.run"), 88) {
		fmt.Fprintf(&out, "# %s\n", line)
	}
	out.WriteString("\n")
	data, err = marshalScenario(s, steps, expects, w.l.T("explore.toml.end"))
	if err != nil {
		return FindingJSON{}, err
	}
	out.Write(data)
	if again, _, err := reread(tomlName, out.Bytes()); err != nil || !sameScenario(again, parsed) {
		return FindingJSON{}, fmt.Errorf("%s: the commented scenario reads back differently (%v)", tomlName, err)
	}
	if err := w.writeFile(tomlName, out.Bytes()); err != nil {
		return FindingJSON{}, err
	}
	md := fmt.Sprintf("# %s: %s (%s)\n\n%s\n\n%s\n%s\n", strings.TrimSuffix(tomlName, ".toml"), w.l.T("explore.meaning."+x.Kind), x.Kind, tale,
		w.l.F("explore.md.found", w.res.Mode, w.l.T("explore.unit."+w.res.unit()), f.Run, w.res.Seed, f.Shrink.Before, f.Shrink.After),
		w.l.F("explore.md.open", traceName, tomlName))
	if err := w.writeFile(mdName, []byte(md)); err != nil {
		return FindingJSON{}, err
	}
	j := FindingJSON{File: strings.TrimSuffix(tomlName, ".toml"), Run: f.Run, Seed: v.Seed, Kind: x.Kind, AtUS: node.Micros(x.At), Alert: x.Text,
		ActionsFound: len(f.Found.Actions), Actions: len(v.Actions), Story: tale,
		Shrink: ShrinkJSON{Candidates: f.Shrink.Candidates, Cached: f.Shrink.Cached, Rounds: f.Shrink.Rounds, Fixpoint: f.Shrink.Fixpoint}}
	if w.res.Mode == ModeRandom {
		p := f.Profile
		j.Profile = &p
	}
	for _, t := range f.Schedule {
		j.Schedule = append(j.Schedule, fmt.Sprintf("%v %s", t.At, t.Action))
	}
	for _, t := range v.Actions {
		j.Script = append(j.Script, ActionJSON{At: t.At.String(), Do: t.Action.String()})
	}
	return j, nil
}

func kindAt(x *Violation) string {
	if x == nil {
		return "nothing"
	}
	return x.Kind
}

func atOf(x *Violation) time.Duration {
	if x == nil {
		return 0
	}
	return x.At
}

// meaningEn is the property's meaning in English, for the scenario's description,
// which the recording's header carries in every language alike.
func meaningEn(kind string) string { return lang.En.T("explore.meaning." + kind) }

// reread parses and resolves a scenario file's text.
func reread(name string, data []byte) (*presets.Scenario, netsim.Config, error) {
	s, err := presets.Parse(name, data)
	if err != nil {
		return nil, netsim.Config{}, err
	}
	cfg, err := s.Resolve()
	return s, cfg, err
}

// sameScenario reports whether two scenarios are the same once resolved.
func sameScenario(a, b *presets.Scenario) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// record runs the finding's scenario into its recording and returns the breach of
// property x's kind that the recording shows, and its events.
func (w *writer) record(name string, s *presets.Scenario, cfg netsim.Config, b *Base, v *Variant, x Violation) (*Violation, []trace.Event, error) {
	out, err := w.create(name)
	if err != nil {
		return nil, nil, err
	}
	defer out.Abort()
	rec, err := session.Record(out, s, cfg)
	if err != nil {
		return nil, nil, err
	}
	world, err := netsim.New(cfg, rec)
	if err != nil {
		rec.Close()
		return nil, nil, err
	}
	world.RunUntil(cfg.Until)
	results := world.Finish()
	alerts := append([]netsim.AlertRecord(nil), world.Alerts()...)
	now := world.Now()
	world.Close()
	if err := rec.End(trace.EndUntil, node.Micros(now)); err != nil {
		return nil, nil, err
	}
	if err := rec.Close(); err != nil {
		return nil, nil, err
	}
	if err := out.Commit(); err != nil {
		return nil, nil, err
	}
	props := &properties{kinds: []string{x.Kind}, liveness: liveKind(x.Kind)}
	got := props.check(b, v, b.withEnd(v, cfg.Script), alerts, results, cfg.Until)
	t, err := session.ReadTrace(filepath.Join(w.dir, name))
	if err != nil {
		return nil, nil, err
	}
	return got, t.Events, nil
}

// wrap breaks text into lines of at most width runes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// copyFile copies a file of one directory to a name in another, for explore merge.
// actionsEn is a count of actions in English, for a finding's description:
// "1 action", "30 actions".
func actionsEn(n int) string {
	if n == 1 {
		return "1 action"
	}
	return fmt.Sprintf("%d actions", n)
}

func copyFile(from, to string, force bool) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := session.CreateOutput(to, force)
	if err != nil {
		return err
	}
	defer out.Abort()
	if _, err := io.Copy(out, in); err != nil {
		return err
	}
	return out.Commit()
}
