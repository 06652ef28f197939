package lang

// The texts of the limits every command keeps (the memory budget) and of grading
// (verify --require-complete).
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"md.incomplete.end":           "The recording ends at %s of the scenario's %s.",
			"md.incomplete.expect":        "%d of its %d expectations were not evaluated (`clusterlab verify --require-complete` fails such a recording).",
			"md.atend":                    "end",
			"help.verify.requirecomplete": "For grading: also fail (exit 1) a recording that verifies but ended before its scenario's until, or whose expectations were not all evaluated.",
			"help.maxmemory":              "Memory budget: stop with exit 3 and one line, instead of running out of memory, when the heap would pass this size (such as 2GiB or 1500MiB; default: 2GiB, or less on a smaller machine: a quarter of its memory, a third of ulimit -v).",
		},
		Pt: {
			"md.incomplete.end":           "A gravação termina em %s dos %s do cenário.",
			"md.incomplete.expect":        "%d das suas %d expectativas não foram avaliadas (`clusterlab verify --require-complete` reprova uma gravação assim).",
			"md.atend":                    "fim",
			"help.verify.requirecomplete": "Para avaliação: falha também (saída 1) uma gravação que confere mas terminou antes do until do cenário, ou cujas expectativas não foram todas avaliadas.",
			"help.maxmemory":              "Orçamento de memória: interrompe com saída 3 e uma linha, em vez de esgotar a memória, quando o heap passaria deste tamanho (como 2GiB ou 1500MiB; padrão: 2GiB, ou menos numa máquina menor: um quarto da memória dela, um terço do ulimit -v).",
		},
		Es: {
			"md.incomplete.end":           "La grabación termina en %s de los %s del escenario.",
			"md.incomplete.expect":        "%d de sus %d expectativas no fueron evaluadas (`clusterlab verify --require-complete` rechaza una grabación así).",
			"md.atend":                    "fin",
			"help.verify.requirecomplete": "Para calificar: falla también (salida 1) una grabación que se verifica pero terminó antes del until del escenario, o cuyas expectativas no fueron todas evaluadas.",
			"help.maxmemory":              "Presupuesto de memoria: se detiene con salida 3 y una línea, en lugar de agotar la memoria, cuando el heap pasaría de este tamaño (como 2GiB o 1500MiB; por defecto: 2GiB, o menos en una máquina más pequeña: un cuarto de su memoria, un tercio del ulimit -v).",
		},
	})
}
