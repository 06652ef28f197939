package lang

// "What if?" in the dashboard (issue 30): a message in flight selected and acted
// on, and a replay forked into a live run.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"tui.key.message":     "message in flight",
			"tui.key.drop":        "drop it",
			"tui.key.delay":       "delay it",
			"tui.key.deliver":     "deliver it next",
			"tui.key.fork":        "fork: what if?",
			"tui.say.noflight":    "no message in flight",
			"tui.say.msgpicked":   "%s in flight: x drops it, d delays it, ! delivers it next",
			"tui.say.notflying":   "#%d is not in flight: delivered or dropped already",
			"tui.say.nomsg":       "no message selected: [ or ] selects one in flight",
			"tui.say.noforking":   "this replay cannot be forked",
			"tui.say.forked":      "forked: a live run from here, paused; space runs it, q offers to save it",
			"tui.prompt.delay":    "delay #%d by ",
			"tui.prompt.savefork": "save the fork as ",
			"tui.fork.quit":       "quit the fork: save its recording?",
			"tui.fork.name":       "name it",
			"tui.fork.discard":    "discard it",
			"tui.fork.stay":       "stay",
			"tui.fork.saveit":     "save and quit",
			"tui.hdr.forked":      "forked from %s at %s",
			"fork.kept":           "the fork's recording is kept in %s",
			"fork.asrecorded":     "%s is the fork as it was recorded, its actions the user's, not the run of a scenario with them in its script: %s",
			"tui.glyph.message":   "Message: ◂#165 receives the selected message  •┈┈▷ the selected message, on its way",
		},
		Pt: {
			"tui.key.message":     "mensagem em trânsito",
			"tui.key.drop":        "descartar",
			"tui.key.delay":       "atrasar",
			"tui.key.deliver":     "entregar já",
			"tui.key.fork":        "bifurcar: e se?",
			"tui.say.noflight":    "nenhuma mensagem em trânsito",
			"tui.say.msgpicked":   "%s em trânsito: x a descarta, d a atrasa, ! a entrega já",
			"tui.say.notflying":   "#%d não está em trânsito: já entregue ou descartada",
			"tui.say.nomsg":       "nenhuma mensagem selecionada: [ ou ] seleciona uma em trânsito",
			"tui.say.noforking":   "esta reprodução não pode ser bifurcada",
			"tui.say.forked":      "bifurcado: uma execução ao vivo a partir daqui, pausada; espaço a executa, q oferece salvar a gravação",
			"tui.prompt.delay":    "atrasar #%d em ",
			"tui.prompt.savefork": "salvar a bifurcação como ",
			"tui.fork.quit":       "sair da bifurcação: salvar sua gravação?",
			"tui.fork.name":       "dar um nome",
			"tui.fork.discard":    "descartar",
			"tui.fork.stay":       "ficar",
			"tui.fork.saveit":     "salvar e sair",
			"tui.hdr.forked":      "bifurcado de %s em %s",
			"fork.kept":           "a gravação da bifurcação fica em %s",
			"fork.asrecorded":     "%s é a bifurcação como foi gravada, com as ações do usuário, e não a execução de um cenário que as tenha no script: %s",
			"tui.glyph.message":   "Mensagem: ◂#165 recebe a mensagem selecionada  •┈┈▷ a mensagem selecionada, a caminho",
		},
		Es: {
			"tui.key.message":     "mensaje en tránsito",
			"tui.key.drop":        "descartarlo",
			"tui.key.delay":       "retrasarlo",
			"tui.key.deliver":     "entregarlo ya",
			"tui.key.fork":        "bifurcar: ¿y si?",
			"tui.say.noflight":    "ningún mensaje en tránsito",
			"tui.say.msgpicked":   "%s en tránsito: x lo descarta, d lo retrasa, ! lo entrega ya",
			"tui.say.notflying":   "#%d no está en tránsito: ya entregado o descartado",
			"tui.say.nomsg":       "ningún mensaje seleccionado: [ o ] selecciona uno en tránsito",
			"tui.say.noforking":   "esta reproducción no se puede bifurcar",
			"tui.say.forked":      "bifurcado: una ejecución en vivo desde aquí, en pausa; espacio la ejecuta, q ofrece guardarla",
			"tui.prompt.delay":    "retrasar #%d en ",
			"tui.prompt.savefork": "guardar la bifurcación como ",
			"tui.fork.quit":       "salir de la bifurcación: ¿guardar su grabación?",
			"tui.fork.name":       "darle nombre",
			"tui.fork.discard":    "descartarla",
			"tui.fork.stay":       "quedarse",
			"tui.fork.saveit":     "guardar y salir",
			"tui.hdr.forked":      "bifurcado de %s en %s",
			"fork.kept":           "la grabación de la bifurcación queda en %s",
			"fork.asrecorded":     "%s es la bifurcación tal como se grabó, con las acciones del usuario, y no la ejecución de un escenario que las tenga en su script: %s",
			"tui.glyph.message":   "Mensaje: ◂#165 recibe el mensaje seleccionado  •┈┈▷ el mensaje seleccionado, en camino",
		},
	})
}

// The preset ricart-crossing's description and story lines (issue 30: hold and
// release let two requests cross).
func init() {
	const key = "preset:ricart-crossing#15489f6f"
	for l, texts := range map[Lang]map[string]string{
		Pt: {
			key: "Ricart-Agrawala com dois pedidos que se cruzam: o enlace n1→n2 fica retido (hold n1->n2) enquanto n1 pede, e n2 pede sem ter visto o pedido de n1. Nenhum pedido aconteceu antes do outro, e ambos levam o timestamp de Lamport 1: a combinação (timestamp, id) desempata do mesmo modo dos dois lados. n1 recebe (1, n2), vê que o seu (1, n1) vem antes e adia n2; quando o enlace é liberado, n2 recebe (1, n1), que vence o seu (1, n2), e responde. n1 entra, sai e responde; então n2 entra. Sem o hold, o pedido de n1 chegaria antes a n2, e n2 pediria com timestamp 2. Uma lição sobre o que hold e release fazem: reordenam as mensagens de um enlace em relação às dos outros, como um enlace lento ou congestionado.",
			"marker:n1 asks with timestamp 1; its REQUEST to n2 waits on the held link":          "n1 pede com timestamp 1; o seu REQUEST para n2 espera no enlace retido",
			"marker:n2 asks without having seen n1: timestamp 1 too, the requests cross":         "n2 pede sem ter visto n1: também timestamp 1, os pedidos se cruzam",
			"marker:n1 gets (1, n2): its own (1, n1) comes first, so it defers n2":               "n1 recebe (1, n2): o seu (1, n1) vem antes, então adia n2",
			"marker:the link is released: n2 gets (1, n1), which beats its (1, n2), and replies": "o enlace é liberado: n2 recebe (1, n1), que vence o seu (1, n2), e responde",
			"marker:n1 has both replies: it enters":                                              "n1 tem as duas respostas: entra",
			"marker:n1 leaves and replies to n2, which enters":                                   "n1 sai e responde a n2, que entra",
		},
		Es: {
			key: "Ricart-Agrawala con dos peticiones que se cruzan: el enlace n1→n2 queda retenido (hold n1->n2) mientras n1 pide, y n2 pide sin haber visto la petición de n1. Ninguna petición ocurrió antes que la otra, y ambas llevan el timestamp de Lamport 1: la combinación (timestamp, id) desempata igual en ambos lados. n1 recibe (1, n2), ve que su (1, n1) va antes y difiere a n2; cuando se libera el enlace, n2 recibe (1, n1), que gana a su (1, n2), y responde. n1 entra, sale y responde; luego entra n2. Sin el hold, la petición de n1 llegaría antes a n2, y n2 pediría con timestamp 2. Una lección sobre lo que hacen hold y release: reordenan los mensajes de un enlace respecto a los de los demás, como un enlace lento o congestionado.",
			"marker:n1 asks with timestamp 1; its REQUEST to n2 waits on the held link":          "n1 pide con timestamp 1; su REQUEST a n2 espera en el enlace retenido",
			"marker:n2 asks without having seen n1: timestamp 1 too, the requests cross":         "n2 pide sin haber visto a n1: también timestamp 1, las peticiones se cruzan",
			"marker:n1 gets (1, n2): its own (1, n1) comes first, so it defers n2":               "n1 recibe (1, n2): su (1, n1) va antes, así que difiere a n2",
			"marker:the link is released: n2 gets (1, n1), which beats its (1, n2), and replies": "se libera el enlace: n2 recibe (1, n1), que gana a su (1, n2), y responde",
			"marker:n1 has both replies: it enters":                                              "n1 tiene ambas respuestas: entra",
			"marker:n1 leaves and replies to n2, which enters":                                   "n1 sale y responde a n2, que entra",
		},
	} {
		for k, v := range texts {
			if _, dup := descriptions[l][k]; dup {
				panic("lang: description " + k + " is defined twice in " + string(l))
			}
			descriptions[l][k] = v
		}
	}
}
