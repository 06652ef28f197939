package lang

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The monitors (package netsim) write their alerts, the alerts' ends and the values
// expectations observed into the trace in English, and the trace stays the same in
// every language. Text translates such a text for the screen: each template below,
// written in en.go with %s for its parts, is read back from the English text, its
// parts translated in turn, and the text rebuilt from l's template.

// monitorOuter are tried first: they hold other texts ("split brain over after 2 s:
// one leader n5"), so a template matching only their tail must not win.
var monitorOuter = []string{"mon.over"}

// monitorKeys are the other templates, tried from the one with the most literal
// text down, so that "%s suspects %s, which is up (%s)" wins over "%s suspects %s".
var monitorKeys = []string{
	"mon.lead", "mon.disagree", "mon.waited", "mon.wentdown", "mon.downnow", "mon.bothlead",
	"mon.nonelead", "mon.onlylead", "mon.noleader", "mon.oneleader", "mon.follow", "mon.nolonger",
	"mon.suspectsup", "mon.beforegst", "mon.aftergst", "mon.nowait", "mon.entered", "mon.noholder",
	"mon.holds", "mon.holdmany", "mon.order", "mon.more", "mon.splitbrain", "mon.falsesusp",
	"mon.starvation", "mon.mutex",
	"obs.curleaders", "obs.leaders", "obs.is", "obs.sent", "obs.falsebefore", "obs.falseafter",
	"obs.believes", "obs.suspects", "obs.alerts",
}

type monitorTemplate struct {
	key string
	re  *regexp.Regexp
}

var monitorTemplates = sync.OnceValue(func() []monitorTemplate {
	literal := func(k string) int { return len(strings.ReplaceAll(en[k], "%s", "")) }
	rest := slices.Clone(monitorKeys)
	slices.SortStableFunc(rest, func(a, b string) int { return literal(b) - literal(a) })
	var out []monitorTemplate
	for _, k := range append(slices.Clone(monitorOuter), rest...) {
		parts := strings.Split(en[k], "%s")
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		out = append(out, monitorTemplate{k, regexp.MustCompile("^" + strings.Join(parts, "(.+?)") + "$")})
	}
	return out
})

// Text translates a text a monitor wrote (an alert, how it ended, what an
// expectation observed) into l; a text no template matches is shown as it is.
func (l Lang) Text(s string) string {
	if s == "" {
		return s
	}
	if l == En || l == "" {
		return english(s)
	}
	k := textKey{l, s}
	textCache.Lock()
	out, ok := textCache.m[k]
	textCache.Unlock()
	if ok {
		return out
	}
	out = l.text(s, 0)
	textCache.Lock()
	if len(textCache.m) >= textCacheMax {
		clear(textCache.m) // a new session's texts, most likely: start over
	}
	textCache.m[k] = out
	textCache.Unlock()
	return out
}

// The dashboard translates the same few alert texts on every frame; reading one
// back through the templates takes dozens of regular expressions, so each text is
// translated once and kept. The cache is bounded: the texts of a run are few, but a
// long session can make new ones.
type textKey struct {
	l Lang
	s string
}

const textCacheMax = 4096

var textCache = struct {
	sync.Mutex
	m map[textKey]string
}{m: map[textKey]string{}}

func (l Lang) text(s string, depth int) string {
	if depth > 4 {
		return s
	}
	for _, t := range monitorTemplates() {
		m := t.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		key, parts := variant(t.key, m[1:])
		args := make([]any, len(parts))
		for i, part := range parts {
			args[i] = l.text(part, depth+1)
		}
		return fmt.Sprintf(l.T(key), args...)
	}
	if _, ok := en["alert."+s]; ok {
		return l.T("alert." + s)
	}
	return l.Word(s)
}

// variant picks the form of template key that fits its parts: key.one when the
// count it starts with is 1 ("1 leader", not "1 leaders"), key.none when a part is
// "-", no process (that part left out: "n1 knows no leader"), else key itself.
func variant(key string, parts []string) (string, []string) {
	if _, ok := en[key+".one"]; ok && len(parts) > 0 && parts[0] == "1" {
		return key + ".one", parts
	}
	if _, ok := en[key+".none"]; ok && slices.Contains(parts, "-") {
		return key + ".none", slices.DeleteFunc(slices.Clone(parts), func(p string) bool { return p == "-" })
	}
	return key, parts
}

// english is a monitor's English text as the screen shows it: the same words,
// in the singular where the count is 1 and without a "-" for no process (the
// trace keeps the text as written).
func english(s string) string {
	for _, t := range monitorTemplates() {
		m := t.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		key, parts := variant(t.key, m[1:])
		if key == t.key {
			return s
		}
		args := make([]any, len(parts))
		for i, p := range parts {
			args[i] = p
		}
		return fmt.Sprintf(en[key], args...)
	}
	return s
}

// AlertKindIn is an alert kind where a line names it in a scenario's terms: as
// the scenario writes it in English ("split-brain", what `no alert` names), by
// its name in l in another language.
func (l Lang) AlertKindIn(kind string) string {
	if l == En || l == "" {
		return kind
	}
	return l.AlertKind(kind)
}

// AlertKind names an alert kind (split-brain, mutex, …) in l.
func (l Lang) AlertKind(kind string) string {
	return l.Or("alert."+kind, strings.ReplaceAll(kind, "-", " "))
}
