package lang

// The texts of students' own algorithms: the static pass of check (purity), and
// the commands new, check and grade.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"purity.clock":     "%s reads the wall clock, which differs at every run: use env.Now(), the run's virtual time",
			"purity.sleep":     "%s waits on the wall clock: arm a timer with env.After(d, name) and react to its event in Step",
			"purity.go":        "a go statement starts a goroutine: a process reacts to one event at a time in Step; arm a timer with env.After for work to do later",
			"purity.chan":      "%s: channels are for goroutines; send a message with env.Send, or keep a queue in the algorithm's state",
			"purity.lock":      "%s: locks are for goroutines; Step never runs twice at once for one process, and processes share nothing",
			"purity.rand":      "%s draws from a source the whole program shares, which differs at every run: use env.Rand(), the process's seeded source",
			"purity.io":        "%s does I/O: an algorithm acts only through env; write a line to the trace with env.Logf",
			"purity.global":    "%s is a package-level variable: every process of a run would share it, in parallel, and a crash would not reset it; keep it in the algorithm's struct",
			"purity.mapeffect": "ranging over %s gives its keys in another order at every run, and the order reaches %s on line %d: range over sorted keys (for _, k := range slices.Sorted(maps.Keys(m)))",
			"purity.mapslice":  "ranging over %s gives its keys in another order at every run, and the loop appends to %s, which is not sorted after it: sort it (slices.Sort) or range over sorted keys",
		},
		Pt: {
			"purity.clock":     "%s lê o relógio de parede, que muda a cada execução: use env.Now(), o tempo virtual da execução",
			"purity.sleep":     "%s espera pelo relógio de parede: arme um temporizador com env.After(d, nome) e reaja ao evento dele em Step",
			"purity.go":        "um comando go inicia uma goroutine: um processo reage a um evento por vez em Step; arme um temporizador com env.After para o que fazer depois",
			"purity.chan":      "%s: canais são para goroutines; envie uma mensagem com env.Send, ou guarde uma fila no estado do algoritmo",
			"purity.lock":      "%s: travas são para goroutines; Step nunca roda duas vezes ao mesmo tempo num processo, e os processos não compartilham nada",
			"purity.rand":      "%s sorteia de uma fonte que o programa inteiro compartilha, que muda a cada execução: use env.Rand(), a fonte com semente do processo",
			"purity.io":        "%s faz E/S: um algoritmo só age por meio de env; escreva uma linha no registro com env.Logf",
			"purity.global":    "%s é uma variável de pacote: todos os processos de uma execução a compartilhariam, em paralelo, e uma falha não a zeraria; guarde-a na struct do algoritmo",
			"purity.mapeffect": "percorrer %s dá as chaves numa ordem diferente a cada execução, e a ordem chega a %s na linha %d: percorra as chaves ordenadas (for _, k := range slices.Sorted(maps.Keys(m)))",
			"purity.mapslice":  "percorrer %s dá as chaves numa ordem diferente a cada execução, e o laço acrescenta a %s, que não é ordenada depois dele: ordene-a (slices.Sort) ou percorra as chaves ordenadas",
		},
		Es: {
			"purity.clock":     "%s lee el reloj de pared, que cambia en cada ejecución: use env.Now(), el tiempo virtual de la ejecución",
			"purity.sleep":     "%s espera al reloj de pared: arme un temporizador con env.After(d, nombre) y reaccione a su evento en Step",
			"purity.go":        "una sentencia go inicia una goroutine: un proceso reacciona a un evento por vez en Step; arme un temporizador con env.After para lo que deba hacer después",
			"purity.chan":      "%s: los canales son para goroutines; envíe un mensaje con env.Send, o guarde una cola en el estado del algoritmo",
			"purity.lock":      "%s: los cerrojos son para goroutines; Step nunca corre dos veces a la vez en un proceso, y los procesos no comparten nada",
			"purity.rand":      "%s sortea de una fuente que todo el programa comparte, que cambia en cada ejecución: use env.Rand(), la fuente con semilla del proceso",
			"purity.io":        "%s hace E/S: un algoritmo solo actúa a través de env; escriba una línea en la traza con env.Logf",
			"purity.global":    "%s es una variable de paquete: todos los procesos de una ejecución la compartirían, en paralelo, y una caída no la reiniciaría; guárdela en la struct del algoritmo",
			"purity.mapeffect": "recorrer %s da sus claves en otro orden en cada ejecución, y el orden llega a %s en la línea %d: recorra las claves ordenadas (for _, k := range slices.Sorted(maps.Keys(m)))",
			"purity.mapslice":  "recorrer %s da sus claves en otro orden en cada ejecución, y el bucle agrega a %s, que no se ordena después: ordénela (slices.Sort) o recorra las claves ordenadas",
		},
	})
}
