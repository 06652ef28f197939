package lang

// The texts of the exports' reports beyond the first ones: counts per message,
// and reports at scale (leader changes in a row folded into one row).
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"md.col.inflight": "in flight",
			"md.lc.flurry":    "%s leader changes in a row, until %s, by %s, to %s; the last: %s",
			"md.permessage":   "Counted per message sent in this window, as the CSV's message table counts them: delivered if a copy arrived, dropped if every copy was lost (by the reason of its first loss), in flight if neither by the end of the recording; duplicates delivered are the copies delivered beyond the first.",
		},
		Pt: {
			"md.col.inflight": "em trânsito",
			"md.lc.flurry":    "%s trocas de líder seguidas, até %s, por %s, para %s; a última: %s",
			"md.permessage":   "Contadas por mensagem enviada nesta janela, como a tabela de mensagens do CSV as conta: entregue se uma cópia chegou, descartada se todas as cópias foram descartadas (pelo motivo do primeiro descarte), em trânsito se nenhuma das duas coisas até o fim da gravação; duplicatas entregues são as cópias entregues além da primeira.",
		},
		Es: {
			"md.col.inflight": "en tránsito",
			"md.lc.flurry":    "%s cambios de líder seguidos, hasta %s, por %s, a %s; el último: %s",
			"md.permessage":   "Contados por mensaje enviado en esta ventana, como los cuenta la tabla de mensajes del CSV: entregado si llegó una copia, descartado si se descartaron todas las copias (por el motivo del primer descarte), en tránsito si ninguna de las dos cosas hasta el final de la grabación; los duplicados entregados son las copias entregadas además de la primera.",
		},
	})
}
