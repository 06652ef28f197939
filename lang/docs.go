package lang

// The texts of `presets show` and `help TOPIC`, and the line that ends each
// command's --help with the guide that covers it.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"ph.<topic>":            "<topic>",
			"help.cmd.help":         "Print a guide in the terminal: clusterlab help student, help scenarios, … (no TOPIC: the list).",
			"help.help.topic":       "The guide: student, teacher, scenarios, dashboard, recordings, sweeps, algorithms, … .",
			"guide.topics":          "The guides (clusterlab help TOPIC):",
			"guide.line":            "Guide: clusterlab help %s (%s)",
			"help.cmd.presets.list": "List the embedded scenarios.",
			"help.cmd.presets.show": "Print a preset's TOML, to copy and change: clusterlab presets show NAME > mine.toml.",
			"help.presets.name":     "The preset to print (clusterlab presets lists them).",
			"presets.show.head": "%[1]s: a preset of clusterlab (algorithm %[2]s), as `clusterlab presets show %[1]s` prints it.\n" +
				"Save it under a name of your own, change it, and run it:\n" +
				"  clusterlab presets show %[1]s > mine.toml\n" +
				"  clusterlab sim --file mine.toml      (or clusterlab run --file mine.toml: the dashboard)\n" +
				"Unchanged, it makes the same run as --preset %[1]s, byte for byte.\n" +
				"Every key, its range and an example: clusterlab help scenarios (docs/scenarios.md).",
			"presets.show.params":          "The parameters of %s; the ones left out keep their defaults (clusterlab algos lists them).",
			"presets.show.network":         "The network: latency, loss, dup (0 to 1), gst (when it turns synchronous) and delta (the bound after it).",
			"presets.show.network.pre_gst": "The network before GST: asynchronous, heavy-tailed delays.",
			"presets.show.monitors":        "How long the monitors wait before an alert.",
			"presets.show.links":           "One link's own settings (one way).",
			"presets.show.script":          "What happens, and when: the same actions as the dashboard's : line.",
			"presets.show.expect":          "What must hold: sim exits 1 when one of these fails or is never evaluated.",
			"presets.show.faults":          "Crashes (and partitions) drawn from the seed.",
		},
		Pt: {
			"ph.<topic>":            "<tópico>",
			"help.cmd.help":         "Mostra um guia no terminal: clusterlab help student, help scenarios, … (sem TOPIC: a lista).",
			"help.help.topic":       "O guia: student, teacher, scenarios, dashboard, recordings, sweeps, algorithms, … .",
			"guide.topics":          "Os guias (clusterlab help TOPIC):",
			"guide.line":            "Guia: clusterlab help %s (%s)",
			"help.cmd.presets.list": "Lista os cenários embutidos.",
			"help.cmd.presets.show": "Mostra o TOML de um preset, para copiar e mudar: clusterlab presets show NOME > meu.toml.",
			"help.presets.name":     "O preset a mostrar (clusterlab presets os lista).",
			"presets.show.head": "%[1]s: um preset do clusterlab (algoritmo %[2]s), como `clusterlab presets show %[1]s` o mostra.\n" +
				"Salve com um nome seu, mude e rode:\n" +
				"  clusterlab presets show %[1]s > meu.toml\n" +
				"  clusterlab sim --file meu.toml      (ou clusterlab run --file meu.toml: o painel)\n" +
				"Sem mudanças, ele faz a mesma execução que --preset %[1]s, byte a byte.\n" +
				"Cada chave, sua faixa e um exemplo: clusterlab help scenarios (docs/scenarios.md).",
			"presets.show.params":          "Os parâmetros de %s; os omitidos ficam com o valor padrão (clusterlab algos os lista).",
			"presets.show.network":         "A rede: latency, loss, dup (0 a 1), gst (quando ela fica síncrona) e delta (o limite depois dele).",
			"presets.show.network.pre_gst": "A rede antes do GST: assíncrona, com atrasos de cauda pesada.",
			"presets.show.monitors":        "Quanto os monitores esperam antes de um alerta.",
			"presets.show.links":           "Os ajustes próprios de um enlace (num só sentido).",
			"presets.show.script":          "O que acontece, e quando: as mesmas ações da linha : do painel.",
			"presets.show.expect":          "O que deve valer: sim termina com 1 quando uma destas falha ou nunca é avaliada.",
			"presets.show.faults":          "Quedas (e partições) sorteadas a partir da semente.",
		},
		Es: {
			"ph.<topic>":            "<tema>",
			"help.cmd.help":         "Muestra una guía en la terminal: clusterlab help student, help scenarios, … (sin TOPIC: la lista).",
			"help.help.topic":       "La guía: student, teacher, scenarios, dashboard, recordings, sweeps, algorithms, … .",
			"guide.topics":          "Las guías (clusterlab help TOPIC):",
			"guide.line":            "Guía: clusterlab help %s (%s)",
			"help.cmd.presets.list": "Lista los escenarios incorporados.",
			"help.cmd.presets.show": "Muestra el TOML de un preset, para copiarlo y cambiarlo: clusterlab presets show NOMBRE > mio.toml.",
			"help.presets.name":     "El preset a mostrar (clusterlab presets los lista).",
			"presets.show.head": "%[1]s: un preset de clusterlab (algoritmo %[2]s), tal como lo muestra `clusterlab presets show %[1]s`.\n" +
				"Guárdelo con un nombre propio, cámbielo y ejecútelo:\n" +
				"  clusterlab presets show %[1]s > mio.toml\n" +
				"  clusterlab sim --file mio.toml      (o clusterlab run --file mio.toml: el panel)\n" +
				"Sin cambios, hace la misma ejecución que --preset %[1]s, byte a byte.\n" +
				"Cada clave, su rango y un ejemplo: clusterlab help scenarios (docs/scenarios.md).",
			"presets.show.params":          "Los parámetros de %s; los omitidos conservan su valor por defecto (clusterlab algos los lista).",
			"presets.show.network":         "La red: latency, loss, dup (0 a 1), gst (cuando pasa a ser síncrona) y delta (la cota después).",
			"presets.show.network.pre_gst": "La red antes del GST: asíncrona, con retardos de cola pesada.",
			"presets.show.monitors":        "Cuánto esperan los monitores antes de una alerta.",
			"presets.show.links":           "Los ajustes propios de un enlace (en un solo sentido).",
			"presets.show.script":          "Qué pasa, y cuándo: las mismas acciones que la línea : del panel.",
			"presets.show.expect":          "Qué debe cumplirse: sim termina con 1 cuando una de estas falla o nunca se evalúa.",
			"presets.show.faults":          "Caídas (y particiones) sorteadas a partir de la semilla.",
		},
	})
}
