package lang

// ptDesc and esDesc translate the descriptions of algorithms ("algo:NAME") and
// presets ("preset:NAME"), and the story lines of embedded presets
// ("marker:TEXT", TEXT being the English marker). An algorithm or preset without one shows its English
// description; the description test fails for a registered algorithm without one.
var ptDesc = map[string]string{
	"preset:bully": "A eleição do valentão (Garcia-Molina): lidera o maior id vivo. Todos os nós iniciam uma eleição ao mesmo tempo e n5 vence. Aos 4s o coordenador n5 falha: os seus heartbeats param, os outros esgotam o timeout e elegem n4. Aos 9s n5 se recupera e volta a impor-se. Experimente: selecione um nó com 1-5 e aperte c para derrubá-lo, r para revivê-lo.",
	"marker:n5, the coordinator, is about to crash: watch who notices first": "n5, o coordenador, vai falhar: veja quem percebe primeiro",
	"marker:n5 comes back with the highest id: it will bully n4 out":         "n5 volta com o maior id: vai tirar n4 à força (valentão)",
	"algo:heartbeat-dp": "◊P por heartbeats: um timeout por par, que cresce Δ a cada falsa suspeita",
	"algo:omega":        "Ω sobre ◊P: o líder é o menor (ou maior) id não suspeito",
	"algo:omega-cr":     "Ω com falha e recuperação: os heartbeats levam a incarnação; lidera o que menos falhou, depois o menor id",
	"algo:perfect":      "P, o detector de falhas perfeito: todo processo vivo sabe de cada falha exatamente `detect` depois; só em execuções síncronas",
	"algo:pull-dp":      "◊P por pedido e resposta de teste: um intervalo de monitoração que cresce Δ a cada engano",
	"algo:anon-ring":    "o Algoritmo do Anel 1 das notas num anel anônimo: dois candidatos simultâneos terminam ambos Empossado; randomized = true quebra a simetria (Itai-Rodeh)",
	"algo:bully":        "eleição do valentão (Bully): o maior id vivo vira coordenador e volta a impor-se depois de uma falha",
	"algo:collect-ring": "o Algoritmo do Anel 2 das notas: cada processo acrescenta o seu id à lista e a repassa; o iniciador, ao encontrar-se nela, escolhe o menor id",
	"algo:franklin":     "anel bidirecional de Franklin: em rodadas, um id ativo só sobrevive se for maior que os ids ativos mais próximos dos dois lados",
	"algo:hs":           "eleição em anel por torneio (Hirschberg-Sinclair) num anel bidirecional: a fase k sonda 2^k saltos para os dois lados; um candidato só sobrevive se vencer todos no seu horizonte",
	"algo:max-alive":    "o \"Algoritmo do Luís\" das notas: sobre o detector perfeito P, o líder é o maior id que não se sabe ter falhado; sem mensagens",
	"algo:raft":         "mandatos ao estilo Raft: timeouts aleatórios, um voto por mandato, maioria (ou mais de metade do peso) para liderar",
	"algo:ring":         "anel de Chang-Roberts: o maior id dá a volta e vence; a marca de participante engole os ids menores",
	"algo:stable-bully": "valentão por tempo de atividade ininterrupto, depois id: um processo que volta perde em vez de se impor outra vez",
	"algo:yoyo":         "Yo-Yo em qualquer grafo conexo: as fontes empurram ids para baixo, os sumidouros votam SIM/NÃO para cima, NÃO inverte arestas; a poda deixa uma fonte, o mínimo",
	"algo:central":      "servidor central: um coordenador concede a região crítica por ordem de chegada; um lease opcional retoma a concessão de um detentor lento",
	"algo:lamport":      "exclusão mútua de Lamport: uma fila de pedidos ordenada por (timestamp, id) em cada processo; REQUEST, ACK, RELEASE",
	"algo:maekawa":      "conjuntos de votação de Maekawa (linha ∪ coluna de uma grelha √N): REQUEST, VOTE, RELEASE; entra em deadlock, a menos que deadlock_free acrescente INQUIRE, RELINQUISH, FAILED",
	"algo:quorum":       "quórum por maioria: um participante precisa de GRANT de m > n/2 dos n coordenadores, que guardam as concessões só em memória volátil e as esquecem quando falham",
	"algo:ricart":       "Ricart-Agrawala: difunde um REQUEST com timestamp e entra após N−1 REPLYs; respostas adiadas por (timestamp, id)",
	"algo:tokenring":    "anel com token: um TOKEN circula pelo anel e quem o detém pode entrar; um detentor que falha perde-o, a regeneração opcional pode criar dois",
}

var esDesc = map[string]string{
	"preset:bully": "La elección del abusón (Garcia-Molina): lidera el mayor id vivo. Todos los nodos inician una elección a la vez y gana n5. A los 4s el coordinador n5 cae: sus heartbeats se detienen, los demás agotan el timeout y eligen a n4. A los 9s n5 se recupera y vuelve a imponerse. Pruébelo: seleccione un nodo con 1-5 y pulse c para tumbarlo, r para revivirlo.",
	"marker:n5, the coordinator, is about to crash: watch who notices first": "n5, el coordinador, está a punto de caer: observe quién lo nota primero",
	"marker:n5 comes back with the highest id: it will bully n4 out":         "n5 vuelve con el mayor id: desplazará a n4 (abusón)",
	"algo:heartbeat-dp": "◊P por heartbeats: un timeout por par que crece Δ tras cada falsa sospecha",
	"algo:omega":        "Ω sobre ◊P: el líder es el menor (o mayor) id no sospechoso",
	"algo:omega-cr":     "Ω con caída y recuperación: los heartbeats llevan la encarnación; lidera el que menos cayó, luego el menor id",
	"algo:perfect":      "P, el detector de fallos perfecto: todo proceso vivo sabe de cada caída exactamente `detect` después; solo en ejecuciones síncronas",
	"algo:pull-dp":      "◊P por petición y respuesta de prueba: un intervalo de monitoreo que crece Δ tras cada error",
	"algo:anon-ring":    "el Anillo 1 de los apuntes en un anillo anónimo: dos candidatos simultáneos terminan ambos investidos; randomized = true rompe la simetría (Itai-Rodeh)",
	"algo:bully":        "elección del abusón (Bully): el mayor id vivo se vuelve coordinador y vuelve a imponerse tras una caída",
	"algo:collect-ring": "el Anillo 2 de los apuntes: cada proceso añade su id a la lista y la reenvía; el iniciador, al encontrarse en ella, elige el menor id",
	"algo:franklin":     "anillo bidireccional de Franklin: por rondas, un id activo sobrevive solo si es mayor que los ids activos más cercanos a ambos lados",
	"algo:hs":           "torneo de Hirschberg-Sinclair en un anillo bidireccional: la fase k sondea 2^k saltos en ambos sentidos; un candidato sobrevive solo si vence a todos en su horizonte",
	"algo:max-alive":    "el \"Algoritmo do Luís\" de los apuntes: sobre el detector perfecto P, el líder es el mayor id del que no se sabe que cayó; sin mensajes",
	"algo:raft":         "mandatos al estilo Raft: timeouts aleatorios, un voto por mandato, mayoría (o más de la mitad del peso) para liderar",
	"algo:ring":         "anillo de Chang-Roberts: el mayor id da la vuelta y gana; la marca de participante se traga los ids menores",
	"algo:stable-bully": "abusón por tiempo de actividad ininterrumpido, luego id: un proceso que vuelve pierde en vez de imponerse de nuevo",
	"algo:yoyo":         "Yo-Yo en cualquier grafo conexo: las fuentes empujan ids hacia abajo, los sumideros votan SÍ/NO hacia arriba, NO invierte aristas; la poda deja una fuente, el mínimo",
	"algo:central":      "servidor central: un coordinador concede la sección crítica en orden de llegada; un lease opcional recupera la concesión de un poseedor lento",
	"algo:lamport":      "exclusión mutua de Lamport: una cola de peticiones ordenada por (timestamp, id) en cada proceso; REQUEST, ACK, RELEASE",
	"algo:maekawa":      "conjuntos de votación de Maekawa (fila ∪ columna de una rejilla √N): REQUEST, VOTE, RELEASE; se bloquea (deadlock) salvo que deadlock_free añada INQUIRE, RELINQUISH, FAILED",
	"algo:quorum":       "quórum por mayoría: un participante necesita GRANT de m > n/2 de los n coordinadores, que guardan las concesiones solo en memoria volátil y las olvidan al caer",
	"algo:ricart":       "Ricart-Agrawala: difunde un REQUEST con timestamp y entra tras N−1 REPLYs; respuestas diferidas por (timestamp, id)",
	"algo:tokenring":    "anillo con testigo: un TOKEN circula por el anillo y su poseedor puede entrar; un poseedor que cae lo pierde, la regeneración opcional puede crear dos",
}
