package lang

// The md report in an alert storm: the note that stands for the alerts its
// diagram does not draw, and the Alerts section's count of each kind.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"mm.alerts.more.one":  "1 more alert in this excerpt, not drawn: see the Alerts section",
			"mm.alerts.more.many": "%d more alerts in this excerpt, not drawn: see the Alerts section",
			"md.alerts.bykind":    "By kind, from the first to the last:",
			"md.alerts.first":     "The first %d, in order:",
			"md.col.alerts":       "alerts",
			"md.col.first":        "first",
			"md.col.last":         "last",
		},
		Pt: {
			"mm.alerts.more.one":  "mais 1 alerta neste trecho, não desenhado: veja a seção Alertas",
			"mm.alerts.more.many": "mais %d alertas neste trecho, não desenhados: veja a seção Alertas",
			"md.alerts.bykind":    "Por tipo, do primeiro ao último:",
			"md.alerts.first":     "Os primeiros %d, em ordem:",
			"md.col.alerts":       "alertas",
			"md.col.first":        "primeiro",
			"md.col.last":         "último",
		},
		Es: {
			"mm.alerts.more.one":  "1 alerta más en este extracto, sin dibujar: vea la sección Alertas",
			"mm.alerts.more.many": "%d alertas más en este extracto, sin dibujar: vea la sección Alertas",
			"md.alerts.bykind":    "Por tipo, de la primera a la última:",
			"md.alerts.first":     "Las primeras %d, en orden:",
			"md.col.alerts":       "alertas",
			"md.col.first":        "primera",
			"md.col.last":         "última",
		},
	})
}
