package lang

// The texts of the course pack's second pass: the notes' sections in `presets
// --notes`, and the Portuguese and Spanish of the presets it added (the Yo-Yo
// example, the notes' remaining diagrams) and of the parameters and phrases they
// brought.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"presets.section": "notes %s, %s",
		},
		Pt: {
			"presets.section": "notas %s, %s",
		},
		Es: {
			"presets.section": "apuntes %s, %s",
		},
	})
	add(ptPhrases, map[string]string{
		"a neighbour whose id has not come this long after the setup began is dropped from the process's view of the graph (0s = wait for ever, as the protocol does); an assumption of the lab that lets a cut bridge elect two leaders": "um vizinho cujo id não chegou até este tempo após o início da preparação é retirado da visão que o processo tem do grafo (0s = esperar para sempre, como faz o protocolo); uma suposição do laboratório, que permite a uma ponte cortada eleger dois líderes",
	})
	add(esPhrases, map[string]string{
		"a neighbour whose id has not come this long after the setup began is dropped from the process's view of the graph (0s = wait for ever, as the protocol does); an assumption of the lab that lets a cut bridge elect two leaders": "un vecino cuyo id no ha llegado este tiempo después de empezar la preparación se quita de la vista que el proceso tiene del grafo (0s = esperar para siempre, como hace el protocolo); una suposición del laboratorio, que permite que un puente cortado elija dos líderes",
	})
	add(ptDesc, map[string]string{
		"preset:yoyo-bridge#bae81c52":       "O exemplo do Yo-Yo das notas do curso 003 (\"Algoritmo do YoYo\"), com as suas etapas (a) a (e) como linhas da história. A figura das notas é uma imagem; este grafo tem os mesmos papéis, e o canal n2–n10 é a sua única ponte: 12 nós, 17 enlaces, {n2, n3, n5, n7, n8, n11} de um lado e {n1, n4, n6, n9, n10, n12} do outro. (a) A rede no seu estado inicial. (b) Preparação: os vizinhos trocam ids e orientam cada enlace do menor id para o maior: as fontes são n1, n2, n3 e n4, os vertedouros n8, n10, n11 e n12. (c) As fontes empurram os seus ids para baixo, cada nó interno repassando o menor que recebeu. (d) Os vertedouros respondem: SIM para o menor valor, NÃO nos outros, e cada NÃO inverte o seu enlace, de modo que após uma iteração n1 é a única fonte. (e) Os vertedouros são inativados: um vertedouro com um só enlace, ou um enlace duplicado, é podado, até que n1, o mínimo, não tenha mais enlaces; ele lidera e inunda ELECTED pelos enlaces originais. Toda mensagem leva 50ms, então as etapas são ondas: 23 ELECTED, 91 ID, 34 YES, 6 NO e 17 PRUNE. yoyo-bridge-cut perde a ponte.",
		"preset:yoyo-bridge-cut#5ae6df3f":   "A pergunta das notas do curso 003 depois do exemplo do Yo-Yo: \"suponha que o canal de comunicação entre os processos 2 e 10 pare de funcionar\". O grafo de yoyo-bridge, com a ponte n2–n10 cortada nos dois sentidos antes do início. O protocolo espera, na preparação, o id de cada vizinho: n2 e n10 esperam um pelo outro para sempre. O resto do grafo começa a primeira iteração e para onde precisa de um voto ou de um valor de n2 ou de n10, e assim a eleição inteira trava na preparação: nenhum líder é escolhido, 44 ID e um voto de cada tipo, e o alerta de ausência de líder dispara quando nada mudou durante o tempo de acomodação. As duas eleições concorrentes e os dois líderes das notas exigem um processo que desista de um canal calado: yoyo-bridge-split.",
		"preset:yoyo-bridge-split#6007883e": "A afirmação das notas depois do exemplo do Yo-Yo, tornada verdadeira por uma suposição: \"se o canal entre 2 e 10 parar de funcionar, acontecem duas eleições concorrentes e dois líderes são eleitos\" (split brain). Ela só vale se um processo desistir de um canal calado, o que o protocolo nunca faz (yoyo-bridge-cut trava). Aqui link_timeout = 200ms: um vizinho cujo id não chegou 200ms após o início da preparação é retirado da visão que o nó tem do grafo. A ponte n2–n10 é cortada nos dois sentidos antes do início; aos 200ms n2 e n10 retiram um ao outro, e cada metade faz uma eleição própria num grafo próprio: n2, o mínimo de {n2, n3, n5, n7, n8, n11}, lidera aos 1s, e n1, o mínimo de {n1, n4, n6, n9, n10, n12}, aos 1.35s. Dois líderes: o alerta de split brain dispara. Um timeout não distingue um canal perdido de um lento.",
		"marker:(a) the initial network: n2–n10 is the only bridge between the two halves":                       "(a) a rede no seu estado inicial: n2–n10 é a única ponte entre as duas metades",
		"marker:(b) oriented from the smaller id to the larger: sources n1, n2, n3, n4; sinks n8, n10, n11, n12": "(b) orientada do menor id para o maior: fontes n1, n2, n3, n4; vertedouros n8, n10, n11, n12",
		"marker:(c) the sources push their ids down: n5 and n7 forward 2, n6 forwards 1, n9 waits for 1 and 4":   "(c) as fontes empurram os seus ids para baixo: n5 e n7 repassam 2, n6 repassa 1, n9 espera 1 e 4",
		"marker:(d) the sinks answer: YES to the smallest, NO elsewhere; n10 sends NO over the bridge to n2":     "(d) os vertedouros respondem: SIM ao menor, NÃO aos outros; n10 envia NÃO pela ponte a n2",
		"marker:every NO flipped its link: n1 is the only source left; three duplicate links are pruned":         "cada NÃO inverteu o seu enlace: n1 é a única fonte que resta; três enlaces duplicados foram podados",
		"marker:(e) sinks are inactivated: n7, a sink with a single link, prunes it and leaves":                  "(e) os vertedouros são inativados: n7, um vertedouro com um só enlace, poda-o e sai",
		"marker:the bridge n2–n10 is lost before the start, both ways":                                           "a ponte n2–n10 se perde antes do início, nos dois sentidos",
		"marker:every node but n2 and n10 has its neighbours ids; n2 and n10 wait for each other for ever":       "todo nó menos n2 e n10 tem os ids dos vizinhos; n2 e n10 esperam um pelo outro para sempre",
		"marker:nothing moves any more: the election has stalled in the setup, and no leader will be chosen":     "nada mais se move: a eleição travou na preparação, e nenhum líder será escolhido",
		"marker:link_timeout: n2 and n10 heard nothing from each other for 200ms and drop the link":              "link_timeout: n2 e n10 não ouviram nada um do outro em 200ms e retiram o enlace",
		"marker:n2 has no link left in its half: it leads {n2, n3, n5, n7, n8, n11}":                             "n2 não tem mais enlaces na sua metade: lidera {n2, n3, n5, n7, n8, n11}",
		"marker:n1 leads {n1, n4, n6, n9, n10, n12}: two concurrent elections, two leaders":                      "n1 lidera {n1, n4, n6, n9, n10, n12}: duas eleições concorrentes, dois líderes",
	})
	add(esDesc, map[string]string{
		"preset:yoyo-bridge#bae81c52":       "El ejemplo del Yo-Yo de los apuntes del curso 003 (\"Algoritmo do YoYo\"), con sus etapas (a) a (e) como líneas de la historia. La figura de los apuntes es una imagen; este grafo tiene los mismos papeles, y el enlace n2–n10 es su único puente: 12 nodos, 17 enlaces, {n2, n3, n5, n7, n8, n11} de un lado y {n1, n4, n6, n9, n10, n12} del otro. (a) La red en su estado inicial. (b) Preparación: los vecinos intercambian ids y orientan cada enlace del menor id al mayor: las fuentes son n1, n2, n3 y n4, los sumideros n8, n10, n11 y n12. (c) Las fuentes empujan sus ids hacia abajo, cada nodo interno reenviando el menor que recibió. (d) Los sumideros responden: SÍ hacia el menor valor, NO en los demás, y cada NO invierte su enlace, de modo que tras una iteración n1 es la única fuente. (e) Los sumideros se inactivan: un sumidero con un solo enlace, o un enlace duplicado, se poda, hasta que n1, el mínimo, no tiene más enlaces; lidera e inunda ELECTED por los enlaces originales. Todo mensaje tarda 50ms, así que las etapas son olas: 23 ELECTED, 91 ID, 34 YES, 6 NO y 17 PRUNE. yoyo-bridge-cut pierde el puente.",
		"preset:yoyo-bridge-cut#5ae6df3f":   "La pregunta de los apuntes del curso 003 tras el ejemplo del Yo-Yo: \"suponga que el canal de comunicación entre los procesos 2 y 10 deja de funcionar\". El grafo de yoyo-bridge, con el puente n2–n10 cortado en ambos sentidos antes del inicio. El protocolo espera, en la preparación, el id de cada vecino: n2 y n10 se esperan el uno al otro para siempre. El resto del grafo empieza la primera iteración y se detiene donde necesita un voto o un valor de n2 o de n10, así que toda la elección se estanca en la preparación: no se elige ningún líder, 44 ID y un voto de cada clase, y la alerta de falta de líder salta cuando nada ha cambiado durante el tiempo de asentamiento. Las dos elecciones concurrentes y los dos líderes de los apuntes exigen un proceso que renuncie a un enlace callado: yoyo-bridge-split.",
		"preset:yoyo-bridge-split#6007883e": "La afirmación de los apuntes tras el ejemplo del Yo-Yo, hecha verdadera por una suposición: \"si el canal entre 2 y 10 deja de funcionar, ocurren dos elecciones concurrentes y se eligen dos líderes\" (split brain). Solo vale si un proceso renuncia a un enlace callado, cosa que el protocolo nunca hace (yoyo-bridge-cut se estanca). Aquí link_timeout = 200ms: un vecino cuyo id no ha llegado 200ms después de empezar la preparación se quita de la vista que el nodo tiene del grafo. El puente n2–n10 se corta en ambos sentidos antes del inicio; a los 200ms n2 y n10 se quitan el uno al otro, y cada mitad hace su propia elección en su propio grafo: n2, el mínimo de {n2, n3, n5, n7, n8, n11}, lidera a los 1s, y n1, el mínimo de {n1, n4, n6, n9, n10, n12}, a los 1.35s. Dos líderes: salta la alerta de split brain. Un timeout no distingue un enlace perdido de uno lento.",
		"marker:(a) the initial network: n2–n10 is the only bridge between the two halves":                       "(a) la red en su estado inicial: n2–n10 es el único puente entre las dos mitades",
		"marker:(b) oriented from the smaller id to the larger: sources n1, n2, n3, n4; sinks n8, n10, n11, n12": "(b) orientada del menor id al mayor: fuentes n1, n2, n3, n4; sumideros n8, n10, n11, n12",
		"marker:(c) the sources push their ids down: n5 and n7 forward 2, n6 forwards 1, n9 waits for 1 and 4":   "(c) las fuentes empujan sus ids hacia abajo: n5 y n7 reenvían 2, n6 reenvía 1, n9 espera 1 y 4",
		"marker:(d) the sinks answer: YES to the smallest, NO elsewhere; n10 sends NO over the bridge to n2":     "(d) los sumideros responden: SÍ al menor, NO a los demás; n10 envía NO por el puente a n2",
		"marker:every NO flipped its link: n1 is the only source left; three duplicate links are pruned":         "cada NO invirtió su enlace: n1 es la única fuente que queda; tres enlaces duplicados se han podado",
		"marker:(e) sinks are inactivated: n7, a sink with a single link, prunes it and leaves":                  "(e) los sumideros se inactivan: n7, un sumidero con un solo enlace, lo poda y se retira",
		"marker:the bridge n2–n10 is lost before the start, both ways":                                           "el puente n2–n10 se pierde antes del inicio, en ambos sentidos",
		"marker:every node but n2 and n10 has its neighbours ids; n2 and n10 wait for each other for ever":       "todo nodo salvo n2 y n10 tiene los ids de sus vecinos; n2 y n10 se esperan para siempre",
		"marker:nothing moves any more: the election has stalled in the setup, and no leader will be chosen":     "ya nada se mueve: la elección se ha estancado en la preparación, y no se elegirá ningún líder",
		"marker:link_timeout: n2 and n10 heard nothing from each other for 200ms and drop the link":              "link_timeout: n2 y n10 no han oído nada el uno del otro en 200ms y quitan el enlace",
		"marker:n2 has no link left in its half: it leads {n2, n3, n5, n7, n8, n11}":                             "n2 no tiene más enlaces en su mitad: lidera {n2, n3, n5, n7, n8, n11}",
		"marker:n1 leads {n1, n4, n6, n9, n10, n12}: two concurrent elections, two leaders":                      "n1 lidera {n1, n4, n6, n9, n10, n12}: dos elecciones concurrentes, dos líderes",
	})
}

// add puts a feature's texts into one of the maps Phrase, Preset and Marker read;
// a text given twice is a bug, and panics at start-up as extend does.
func add(dst, texts map[string]string) {
	for k, v := range texts {
		if _, dup := dst[k]; dup {
			panic("lang: " + k + " is translated twice")
		}
		dst[k] = v
	}
}
