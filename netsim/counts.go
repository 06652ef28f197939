package netsim

import "sort"

// typeCounts counts one message type's fates.
type typeCounts struct {
	Sent      int            `json:"sent"`
	Delivered int            `json:"delivered"`
	Dropped   map[string]int `json:"dropped,omitempty"`
	IDs       int            // ids carried by the messages sent (node.Message.Size)
	MaxIDs    int            // the largest message sent, in ids
}

// counts tallies messages by type and drops by reason. Only network messages count:
// a process's delivery to itself is not one.
type counts struct {
	byType  map[string]*typeCounts
	reasons map[string]int
	// The last type counted: a run sends few types, mostly in long stretches of
	// one, and two equal strings from the same constant compare by pointer.
	lastType string
	last     *typeCounts
}

func (c *counts) get(typ string) *typeCounts {
	if c.last != nil && typ == c.lastType {
		return c.last
	}
	t := c.lookup(typ)
	c.lastType, c.last = typ, t
	return t
}

func (c *counts) lookup(typ string) *typeCounts {
	if c.byType == nil {
		c.byType = map[string]*typeCounts{}
		c.reasons = map[string]int{}
	}
	t, ok := c.byType[typ]
	if !ok {
		t = &typeCounts{}
		c.byType[typ] = t
	}
	return t
}

func (c *counts) send(typ string, size int) {
	t := c.get(typ)
	t.Sent++
	t.IDs += size
	t.MaxIDs = max(t.MaxIDs, size)
}
func (c *counts) drop(typ, reason string) {
	t := c.get(typ)
	if t.Dropped == nil {
		t.Dropped = map[string]int{}
	}
	t.Dropped[reason]++
	c.reasons[reason]++
}

func (c *counts) sent(typ string) int {
	if t, ok := c.byType[typ]; ok {
		return t.Sent
	}
	return 0
}

// types lists the message types seen, sorted.
func (c *counts) types() []string {
	out := make([]string, 0, len(c.byType))
	for k := range c.byType {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Sent is how many messages of type typ were sent so far.
func (w *World) Sent(typ string) int { return w.counts.sent(typ) }

// Alerts lists the alerts raised so far, in the order raised, each with how it
// ended if it did. The list is the world's: read it, do not keep it past the next run.
func (w *World) Alerts() []AlertRecord { return w.alerts.list }

// alertLog keeps every alert raised.
type alertLog struct {
	list []AlertRecord
}

// AlertRecord is one raised alert and, once its condition stopped holding, how it
// ended (the alert-cleared event's time and text).
type AlertRecord struct {
	AtUS      int64  `json:"at_us"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	ClearedUS int64  `json:"cleared_us"` // -1 while the alert is open
	Cleared   string `json:"cleared"`    // "" while the alert is open
}

// open counts the alerts of kind still open.
func (a *alertLog) open(kind string) int {
	n := 0
	for _, r := range a.list {
		if r.Kind == kind && r.ClearedUS < 0 {
			n++
		}
	}
	return n
}

func (a *alertLog) count(kind string) int {
	n := 0
	for _, r := range a.list {
		if r.Kind == kind {
			n++
		}
	}
	return n
}
