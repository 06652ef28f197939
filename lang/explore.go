package lang

// The texts of the message-level actions and of `clusterlab explore` and `shrink`.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"word.action":      "action",
			"md.reason.action": "dropped by an action (drop #SEQ)",
		},
		Pt: {
			"word.action":      "ação",
			"md.reason.action": "descartada por uma ação (drop #SEQ)",
		},
		Es: {
			"word.action":      "acción",
			"md.reason.action": "descartado por una acción (drop #SEQ)",
		},
	})
}
