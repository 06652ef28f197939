package node

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// IDList is a list of process ids carried in a message body, for algorithms whose
// messages grow as they travel (the collecting ring of the course notes 003). It is
// kept as an immutable string ("17,24,1"), so a Message stays a comparable plain
// value that no two processes can share and change: Append returns a new list. In
// traces and JSON it is an array of names, ["n17","n24","n1"].
type IDList string

// Len is the number of ids in the list: the message's size in ids.
func (l IDList) Len() int {
	if l == "" {
		return 0
	}
	return strings.Count(string(l), ",") + 1
}

// Append returns the list with id added at the end.
func (l IDList) Append(id ID) IDList {
	if l == "" {
		return IDList(strconv.Itoa(int(id)))
	}
	return l + "," + IDList(strconv.Itoa(int(id)))
}

// IDs returns the ids in order.
func (l IDList) IDs() []ID {
	if l == "" {
		return nil
	}
	parts := strings.Split(string(l), ",")
	out := make([]ID, 0, len(parts))
	for _, p := range parts {
		v, _ := strconv.Atoi(p)
		out = append(out, ID(v))
	}
	return out
}

// Contains reports whether id is in the list.
func (l IDList) Contains(id ID) bool {
	for _, x := range l.IDs() {
		if x == id {
			return true
		}
	}
	return false
}

// ListOf makes a list of the given ids.
func ListOf(ids ...ID) IDList {
	var l IDList
	for _, id := range ids {
		l = l.Append(id)
	}
	return l
}

// MarshalJSON writes the list as an array of names.
func (l IDList) MarshalJSON() ([]byte, error) {
	ids := l.IDs()
	if ids == nil {
		ids = []ID{}
	}
	return json.Marshal(ids)
}

// UnmarshalJSON reads an array of names back.
func (l *IDList) UnmarshalJSON(b []byte) error {
	var ids []ID
	if err := json.Unmarshal(b, &ids); err != nil {
		return fmt.Errorf("bad id list %s, expected an array such as [\"n1\",\"n2\"]", b)
	}
	*l = ListOf(ids...)
	return nil
}
