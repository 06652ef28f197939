package algos

// shortNames are the labels the dashboard gives message types where the whole type
// does not fit (a narrow timeline lane): at most four letters, read as the word
// they stand for, never a word cut short (HEARTBEAT is HB, not HEARTBE). An
// algorithm whose types would collide names its own in Spec.Short.
var shortNames = map[string]string{
	"HEARTBEAT":    "HB",
	"ELECTION":     "ELEC",
	"ELECTED":      "ELTD",
	"ANSWER":       "ANS",
	"COORDINATOR":  "COOR",
	"REQUEST":      "REQ",
	"REQUEST_VOTE": "RQVT",
	"VOTE":         "VOTE",
	"GRANT":        "GRNT",
	"RELEASE":      "REL",
	"REPLY":        "REP",
	"ACK":          "ACK",
	"INQUIRE":      "INQ",
	"RELINQUISH":   "RLQ",
	"FAILED":       "FAIL",
	"TOKEN":        "TOK",
	"PROBE":        "PRB",
	"COLLECT":      "COLL",
	"TEST_REQ":     "TRQ",
	"TEST_REP":     "TRP",
	"ID":           "ID",
	"YES":          "YES",
	"NO":           "NO",
	"PRUNE":        "PRUN",
	"VoteEmMim":    "VOTE",
	"HabemosLider": "HAB",
}

// Short is the short label of message type typ as algorithm algo registers it: its
// Spec.Short entry, else the common one, else "" (the type has none).
func Short(algo, typ string) string {
	if s, ok := Lookup(algo); ok {
		if v, ok := s.Short[typ]; ok {
			return v
		}
	}
	return shortNames[typ]
}
