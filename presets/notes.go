package presets

import (
	"regexp"
	"strings"
)

var (
	// notesCite is a citation of the notes: notes NNN, "Title"[, "Title" | and "Title"]…
	notesCite = regexp.MustCompile(`notes (\d{3})((?:,? (?:and )?"[^"]+")+)`)
	quoted    = regexp.MustCompile(`"([^"]+)"`)
)

// Section is the section of the course notes a preset reproduces, read from its
// source line: the notes' file number and the titles the line names first ("003",
// ["Quórum", "Perda de memória"]), and the rest of the line, which says what of it
// the preset shows (the whole line when it does not start with the citation). ok is
// false for a preset that cites no section.
func (s *Scenario) Section() (file string, titles []string, detail string, ok bool) {
	m := notesCite.FindStringSubmatchIndex(s.Source)
	if m == nil {
		return "", nil, "", false
	}
	for _, t := range quoted.FindAllStringSubmatch(s.Source[m[4]:m[5]], -1) {
		titles = append(titles, t[1])
	}
	detail = s.Source
	if m[0] == 0 {
		detail = strings.TrimLeft(s.Source[m[1]:], ":, ")
	}
	return s.Source[m[2]:m[3]], titles, detail, true
}
