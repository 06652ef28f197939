package all

import (
	"testing"
	"unicode/utf8"

	"github.com/clusterlab/clusterlab/algos"
)

// Every message type an algorithm sends has a short label of one to four letters,
// distinct from its other types' labels, so that a narrow timeline lane never
// shows a type cut short (HEARTBE) or two types as one (EL).
func TestShortNames(t *testing.T) {
	for _, s := range algos.All() {
		seen := map[string]string{}
		for _, typ := range s.Messages {
			sh := algos.Short(s.Name, typ)
			if n := utf8.RuneCountInString(sh); n < 1 || n > 4 {
				t.Errorf("%s: type %s has short label %q, want 1 to 4 letters", s.Name, typ, sh)
			}
			if o, ok := seen[sh]; ok {
				t.Errorf("%s: types %s and %s share the short label %q", s.Name, o, typ, sh)
			}
			seen[sh] = typ
		}
	}
}
