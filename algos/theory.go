package algos

import (
	"fmt"
	"strconv"
	"time"

	"github.com/clusterlab/clusterlab/node"
)

// Theory is one textbook figure: the value a metric of a run should take under the
// configuration it was computed for, the formula as the source writes it, what it
// counts, and the source. Its texts come from one template per kind (Statement,
// Amount), so that neither the number nor its unit can go missing from a label.
type Theory struct {
	// Metric names what is measured, as the sweep's results.csv names it:
	// "sent.total", "sent.ELECTION", "rounds", "per_entry.total", "client_delay_s",
	// "sync_delay_s", "violations_per_entry".
	Metric string
	// Value is the figure for this configuration: the exact value, the bound, or
	// the top of a range.
	Value float64
	// Low is the bottom of a range (Bound == Range); 0 otherwise.
	Low float64
	// Unit is "" for counts and probabilities, "T" for a delay in message times
	// (one-way message delays), which presets.Scenario.Theory turns into seconds
	// ("s") when the delay is constant.
	Unit string
	// Bound is the kind of figure: Exact, AtMost, AtLeast or Range.
	Bound string
	// Formula is the value as the source writes it, in the figure's own unit
	// ("2N−1", "⌈log₂N⌉+1", "2" message times); a range writes both ends
	// ("0", "N") in LowFormula and Formula.
	Formula, LowFormula string
	// Label says what the formula counts and in which case, without the formula:
	// "ELECTION messages (all start, ids increasing)", "messages per entry".
	Label  string
	Source string // the paper or course notes section
}

// The kinds of figure (Theory.Bound).
const (
	Exact   = ""      // the source claims the value
	AtMost  = "max"   // an upper bound (Franklin's rounds)
	AtLeast = "min"   // a lower bound (the token ring's messages per entry)
	Range   = "range" // from Low to Value (the token ring's client delay)
)

// The words of the figures' templates, each a key of lang's phrases so that a
// reader's language can word them: tr in Statement and Amount is lang.Lang.Phrase.
const (
	wordIs      = "= %s"
	wordAtMost  = "≤ %s"
	wordAtLeast = "≥ %s"
	wordRange   = "%s to %s"
	wordTimes   = "%s message times"
	wordSeconds = "%s s"
	wordWhat    = "%s: %s"
)

// TheoryWords lists the template words Statement and Amount ask tr for, so that a
// catalog test can hold every language to them.
var TheoryWords = []string{wordIs, wordAtMost, wordAtLeast, wordRange, wordTimes, wordSeconds, wordWhat}

// Statement is the figure as the source states it, formula, unit and what it
// counts: "= 2N−1: ELECTION messages (…)", "≤ ⌈log₂N⌉+1: rounds", "0 to N message
// times: client delay". tr translates its words and the label; nil keeps English.
func (t Theory) Statement(tr func(string) string) string {
	tr = english(tr)
	f := t.Formula
	if t.Unit == "T" || t.Unit == "s" {
		f = fmt.Sprintf(tr(wordTimes), f)
	}
	return fmt.Sprintf(tr(wordWhat), t.kind(tr, t.LowFormula, f), tr(t.Label))
}

// Amount is the figure's value for this configuration with its unit: "= 15",
// "≤ 64", "0 to 0.04 s".
func (t Theory) Amount(tr func(string) string) string {
	tr = english(tr)
	num := func(v float64) string {
		s := strconv.FormatFloat(v, 'g', 4, 64)
		switch t.Unit {
		case "s":
			s = fmt.Sprintf(tr(wordSeconds), s)
		case "T":
			s = fmt.Sprintf(tr(wordTimes), s)
		}
		return s
	}
	lo := strconv.FormatFloat(t.Low, 'g', 4, 64)
	return t.kind(tr, lo, num(t.Value))
}

// kind words a value of the figure's kind: "= v", "≤ v", "≥ v" or "lo to v".
func (t Theory) kind(tr func(string) string, lo, v string) string {
	switch t.Bound {
	case AtMost:
		return fmt.Sprintf(tr(wordAtMost), v)
	case AtLeast:
		return fmt.Sprintf(tr(wordAtLeast), v)
	case Range:
		return fmt.Sprintf(tr(wordRange), lo, v)
	}
	return fmt.Sprintf(tr(wordIs), v)
}

func english(tr func(string) string) func(string) string {
	if tr == nil {
		return func(s string) string { return s }
	}
	return tr
}

// TheoryConfig is what a theory hook reads: the processes in ring order and the
// parameters (as Build gets them), and the facts of the scenario that some formulas
// need.
type TheoryConfig struct {
	Config
	// CrashRate is the crash rate per process and second of the scenario's fault
	// generator; 0 without one.
	CrashRate float64
	// Crashed lists the processes the script crashes at time 0, before anything
	// else happens (the bully's "the coordinator has failed").
	Crashed []node.ID
	// Delay is the one-way message delay when it is constant; 0 otherwise.
	Delay time.Duration
}

// TheoryFor is spec's figures for c, or none when the spec has no theory or its
// parameters do not read.
func TheoryFor(spec Spec, c TheoryConfig) []Theory {
	if spec.Theory == nil {
		return nil
	}
	return spec.Theory(c)
}
