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

// electionPart ends the label of the ELECTION share of a ring election's count.
const electionPart = ": the ELECTION part"

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
	if head, ok := strings.CutSuffix(english, electionPart); ok {
		if s, ok := phrases[l][head]; ok {
			return s + phrases[l][electionPart], true
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
	"course notes, ch. 5 (push variant of Alg. 5.1); Chandra & Toueg 1996":                                                 "notas do curso, cap. 5 (variante push do Alg. 5.1); Chandra & Toueg 1996",
	"course notes, Alg. 5.2; Chandra, Hadzilacos & Toueg 1996":                                                             "notas do curso, Alg. 5.2; Chandra, Hadzilacos & Toueg 1996",
	"course notes, Alg. 5.3; Aguilera, Chen & Toueg 2000":                                                                  "notas do curso, Alg. 5.3; Aguilera, Chen & Toueg 2000",
	"Chandra & Toueg 1996 (P); course notes 002 (detetor de falhas perfeito)":                                              "Chandra & Toueg 1996 (P); notas do curso 002 (detetor de falhas perfeito)",
	"course notes, Alg. 5.1; Chandra & Toueg 1996":                                                                         "notas do curso, Alg. 5.1; Chandra & Toueg 1996",
	"course notes 003 (Algoritmo do Anel 1); Itai & Rodeh 1990 (randomized); Fokkink 2013, §9.1":                           "notas do curso 003 (Algoritmo do Anel 1); Itai & Rodeh 1990 (aleatorizado); Fokkink 2013, §9.1",
	"Garcia-Molina 1982; course notes (algoritmo valentão)":                                                                "Garcia-Molina 1982; notas do curso (algoritmo valentão)",
	"course notes 003 (Algoritmo do Anel 2)":                                                                               "notas do curso 003 (Algoritmo do Anel 2)",
	"Franklin 1982 (CACM 25(5)); Santoro, Design and Analysis of Distributed Algorithms, ch. 3 (Stages); course notes 003": "Franklin 1982 (CACM 25(5)); Santoro, Design and Analysis of Distributed Algorithms, cap. 3 (Stages); notas do curso 003",
	"Hirschberg & Sinclair 1980 (CACM 23(11)); course notes 002 (eleição em anel por torneio)":                             "Hirschberg & Sinclair 1980 (CACM 23(11)); notas do curso 002 (eleição em anel por torneio)",
	"course notes 002 (Algoritmo do \"Luís\"); Chandra & Toueg 1996 (P)":                                                   "notas do curso 002 (Algoritmo do \"Luís\"); Chandra & Toueg 1996 (P)",
	"Ongaro & Ousterhout 2014 (§5.2, election only, no log)":                                                               "Ongaro & Ousterhout 2014 (§5.2, só a eleição, sem log)",
	"Chang & Roberts 1979 (CACM 22(5)); course notes 001 and 004 (algoritmo de anel)":                                      "Chang & Roberts 1979 (CACM 22(5)); notas do curso 001 e 004 (algoritmo de anel)",
	"course notes 003 (Estabilidade); Garcia-Molina 1982":                                                                  "notas do curso 003 (Estabilidade); Garcia-Molina 1982",
	"Santoro, Design and Analysis of Distributed Algorithms (2007), ch. 3 (Yo-Yo); course notes 003":                       "Santoro, Design and Analysis of Distributed Algorithms (2007), cap. 3 (Yo-Yo); notas do curso 003",
	"course notes 002 (algoritmo do servidor central) and 003 (Coordenador, Lidando com Falhas)":                           "notas do curso 002 (algoritmo do servidor central) e 003 (Coordenador, Lidando com Falhas)",
	"Lamport 1978 (CACM 21(7)), section on mutual exclusion":                                                               "Lamport 1978 (CACM 21(7)), seção sobre exclusão mútua",
	"Maekawa 1985 (ACM TOCS 3(2)); course notes 002 (algoritmo de Maekawa)":                                                "Maekawa 1985 (ACM TOCS 3(2)); notas do curso 002 (algoritmo de Maekawa)",
	"course notes 003 (Quórum, Perda de memória)":                                                                          "notas do curso 003 (Quórum, Perda de memória)",
	"Ricart & Agrawala 1981 (CACM 24(1)); Lamport 1978 timestamps; course notes 002":                                       "Ricart & Agrawala 1981 (CACM 24(1)); timestamps de Lamport 1978; notas do curso 002",
	"course notes 002 (algoritmo baseado em anel) and 003 (Anel, Lidando com Falhas)":                                      "notas do curso 002 (algoritmo baseado em anel) e 003 (Anel, Lidando com Falhas)",

	// Parameter docs.
	"heartbeat period": "período dos heartbeats",
	"initial timeout per peer after its last heartbeat":                                                                                                                       "timeout inicial por par após o seu último heartbeat",
	"Δ: growth of a peer's timeout after a false suspicion of it":                                                                                                             "Δ: quanto cresce o timeout de um par após uma falsa suspeita dele",
	"the ◊P detector composed: \"heartbeat\" (heartbeat-dp) or \"pull\" (pull-dp, Alg. 5.1)":                                                                                  "o detector ◊P usado por baixo: \"heartbeat\" (heartbeat-dp) ou \"pull\" (pull-dp, Alg. 5.1)",
	"heartbeat period, or pull's initial monitoring interval":                                                                                                                 "período dos heartbeats, ou o intervalo de monitoração inicial do pull",
	"heartbeat only: initial timeout per peer after its last heartbeat":                                                                                                       "só com heartbeat: timeout inicial por par após o seu último heartbeat",
	"Δ: how much a timeout grows after each false suspicion":                                                                                                                  "Δ: quanto um timeout cresce a cada falsa suspeita",
	"\"min\": lowest unsuspected id; \"max\": highest (\"max of the alive\")":                                                                                                 "\"min\": o menor id não suspeito; \"max\": o maior (\"máximo dos vivos\")",
	"initial heartbeat interval (also the window in which candidates are heard)":                                                                                              "intervalo inicial dos heartbeats (também a janela em que os candidatos são ouvidos)",
	"growth of the heartbeat interval on each leader change (\"IntervaloHeartbeats++\")":                                                                                      "quanto cresce o intervalo dos heartbeats a cada troca de líder (\"IntervaloHeartbeats++\")",
	"P: how long after a crash (or revival) every live process is told of it; the run must be synchronous (gst = \"0s\", no loss)":                                            "P: quanto tempo após uma falha (ou recuperação) todo processo vivo é avisado dela; a execução deve ser síncrona (gst = \"0s\", sem perda)",
	"initial monitoring interval (the timeout for every test)":                                                                                                                "intervalo de monitoração inicial (o timeout de cada teste)",
	"Δ: growth of the interval after a round that reveals a false suspicion":                                                                                                  "Δ: quanto cresce o intervalo após uma rodada que revela uma falsa suspeita",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; the notes' first table has one candidate; two at once lose uniqueness":             "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; a primeira tabela das notas tem um candidato; dois ao mesmo tempo perdem a unicidade",
	"true: Itai-Rodeh, labels drawn at random in 1…N, rounds until one is unique; one leader with probability 1 (needs FIFO links: constant latency)":                         "true: Itai-Rodeh, rótulos sorteados em 1…N, rodadas até um ser único; um líder com probabilidade 1 (precisa de canais FIFO: latência constante)",
	"how often the coordinator sends HEARTBEAT":                                                                                                                               "a cada quanto tempo o coordenador envia HEARTBEAT",
	"silence from the coordinator after which it is taken for failed":                                                                                                         "silêncio do coordenador após o qual ele é dado como falho",
	"T_trans, the longest transmission time; T = 2·T_trans + T_proc":                                                                                                          "T_trans, o maior tempo de transmissão; T = 2·T_trans + T_proc",
	"T_proc, the longest time to handle a message":                                                                                                                            "T_proc, o maior tempo para tratar uma mensagem",
	"nodes that start an election at time 0: \"all\", \"none\" or a list such as [\"n1\"]; by default every process starts one, and the highest id wins at once":              "nós que iniciam uma eleição no instante 0: \"all\" (todos), \"none\" (nenhum) ou uma lista como [\"n1\"]; por padrão todo processo inicia uma, e o maior id vence de imediato",
	"true: a process whose timeout declared the coordinator failed sends it no ELECTION; the highest one alive elects itself at once (the notes' best case, N−2 COORDINATOR)": "true: um processo cujo timeout declarou o coordenador falho não lhe envia ELECTION; o maior vivo elege-se imediatamente (o melhor caso das notas, N−2 COORDINATOR)",
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
	"the coordinator reclaims a grant held this long (0s = never); a slow holder then shares the critical section":                   "o coordenador retoma uma concessão mantida por este tempo (0s = nunca); um detentor lento passa então a dividir a região crítica",
	"requests per second per node made by the generator (exponential gaps from the node's seeded source); 0 turns the generator off": "pedidos por segundo por nó feitos pelo gerador (intervalos exponenciais da fonte aleatória semeada do nó); 0 desliga o gerador",
	"per second": "por segundo",
	"how long a process stays in the critical section once it enters":            "quanto tempo um processo fica na região crítica depois de entrar",
	"add INQUIRE, RELINQUISH and FAILED, with queues ordered by (timestamp, id)": "acrescenta INQUIRE, RELINQUISH e FAILED, com filas ordenadas por (timestamp, id)",
	"voting sets: \"grid\" (row and column in a ⌈√N⌉ grid), \"fpp\" (lines of a finite projective plane: N = 7, K = 3; N = 13, K = 4; also 3, 21, 31), \"triangle\" (V1={n1,n2}, V2={n2,n3}, V3={n3,n1}; 3 nodes), or one set per node such as \"n1 n2; n2 n3; n3 n1\"": "conjuntos de votação: \"grid\" (linha e coluna numa grade ⌈√N⌉), \"fpp\" (retas de um plano projetivo finito: N = 7, K = 3; N = 13, K = 4; também 3, 21, 31), \"triangle\" (V1={n1,n2}, V2={n2,n3}, V3={n3,n1}; 3 nós), ou um conjunto por nó como \"n1 n2; n2 n3; n3 n1\"",
	"the n coordinators: \"all\" or a list such as [\"n1\", \"n2\", \"n3\"]":                                                                          "os n coordenadores: \"all\" (todos) ou uma lista como [\"n1\", \"n2\", \"n3\"]",
	"grants needed; 0 means the majority floor(n/2)+1; must be > n/2 and <= n":                                                                        "concessões necessárias; 0 quer dizer a maioria floor(n/2)+1; deve ser > n/2 e <= n",
	"a participant that waited this long without m grants returns them and retries after a random backoff (0s = wait forever)":                        "um participante que esperou este tempo sem m concessões devolve-as e tenta de novo após uma espera aleatória (0s = esperar para sempre)",
	"\"timestamp\": (Lamport timestamp, id), the paper; \"priority\": fixed priorities (the id), the variant the notes show letting two processes in": "\"timestamp\": (timestamp de Lamport, id), o artigo; \"priority\": prioridades fixas (o id), a variante que as notas mostram deixando entrar dois processos",
	"Lamport clocks to start from, such as \"n1=40 n2=33\" (the others start at 0)":                                                                   "valor inicial dos relógios de Lamport, como \"n1=40 n2=33\" (os outros começam em 0)",
	"a process that has not seen the token for this long makes a new one (0s = never); can make two tokens":                                           "um processo que não vê o token há este tempo cria um novo (0s = nunca); pode criar dois tokens",

	// The sections of the notes that presets reproduce (presets --notes).
	"notes 003, \"Algoritmo do Anel 1\": both tables with N = 2":                              "notas 003, \"Algoritmo do Anel 1\": as duas tabelas com N = 2",
	"notes 003, \"Estabilidade\"":                                                             "notas 003, \"Estabilidade\"",
	"notes 002, \"Algoritmo Bully\": the best case, N−2 COORDINATOR":                          "notas 002, \"Algoritmo Bully\": o melhor caso, N−2 COORDINATOR",
	"notes 002, \"Algoritmo do Luís\" and \"Bully vs Luís\"":                                  "notas 002, \"Algoritmo do Luís\" e \"Bully vs Luís\"",
	"notes 003, \"Algoritmo do Anel 2\"":                                                      "notas 003, \"Algoritmo do Anel 2\"",
	"notes 002, \"Eleição em anel por torneio\"":                                              "notas 002, \"Eleição em anel por torneio\"",
	"Maekawa 1985: sets from a finite projective plane (notes 002, \"Algoritmo de Maekawa\")": "Maekawa 1985: conjuntos de um plano projetivo finito (notas 002, \"Algoritmo de Maekawa\")",
	"notes 003, \"Algoritmo do Brigão (Bully)\": the 7-step example":                          "notas 003, \"Algoritmo do Brigão (Bully)\": o exemplo em 7 passos",
	"notes 002, \"Algoritmo Bully\", Exemplo (stages 1–4)":                                    "notas 002, \"Algoritmo Bully\", Exemplo (etapas 1–4)",
	"notes 002, \"Algoritmo de Maekawa\": the deadlock V1={1,2}, V2={2,3}, V3={3,1}":          "notas 002, \"Algoritmo de Maekawa\": o deadlock V1={1,2}, V2={2,3}, V3={3,1}",
	"notes 002, \"Algoritmo de Ricart and Agrawala\", Exemplo (timestamps 41 and 34)":         "notas 002, \"Algoritmo de Ricart and Agrawala\", Exemplo (timestamps 41 e 34)",
	"notes 002, \"Eleição em anel\", Exemplo (ids 17, 24, 1, 28)":                             "notas 002, \"Eleição em anel\", Exemplo (ids 17, 24, 1, 28)",
	"notes 003, quorum: Part1 holds {C1,C2}, C2 restarts, Part2 gets {C2,C3}":                 "notas 003, quórum: Part1 obtém {C1,C2}, C2 reinicia, Part2 obtém {C2,C3}",
	"notes 002, \"Ricart and Agrawala baseado em prioridades\" (two processes enter)":         "notas 002, \"Ricart and Agrawala baseado em prioridades\" (dois processos entram)",

	// Textbook figures: formulas and sources (trace headers, reports, sweeps).
	"3N−1 (one initiator)": "3N−1 (um iniciador)",
	"3: REQUEST, GRANT, RELEASE (none when the coordinator itself enters)": "3: REQUEST, GRANT, RELEASE (nenhuma quando o próprio coordenador entra)",
	electionPart:       ": a parte de ELECTION",
	"0 to N per entry": "0 a N por entrada",
	"1 ELECTION, N−2 COORDINATOR (best case: the second-highest detects)": "1 ELECTION, N−2 COORDINATOR (melhor caso: o segundo maior detecta)",
	"2(N−1) per entry":                                          "2(N−1) por entrada",
	"2N (the maximum starts alone)":                             "2N (o máximo inicia sozinho)",
	"2N PROBE per round":                                        "2N PROBE por rodada",
	"3 per entry (REQUEST, GRANT, RELEASE)":                     "3 por entrada (REQUEST, GRANT, RELEASE)",
	"3(N−1) per entry":                                          "3(N−1) por entrada",
	"3(N−1)/N as counted: the coordinator's own entries cost 0": "3(N−1)/N como contado: as entradas do próprio coordenador custam 0",
	"3(|V|−1) per entry as counted (no message to itself)":      "3(|V|−1) por entrada como contado (nenhuma mensagem a si mesmo)",
	"3N−1 (all start, ids increasing: every id but the maximum dies after one hop)": "3N−1 (todos iniciam, ids crescentes: todo id menos o máximo morre após um salto)",
	"3N−1 (one starter, the maximum's successor)":                                   "3N−1 (um iniciador, o sucessor do máximo)",
	"3n per entry":                                "3n por entrada",
	"3·|V| per entry (the notes)":                 "3·|V| por entrada (as notas)",
	"8N(⌈log₂N⌉+1) PROBE and REPLY + N ELECTED":   "8N(⌈log₂N⌉+1) PROBE e REPLY + N ELECTED",
	"N COLLECT per initiator (N² when all start)": "N COLLECT por iniciador (N² quando todos iniciam)",
	"N ELECTED": "N ELECTED",
	"N(N+1)/2+N (all start, ids decreasing along the ring)":                                                       "N(N+1)/2+N (todos iniciam, ids decrescentes ao longo do anel)",
	"N(N−1)/2 ELECTION, (N−1)(N−2)/2 ANSWER, N−2 COORDINATOR: N²−N−1 (worst case: the lowest detects, or all do)": "N(N−1)/2 ELECTION, (N−1)(N−2)/2 ANSWER, N−2 COORDINATOR: N²−N−1 (pior caso: o menor detecta, ou todos)",
	"N(N−1)/2 ELECTION, N(N−1)/2 ANSWER, N−1 COORDINATOR: N²−1 (all start, nobody crashed)":                       "N(N−1)/2 ELECTION, N(N−1)/2 ANSWER, N−1 COORDINATOR: N²−1 (todos iniciam, ninguém falhou)",
	"P_v = Σ_{k=2m−n}^{n} C(m,k) P^k (1−P)^{m−k}, P = 1−e^(−λ·cs_hold)":                                           "P_v = Σ_{k=2m−n}^{n} C(m,k) P^k (1−P)^{m−k}, P = 1−e^(−λ·cs_hold)",
	"k+2N (one starter k hops before the maximum)":                                                                "k+2N (um iniciador k saltos antes do máximo)",
	"client delay":          "atraso do cliente",
	"synchronisation delay": "atraso de sincronização",
	"Σ hops to the next larger id + N (all start)": "Σ saltos até o próximo id maior + N (todos iniciam)",
	"⌈log₂N⌉+1 rounds":                             "⌈log₂N⌉+1 rodadas",
	"⌈log₂N⌉+1: the iteration by which one source is left (the iteration counter, rounds, goes on while pruning)": "⌈log₂N⌉+1: a iteração em que resta uma só fonte (o contador de iterações, rounds, continua durante a poda)",
	"course notes 002 (comparison table)":                         "notas do curso 002 (tabela comparativa)",
	"Franklin 1982; Santoro 2007, ch. 3":                          "Franklin 1982; Santoro 2007, cap. 3",
	"Hirschberg & Sinclair 1980":                                  "Hirschberg & Sinclair 1980",
	"Lamport 1978; course notes 002":                              "Lamport 1978; notas do curso 002",
	"Maekawa 1985; course notes 003":                              "Maekawa 1985; notas do curso 003",
	"Ricart & Agrawala 1981; course notes 002 (comparison table)": "Ricart & Agrawala 1981; notas do curso 002 (tabela comparativa)",
	"Chang & Roberts 1979; course notes 001 and 004":              "Chang & Roberts 1979; notas do curso 001 e 004",
	"course notes 002 (token ring)":                               "notas do curso 002 (anel com token)",
	"Santoro 2007, ch. 3 (Yo-Yo)":                                 "Santoro 2007, cap. 3 (Yo-Yo)",
}

var esPhrases = map[string]string{
	// Sources of algorithms.
	"course notes, ch. 5 (push variant of Alg. 5.1); Chandra & Toueg 1996":                                                 "apuntes del curso, cap. 5 (variante push del Alg. 5.1); Chandra & Toueg 1996",
	"course notes, Alg. 5.2; Chandra, Hadzilacos & Toueg 1996":                                                             "apuntes del curso, Alg. 5.2; Chandra, Hadzilacos & Toueg 1996",
	"course notes, Alg. 5.3; Aguilera, Chen & Toueg 2000":                                                                  "apuntes del curso, Alg. 5.3; Aguilera, Chen & Toueg 2000",
	"Chandra & Toueg 1996 (P); course notes 002 (detetor de falhas perfeito)":                                              "Chandra & Toueg 1996 (P); apuntes del curso 002 (detetor de falhas perfeito)",
	"course notes, Alg. 5.1; Chandra & Toueg 1996":                                                                         "apuntes del curso, Alg. 5.1; Chandra & Toueg 1996",
	"course notes 003 (Algoritmo do Anel 1); Itai & Rodeh 1990 (randomized); Fokkink 2013, §9.1":                           "apuntes del curso 003 (Algoritmo do Anel 1); Itai & Rodeh 1990 (aleatorizado); Fokkink 2013, §9.1",
	"Garcia-Molina 1982; course notes (algoritmo valentão)":                                                                "Garcia-Molina 1982; apuntes del curso (algoritmo valentão, el abusón)",
	"course notes 003 (Algoritmo do Anel 2)":                                                                               "apuntes del curso 003 (Algoritmo do Anel 2)",
	"Franklin 1982 (CACM 25(5)); Santoro, Design and Analysis of Distributed Algorithms, ch. 3 (Stages); course notes 003": "Franklin 1982 (CACM 25(5)); Santoro, Design and Analysis of Distributed Algorithms, cap. 3 (Stages); apuntes del curso 003",
	"Hirschberg & Sinclair 1980 (CACM 23(11)); course notes 002 (eleição em anel por torneio)":                             "Hirschberg & Sinclair 1980 (CACM 23(11)); apuntes del curso 002 (eleição em anel por torneio)",
	"course notes 002 (Algoritmo do \"Luís\"); Chandra & Toueg 1996 (P)":                                                   "apuntes del curso 002 (Algoritmo do \"Luís\"); Chandra & Toueg 1996 (P)",
	"Ongaro & Ousterhout 2014 (§5.2, election only, no log)":                                                               "Ongaro & Ousterhout 2014 (§5.2, solo la elección, sin log)",
	"Chang & Roberts 1979 (CACM 22(5)); course notes 001 and 004 (algoritmo de anel)":                                      "Chang & Roberts 1979 (CACM 22(5)); apuntes del curso 001 y 004 (algoritmo de anel)",
	"course notes 003 (Estabilidade); Garcia-Molina 1982":                                                                  "apuntes del curso 003 (Estabilidade); Garcia-Molina 1982",
	"Santoro, Design and Analysis of Distributed Algorithms (2007), ch. 3 (Yo-Yo); course notes 003":                       "Santoro, Design and Analysis of Distributed Algorithms (2007), cap. 3 (Yo-Yo); apuntes del curso 003",
	"course notes 002 (algoritmo do servidor central) and 003 (Coordenador, Lidando com Falhas)":                           "apuntes del curso 002 (algoritmo do servidor central) y 003 (Coordenador, Lidando com Falhas)",
	"Lamport 1978 (CACM 21(7)), section on mutual exclusion":                                                               "Lamport 1978 (CACM 21(7)), sección sobre exclusión mutua",
	"Maekawa 1985 (ACM TOCS 3(2)); course notes 002 (algoritmo de Maekawa)":                                                "Maekawa 1985 (ACM TOCS 3(2)); apuntes del curso 002 (algoritmo de Maekawa)",
	"course notes 003 (Quórum, Perda de memória)":                                                                          "apuntes del curso 003 (Quórum, Perda de memória)",
	"Ricart & Agrawala 1981 (CACM 24(1)); Lamport 1978 timestamps; course notes 002":                                       "Ricart & Agrawala 1981 (CACM 24(1)); timestamps de Lamport 1978; apuntes del curso 002",
	"course notes 002 (algoritmo baseado em anel) and 003 (Anel, Lidando com Falhas)":                                      "apuntes del curso 002 (algoritmo baseado em anel) y 003 (Anel, Lidando com Falhas)",

	// Parameter docs.
	"heartbeat period": "período de los heartbeats",
	"initial timeout per peer after its last heartbeat":                                                                                                                       "timeout inicial por par tras su último heartbeat",
	"Δ: growth of a peer's timeout after a false suspicion of it":                                                                                                             "Δ: cuánto crece el timeout de un par tras una falsa sospecha sobre él",
	"the ◊P detector composed: \"heartbeat\" (heartbeat-dp) or \"pull\" (pull-dp, Alg. 5.1)":                                                                                  "el detector ◊P usado debajo: \"heartbeat\" (heartbeat-dp) o \"pull\" (pull-dp, Alg. 5.1)",
	"heartbeat period, or pull's initial monitoring interval":                                                                                                                 "período de los heartbeats, o el intervalo de monitoreo inicial de pull",
	"heartbeat only: initial timeout per peer after its last heartbeat":                                                                                                       "solo con heartbeat: timeout inicial por par tras su último heartbeat",
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
	"true: a process whose timeout declared the coordinator failed sends it no ELECTION; the highest one alive elects itself at once (the notes' best case, N−2 COORDINATOR)": "true: un proceso cuyo timeout declaró caído al coordinador no le envía ELECTION; el mayor vivo se elige de inmediato (el mejor caso de los apuntes, N−2 COORDINATOR)",
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
	"the coordinator reclaims a grant held this long (0s = never); a slow holder then shares the critical section":                   "el coordinador recupera una concesión retenida este tiempo (0s = nunca); un poseedor lento comparte entonces la sección crítica",
	"requests per second per node made by the generator (exponential gaps from the node's seeded source); 0 turns the generator off": "pedidos por segundo por nodo hechos por el generador (intervalos exponenciales de la fuente aleatoria con semilla del nodo); 0 apaga el generador",
	"per second": "por segundo",
	"how long a process stays in the critical section once it enters":            "cuánto tiempo un proceso permanece en la sección crítica una vez que entra",
	"add INQUIRE, RELINQUISH and FAILED, with queues ordered by (timestamp, id)": "añade INQUIRE, RELINQUISH y FAILED, con colas ordenadas por (timestamp, id)",
	"voting sets: \"grid\" (row and column in a ⌈√N⌉ grid), \"fpp\" (lines of a finite projective plane: N = 7, K = 3; N = 13, K = 4; also 3, 21, 31), \"triangle\" (V1={n1,n2}, V2={n2,n3}, V3={n3,n1}; 3 nodes), or one set per node such as \"n1 n2; n2 n3; n3 n1\"": "conjuntos de votación: \"grid\" (fila y columna en una cuadrícula ⌈√N⌉), \"fpp\" (rectas de un plano proyectivo finito: N = 7, K = 3; N = 13, K = 4; también 3, 21, 31), \"triangle\" (V1={n1,n2}, V2={n2,n3}, V3={n3,n1}; 3 nodos), o un conjunto por nodo como \"n1 n2; n2 n3; n3 n1\"",
	"the n coordinators: \"all\" or a list such as [\"n1\", \"n2\", \"n3\"]":                                                                          "los n coordinadores: \"all\" (todos) o una lista como [\"n1\", \"n2\", \"n3\"]",
	"grants needed; 0 means the majority floor(n/2)+1; must be > n/2 and <= n":                                                                        "concesiones necesarias; 0 significa la mayoría floor(n/2)+1; debe ser > n/2 y <= n",
	"a participant that waited this long without m grants returns them and retries after a random backoff (0s = wait forever)":                        "un participante que esperó este tiempo sin m concesiones las devuelve y reintenta tras una espera aleatoria (0s = esperar para siempre)",
	"\"timestamp\": (Lamport timestamp, id), the paper; \"priority\": fixed priorities (the id), the variant the notes show letting two processes in": "\"timestamp\": (timestamp de Lamport, id), el artículo; \"priority\": prioridades fijas (el id), la variante que los apuntes muestran dejando entrar a dos procesos",
	"Lamport clocks to start from, such as \"n1=40 n2=33\" (the others start at 0)":                                                                   "valor inicial de los relojes de Lamport, como \"n1=40 n2=33\" (los demás empiezan en 0)",
	"a process that has not seen the token for this long makes a new one (0s = never); can make two tokens":                                           "un proceso que no ve el token desde hace este tiempo crea uno nuevo (0s = nunca); puede crear dos tokens",

	// The sections of the notes that presets reproduce (presets --notes).
	"notes 003, \"Algoritmo do Anel 1\": both tables with N = 2":                              "apuntes 003, \"Algoritmo do Anel 1\": las dos tablas con N = 2",
	"notes 003, \"Estabilidade\"":                                                             "apuntes 003, \"Estabilidade\" (estabilidad)",
	"notes 002, \"Algoritmo Bully\": the best case, N−2 COORDINATOR":                          "apuntes 002, \"Algoritmo Bully\": el mejor caso, N−2 COORDINATOR",
	"notes 002, \"Algoritmo do Luís\" and \"Bully vs Luís\"":                                  "apuntes 002, \"Algoritmo do Luís\" y \"Bully vs Luís\"",
	"notes 003, \"Algoritmo do Anel 2\"":                                                      "apuntes 003, \"Algoritmo do Anel 2\"",
	"notes 002, \"Eleição em anel por torneio\"":                                              "apuntes 002, \"Eleição em anel por torneio\" (elección en anillo por torneo)",
	"Maekawa 1985: sets from a finite projective plane (notes 002, \"Algoritmo de Maekawa\")": "Maekawa 1985: conjuntos de un plano proyectivo finito (apuntes 002, \"Algoritmo de Maekawa\")",
	"notes 003, \"Algoritmo do Brigão (Bully)\": the 7-step example":                          "apuntes 003, \"Algoritmo do Brigão (Bully)\": el ejemplo en 7 pasos",
	"notes 002, \"Algoritmo Bully\", Exemplo (stages 1–4)":                                    "apuntes 002, \"Algoritmo Bully\", Exemplo (etapas 1–4)",
	"notes 002, \"Algoritmo de Maekawa\": the deadlock V1={1,2}, V2={2,3}, V3={3,1}":          "apuntes 002, \"Algoritmo de Maekawa\": el deadlock V1={1,2}, V2={2,3}, V3={3,1}",
	"notes 002, \"Algoritmo de Ricart and Agrawala\", Exemplo (timestamps 41 and 34)":         "apuntes 002, \"Algoritmo de Ricart and Agrawala\", Exemplo (timestamps 41 y 34)",
	"notes 002, \"Eleição em anel\", Exemplo (ids 17, 24, 1, 28)":                             "apuntes 002, \"Eleição em anel\", Exemplo (ids 17, 24, 1, 28)",
	"notes 003, quorum: Part1 holds {C1,C2}, C2 restarts, Part2 gets {C2,C3}":                 "apuntes 003, quórum: Part1 obtiene {C1,C2}, C2 se reinicia, Part2 obtiene {C2,C3}",
	"notes 002, \"Ricart and Agrawala baseado em prioridades\" (two processes enter)":         "apuntes 002, \"Ricart and Agrawala baseado em prioridades\" (entran dos procesos)",

	// Textbook figures: formulas and sources (trace headers, reports, sweeps).
	"3N−1 (one initiator)": "3N−1 (un iniciador)",
	"3: REQUEST, GRANT, RELEASE (none when the coordinator itself enters)": "3: REQUEST, GRANT, RELEASE (ninguno cuando entra el propio coordinador)",
	electionPart:       ": la parte de ELECTION",
	"0 to N per entry": "0 a N por entrada",
	"1 ELECTION, N−2 COORDINATOR (best case: the second-highest detects)": "1 ELECTION, N−2 COORDINATOR (mejor caso: detecta el segundo mayor)",
	"2(N−1) per entry":                                          "2(N−1) por entrada",
	"2N (the maximum starts alone)":                             "2N (el máximo inicia solo)",
	"2N PROBE per round":                                        "2N PROBE por ronda",
	"3 per entry (REQUEST, GRANT, RELEASE)":                     "3 por entrada (REQUEST, GRANT, RELEASE)",
	"3(N−1) per entry":                                          "3(N−1) por entrada",
	"3(N−1)/N as counted: the coordinator's own entries cost 0": "3(N−1)/N según se cuenta: las entradas del propio coordinador cuestan 0",
	"3(|V|−1) per entry as counted (no message to itself)":      "3(|V|−1) por entrada según se cuenta (ningún mensaje a sí mismo)",
	"3N−1 (all start, ids increasing: every id but the maximum dies after one hop)": "3N−1 (todos inician, ids crecientes: todo id salvo el máximo muere tras un salto)",
	"3N−1 (one starter, the maximum's successor)":                                   "3N−1 (un iniciador, el sucesor del máximo)",
	"3n per entry":                                "3n por entrada",
	"3·|V| per entry (the notes)":                 "3·|V| por entrada (los apuntes)",
	"8N(⌈log₂N⌉+1) PROBE and REPLY + N ELECTED":   "8N(⌈log₂N⌉+1) PROBE y REPLY + N ELECTED",
	"N COLLECT per initiator (N² when all start)": "N COLLECT por iniciador (N² cuando todos inician)",
	"N ELECTED": "N ELECTED",
	"N(N+1)/2+N (all start, ids decreasing along the ring)":                                                       "N(N+1)/2+N (todos inician, ids decrecientes a lo largo del anillo)",
	"N(N−1)/2 ELECTION, (N−1)(N−2)/2 ANSWER, N−2 COORDINATOR: N²−N−1 (worst case: the lowest detects, or all do)": "N(N−1)/2 ELECTION, (N−1)(N−2)/2 ANSWER, N−2 COORDINATOR: N²−N−1 (peor caso: detecta el menor, o todos)",
	"N(N−1)/2 ELECTION, N(N−1)/2 ANSWER, N−1 COORDINATOR: N²−1 (all start, nobody crashed)":                       "N(N−1)/2 ELECTION, N(N−1)/2 ANSWER, N−1 COORDINATOR: N²−1 (todos inician, nadie cayó)",
	"P_v = Σ_{k=2m−n}^{n} C(m,k) P^k (1−P)^{m−k}, P = 1−e^(−λ·cs_hold)":                                           "P_v = Σ_{k=2m−n}^{n} C(m,k) P^k (1−P)^{m−k}, P = 1−e^(−λ·cs_hold)",
	"k+2N (one starter k hops before the maximum)":                                                                "k+2N (un iniciador k saltos antes del máximo)",
	"client delay":          "retardo del cliente",
	"synchronisation delay": "retardo de sincronización",
	"Σ hops to the next larger id + N (all start)": "Σ saltos hasta el siguiente id mayor + N (todos inician)",
	"⌈log₂N⌉+1 rounds":                             "⌈log₂N⌉+1 rondas",
	"⌈log₂N⌉+1: the iteration by which one source is left (the iteration counter, rounds, goes on while pruning)": "⌈log₂N⌉+1: la iteración en que queda una sola fuente (el contador de iteraciones, rounds, sigue durante la poda)",
	"course notes 002 (comparison table)":                         "apuntes del curso 002 (tabla comparativa)",
	"Franklin 1982; Santoro 2007, ch. 3":                          "Franklin 1982; Santoro 2007, cap. 3",
	"Hirschberg & Sinclair 1980":                                  "Hirschberg & Sinclair 1980",
	"Lamport 1978; course notes 002":                              "Lamport 1978; apuntes del curso 002",
	"Maekawa 1985; course notes 003":                              "Maekawa 1985; apuntes del curso 003",
	"Ricart & Agrawala 1981; course notes 002 (comparison table)": "Ricart & Agrawala 1981; apuntes del curso 002 (tabla comparativa)",
	"Chang & Roberts 1979; course notes 001 and 004":              "Chang & Roberts 1979; apuntes del curso 001 y 004",
	"course notes 002 (token ring)":                               "apuntes del curso 002 (anillo con token)",
	"Santoro 2007, ch. 3 (Yo-Yo)":                                 "Santoro 2007, cap. 3 (Yo-Yo)",
}
