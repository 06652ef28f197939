package lang

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The command line's parser (kong) writes its own words: placeholders in the help
// (<command>, [flags], --file=FILE, --n=INT) and its parse errors ("unknown flag
// --x"). Placeholders translates the first, ParseError the second; both read kong's
// English back, as Text reads the monitors'.

// placeholderRe finds kong's placeholders: a flag's value after "=", a positional
// argument or the command in angle brackets, and [flags].
var placeholderRe = regexp.MustCompile(`=(STRING|INT|FLOAT-64|FILE|DIR|FORMAT|LANG|DURATION|SEED|TABLE|OUT)\b|<(command|file|dirs)>|\[flags\]`)

// placeholder is token's text in l: "FILE" is "ph.FILE" in the catalogs,
// "<file>" is "ph.<file>".
func (l Lang) placeholder(token string) string {
	return l.Or("ph."+token, token)
}

// Placeholders replaces kong's placeholders in s with l's. Where a placeholder is
// followed by the padding that aligns a column of help, the padding takes up the
// difference in width, so the column stays where kong put it.
func (l Lang) Placeholders(s string) string {
	if l == En || l == "" {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range placeholderRe.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		old := s[m[0]:m[1]]
		var repl string
		switch {
		case m[2] >= 0:
			repl = "=" + l.placeholder(s[m[2]:m[3]])
		default:
			repl = l.placeholder(old)
		}
		b.WriteString(repl)
		last = m[1]
		// Padding: two spaces or more after the placeholder.
		pad := 0
		for last+pad < len(s) && s[last+pad] == ' ' {
			pad++
		}
		if pad >= 2 {
			want := max(pad+utf8.RuneCountInString(old)-utf8.RuneCountInString(repl), 2)
			b.WriteString(strings.Repeat(" ", want))
			last += pad
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// parseErrors are kong's parse errors, as kong words them, and the catalog key of
// each: its groups fill the key's text in order ("%[2]s" where a text reorders
// them, and a group a text leaves out is only what kong adds in Go's terms).
var parseErrors = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`^unknown flag (\S+)$`), "kong.unknownflag"},
	{regexp.MustCompile(`^unexpected argument (.+)$`), "kong.unexpectedarg"},
	{regexp.MustCompile(`^unexpected flag argument (.+)$`), "kong.unexpectedflagarg"},
	{regexp.MustCompile(`^unexpected token (.+)$`), "kong.unexpectedtoken"},
	{regexp.MustCompile(`^(.+?): expected \S+ value but got "EOL" \(<EOL>\)$`), "kong.novalue"},
	{regexp.MustCompile(`^(.+?): expected \S+ value but got (".*") \(short flag\); perhaps try (.+)\?$`), "kong.shortflag"},
	{regexp.MustCompile(`^(.+?): expected a valid \d+ bit u?int but got (".*")$`), "kong.int"},
	{regexp.MustCompile(`^(.+?): expected an int but got (".*") \(.*\)$`), "kong.int"},
	{regexp.MustCompile(`^(.+?): expected a float but got (".*") \(.*\)$`), "kong.float"},
	{regexp.MustCompile(`^(.+?): expected duration but got (".*?")(?:: .*)?$`), "kong.duration"},
	{regexp.MustCompile(`^(.+?): bool value must be true, 1, yes, false, 0 or no but got (".*")$`), "kong.bool"},
	{regexp.MustCompile(`^(.+?): expected bool but got (".*") \(.*\)$`), "kong.bool"},
	{regexp.MustCompile(`^(.+?): stat (.+): no such file or directory$`), "kong.nofile"},
	{regexp.MustCompile(`^(.+?): (".*") exists but is a directory$`), "kong.isdir"},
	{regexp.MustCompile(`^(.+?): (".*") exists but is not a directory$`), "kong.notdir"},
	{regexp.MustCompile(`^(.+?) must be one of (.+) but got (".*")$`), "kong.enum"},
	{regexp.MustCompile(`^--(\S+) and --(\S+) can't be used together$`), "kong.xor"},
	{regexp.MustCompile(`^missing flags: (.+)$`), "kong.missingflags"},
	{regexp.MustCompile(`^missing positional arguments (.+)$`), "kong.missingargs"},
	{regexp.MustCompile(`^expected one of (.+)$`), "kong.expectedoneof"},
	{regexp.MustCompile(`^expected (".+")$`), "kong.expected"},
	{regexp.MustCompile(`^(.+) is required$`), "kong.required"},
}

// didYouMean is the suggestion kong adds to an unknown flag or argument.
var didYouMean = regexp.MustCompile(`, did you mean (one of )?(.+)\?$`)

// ParseError words an error of the command line's parser in l. In every language,
// English too, it drops what kong says in Go's terms (a value's Go type, "stat",
// "EOL") and says what was found and what was expected, as the lab's own errors
// do. An error no template matches, the lab's own, is returned as it is.
func (l Lang) ParseError(s string) string {
	suffix := ""
	if m := didYouMean.FindStringSubmatchIndex(s); m != nil {
		cands := s[m[4]:m[5]]
		if m[2] >= 0 {
			suffix = l.F("kong.didyoumeanone", cands)
		} else {
			suffix = l.F("kong.didyoumean", cands)
		}
		s = s[:m[0]]
	}
	for _, e := range parseErrors {
		m := e.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		args := make([]any, len(m)-1)
		for i, part := range m[1:] {
			args[i] = l.Placeholders(part)
		}
		return fmt.Sprintf(l.T(e.key), args...) + suffix
	}
	if suffix != "" {
		return l.Placeholders(s) + suffix
	}
	return s
}
