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
var placeholderRe = regexp.MustCompile(`=(STRING|INT|FLOAT-64|FILE|DIR|FORMAT|LANG|DURATION|SEED|TABLE|OUT|KIND|CLASS|PATH|AXIS|SIZE|ADDR)\b|<(command|file|dirs|dir|family|name|scenario|topic)>|\[flags\]`)

// The placeholders of the commands added since en.go's list (explore, check, grade,
// new, serve).
func init() {
	extend(map[Lang]map[string]string{
		En: {"ph.KIND": "KIND", "ph.CLASS": "CLASS", "ph.PATH": "PATH", "ph.AXIS": "AXIS", "ph.SIZE": "SIZE", "ph.ADDR": "ADDR",
			"ph.<dir>": "<dir>", "ph.<family>": "<family>", "ph.<name>": "<name>", "ph.<scenario>": "<scenario>"},
		Pt: {"ph.KIND": "TIPO", "ph.CLASS": "CLASSE", "ph.PATH": "CAMINHO", "ph.AXIS": "EIXO", "ph.SIZE": "TAMANHO", "ph.ADDR": "ENDEREÇO",
			"ph.<dir>": "<pasta>", "ph.<family>": "<família>", "ph.<name>": "<nome>", "ph.<scenario>": "<cenário>"},
		Es: {"ph.KIND": "TIPO", "ph.CLASS": "CLASE", "ph.PATH": "RUTA", "ph.AXIS": "EJE", "ph.SIZE": "TAMAÑO", "ph.ADDR": "DIRECCIÓN",
			"ph.<dir>": "<carpeta>", "ph.<family>": "<familia>", "ph.<name>": "<nombre>", "ph.<scenario>": "<escenario>"},
	})
}

// placeholder is token's text in l: "FILE" is "ph.FILE" in the catalogs,
// "<file>" is "ph.<file>".
func (l Lang) placeholder(token string) string {
	return l.Or("ph."+token, token)
}

// Placeholders replaces kong's placeholders in s with l's. On a line of help whose
// text starts after a gap of two spaces or more (a flag and its description), the
// gap takes up the difference in width, so the column stays where kong put it.
func (l Lang) Placeholders(s string) string {
	if l == En || l == "" {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		repl := placeholderRe.ReplaceAllStringFunc(line, func(old string) string {
			if name, ok := strings.CutPrefix(old, "="); ok {
				return "=" + l.placeholder(name)
			}
			return l.placeholder(old)
		})
		if repl == line {
			continue
		}
		if m := helpColumn.FindStringSubmatchIndex(line); m != nil {
			col := utf8.RuneCountInString(line[:m[5]])
			if n := helpColumn.FindStringSubmatchIndex(repl); n != nil {
				width := utf8.RuneCountInString(repl[:n[3]])
				repl = repl[:n[3]] + strings.Repeat(" ", max(col-width, 2)) + repl[n[5]:]
			}
		}
		lines[i] = repl
	}
	return strings.Join(lines, "\n")
}

// helpColumn finds a help line's second column: the text before it (group 1) and
// the gap of two spaces or more before it (group 2).
var helpColumn = regexp.MustCompile(`^(\s*\S(?:\S| \S)*)( {2,})\S`)

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
	// an argument's placeholder (<file>) says nothing the path does not: left out
	{regexp.MustCompile(`^<\w+>: stat (.+): no such file or directory$`), "kong.nofilearg"},
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
