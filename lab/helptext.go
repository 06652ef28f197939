package lab

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/charmbracelet/x/term"

	"github.com/clusterlab/clusterlab/lang"
)

// The command line's help speaks the reader's language. Kong takes help texts from
// struct tags, so each tag names a catalog entry (help:"${help_sim_until}" is the
// catalog's "help.sim.until"), and the variables are filled from the catalog of the
// language chosen before parsing: --lang, then CLUSTERLAB_LANG and the locale. The
// words kong writes itself (Usage:, Flags:, …) are replaced in its output.

// argLang is the --lang the arguments give ("--lang pt" or "--lang=pt"), or "".
// Only the help needs it before parsing; a bad value is reported after parsing.
func argLang(args []string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--lang="); ok {
			return v
		}
		if a == "--lang" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// helpVars are the help texts of l as kong variables: catalog key help.sim.until
// becomes help_sim_until.
func helpVars(l lang.Lang) kong.Vars {
	v := kong.Vars{}
	for _, k := range lang.Keys("help.") {
		v[strings.ReplaceAll(k, ".", "_")] = l.T(k)
	}
	return v
}

var (
	helpMoreCmd = regexp.MustCompile(`(?m)^Run "(.*) <command> --help" for more information on a command\.$`)
	helpMore    = regexp.MustCompile(`(?m)^Run "(.*) --help" for more information\.$`)
	helpUsage   = regexp.MustCompile(`(?m)^Usage: `)
	helpTitles  = regexp.MustCompile(`(?m)^(Flags|Commands|Arguments):$`)
)

// helpPrinter prints kong's help with kong's own words in l.
func helpPrinter(l lang.Lang) kong.HelpPrinter {
	return func(o kong.HelpOptions, ctx *kong.Context) error {
		out := ctx.Stdout
		// Kong wraps to the terminal's width, which it reads from COLUMNS or from
		// the *os.File it writes to; it writes to a buffer here, so it is told.
		if f, ok := out.(*os.File); ok && os.Getenv("COLUMNS") == "" {
			if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
				os.Setenv("COLUMNS", strconv.Itoa(w))
				defer os.Unsetenv("COLUMNS")
			}
		}
		var b bytes.Buffer
		ctx.Stdout = &b
		err := kong.DefaultHelpPrinter(o, ctx)
		ctx.Stdout = out
		s := helpMoreCmd.ReplaceAllStringFunc(b.String(), func(m string) string {
			return l.F("help.morecmd", helpMoreCmd.FindStringSubmatch(m)[1])
		})
		s = helpMore.ReplaceAllStringFunc(s, func(m string) string {
			return l.F("help.more", helpMore.FindStringSubmatch(m)[1])
		})
		s = helpUsage.ReplaceAllLiteralString(s, l.T("help.usage")+" ")
		s = helpTitles.ReplaceAllStringFunc(s, func(m string) string {
			return l.T("help." + strings.ToLower(strings.TrimSuffix(m, ":")))
		})
		s = l.Placeholders(s)
		command := ""
		if n := ctx.Selected(); n != nil {
			command = strings.Fields(n.Path())[0]
		}
		s = strings.TrimRight(s, "\n") + "\n\n" + guideLine(l, command) + "\n"
		if _, werr := out.Write([]byte(s)); err == nil {
			err = werr
		}
		return err
	}
}

// newParser builds the command line's parser over target (cli, or a copy of it in
// tests), its help in l.
func newParser(target any, l lang.Lang, opts ...kong.Option) (*kong.Kong, error) {
	return kong.New(target, append(append(helpOptions(l), kong.Name("clusterlab"), kong.UsageOnError()), opts...)...)
}

// helpOptions are the kong options that make the help speak l.
func helpOptions(l lang.Lang) []kong.Option {
	return []kong.Option{
		helpVars(l),
		kong.Help(helpPrinter(l)),
		kong.Description(l.T("help.app")),
		kong.PostBuild(func(k *kong.Kong) error {
			if k.Model.HelpFlag != nil {
				k.Model.HelpFlag.Help = l.T("help.help")
			}
			return nil
		}),
	}
}
