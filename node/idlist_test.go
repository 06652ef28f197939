package node_test

import (
	"fmt"
	"testing"

	"github.com/clusterlab/clusterlab/node"
)

func TestIDListValue(t *testing.T) {
	l := node.ListOf(17, 24)
	m := l.Append(1)
	if l.Len() != 2 || m.Len() != 3 || !m.Contains(1) || l.Contains(1) || fmt.Sprint(m.IDs()) != "[n17 n24 n1]" {
		t.Fatalf("lists %q %q", l, m)
	}
	b, err := m.MarshalJSON()
	if err != nil || string(b) != `["n17","n24","n1"]` {
		t.Fatalf("json %s %v", b, err)
	}
	var back node.IDList
	if err := back.UnmarshalJSON(b); err != nil || back != m {
		t.Fatalf("read back %q %v", back, err)
	}
	if (node.Message{Type: "X"}).Size() != 0 || (node.Message{List: m}).Size() != 3 {
		t.Fatal("Size is the list's length")
	}
}
