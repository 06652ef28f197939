package lang

// The dashboard's third edition (issue 23): its texts, in a file of their own.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"tui.hdr.behind": "%s of %s, behind",
		},
		Pt: {
			"tui.hdr.behind": "%s de %s, atrasado",
		},
		Es: {
			"tui.hdr.behind": "%s de %s, con retraso",
		},
	})
}
