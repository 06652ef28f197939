package lang

// The texts of the limits every command keeps: the memory budget.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"help.maxmemory": "Memory budget: stop with exit 3 and one line, instead of running out of memory, when the heap would pass this size (such as 2GiB or 1500MiB; default: 2GiB, or less on a smaller machine: a quarter of its memory, a third of ulimit -v).",
		},
		Pt: {
			"help.maxmemory": "Orçamento de memória: para com saída 3 e uma linha, em vez de esgotar a memória, quando o heap passaria deste tamanho (como 2GiB ou 1500MiB; padrão: 2GiB, ou menos numa máquina menor: um quarto da memória dela, um terço do ulimit -v).",
		},
		Es: {
			"help.maxmemory": "Presupuesto de memoria: se detiene con salida 3 y una línea, en lugar de agotar la memoria, cuando el heap pasaría de este tamaño (como 2GiB o 1500MiB; por defecto: 2GiB, o menos en una máquina más pequeña: un cuarto de su memoria, un tercio del ulimit -v).",
		},
	})
}
