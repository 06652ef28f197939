package explore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
)

// Shrunk is what `clusterlab shrink` made of a failing scenario or recording.
type Shrunk struct {
	Base      *Base
	Variant   *Variant
	Violation Violation // what the shrunk scenario still breaks
	Stats     ShrinkStats
}

// ShrinkFile shrinks a failing scenario file, or a recording (its scenario, with
// its user actions as the script), to the smallest scenario that fails the same
// way: the same alert raised, or the same expectation failing, whichever comes
// first in the run as it is.
func ShrinkFile(ctx context.Context, path string, budget time.Duration) (*Shrunk, error) {
	s, cfg, script, err := loadFailing(path)
	if err != nil {
		return nil, err
	}
	if budget <= 0 {
		budget = DefaultShrinkTime
	}
	b, err := NewBase(s, cfg)
	if err != nil {
		return nil, err
	}
	b.claims = cfg.Expect // every expectation of the scenario may be the one that fails
	v := &Variant{Seed: cfg.Seed, Actions: script}
	sr := &search{b: b, o: Options{ShrinkTime: budget}, props: &properties{kinds: append(Kinds, netsim.AlertKinds...), raised: true},
		until: cfg.Until, horizon: cfg.Until, ctx: ctx, start: time.Now()}
	out, err := sr.run(v)
	if err != nil {
		return nil, err
	}
	if out.storm {
		return nil, &BadInput{fmt.Errorf("%s: its run stops on an event storm, expected a run that ends and fails", path)}
	}
	if out.x == nil {
		return nil, &BadInput{fmt.Errorf("%s: found a run that fails nothing (no alert, and every expectation holds), expected a scenario or recording that fails", path)}
	}
	x := *out.x
	sr.props = &properties{kinds: []string{x.Kind}, raised: true}
	if x.Kind == KindExpect {
		// The same expectation fails the same way: with what the run had instead
		// (agree n4 while n3 leads, not while n5 still does: deleting the crash
		// of the script would fail it too). A claim that no alert is raised fails
		// the same way with any number of them.
		sr.props.expect = x.Text
		if !strings.HasPrefix(x.Text, "no alert ") && !strings.HasPrefix(x.Text, "no open alert ") {
			sr.props.got = x.Got
		}
	}
	nb, nv, nx, st := sr.shrink(v, x)
	return &Shrunk{Base: nb, Variant: nv, Violation: nx, Stats: st}, nil
}

// loadFailing reads a scenario file, or a recording: its scenario and its user
// actions, as a script.
func loadFailing(path string) (*presets.Scenario, netsim.Config, []netsim.Timed, error) {
	var t *trace.Trace
	var s *presets.Scenario
	var err error
	where := path
	if strings.HasSuffix(path, ".toml") || !looksLikeTrace(path) && !traceName(path) {
		s, err = presets.LoadFile(path)
	} else if t, err = session.ReadTrace(path); err == nil {
		s, err = presets.FromJSON(path, t.Header.Scenario)
		where = path + ":1"
	}
	if err != nil {
		return nil, netsim.Config{}, nil, &BadInput{err}
	}
	cfg, err := s.Resolve()
	if err != nil {
		return nil, netsim.Config{}, nil, &BadInput{fmt.Errorf("%s: %v", where, err)}
	}
	script := append([]netsim.Timed(nil), cfg.Script...)
	if t == nil {
		sortTimed(script)
		return s, cfg, script, nil
	}
	for i, e := range t.Events {
		if e.Ev != trace.Action || e.By != "user" {
			continue
		}
		a, err := netsim.ParseAction(e.Text, cfg.IDs)
		if err != nil {
			return nil, netsim.Config{}, nil, &BadInput{fmt.Errorf("%s:%d: %v", path, i+2, err)}
		}
		script = append(script, netsim.Timed{At: time.Duration(e.T) * time.Microsecond, Action: a})
	}
	sortTimed(script)
	return s, cfg, script, nil
}

// looksLikeTrace reports whether the file starts as a trace does (a JSON header,
// or gzip or zstd data).
func looksLikeTrace(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := f.Read(head)
	head = head[:n]
	return n > 0 && (head[0] == '{' || (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) || (n == 4 && string(head) == "\x28\xb5\x2f\xfd"))
}

// traceName reports whether a file's name is a recording's (.jsonl, .trace,
// compressed or not): such a file is read as a recording, whatever it holds, so
// that a damaged one is refused as a recording, not as a scenario.
func traceName(path string) bool {
	path = strings.TrimSuffix(strings.TrimSuffix(path, ".gz"), ".zst")
	return strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".trace")
}

// ShrunkName is where shrink writes by default: FILE-shrunk.toml beside FILE.
func ShrunkName(path string) string {
	ext := filepath.Ext(path)
	if ext == ".gz" || ext == ".zst" {
		path = strings.TrimSuffix(path, ext)
		ext = filepath.Ext(path)
	}
	return strings.TrimSuffix(path, ext) + "-shrunk.toml"
}

// WriteShrunk writes the shrunk scenario to out, with a story line per action,
// and returns the story.
func WriteShrunk(r *Shrunk, src, out string, force bool, l lang.Lang) (string, error) {
	b, v, x := r.Base, r.Variant, r.Violation
	name := strings.TrimSuffix(filepath.Base(out), ".toml")
	desc := fmt.Sprintf("%s%s from %s: %s. Shrunk from %s to %d.", FoundBy, "shrink", filepath.Base(src), x.Text, actionsEn(r.Stats.Before), r.Stats.After)
	s, steps, expects := scenarioOf(b, v, x, name, desc)
	if liveKind(x.Kind) {
		// shrink keeps any alert of the kind raised, open at the end or not.
		expects[0].That = "no alert " + x.Kind
	}
	data, err := marshalScenario(s, steps, expects, "")
	if err != nil {
		return "", err
	}
	_, cfg, err := reread(out, data)
	if err != nil {
		return "", fmt.Errorf("%s: the shrunk scenario does not read back: %v", out, err)
	}
	// The messages the message-level actions name, for the story: from a run of
	// the shrunk scenario, kept in memory.
	var evs collector
	world, err := netsim.New(cfg, &evs)
	if err != nil {
		return "", err
	}
	world.RunUntil(cfg.Until)
	world.Close()
	msgs := map[uint64]sent{}
	for _, e := range evs.sends {
		msgs[e.MID] = sent{e.Msg.Type, e.From, e.To}
	}
	for i, t := range sortedActions(v) {
		steps[i].Story = clause(l, t, msgs)
	}
	// The actions alone: shrink keeps an alert of the kind raised, which may have
	// ended, so its story does not go on past the end of the faults to say the
	// alert is still open (faults.end, if any, has its comment in the file).
	tale := story(l, sortedActions(v), msgs, x, cfg.Until)
	var buf strings.Builder
	for _, line := range wrap(l.F("explore.toml.shrunk", tale), 88) {
		fmt.Fprintf(&buf, "# %s\n", line)
	}
	for _, line := range wrap(l.T("explore.toml.run"), 88) {
		fmt.Fprintf(&buf, "# %s\n", line)
	}
	buf.WriteString("\n")
	expects[0].Comment = l.F("explore.toml.expect", x.Text)
	data, err = marshalScenario(s, steps, expects, l.T("explore.toml.end"))
	if err != nil {
		return "", err
	}
	buf.Write(data)
	o, err := session.CreateOutput(out, force, src)
	if err != nil {
		return "", &BadInput{fmt.Errorf("--out: %w", err)}
	}
	defer o.Abort()
	if _, err := o.Write([]byte(buf.String())); err != nil {
		return "", err
	}
	return tale, o.Commit()
}

// collector keeps the sends of a run.
type collector struct{ sends []trace.Event }

func (c *collector) Record(e *trace.Event) {
	if e.Ev == trace.Send && e.Msg != nil {
		x := *e
		m := *e.Msg
		x.Msg = &m
		c.sends = append(c.sends, x)
	}
}
