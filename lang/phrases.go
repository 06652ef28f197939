package lang

import "strings"

// The registry and the scenarios keep some texts in English because they are data:
// a parameter's doc, an algorithm's source, a textbook figure's formula and source
// (stored in trace headers and sweep outputs), a preset's notes section. They are
// shown through Phrase, keyed by the whole English text, so a text that changes in
// English shows its new English until its translation follows (the phrase test
// names it).

// phrases maps each language but English to its translated phrases.
var phrases = map[Lang]map[string]string{Pt: ptPhrases, Es: esPhrases}

// Phrase returns english in l: its translation when l has one, else english.
func (l Lang) Phrase(english string) string {
	s, _ := l.phrase(english)
	return s
}

// HasPhrase reports whether l translates english (English always does); a
// formula may translate to itself.
func (l Lang) HasPhrase(english string) bool {
	_, ok := l.phrase(english)
	return ok
}

func (l Lang) phrase(english string) (string, bool) {
	if l == En || l == "" || english == "" {
		return english, true
	}
	if s, ok := phrases[l][english]; ok {
		return s, true
	}
	// "what (when)": a figure's label is what it counts and, in parentheses, the
	// case; each part is a phrase of its own.
	if head, inner, ok := strings.Cut(english, " ("); ok && strings.HasSuffix(inner, ")") {
		h, okh := phrases[l][head]
		c, okc := phrases[l][strings.TrimSuffix(inner, ")")]
		if okh && okc {
			return h + " (" + c + ")", true
		}
	}
	return english, false
}

// PhraseKeys lists l's translated phrases, for the test that finds unused ones.
func PhraseKeys(l Lang) []string {
	keys := make([]string, 0, len(phrases[l]))
	for k := range phrases[l] {
		keys = append(keys, k)
	}
	return keys
}

var ptPhrases = map[string]string{
	// Sources of algorithms.
	"course notes 000, \"Algoritmo 5.1\" (its push variant); Chandra & Toueg 1996":                                                                    "notas do curso 000, \"Algoritmo 5.1\" (sua variante push); Chandra & Toueg 1996",
	"course notes 000, \"Algoritmo 5.1\"; Chandra & Toueg 1996":                                                                                       "notas do curso 000, \"Algoritmo 5.1\"; Chandra & Toueg 1996",
	"course notes 000, \"Algoritmo 5.2\"; Chandra, Hadzilacos & Toueg 1996":                                                                           "notas do curso 000, \"Algoritmo 5.2\"; Chandra, Hadzilacos & Toueg 1996",
	"course notes 000, \"Algoritmo 5.3\"; Aguilera, Chen & Toueg 2000":                                                                                "notas do curso 000, \"Algoritmo 5.3\"; Aguilera, Chen & Toueg 2000",
	"Chandra & Toueg 1996 (P); course notes 002, \"Deteção de falhas\"":                                                                               "Chandra & Toueg 1996 (P); notas do curso 002, \"Deteção de falhas\"",
	"course notes 003, \"Algoritmo do Anel 1\"; Itai & Rodeh 1990 (randomized); Fokkink 2013, §9.1":                                                   "notas do curso 003, \"Algoritmo do Anel 1\"; Itai & Rodeh 1990 (aleatorizado); Fokkink 2013, §9.1",
	"Garcia-Molina 1982; course notes 001, \"Algoritmo valentão\"; course notes 002, \"Algoritmo Bully\"":                                             "Garcia-Molina 1982; notas do curso 001, \"Algoritmo valentão\"; notas do curso 002, \"Algoritmo Bully\"",
	"course notes 003, \"Algoritmo do Anel 2\"":                                                                                                       "notas do curso 003, \"Algoritmo do Anel 2\"",
	"Franklin 1982 (CACM 25(5)); Santoro, Design and Analysis of Distributed Algorithms, ch. 3 (Stages); course notes 003, \"Algoritmo de Franklin\"": "Franklin 1982 (CACM 25(5)); Santoro, Design and Analysis of Distributed Algorithms, cap. 3 (Stages); notas do curso 003, \"Algoritmo de Franklin\"",
	"Hirschberg & Sinclair 1980 (CACM 23(11)); course notes 002, \"Eleição em anel por torneio\"":                                                     "Hirschberg & Sinclair 1980 (CACM 23(11)); notas do curso 002, \"Eleição em anel por torneio\"",
	"course notes 002, \"Algoritmo do Luís\"; Chandra & Toueg 1996 (P)":                                                                               "notas do curso 002, \"Algoritmo do Luís\"; Chandra & Toueg 1996 (P)",
	"Ongaro & Ousterhout 2014 (§5.2, election only, no log)":                                                                                          "Ongaro & Ousterhout 2014 (§5.2, só a eleição, sem log)",
	"Chang & Roberts 1979 (CACM 22(5)); course notes 001, \"Algoritmo de eleição baseado em anel\"; course notes 004, \"Algoritmo de Anillo\"":        "Chang & Roberts 1979 (CACM 22(5)); notas do curso 001, \"Algoritmo de eleição baseado em anel\"; notas do curso 004, \"Algoritmo de Anillo\"",
	"course notes 003, \"Estabilidade\"; Garcia-Molina 1982":                                                                                          "notas do curso 003, \"Estabilidade\"; Garcia-Molina 1982",
	"Santoro, Design and Analysis of Distributed Algorithms (2007), ch. 3 (Yo-Yo); course notes 003, \"Algoritmo do YoYo\"":                           "Santoro, Design and Analysis of Distributed Algorithms (2007), cap. 3 (Yo-Yo); notas do curso 003, \"Algoritmo do YoYo\"",
	"course notes 002, \"Algoritmo do servidor central\"; course notes 003, \"Coordenador\", \"Lidando com Falhas\"":                                  "notas do curso 002, \"Algoritmo do servidor central\"; notas do curso 003, \"Coordenador\", \"Lidando com Falhas\"",
	"Lamport 1978 (CACM 21(7)), section on mutual exclusion":                                                                                          "Lamport 1978 (CACM 21(7)), seção sobre exclusão mútua",
	"Maekawa 1985 (ACM TOCS 3(2)); course notes 002, \"Algoritmo de Maekawa\"":                                                                        "Maekawa 1985 (ACM TOCS 3(2)); notas do curso 002, \"Algoritmo de Maekawa\"",
	"course notes 003, \"Quórum\", \"Perda de memória\"":                                                                                              "notas do curso 003, \"Quórum\", \"Perda de memória\"",
	"Ricart & Agrawala 1981 (CACM 24(1)); Lamport 1978 timestamps; course notes 002, \"Algoritmo de Ricart and Agrawala\"":                            "Ricart & Agrawala 1981 (CACM 24(1)); timestamps de Lamport 1978; notas do curso 002, \"Algoritmo de Ricart and Agrawala\"",
	"course notes 002, \"Algoritmo baseado em anel\"; course notes 003, \"Anel\", \"Lidando com Falhas\"":                                             "notas do curso 002, \"Algoritmo baseado em anel\"; notas do curso 003, \"Anel\", \"Lidando com Falhas\"",

	// Parameter docs.
	"heartbeat period": "período dos heartbeats",
	"initial timeout per peer after its last heartbeat":                                                                                                                       "timeout inicial por processo monitorado após o seu último heartbeat",
	"Δ: growth of a peer's timeout after a false suspicion of it":                                                                                                             "Δ: quanto cresce o timeout de um processo monitorado após uma falsa suspeita dele",
	"the ◊P detector composed: \"heartbeat\" (heartbeat-dp) or \"pull\" (pull-dp, Alg. 5.1)":                                                                                  "o detector ◊P usado por baixo: \"heartbeat\" (heartbeat-dp) ou \"pull\" (pull-dp, Alg. 5.1)",
	"heartbeat period, or pull's initial monitoring interval":                                                                                                                 "período dos heartbeats, ou o intervalo de monitoramento inicial do pull",
	"heartbeat only: initial timeout per peer after its last heartbeat":                                                                                                       "só com heartbeat: timeout inicial por processo monitorado após o seu último heartbeat",
	"Δ: how much a timeout grows after each false suspicion":                                                                                                                  "Δ: quanto um timeout cresce a cada falsa suspeita",
	"\"min\": lowest unsuspected id; \"max\": highest (\"max of the alive\")":                                                                                                 "\"min\": o menor id não suspeito; \"max\": o maior (\"máximo dos vivos\")",
	"initial heartbeat interval (also the window in which candidates are heard)":                                                                                              "intervalo inicial dos heartbeats (também a janela em que os candidatos são ouvidos)",
	"growth of the heartbeat interval on each leader change (\"IntervaloHeartbeats++\")":                                                                                      "quanto cresce o intervalo dos heartbeats a cada troca de líder (\"IntervaloHeartbeats++\")",
	"P: how long after a crash (or revival) every live process is told of it; the run must be synchronous (gst = \"0s\", no loss)":                                            "P: quanto tempo após uma falha (ou recuperação) todo processo vivo é avisado dela; a execução deve ser síncrona (gst = \"0s\", sem perda)",
	"initial monitoring interval (the timeout for every test)":                                                                                                                "intervalo de monitoramento inicial (o timeout de cada teste)",
	"Δ: growth of the interval after a round that reveals a false suspicion":                                                                                                  "Δ: quanto cresce o intervalo após uma rodada que revela uma falsa suspeita",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; the notes' first table has one candidate; two at once lose uniqueness":             "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; a primeira tabela das notas tem um candidato; dois ao mesmo tempo perdem a unicidade",
	"true: Itai-Rodeh, labels drawn at random in 1…N, rounds until one is unique; one leader with probability 1 (needs FIFO links: constant latency)":                         "true: Itai-Rodeh, rótulos sorteados em 1…N, rodadas até um ser único; um líder com probabilidade 1 (precisa de canais FIFO: latência constante)",
	"how often the coordinator sends HEARTBEAT":                                                                                                                               "a cada quanto tempo o coordenador envia HEARTBEAT",
	"silence from the coordinator after which it is taken for failed":                                                                                                         "silêncio do coordenador após o qual ele é dado como falho",
	"T_trans, the longest transmission time; T = 2·T_trans + T_proc":                                                                                                          "T_trans, o maior tempo de transmissão; T = 2·T_trans + T_proc",
	"T_proc, the longest time to handle a message":                                                                                                                            "T_proc, o maior tempo para tratar uma mensagem",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts one, and the highest id wins at once":              "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; por padrão todo processo inicia uma, e o maior id vence de imediato",
	"true: a process whose timeout declared the coordinator failed sends it no ELECTION; the highest one alive elects itself at once (the notes' best case, N−2 COORDINATOR)": "true: um processo cujo timeout declarou o coordenador falho não lhe envia ELECTION; o maior vivo se elege imediatamente (o melhor caso das notas, N−2 COORDINATOR)",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; only initiators decide; with all of them, N² messages of up to N ids":              "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; só os iniciadores decidem; com todos, N² mensagens de até N ids",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts at time 0; a process that is not an initiator is woken by the first PROBE and competes too":   "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; por padrão todo processo inicia no instante 0; um processo que não é iniciador é acordado pelo primeiro PROBE e também compete",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts at time 0; a process that is not an initiator is woken by the first message and competes too": "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; por padrão todo processo inicia no instante 0; um processo que não é iniciador é acordado pela primeira mensagem e também compete",
	"shortest election timeout": "menor timeout de eleição",
	"longest election timeout; auto is election_min + 150ms·⌈N/16⌉ (300ms up to 16 processes, 2.55s at 256), so that split votes stay rare as N grows": "maior timeout de eleição; auto é election_min + 150ms·⌈N/16⌉ (300ms até 16 processos, 2.55s com 256), para que votos divididos continuem raros quando N cresce",
	"how often the leader sends HEARTBEAT": "a cada quanto tempo o líder envia HEARTBEAT",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default randomized timeouts decide who campaigns first, as in Raft":                                                                                                               "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; por padrão timeouts aleatórios decidem quem se candidata primeiro, como no Raft",
	"votes per process, such as \"n1=3 n2=1\" (the others have 1): a leader needs more than half of the total weight (notes 003, split brain)":                                                                                                                                  "votos por processo, como \"n1=3 n2=1\" (os outros têm 1): um líder precisa de mais da metade do peso total (notas 003, split brain)",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts one at time 0 (the quadratic case when ids decrease along the ring)":                                                                                 "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; por padrão todo processo inicia uma no instante 0 (o caso quadrático quando os ids decrescem ao longo do anel)",
	"send to the next successor a composed ◊P detector does not suspect, and start an election when the leader is suspected, so the ring survives crashes; adds the detector's HEARTBEAT (or TEST_REQ, TEST_REP) messages and needs a mesh":                                     "enviar ao próximo sucessor de que um detector ◊P usado por baixo não suspeita, e iniciar uma eleição quando o líder é suspeito, para que o anel sobreviva a falhas; acrescenta as mensagens HEARTBEAT (ou TEST_REQ, TEST_REP) do detector e precisa de uma malha (mesh)",
	"skip_suspected only: the leader sends ELECTED round again this often, and a participant whose election is still undecided after this long (doubled for each undecided epoch since the last decided one, up to 32×, plus up to half of retry at random) starts a newer one": "só com skip_suspected: o líder faz circular ELECTED de novo com esta frequência, e um participante cuja eleição continua indecisa após este tempo (dobrado a cada época indecisa desde a última decidida, até 32×, mais até metade de retry ao acaso) inicia uma mais nova",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts at time 0; a process that is not an initiator is woken by the first message and joins the setup":                                                     "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; por padrão todo processo inicia no instante 0; um processo que não é iniciador é acordado pela primeira mensagem e entra na preparação",
	"the coordinator, such as \"n1\"; empty means the lowest id":                                                                     "o coordenador, como \"n1\"; vazio quer dizer o menor id",
	"the coordinator reclaims a grant held this long (0s = never); a slow holder then shares the critical section":                   "o coordenador retoma uma autorização mantida por este tempo (0s = nunca); um detentor lento passa então a dividir a região crítica",
	"requests per second per node made by the generator (exponential gaps from the node's seeded source); 0 turns the generator off": "pedidos por segundo por nó feitos pelo gerador (intervalos exponenciais da fonte aleatória semeada do nó); 0 desliga o gerador",
	"per second": "por segundo",
	"how long a process stays in the critical section once it enters":            "quanto tempo um processo fica na região crítica depois de entrar",
	"add INQUIRE, RELINQUISH and FAILED, with queues ordered by (timestamp, id)": "acrescenta INQUIRE, RELINQUISH e FAILED, com filas ordenadas por (timestamp, id)",
	"voting sets: \"grid\" (row and column in a ⌈√N⌉ grid), \"fpp\" (lines of a finite projective plane: N = 7, K = 3; N = 13, K = 4; also 3, 21, 31), \"triangle\" (V1={n1,n2}, V2={n2,n3}, V3={n3,n1}; 3 nodes), or one set per node such as \"n1 n2; n2 n3; n3 n1\"": "conjuntos de votação: \"grid\" (linha e coluna numa grade ⌈√N⌉), \"fpp\" (retas de um plano projetivo finito: N = 7, K = 3; N = 13, K = 4; também 3, 21, 31), \"triangle\" (V1={n1,n2}, V2={n2,n3}, V3={n3,n1}; 3 nós), ou um conjunto por nó como \"n1 n2; n2 n3; n3 n1\"",
	"the n coordinators: \"all\", a list such as [\"n1\", \"n2\", \"n3\"], or a number k, the first k processes":                                                                                                                                                        "os n coordenadores: \"all\" (todos), uma lista como [\"n1\", \"n2\", \"n3\"], ou um número k, os k primeiros processos",
	"grants needed; 0 means the majority floor(n/2)+1; must be > n/2 and <= n":                                                                                                                                                                                          "autorizações necessárias; 0 quer dizer a maioria floor(n/2)+1; deve ser > n/2 e <= n",
	"a participant that waited this long without m grants returns them and retries after a random backoff (0s = wait forever)":                                                                                                                                          "um participante que esperou este tempo sem m autorizações as devolve e tenta de novo após uma espera aleatória (0s = esperar para sempre)",
	"\"timestamp\": (Lamport timestamp, id), the paper; \"priority\": fixed priorities (the id), the variant the notes show letting two processes in":                                                                                                                   "\"timestamp\": (timestamp de Lamport, id), o artigo; \"priority\": prioridades fixas (o id), a variante que as notas mostram deixando entrar dois processos",
	"Lamport clocks to start from, such as \"n1=40 n2=33\" (the others start at 0)":                                                                                                                                                                                     "valor inicial dos relógios de Lamport, como \"n1=40 n2=33\" (os outros começam em 0)",
	"a process that has not seen the token for this long makes a new one (0s = never); can make two tokens":                                                                                                                                                             "um processo que não vê o token há este tempo cria um novo (0s = nunca); pode criar dois tokens",

	// The sections of the notes that presets reproduce (presets --notes).
	"both tables with N = 2":         "as duas tabelas com N = 2",
	"the best case, N−2 COORDINATOR": "o melhor caso, N−2 COORDINATOR",
	"Maekawa 1985: sets from a finite projective plane (notes 002, \"Algoritmo de Maekawa\")": "Maekawa 1985: conjuntos de um plano projetivo finito (notas 002, \"Algoritmo de Maekawa\")",
	"the 7-step example":                                                           "o exemplo em 7 passos",
	"Exemplo (stages 1–4)":                                                         "Exemplo (etapas 1–4)",
	"the deadlock V1={1,2}, V2={2,3}, V3={3,1}":                                    "o deadlock V1={1,2}, V2={2,3}, V3={3,1}",
	"Exemplo (timestamps 41 and 34)":                                               "Exemplo (timestamps 41 e 34)",
	"Exemplo (ids 17, 24, 1, 28)":                                                  "Exemplo (ids 17, 24, 1, 28)",
	"Part1 holds {C1,C2}, C2 restarts, Part2 gets {C2,C3}":                         "Part1 obtém {C1,C2}, C2 reinicia, Part2 obtém {C2,C3}",
	"(two processes enter)":                                                        "(dois processos entram)",
	"the example's stages (a) to (e), on a graph of our own":                       "as etapas (a) a (e) do exemplo, num grafo nosso",
	"the link between 2 and 10 stops working (the protocol as written: it stalls)": "o canal entre 2 e 10 para de funcionar (o protocolo como está escrito: ele trava)",
	"two concurrent elections and two leaders (split-brain), assuming a process drops a neighbour silent for link_timeout": "duas eleições concorrentes e dois líderes (split-brain), supondo que um processo descarte um vizinho calado por link_timeout",

	// Textbook figures: the templates' words, what they count, their cases and sources
	// (trace headers, reports, sweeps).
	"= %s":                  "= %s",
	"≤ %s":                  "≤ %s",
	"≥ %s":                  "≥ %s",
	"%s to %s":              "%s a %s",
	"%s message times":      "%s tempos de mensagem",
	"%s s":                  "%s s",
	"%s: %s":                "%s: %s",
	"messages":              "mensagens",
	"ELECTION messages":     "mensagens ELECTION",
	"ELECTED messages":      "mensagens ELECTED",
	"ANSWER messages":       "mensagens ANSWER",
	"COORDINATOR messages":  "mensagens COORDINATOR",
	"rounds":                "rodadas",
	"PROBE messages in all": "mensagens PROBE ao todo",
	"at most 2N a round":    "no máximo 2N por rodada",
	"messages: PROBE and REPLY, then N ELECTED":                                              "mensagens: PROBE e REPLY, depois N ELECTED",
	"COLLECT messages, k initiators":                                                         "mensagens COLLECT, k iniciadores",
	"N² when all start":                                                                      "N² quando todos iniciam",
	"the iteration by which one source is left":                                              "a iteração em que resta uma só fonte",
	"the iteration counter, rounds, goes on while pruning":                                   "o contador de iterações, rounds, continua durante a poda",
	"messages per entry":                                                                     "mensagens por entrada",
	"1 to ∞: the token goes round whether anyone wants it or not":                            "1 a ∞: o token circula quer alguém o queira, quer não",
	"messages per entry as counted":                                                          "mensagens por entrada como contadas aqui",
	"no message to itself":                                                                   "nenhuma mensagem a si mesmo",
	"messages per entry as counted: the coordinator's own entries cost 0":                    "mensagens por entrada como contadas aqui: as entradas do próprio coordenador custam 0",
	"messages per entry, as the notes write it":                                              "mensagens por entrada, como as notas escrevem",
	"messages per entry: REQUEST, ACK, RELEASE to the N−1 others":                            "mensagens por entrada: REQUEST, ACK, RELEASE aos N−1 outros",
	"messages per entry nobody competes with: REQUEST, GRANT, RELEASE per coordinator asked": "mensagens por entrada sem concorrência: REQUEST, GRANT, RELEASE por coordenador consultado",
	"messages per entry: REQUEST, GRANT, RELEASE":                                            "mensagens por entrada: REQUEST, GRANT, RELEASE",
	"P_v, mutual-exclusion violations per entry, with P = 1−e^(−λ·cs_hold)":                  "P_v, violações da exclusão mútua por entrada, com P = 1−e^(−λ·cs_hold)",
	"client delay: request to entry, the critical section free":                              "atraso do cliente: do pedido à entrada, com a região crítica livre",
	"synchronisation delay: one exit to the next entry":                                      "atraso de sincronização: de uma saída à entrada seguinte",
	"one starter, the maximum's successor":                                                   "um iniciador, o sucessor do máximo",
	"the maximum starts alone":                                                               "o máximo inicia sozinho",
	"one starter k hops before the maximum":                                                  "um iniciador k saltos antes do máximo",
	"all start, ids decreasing along the ring":                                               "todos iniciam, ids decrescentes ao longo do anel",
	"all start, ids increasing: every id but the maximum dies after one hop":                 "todos iniciam, ids crescentes: todo id menos o máximo morre após um salto",
	"all start: each id travels to the next larger one":                                      "todos iniciam: cada id viaja até o próximo maior",
	"all start, nobody crashed: N²−1 in all":                                                 "todos iniciam, ninguém falhou: N²−1 ao todo",
	"best case: the second-highest detects":                                                  "melhor caso: o segundo maior detecta",
	"worst case, the lowest detects, or all do: N²−N−1 in all":                               "pior caso, o menor detecta, ou todos: N²−N−1 ao todo",
	"course notes 002, \"Comparação dos algoritmos\"":                                        "notas do curso 002, \"Comparação dos algoritmos\"",
	"Ricart & Agrawala 1981; course notes 002, \"Comparação dos algoritmos\"":                "Ricart & Agrawala 1981; notas do curso 002, \"Comparação dos algoritmos\"",
	"Maekawa 1985; course notes 002, \"Comparação dos algoritmos\"":                          "Maekawa 1985; notas do curso 002, \"Comparação dos algoritmos\"",
	"Lamport 1978 (CACM 21(7)); Kshemkalyani & Singhal 2008, ch. 9 (Lamport's algorithm)":    "Lamport 1978 (CACM 21(7)); Kshemkalyani & Singhal 2008, cap. 9 (algoritmo de Lamport)",
	"Coulouris et al. 2012 (5th ed.), §15.2 (ring-based algorithm)":                          "Coulouris et al. 2012 (5ª ed.), §15.2 (algoritmo baseado em anel)",
	"Tanenbaum & van Steen 2007 (2nd ed.), §6.3 (comparison of the algorithms)":              "Tanenbaum & van Steen 2007 (2ª ed.), §6.3 (comparação dos algoritmos)",
	"Chang & Roberts 1979; course notes 002, \"Eleição em anel\"":                            "Chang & Roberts 1979; notas do curso 002, \"Eleição em anel\"",
	"Franklin 1982; Santoro 2007, ch. 3":                                                     "Franklin 1982; Santoro 2007, cap. 3",
	"Hirschberg & Sinclair 1980":                                                             "Hirschberg & Sinclair 1980",
	"Santoro 2007, ch. 3 (Yo-Yo)":                                                            "Santoro 2007, cap. 3 (Yo-Yo)",
}

var esPhrases = map[string]string{
	// Sources of algorithms.
	"course notes 000, \"Algoritmo 5.1\" (its push variant); Chandra & Toueg 1996":                                                                    "apuntes del curso 000, \"Algoritmo 5.1\" (su variante push); Chandra & Toueg 1996",
	"course notes 000, \"Algoritmo 5.1\"; Chandra & Toueg 1996":                                                                                       "apuntes del curso 000, \"Algoritmo 5.1\"; Chandra & Toueg 1996",
	"course notes 000, \"Algoritmo 5.2\"; Chandra, Hadzilacos & Toueg 1996":                                                                           "apuntes del curso 000, \"Algoritmo 5.2\"; Chandra, Hadzilacos & Toueg 1996",
	"course notes 000, \"Algoritmo 5.3\"; Aguilera, Chen & Toueg 2000":                                                                                "apuntes del curso 000, \"Algoritmo 5.3\"; Aguilera, Chen & Toueg 2000",
	"Chandra & Toueg 1996 (P); course notes 002, \"Deteção de falhas\"":                                                                               "Chandra & Toueg 1996 (P); apuntes del curso 002, \"Deteção de falhas\"",
	"course notes 003, \"Algoritmo do Anel 1\"; Itai & Rodeh 1990 (randomized); Fokkink 2013, §9.1":                                                   "apuntes del curso 003, \"Algoritmo do Anel 1\"; Itai & Rodeh 1990 (aleatorizado); Fokkink 2013, §9.1",
	"Garcia-Molina 1982; course notes 001, \"Algoritmo valentão\"; course notes 002, \"Algoritmo Bully\"":                                             "Garcia-Molina 1982; apuntes del curso 001, \"Algoritmo valentão\" (el abusón); apuntes del curso 002, \"Algoritmo Bully\"",
	"course notes 003, \"Algoritmo do Anel 2\"":                                                                                                       "apuntes del curso 003, \"Algoritmo do Anel 2\"",
	"Franklin 1982 (CACM 25(5)); Santoro, Design and Analysis of Distributed Algorithms, ch. 3 (Stages); course notes 003, \"Algoritmo de Franklin\"": "Franklin 1982 (CACM 25(5)); Santoro, Design and Analysis of Distributed Algorithms, cap. 3 (Stages); apuntes del curso 003, \"Algoritmo de Franklin\"",
	"Hirschberg & Sinclair 1980 (CACM 23(11)); course notes 002, \"Eleição em anel por torneio\"":                                                     "Hirschberg & Sinclair 1980 (CACM 23(11)); apuntes del curso 002, \"Eleição em anel por torneio\"",
	"course notes 002, \"Algoritmo do Luís\"; Chandra & Toueg 1996 (P)":                                                                               "apuntes del curso 002, \"Algoritmo do Luís\"; Chandra & Toueg 1996 (P)",
	"Ongaro & Ousterhout 2014 (§5.2, election only, no log)":                                                                                          "Ongaro & Ousterhout 2014 (§5.2, solo la elección, sin log)",
	"Chang & Roberts 1979 (CACM 22(5)); course notes 001, \"Algoritmo de eleição baseado em anel\"; course notes 004, \"Algoritmo de Anillo\"":        "Chang & Roberts 1979 (CACM 22(5)); apuntes del curso 001, \"Algoritmo de eleição baseado em anel\"; apuntes del curso 004, \"Algoritmo de Anillo\"",
	"course notes 003, \"Estabilidade\"; Garcia-Molina 1982":                                                                                          "apuntes del curso 003, \"Estabilidade\" (estabilidad); Garcia-Molina 1982",
	"Santoro, Design and Analysis of Distributed Algorithms (2007), ch. 3 (Yo-Yo); course notes 003, \"Algoritmo do YoYo\"":                           "Santoro, Design and Analysis of Distributed Algorithms (2007), cap. 3 (Yo-Yo); apuntes del curso 003, \"Algoritmo do YoYo\"",
	"course notes 002, \"Algoritmo do servidor central\"; course notes 003, \"Coordenador\", \"Lidando com Falhas\"":                                  "apuntes del curso 002, \"Algoritmo do servidor central\"; apuntes del curso 003, \"Coordenador\", \"Lidando com Falhas\"",
	"Lamport 1978 (CACM 21(7)), section on mutual exclusion":                                                                                          "Lamport 1978 (CACM 21(7)), sección sobre exclusión mutua",
	"Maekawa 1985 (ACM TOCS 3(2)); course notes 002, \"Algoritmo de Maekawa\"":                                                                        "Maekawa 1985 (ACM TOCS 3(2)); apuntes del curso 002, \"Algoritmo de Maekawa\"",
	"course notes 003, \"Quórum\", \"Perda de memória\"":                                                                                              "apuntes del curso 003, \"Quórum\", \"Perda de memória\"",
	"Ricart & Agrawala 1981 (CACM 24(1)); Lamport 1978 timestamps; course notes 002, \"Algoritmo de Ricart and Agrawala\"":                            "Ricart & Agrawala 1981 (CACM 24(1)); timestamps de Lamport 1978; apuntes del curso 002, \"Algoritmo de Ricart and Agrawala\"",
	"course notes 002, \"Algoritmo baseado em anel\"; course notes 003, \"Anel\", \"Lidando com Falhas\"":                                             "apuntes del curso 002, \"Algoritmo baseado em anel\"; apuntes del curso 003, \"Anel\", \"Lidando com Falhas\"",

	// Parameter docs.
	"heartbeat period": "período de los heartbeats",
	"initial timeout per peer after its last heartbeat":                                                                                                                       "timeout inicial por proceso vigilado tras su último heartbeat",
	"Δ: growth of a peer's timeout after a false suspicion of it":                                                                                                             "Δ: cuánto crece el timeout de un proceso vigilado tras una falsa sospecha sobre él",
	"the ◊P detector composed: \"heartbeat\" (heartbeat-dp) or \"pull\" (pull-dp, Alg. 5.1)":                                                                                  "el detector ◊P usado debajo: \"heartbeat\" (heartbeat-dp) o \"pull\" (pull-dp, Alg. 5.1)",
	"heartbeat period, or pull's initial monitoring interval":                                                                                                                 "período de los heartbeats, o el intervalo de monitoreo inicial de pull",
	"heartbeat only: initial timeout per peer after its last heartbeat":                                                                                                       "solo con heartbeat: timeout inicial por proceso vigilado tras su último heartbeat",
	"Δ: how much a timeout grows after each false suspicion":                                                                                                                  "Δ: cuánto crece un timeout con cada falsa sospecha",
	"\"min\": lowest unsuspected id; \"max\": highest (\"max of the alive\")":                                                                                                 "\"min\": el menor id no sospechoso; \"max\": el mayor (\"máximo de los vivos\")",
	"initial heartbeat interval (also the window in which candidates are heard)":                                                                                              "intervalo inicial de los heartbeats (también la ventana en que se escucha a los candidatos)",
	"growth of the heartbeat interval on each leader change (\"IntervaloHeartbeats++\")":                                                                                      "cuánto crece el intervalo de los heartbeats con cada cambio de líder (\"IntervaloHeartbeats++\")",
	"P: how long after a crash (or revival) every live process is told of it; the run must be synchronous (gst = \"0s\", no loss)":                                            "P: cuánto tiempo después de una caída (o recuperación) se avisa a todo proceso vivo; la ejecución debe ser síncrona (gst = \"0s\", sin pérdida)",
	"initial monitoring interval (the timeout for every test)":                                                                                                                "intervalo de monitoreo inicial (el timeout de cada prueba)",
	"Δ: growth of the interval after a round that reveals a false suspicion":                                                                                                  "Δ: cuánto crece el intervalo tras una ronda que revela una falsa sospecha",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; the notes' first table has one candidate; two at once lose uniqueness":             "nodos que inician una elección en el instante 0: \"all\" (todos), \"none\" (ninguno) o una lista como [\"n1\"]; la primera tabla de los apuntes tiene un candidato; dos a la vez pierden la unicidad",
	"true: Itai-Rodeh, labels drawn at random in 1…N, rounds until one is unique; one leader with probability 1 (needs FIFO links: constant latency)":                         "true: Itai-Rodeh, etiquetas sorteadas en 1…N, rondas hasta que una sea única; un líder con probabilidad 1 (necesita canales FIFO: latencia constante)",
	"how often the coordinator sends HEARTBEAT":                                                                                                                               "cada cuánto el coordinador envía HEARTBEAT",
	"silence from the coordinator after which it is taken for failed":                                                                                                         "silencio del coordinador tras el cual se lo da por caído",
	"T_trans, the longest transmission time; T = 2·T_trans + T_proc":                                                                                                          "T_trans, el mayor tiempo de transmisión; T = 2·T_trans + T_proc",
	"T_proc, the longest time to handle a message":                                                                                                                            "T_proc, el mayor tiempo para tratar un mensaje",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts one, and the highest id wins at once":              "nodos que inician una elección en el instante 0: \"all\" (todos), \"none\" (ninguno) o una lista como [\"n1\"]; por defecto todo proceso inicia una, y el mayor id gana de inmediato",
	"true: a process whose timeout declared the coordinator failed sends it no ELECTION; the highest one alive elects itself at once (the notes' best case, N−2 COORDINATOR)": "true: un proceso cuyo timeout declaró caído al coordinador no le envía ELECTION; el mayor vivo se autoproclama coordinador de inmediato (el mejor caso de los apuntes, N−2 COORDINATOR)",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; only initiators decide; with all of them, N² messages of up to N ids":              "nodos que inician una elección en el instante 0: \"all\" (todos), \"none\" (ninguno) o una lista como [\"n1\"]; solo los iniciadores deciden; con todos, N² mensajes de hasta N ids",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts at time 0; a process that is not an initiator is woken by the first PROBE and competes too":   "nodos que inician una elección en el instante 0: \"all\" (todos), \"none\" (ninguno) o una lista como [\"n1\"]; por defecto todo proceso inicia en el instante 0; un proceso que no es iniciador despierta con el primer PROBE y también compite",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts at time 0; a process that is not an initiator is woken by the first message and competes too": "nodos que inician una elección en el instante 0: \"all\" (todos), \"none\" (ninguno) o una lista como [\"n1\"]; por defecto todo proceso inicia en el instante 0; un proceso que no es iniciador despierta con el primer mensaje y también compite",
	"shortest election timeout": "menor timeout de elección",
	"longest election timeout; auto is election_min + 150ms·⌈N/16⌉ (300ms up to 16 processes, 2.55s at 256), so that split votes stay rare as N grows": "mayor timeout de elección; auto es election_min + 150ms·⌈N/16⌉ (300ms hasta 16 procesos, 2.55s con 256), para que los votos divididos sigan siendo raros cuando N crece",
	"how often the leader sends HEARTBEAT": "cada cuánto el líder envía HEARTBEAT",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default randomized timeouts decide who campaigns first, as in Raft":                                                                                                               "nodos que inician una elección en el instante 0: \"all\" (todos), \"none\" (ninguno) o una lista como [\"n1\"]; por defecto timeouts aleatorios deciden quién se candidatea primero, como en Raft",
	"votes per process, such as \"n1=3 n2=1\" (the others have 1): a leader needs more than half of the total weight (notes 003, split brain)":                                                                                                                                  "votos por proceso, como \"n1=3 n2=1\" (los demás tienen 1): un líder necesita más de la mitad del peso total (apuntes 003, split brain)",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts one at time 0 (the quadratic case when ids decrease along the ring)":                                                                                 "nodos que inician una elección en el instante 0: \"all\" (todos), \"none\" (ninguno) o una lista como [\"n1\"]; por defecto todo proceso inicia una en el instante 0 (el caso cuadrático cuando los ids decrecen a lo largo del anillo)",
	"send to the next successor a composed ◊P detector does not suspect, and start an election when the leader is suspected, so the ring survives crashes; adds the detector's HEARTBEAT (or TEST_REQ, TEST_REP) messages and needs a mesh":                                     "enviar al siguiente sucesor del que no sospecha un detector ◊P usado debajo, e iniciar una elección cuando el líder es sospechoso, para que el anillo sobreviva a caídas; añade los mensajes HEARTBEAT (o TEST_REQ, TEST_REP) del detector y necesita una malla (mesh)",
	"skip_suspected only: the leader sends ELECTED round again this often, and a participant whose election is still undecided after this long (doubled for each undecided epoch since the last decided one, up to 32×, plus up to half of retry at random) starts a newer one": "solo con skip_suspected: el líder vuelve a hacer circular ELECTED con esta frecuencia, y un participante cuya elección sigue sin decidir tras este tiempo (duplicado por cada época sin decidir desde la última decidida, hasta 32×, más hasta la mitad de retry al azar) inicia una más nueva",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts at time 0; a process that is not an initiator is woken by the first message and joins the setup":                                                     "nodos que inician una elección en el instante 0: \"all\" (todos), \"none\" (ninguno) o una lista como [\"n1\"]; por defecto todo proceso inicia en el instante 0; un proceso que no es iniciador despierta con el primer mensaje y se une a la preparación",
	"the coordinator, such as \"n1\"; empty means the lowest id":                                                                     "el coordinador, como \"n1\"; vacío significa el menor id",
	"the coordinator reclaims a grant held this long (0s = never); a slow holder then shares the critical section":                   "el coordinador recupera una autorización retenida este tiempo (0s = nunca); un poseedor lento comparte entonces la sección crítica",
	"requests per second per node made by the generator (exponential gaps from the node's seeded source); 0 turns the generator off": "pedidos por segundo por nodo hechos por el generador (intervalos exponenciales de la fuente aleatoria con semilla del nodo); 0 apaga el generador",
	"per second": "por segundo",
	"how long a process stays in the critical section once it enters":            "cuánto tiempo un proceso permanece en la sección crítica una vez que entra",
	"add INQUIRE, RELINQUISH and FAILED, with queues ordered by (timestamp, id)": "añade INQUIRE, RELINQUISH y FAILED, con colas ordenadas por (timestamp, id)",
	"voting sets: \"grid\" (row and column in a ⌈√N⌉ grid), \"fpp\" (lines of a finite projective plane: N = 7, K = 3; N = 13, K = 4; also 3, 21, 31), \"triangle\" (V1={n1,n2}, V2={n2,n3}, V3={n3,n1}; 3 nodes), or one set per node such as \"n1 n2; n2 n3; n3 n1\"": "conjuntos de votación: \"grid\" (fila y columna en una cuadrícula ⌈√N⌉), \"fpp\" (rectas de un plano proyectivo finito: N = 7, K = 3; N = 13, K = 4; también 3, 21, 31), \"triangle\" (V1={n1,n2}, V2={n2,n3}, V3={n3,n1}; 3 nodos), o un conjunto por nodo como \"n1 n2; n2 n3; n3 n1\"",
	"the n coordinators: \"all\", a list such as [\"n1\", \"n2\", \"n3\"], or a number k, the first k processes":                                                                                                                                                        "los n coordinadores: \"all\" (todos), una lista como [\"n1\", \"n2\", \"n3\"], o un número k, los k primeros procesos",
	"grants needed; 0 means the majority floor(n/2)+1; must be > n/2 and <= n":                                                                                                                                                                                          "autorizaciones necesarias; 0 significa la mayoría floor(n/2)+1; debe ser > n/2 y <= n",
	"a participant that waited this long without m grants returns them and retries after a random backoff (0s = wait forever)":                                                                                                                                          "un participante que esperó este tiempo sin m autorizaciones las devuelve y reintenta tras una espera aleatoria (0s = esperar para siempre)",
	"\"timestamp\": (Lamport timestamp, id), the paper; \"priority\": fixed priorities (the id), the variant the notes show letting two processes in":                                                                                                                   "\"timestamp\": (timestamp de Lamport, id), el artículo; \"priority\": prioridades fijas (el id), la variante que los apuntes muestran dejando entrar a dos procesos",
	"Lamport clocks to start from, such as \"n1=40 n2=33\" (the others start at 0)":                                                                                                                                                                                     "valor inicial de los relojes de Lamport, como \"n1=40 n2=33\" (los demás empiezan en 0)",
	"a process that has not seen the token for this long makes a new one (0s = never); can make two tokens":                                                                                                                                                             "un proceso que no ve el token desde hace este tiempo crea uno nuevo (0s = nunca); puede crear dos tokens",

	// The sections of the notes that presets reproduce (presets --notes).
	"both tables with N = 2":         "las dos tablas con N = 2",
	"the best case, N−2 COORDINATOR": "el mejor caso, N−2 COORDINATOR",
	"Maekawa 1985: sets from a finite projective plane (notes 002, \"Algoritmo de Maekawa\")": "Maekawa 1985: conjuntos de un plano proyectivo finito (apuntes 002, \"Algoritmo de Maekawa\")",
	"the 7-step example":                                                           "el ejemplo en 7 pasos",
	"Exemplo (stages 1–4)":                                                         "Exemplo (etapas 1–4)",
	"the deadlock V1={1,2}, V2={2,3}, V3={3,1}":                                    "el deadlock V1={1,2}, V2={2,3}, V3={3,1}",
	"Exemplo (timestamps 41 and 34)":                                               "Exemplo (timestamps 41 y 34)",
	"Exemplo (ids 17, 24, 1, 28)":                                                  "Exemplo (ids 17, 24, 1, 28)",
	"Part1 holds {C1,C2}, C2 restarts, Part2 gets {C2,C3}":                         "Part1 obtiene {C1,C2}, C2 se reinicia, Part2 obtiene {C2,C3}",
	"(two processes enter)":                                                        "(entran dos procesos)",
	"the example's stages (a) to (e), on a graph of our own":                       "las etapas (a) a (e) del ejemplo, en un grafo propio",
	"the link between 2 and 10 stops working (the protocol as written: it stalls)": "el enlace entre 2 y 10 deja de funcionar (el protocolo tal como está escrito: se estanca)",
	"two concurrent elections and two leaders (split-brain), assuming a process drops a neighbour silent for link_timeout": "dos elecciones concurrentes y dos líderes (split-brain), suponiendo que un proceso descarte a un vecino callado durante link_timeout",

	// Textbook figures: the templates' words, what they count, their cases and sources
	// (trace headers, reports, sweeps).
	"= %s":                  "= %s",
	"≤ %s":                  "≤ %s",
	"≥ %s":                  "≥ %s",
	"%s to %s":              "%s a %s",
	"%s message times":      "%s tiempos de mensaje",
	"%s s":                  "%s s",
	"%s: %s":                "%s: %s",
	"messages":              "mensajes",
	"ELECTION messages":     "mensajes ELECTION",
	"ELECTED messages":      "mensajes ELECTED",
	"ANSWER messages":       "mensajes ANSWER",
	"COORDINATOR messages":  "mensajes COORDINATOR",
	"rounds":                "rondas",
	"PROBE messages in all": "mensajes PROBE en total",
	"at most 2N a round":    "como máximo 2N por ronda",
	"messages: PROBE and REPLY, then N ELECTED":                                              "mensajes: PROBE y REPLY, después N ELECTED",
	"COLLECT messages, k initiators":                                                         "mensajes COLLECT, k iniciadores",
	"N² when all start":                                                                      "N² cuando todos inician",
	"the iteration by which one source is left":                                              "la iteración en que queda una sola fuente",
	"the iteration counter, rounds, goes on while pruning":                                   "el contador de iteraciones, rounds, sigue durante la poda",
	"messages per entry":                                                                     "mensajes por entrada",
	"1 to ∞: the token goes round whether anyone wants it or not":                            "1 a ∞: el token circula lo quiera alguien o no",
	"messages per entry as counted":                                                          "mensajes por entrada según se cuentan aquí",
	"no message to itself":                                                                   "ningún mensaje a sí mismo",
	"messages per entry as counted: the coordinator's own entries cost 0":                    "mensajes por entrada según se cuentan aquí: las entradas del propio coordinador cuestan 0",
	"messages per entry, as the notes write it":                                              "mensajes por entrada, como lo escriben los apuntes",
	"messages per entry: REQUEST, ACK, RELEASE to the N−1 others":                            "mensajes por entrada: REQUEST, ACK, RELEASE a los N−1 otros",
	"messages per entry nobody competes with: REQUEST, GRANT, RELEASE per coordinator asked": "mensajes por entrada sin competencia: REQUEST, GRANT, RELEASE por coordinador consultado",
	"messages per entry: REQUEST, GRANT, RELEASE":                                            "mensajes por entrada: REQUEST, GRANT, RELEASE",
	"P_v, mutual-exclusion violations per entry, with P = 1−e^(−λ·cs_hold)":                  "P_v, violaciones de la exclusión mutua por entrada, con P = 1−e^(−λ·cs_hold)",
	"client delay: request to entry, the critical section free":                              "retardo del cliente: de la petición a la entrada, con la sección crítica libre",
	"synchronisation delay: one exit to the next entry":                                      "retardo de sincronización: de una salida a la entrada siguiente",
	"one starter, the maximum's successor":                                                   "un iniciador, el sucesor del máximo",
	"the maximum starts alone":                                                               "el máximo inicia solo",
	"one starter k hops before the maximum":                                                  "un iniciador k saltos antes del máximo",
	"all start, ids decreasing along the ring":                                               "todos inician, ids decrecientes a lo largo del anillo",
	"all start, ids increasing: every id but the maximum dies after one hop":                 "todos inician, ids crecientes: todo id salvo el máximo muere tras un salto",
	"all start: each id travels to the next larger one":                                      "todos inician: cada id viaja hasta el siguiente mayor",
	"all start, nobody crashed: N²−1 in all":                                                 "todos inician, nadie cayó: N²−1 en total",
	"best case: the second-highest detects":                                                  "mejor caso: detecta el segundo mayor",
	"worst case, the lowest detects, or all do: N²−N−1 in all":                               "peor caso, detecta el menor, o todos: N²−N−1 en total",
	"course notes 002, \"Comparação dos algoritmos\"":                                        "apuntes del curso 002, \"Comparação dos algoritmos\"",
	"Ricart & Agrawala 1981; course notes 002, \"Comparação dos algoritmos\"":                "Ricart & Agrawala 1981; apuntes del curso 002, \"Comparação dos algoritmos\"",
	"Maekawa 1985; course notes 002, \"Comparação dos algoritmos\"":                          "Maekawa 1985; apuntes del curso 002, \"Comparação dos algoritmos\"",
	"Lamport 1978 (CACM 21(7)); Kshemkalyani & Singhal 2008, ch. 9 (Lamport's algorithm)":    "Lamport 1978 (CACM 21(7)); Kshemkalyani & Singhal 2008, cap. 9 (algoritmo de Lamport)",
	"Coulouris et al. 2012 (5th ed.), §15.2 (ring-based algorithm)":                          "Coulouris et al. 2012 (5.ª ed.), §15.2 (algoritmo basado en anillo)",
	"Tanenbaum & van Steen 2007 (2nd ed.), §6.3 (comparison of the algorithms)":              "Tanenbaum & van Steen 2007 (2.ª ed.), §6.3 (comparación de los algoritmos)",
	"Chang & Roberts 1979; course notes 002, \"Eleição em anel\"":                            "Chang & Roberts 1979; apuntes del curso 002, \"Eleição em anel\"",
	"Franklin 1982; Santoro 2007, ch. 3":                                                     "Franklin 1982; Santoro 2007, cap. 3",
	"Hirschberg & Sinclair 1980":                                                             "Hirschberg & Sinclair 1980",
	"Santoro 2007, ch. 3 (Yo-Yo)":                                                            "Santoro 2007, cap. 3 (Yo-Yo)",
}
